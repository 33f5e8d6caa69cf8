"""Reads of the timeline: what a viewer may see, what came after a sequence number, who is here."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from ..models import (
    GameSession,
    Membership,
    Presence,
    TimelineEvent,
)


def session_last_seq(*, session_id: int) -> int:
    return GameSession.objects.filter(pk=session_id).values_list("last_seq", flat=True).first() or 0


def visible_events(*, session_id: int, user, is_gm: bool) -> QuerySet[TimelineEvent]:
    """Return the session's events this user may see, in order.

    The filter runs in the database so that hidden events are never loaded for rendering.
    """
    events = TimelineEvent.objects.filter(session_id=session_id)
    if is_gm:
        # The GM sees the full event instead of its redacted twin.
        events = events.exclude(visibility=TimelineEvent.Visibility.PLAYERS)
    else:
        listed_for_user = TimelineEvent.audience.through.objects.filter(user=user).values(
            "timelineevent_id"
        )
        events = events.filter(
            Q(
                visibility__in=[
                    TimelineEvent.Visibility.EVERYONE,
                    TimelineEvent.Visibility.PLAYERS,
                ]
            )
            | Q(visibility=TimelineEvent.Visibility.USERS, pk__in=listed_for_user)
        )
    return events.select_related("actor").order_by("seq")


def events_after(
    *, session_id: int, user, is_gm: bool, after_seq: int, up_to_seq: int | None = None
):
    """Return the visible events numbered above `after_seq` (and up to `up_to_seq`)."""
    events = visible_events(session_id=session_id, user=user, is_gm=is_gm).filter(seq__gt=after_seq)
    if up_to_seq is not None:
        events = events.filter(seq__lte=up_to_seq)
    return events


ROOM_EVENT_LIMIT = 40


def recent_events(
    *,
    session_id: int,
    user,
    is_gm: bool,
    limit: int = ROOM_EVENT_LIMIT,
    before_seq: int | None = None,
) -> tuple[list[TimelineEvent], bool]:
    """Return the last `limit` visible events (before `before_seq`), oldest first, and
    whether earlier ones exist: a page shows a long session's latest lines, not all of it."""
    events = visible_events(session_id=session_id, user=user, is_gm=is_gm)
    if before_seq is not None:
        events = events.filter(seq__lt=before_seq)
    found = list(events.order_by("-seq")[: limit + 1])
    return list(reversed(found[:limit])), len(found) > limit


PRESENCE_TIMEOUT = datetime.timedelta(minutes=3)


def present_users(*, session_id: int) -> list:
    """Return the users with at least one live socket in the room, by name."""
    seen = {}
    fresh_since = timezone.now() - PRESENCE_TIMEOUT
    presences = Presence.objects.filter(session_id=session_id, last_seen__gte=fresh_since)
    for presence in presences.select_related("user"):
        seen.setdefault(presence.user_id, presence.user)
    return sorted(seen.values(), key=lambda user: user.get_username().lower())


def viewers_present(*, session_id: int, table_id: int) -> list[tuple[int, bool, str, str]]:
    """(user id, is GM, language, time zone) of every open socket's page in the room, once each.

    Only current members count: a person removed from the table stops being rendered for
    at once, whatever their sockets still hold open.
    """
    rows = (
        Presence.objects.filter(
            session_id=session_id,
            user__memberships__table_id=table_id,
        )
        .values_list("user_id", "user__memberships__role", "language", "time_zone")
        .distinct()
    )
    gm = Membership.Role.GM
    return sorted({(user_id, role == gm, language, zone) for user_id, role, language, zone in rows})


def dice_roots(*, session_id: int) -> list[dict]:
    """The session's published dice commitments, the first of each batch (a later one
    cannot replace it), as {"epoch", "root"} in order. Every viewer may see them."""
    roots: dict[int, str] = {}
    commits = TimelineEvent.objects.filter(session_id=session_id, kind="dice_committed")
    for payload in commits.order_by("seq").values_list("payload", flat=True):
        roots.setdefault(payload.get("epoch"), payload.get("root"))
    return [{"epoch": epoch, "root": root} for epoch, root in roots.items()]
