"""The timeline: appending events, chat lines and presence in the session room.

Each event is handed to the live wing (the `event_committed` signal) only once the
transaction that appended it has committed, so a rolled-back action is never broadcast.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..kinds.registry import payload_check
from ..models import GameSession, Phase, Presence, TimelineEvent
from .signals import event_committed, send_on_commit


def _next_seq(session: GameSession) -> int:
    """Take the session's next sequence number in one statement.

    The UPDATE locks the session row until the transaction ends (on PostgreSQL; SQLite has
    one writer at a time anyway), so concurrent appends get distinct, gapless numbers; the
    new number comes back with RETURNING and is set on `session`. Every event runs this:
    written with the ORM (an F() expression saved) it cost ten times as much CPU to build
    as the statement takes.
    """
    table = connection.ops.quote_name(GameSession._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET last_seq = last_seq + 1 WHERE id = %s RETURNING last_seq",  # noqa: S608
            [session.pk],
        )
        (session.last_seq,) = cursor.fetchone()
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
        # The live wing renders what committed from this very object, without reading it again.
        event.session = session
        send_on_commit(event_committed, event=event)
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
