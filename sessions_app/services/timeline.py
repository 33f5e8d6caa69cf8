"""The timeline: appending events, chat lines and presence in the session room.

Events are announced to the room only once the transaction that appended them has
committed, so a rolled-back action is never broadcast.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ..kinds.registry import payload_check
from ..models import GameSession, Phase, Presence, TimelineEvent

logger = logging.getLogger(__name__)


_PENDING_SENDS: set[asyncio.Task] = set()
SEND_TIMEOUT = 2.0


async def send_all_async(layer, messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) at once from inside the event loop; failures are logged.

    A channel layer that hangs (Redis stalled rather than down) must not hold whoever sent:
    each send gives up after SEND_TIMEOUT, and the sockets catch up by sequence number.
    """
    results = await asyncio.gather(
        *(
            asyncio.wait_for(layer.group_send(group, message), timeout=SEND_TIMEOUT)
            for group, message in messages
        ),
        return_exceptions=True,
    )
    for result in results:
        if isinstance(result, BaseException):
            logger.warning("Broadcast to the room failed: %r", result)


def send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) through the channel layer, all at once.

    A send that fails is logged, not raised: what it announces has committed, and every
    socket notices the gap (with the next event, or when the room goes quiet) and reads it.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_each():
        await send_all_async(layer, messages)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        # A view or a consumer's database work, in a worker thread of the server: the sends
        # run on the server's event loop while this thread waits, as Channels documents.
        try:
            async_to_sync(send_each)()
        except Exception as error:
            logger.warning("Broadcast to the room failed: %r", error)
        return
    # A caller already inside an event loop (a script, a test driving a browser) cannot
    # block on it.
    task = loop.create_task(send_each())
    _PENDING_SENDS.add(task)
    task.add_done_callback(_PENDING_SENDS.discard)


def broadcast(group: str, message: dict) -> None:
    """Send one message to a channel-layer group (see send_all)."""
    send_all([(group, message)])


# The room's renderer, set by the app once it is ready: the services layer announces what
# committed, and the presentation layer decides what each audience is sent.
_ANNOUNCERS: dict[str, Callable[..., None]] = {}


def announcers_set(**announcers: Callable[..., None]) -> None:
    """Name the functions that announce an "event" or a "board" that committed."""
    _ANNOUNCERS.update(announcers)


def announce(what: str, **ids) -> None:
    """Announce a committed change to the room; a failure is logged, never raised, since
    the change itself is stored and the sockets catch up by sequence number."""
    announcer = _ANNOUNCERS.get(what)
    if announcer is None:
        return
    try:
        announcer(**ids)
    except Exception:
        logger.exception("Announcing %s %r to the room failed", what, ids)


def announce_on_commit(what: str, **ids) -> None:
    """Announce once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: announce(what, **ids))


def _next_seq(session: GameSession) -> int:
    """Take the session's next sequence number in one statement.

    The UPDATE locks the session row until the transaction ends (on PostgreSQL; SQLite has
    one writer at a time anyway), so concurrent appends get distinct, gapless numbers; the
    new number comes back with RETURNING and is set on `session`.
    """
    session.last_seq = F("last_seq") + 1
    session.save(update_fields=["last_seq"])
    return session.last_seq


def timeline_append(
    *,
    session: GameSession,
    kind: str,
    actor=None,
    payload: dict | None = None,
    visibility: str = TimelineEvent.Visibility.EVERYONE,
    audience: Iterable = (),
    allow_closed: bool = False,
) -> TimelineEvent:
    """Append one event to the session's timeline and announce it once committed.

    The session row is locked while the next sequence number is taken, so concurrent
    appends (from any process) get distinct, gapless numbers in commit order.
    A closed session's record is read-only: only `allow_closed` callers (sign-off,
    corrections of experience) may still add to it. A kind nobody registered, or a payload
    without the shape its kind declares, raises before anything is written.
    """
    if session.phase == Phase.CLOSED and not allow_closed:
        raise ValidationError(_("This session is closed: its record is read-only."))
    audience = list(audience)
    if visibility == TimelineEvent.Visibility.USERS and not audience:
        raise ValidationError(_("An event for listed users needs at least one user."))
    payload_check(kind, payload or {})
    with transaction.atomic(savepoint=False):
        seq = _next_seq(session)
        event = TimelineEvent.objects.create(
            session_id=session.pk,
            seq=seq,
            kind=kind,
            actor=actor,
            payload=payload or {},
            visibility=visibility,
        )
        if audience:
            event.audience.set(audience)
        announce_on_commit("event", event_id=event.pk)
    return event


def presence_enter(
    *, session_id: int, user, channel_name: str, language: str = "", time_zone: str = ""
) -> None:
    """Record an open socket of `user` in the room, and the language and zone its page is in."""
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "session_id": session_id,
            "user": user,
            "language": language,
            "time_zone": time_zone,
        },
    )


def presence_seen(*, channel_name: str) -> None:
    """Note that a socket is still alive (the page pings every minute)."""
    Presence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def presence_leave(*, channel_name: str) -> None:
    """Forget a closed socket."""
    Presence.objects.filter(channel_name=channel_name).delete()
