"""The pieces of the room's live updates: audiences, variants, lines, panels and frames.

The live wing (sessions_app/live/render.py) puts them together: when an event commits it is
rendered once for each audience that may see it (the GM, the players, a listed user, the
one who rolled) and each language and time zone the room's open pages use; the panels it
changed are rendered once per person present (`panel_messages`). The finished fragments go
to channel-layer groups named for their audience (`room_group`), and each socket only
forwards what its groups bring. A socket that misses a message (a dropped group send, a
reconnect) reads what it missed through :func:`events_frames`, the same renderer.

Spectators (no account, through the table's link) are one more audience, "sp": rendered
once per language and zone their pages use, from a context with no user at all, with only
the events everyone may see and the public side of the panels.
"""

from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import timezone, translation

from ..kinds.registry import Panel
from ..models import GameSession, TimelineEvent
from ..selectors.checks import pending_checks_for
from ..selectors.timeline import present_users, session_last_seq
from ..time_zones import zone_from_cookie
from .panels import member_panels_html
from .room import ROOM_TEMPLATE

GM = "gm"
PLAYERS = "pl"
# Spectators through the table's link: no account, only what everyone may see.
SPECTATORS = "sp"
# Daphne refuses to send a frame over 1 MiB and closes the socket instead; a catch-up is cut
# well below that, by size (a Japanese character is three bytes), not by a count of events.
FRAME_BYTES = 256 * 1024
TIMELINE_OPEN = '<ol id="timeline-items" hx-swap-oob="beforeend">'
TIMELINE_CLOSE = "</ol>"

Message = tuple[str, dict]


@dataclass(frozen=True, order=True)
class Variant:
    """The language and time zone a page is rendered in."""

    language: str
    time_zone: str = ""  # an IANA name; "" is the server's TIME_ZONE

    @property
    def key(self) -> str:
        zone = re.sub(r"[^A-Za-z0-9_-]", "_", self.time_zone) or "server"
        return f"{self.language or 'default'}.{zone}"


@contextlib.contextmanager
def viewing(variant: Variant) -> Iterator[None]:
    """Render in this variant's language and time zone."""
    with (
        translation.override(variant.language or None),
        timezone.override(zone_from_cookie(variant.time_zone)),
    ):
        yield


def room_group(session_id: int, audience: str, variant: Variant) -> str:
    return f"room.{session_id}.{audience}.{variant.key}"


def user_audience(user_id: int) -> str:
    return f"u{user_id}"


def user_sockets_group(user_id: int) -> str:
    """Every open room socket of one user, whatever the table: signing out closes them."""
    return f"user.{user_id}"


def socket_groups(*, session_id: int, user_id: int, viewer_is_gm: bool, variant: Variant):
    """The audience groups one socket joins: its role's and its user's, in its variant."""
    role = GM if viewer_is_gm else PLAYERS
    return [
        room_group(session_id, role, variant),
        room_group(session_id, user_audience(user_id), variant),
    ]


# --- The timeline ---------------------------------------------------------------------


def event_html(event: TimelineEvent, *, viewer, viewer_is_gm: bool) -> str:
    """One timeline line as this viewer's page shows it."""
    return render_to_string(
        f"{ROOM_TEMPLATE}#event",
        {"event": event, "viewer": viewer, "viewer_is_gm": viewer_is_gm},
    )


def timeline_fragment(lines: Iterable[str]) -> str:
    return TIMELINE_OPEN + "".join(lines) + TIMELINE_CLOSE


def in_frames(pieces: Iterable[str]) -> list[list[str]]:
    """Consecutive runs of `pieces`, each run under FRAME_BYTES (a piece alone may be more);
    always at least one run, empty when there are no pieces."""
    frames: list[list[str]] = [[]]
    size = 0
    for piece in pieces:
        piece_size = len(piece.encode())
        if frames[-1] and size + piece_size > FRAME_BYTES:
            frames.append([])
            size = 0
        frames[-1].append(piece)
        size += piece_size
    return frames


def events_frames(events: Iterable[TimelineEvent], *, viewer, viewer_is_gm: bool) -> list[str]:
    """These events for this viewer, packed into as few frames as fit under FRAME_BYTES."""
    lines = (event_html(event, viewer=viewer, viewer_is_gm=viewer_is_gm) for event in events)
    return [timeline_fragment(part) for part in in_frames(lines) if part]


def by_variant(viewers) -> dict[Variant, list[tuple[int, bool]]]:
    grouped: dict[Variant, list[tuple[int, bool]]] = defaultdict(list)
    for user_id, viewer_is_gm, language, zone in viewers:
        grouped[Variant(language, zone)].append((user_id, viewer_is_gm))
    return dict(sorted(grouped.items()))


def users_by_id(ids: Iterable[int]) -> dict:
    ids = set(ids)
    if not ids:
        return {}
    return {user.pk: user for user in get_user_model().objects.filter(pk__in=ids)}


# --- The panels -----------------------------------------------------------------------


def check_key(request, mode: str) -> str:
    return f"{request.pk}-{mode}-{request.status}"


def check_items(session: GameSession, user, viewer_is_gm: bool) -> list[tuple[str, str]]:
    """The open checks this viewer sees, each as (key, its list item)."""
    context = {"session": session, "viewer": user, "viewer_is_gm": viewer_is_gm}
    return [
        (
            check_key(request, mode),
            render_to_string(
                "sessions_app/_check_item.html", {**context, "request": request, "mode": mode}
            ),
        )
        for request, mode in pending_checks_for(
            session_id=session.pk, user=user, is_gm=viewer_is_gm
        )
    ]


def panels_html(session: GameSession, user, viewer_is_gm: bool, panels: Iterable[Panel]) -> str:
    """The partials of these panels for this viewer, each ready to swap out of band."""
    return member_panels_html(session, user, viewer_is_gm, panels)


def panel_messages(*, session: GameSession, viewers, panels: Iterable[Panel]) -> list[Message]:
    """The changed panels, rendered once for each person present (and their variant).

    Each carries the sequence number read before it was rendered: a socket keeps the panel
    with the highest, so one rendered earlier but delivered later never wins.
    """
    panels = frozenset(panels)
    version = session_last_seq(session_id=session.pk)
    users = users_by_id(user_id for user_id, *_rest in viewers)
    messages: list[Message] = []
    for user_id, viewer_is_gm, language, zone in viewers:
        variant = Variant(language, zone)
        user = users.get(user_id)
        if user is None:
            continue
        with viewing(variant):
            message = {
                "type": "room.panels",
                "version": version,
                "html": panels_html(session, user, viewer_is_gm, panels),
            }
            if Panel.CHECKS in panels:
                message["checks"] = check_items(session, user, viewer_is_gm)
        messages.append((room_group(session.pk, user_audience(user_id), variant), message))
    return messages


# --- Presence and boards --------------------------------------------------------------


def presence_html(session_id: int, *, viewer=None) -> str:
    return render_to_string(
        f"{ROOM_TEMPLATE}#presence",
        {"present": present_users(session_id=session_id), "viewer": viewer, "oob": True},
    )


def match_list_html(boards_html: Iterable[str]) -> str:
    return render_to_string(
        f"{ROOM_TEMPLATE}#match-list", {"match_boards": list(boards_html), "oob": True}
    )
