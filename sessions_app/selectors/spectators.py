"""Reads for spectators: which table a link opens, and what everyone may see of its rooms."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from ..models import GameSession, SpectatorPresence, Table, TimelineEvent
from .timeline import PRESENCE_TIMEOUT


def spectator_table(*, token: str) -> Table | None:
    """The table whose spectator link this is, while it allows spectators; else None."""
    if not token:
        return None
    return Table.objects.filter(spectator_token=token, spectators_allowed=True).first()


# The browser session remembers the spectator links it opened, so the pictures of a watched
# room (faces, the scene's background) load without an account.
SPECTATING_SESSION_KEY = "spectating"
SPECTATING_LINKS_KEPT = 20


def spectator_table_ids(*, tokens) -> set[int]:
    """The tables these spectator links still open (a renewed or stopped link opens none)."""
    tokens = [token for token in tokens or () if isinstance(token, str) and token]
    if not tokens:
        return set()
    return set(
        Table.objects.filter(spectator_token__in=tokens, spectators_allowed=True).values_list(
            "pk", flat=True
        )
    )


def spectator_session(*, token: str, session_id: int) -> GameSession | None:
    """The session of the link's table with this id, while spectating is on; else None."""
    if not token or session_id >= 2**63:
        return None
    return (
        GameSession.objects.select_related("table", "rules_profile")
        .filter(
            pk=session_id,
            table__spectator_token=token,
            table__spectators_allowed=True,
        )
        .first()
    )


def public_events(*, session_id: int) -> QuerySet[TimelineEvent]:
    """The session's events everyone may see (never GM-only, listed or redacted ones)."""
    return (
        TimelineEvent.objects.filter(
            session_id=session_id, visibility=TimelineEvent.Visibility.EVERYONE
        )
        .select_related("actor")
        .order_by("seq")
    )


def spectator_variants(*, session_id: int) -> list[tuple[str, str]]:
    """(language, time zone) of the room's open spectator pages, once each."""
    # A socket its process never closed (a crash) stops counting once its pings stop.
    fresh_since = timezone.now() - PRESENCE_TIMEOUT
    rows = SpectatorPresence.objects.filter(
        session_id=session_id, last_seen__gte=fresh_since
    ).values_list("language", "time_zone")
    return sorted(set(rows))
