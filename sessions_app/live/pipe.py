"""The reads a socket may need, shared: one quiet check per room, one catch-up per audience.

In steady state a socket reads nothing: its events arrive rendered, in order (the consumer
waits a moment for a number that is late). The database is read only

- when a room goes quiet: once per room and process (not per socket), to learn whether
  the session is further on than its sockets (a group message the channel layer dropped);
- after a real loss or a reconnect: the missed events, rendered once for every socket of
  the process that needs the same ones (same session, audience, variant and range).

`shared` runs one read for every caller asking for the same key at about the same time,
and keeps its result for SHARE_SECONDS; a caller says how recent a result it may take.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from channels.db import database_sync_to_async

from ..selectors.timeline import session_last_seq
from . import roster

QUIET_SECONDS = 5.0
QUIET_CHECK_LONGEST = 60.0
SHARE_SECONDS = 2.0


@dataclass
class _Shared:
    task: asyncio.Task | None = None
    # When the read began on the database thread; None while it waits for its turn there.
    started: float | None = None


_shared: dict[Hashable, _Shared] = {}


def now() -> float:
    """The clock `shared` compares with: the same on the loop and on the database thread."""
    return time.monotonic()


async def shared[T](key: Hashable, read: Callable[[], T], *, not_before: float) -> T:
    """The result of `read()` (run on the database thread), once for every caller with the
    same `key`.

    A read that began before `not_before` (`now()`) is not taken: a socket that joined its
    groups at that time must not be handed what was read before it could hear. A read still
    waiting for the database thread has not begun: every socket that joined by the time it
    begins takes it, so a storm of pages opening while the thread is busy shares one read
    per audience instead of starting one for each wave.
    """
    loop = asyncio.get_running_loop()
    entry = _shared.get(key)
    if entry is None or (entry.started is not None and entry.started < not_before):
        entry = _Shared()

        def timed_read():
            entry.started = now()
            return read()

        entry.task = loop.create_task(database_sync_to_async(timed_read)())
        _shared[key] = entry
        entry.task.add_done_callback(lambda task: _forget_later(loop, key, entry))
    # One caller going away (a socket closing) does not cancel the others' read.
    return await asyncio.shield(entry.task)


def _forget_later(loop, key: Hashable, entry: _Shared) -> None:
    failed = entry.task.cancelled() or entry.task.exception() is not None
    loop.call_later(0 if failed else SHARE_SECONDS, _forget, key, entry)


def _forget(key: Hashable, entry: _Shared) -> None:
    if _shared.get(key) is entry:
        del _shared[key]


# --- The quiet check, once per room ---------------------------------------------------

_watches: dict[int, asyncio.Task] = {}


def room_watch(session_id: int) -> None:
    """Keep one quiet check running for the room while this process has sockets in it."""
    if session_id not in _watches:
        _watches[session_id] = asyncio.get_running_loop().create_task(_watch(session_id))


async def _watch(session_id: int) -> None:
    loop = asyncio.get_running_loop()
    delay = QUIET_SECONDS
    checked_at = loop.time()
    try:
        while roster.local_sockets(session_id):
            await asyncio.sleep(delay)
            sockets = [socket for socket in roster.local_sockets(session_id) if socket.follows()]
            now = loop.time()
            quiet = [socket for socket in sockets if now - socket.last_heard >= QUIET_SECONDS]
            spoke = any(socket.last_heard > checked_at for socket in sockets)
            # Soon after the room's last message, then less and less often while it stays
            # quiet; a room where every socket hears its messages is not read at all.
            delay = QUIET_SECONDS if spoke else min(delay * 2, QUIET_CHECK_LONGEST)
            if not quiet:
                continue
            checked_at = now
            session_seq = await database_sync_to_async(session_last_seq)(session_id=session_id)
            for socket in quiet:
                socket.session_is_at(session_seq)
    finally:
        if _watches.get(session_id) is asyncio.current_task():
            del _watches[session_id]
