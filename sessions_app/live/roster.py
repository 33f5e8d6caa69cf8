"""Who is in each room, kept per room in this process while it holds sockets of the room.

Rendering an event needs the room's viewers (who, in which role, language and zone) and
its spectators' variants. A process with sockets in the room keeps both and forgets them
when presence changes: a socket of its own joins or leaves, or the coalesced presence
update of any process reaches one of its sockets. They are read again at the latest after
ROSTER_SECONDS, so a change nobody here heard of (a spectator joining through another
process, a crashed process's sockets timing out) is picked up soon; a socket rendered for
late notices the gap and catches up. A process with no socket in a room reads them each
time (nothing here would tell it that they changed).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from ..selectors.spectators import spectator_variants
from ..selectors.timeline import viewers_present

ROSTER_SECONDS = 2.0

_lock = threading.Lock()


@dataclass
class _Room:
    sockets: set = field(default_factory=set)
    # Raised by every presence change: a read that began before one is not kept.
    generation: int = 0
    viewers: dict[int, tuple[float, list]] = field(default_factory=dict)
    spectator_variants: tuple[float, list] | None = None


_rooms: dict[int, _Room] = {}


def socket_join(session_id: int, socket) -> None:
    """Count one of this process's sockets in the room (and forget who was present)."""
    with _lock:
        room = _rooms.setdefault(session_id, _Room())
        room.sockets.add(socket)
        _forget(room)


def socket_leave(session_id: int, socket) -> None:
    with _lock:
        room = _rooms.get(session_id)
        if room is None:
            return
        room.sockets.discard(socket)
        _forget(room)
        if not room.sockets:
            del _rooms[session_id]


def local_sockets(session_id: int) -> list:
    """This process's sockets in the room."""
    room = _rooms.get(session_id)
    return list(room.sockets) if room is not None else []


def presence_changed(session_id: int) -> None:
    """Someone joined or left the room (here or in another process): read who is there anew."""
    with _lock:
        room = _rooms.get(session_id)
        if room is not None:
            _forget(room)


def _forget(room: _Room) -> None:
    room.generation += 1
    room.viewers.clear()
    room.spectator_variants = None


def _kept(session_id: int, read, get, put):
    room = _rooms.get(session_id)
    if room is None:
        return read()
    now = time.monotonic()
    with _lock:
        found = get(room)
        generation = room.generation
    if found is not None and now - found[0] < ROSTER_SECONDS:
        return found[1]
    value = read()
    with _lock:
        if room.generation == generation:
            put(room, (now, value))
    return value


def viewers(*, session_id: int, table_id: int) -> list[tuple[int, bool, str, str]]:
    """The room's viewers (see selectors.timeline.viewers_present), kept while it has
    sockets here."""

    def put(room, entry):
        room.viewers[table_id] = entry

    return _kept(
        session_id,
        lambda: viewers_present(session_id=session_id, table_id=table_id),
        lambda room: room.viewers.get(table_id),
        put,
    )


def spectators(*, session_id: int) -> list[tuple[str, str]]:
    """The (language, zone) of the room's spectator pages, kept while it has sockets here."""

    def put(room, entry):
        room.spectator_variants = entry

    return _kept(
        session_id,
        lambda: spectator_variants(session_id=session_id),
        lambda room: room.spectator_variants,
        put,
    )
