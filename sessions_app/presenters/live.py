"""The room's live updates, rendered once per audience and sent to the sockets that may see them.

When an event commits it is rendered once for each audience that may see it (the GM, the
players, a listed user, the one who rolled) and once for each language and time zone the
room's open pages use; the panels it changed are rendered once per person present. The
finished fragments go to channel-layer groups named for their audience, and each socket
only forwards what its groups bring. A socket that misses a message (a dropped group send,
a reconnect) reads what it missed through :func:`events_frames`, the same renderer.

Spectators (no account, through the table's link) are one more audience, "sp": rendered
once per language and zone their pages use, from a context with no user at all, with only
the events everyone may see and the public side of the panels.

Every audience hears every sequence number: an event it may not see arrives as an empty
fragment, so a socket tells a gap (something was lost) from an event that was not for it.
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

from .. import rooms
from ..kinds.registry import Panel, kind_find
from ..models import GameSession, TimelineEvent
from ..selectors.checks import pending_checks_for
from ..selectors.spectators import spectator_variants
from ..selectors.timeline import present_users, session_last_seq, viewers_present
from ..time_zones import zone_from_cookie
from .room import ROOM_TEMPLATE, panel_partials, room_panels_context
from .spectators import spectator_event_html, spectator_panels_html, spectator_partials

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


def _by_variant(viewers) -> dict[Variant, list[tuple[int, bool]]]:
    grouped: dict[Variant, list[tuple[int, bool]]] = defaultdict(list)
    for user_id, viewer_is_gm, language, zone in viewers:
        grouped[Variant(language, zone)].append((user_id, viewer_is_gm))
    return dict(sorted(grouped.items()))


def _users(ids: Iterable[int]) -> dict:
    ids = set(ids)
    if not ids:
        return {}
    return {user.pk: user for user in get_user_model().objects.filter(pk__in=ids)}


def event_messages(*, event_id: int) -> list[Message]:
    """What carries one committed event, and the panels it changed, to everyone present."""
    event = TimelineEvent.objects.select_related("actor", "session").get(pk=event_id)
    session = event.session
    kind = kind_find(event.kind)
    messages = spectator_event_messages(event=event, kind=kind)
    viewers = viewers_present(session_id=session.pk, table_id=session.table_id)
    if not viewers:
        return messages
    visibility = event.visibility
    listed = (
        set(event.audience.values_list("pk", flat=True))
        if visibility == TimelineEvent.Visibility.USERS
        else set()
    )
    actor_sees_more = kind is not None and kind.actor_sees_more
    players_see = visibility in (
        TimelineEvent.Visibility.EVERYONE,
        TimelineEvent.Visibility.PLAYERS,
    )
    personal_ids = {
        user_id
        for user_id, viewer_is_gm, _language, _zone in viewers
        if not viewer_is_gm
        and (user_id in listed or (actor_sees_more and players_see and user_id == event.actor_id))
    }
    users = _users(personal_ids)
    for variant, present in _by_variant(viewers).items():
        with viewing(variant):
            if any(viewer_is_gm for _user_id, viewer_is_gm in present):
                html = ""
                if visibility != TimelineEvent.Visibility.PLAYERS:
                    html = timeline_fragment([event_html(event, viewer=None, viewer_is_gm=True)])
                messages.append((room_group(session.pk, GM, variant), _event_message(event, html)))
            players = [user_id for user_id, viewer_is_gm in present if not viewer_is_gm]
            if not players:
                continue
            skip = []
            for user_id in players:
                if user_id in personal_ids:
                    html = timeline_fragment(
                        [event_html(event, viewer=users[user_id], viewer_is_gm=False)]
                    )
                    messages.append(
                        (
                            room_group(session.pk, user_audience(user_id), variant),
                            _event_message(event, html),
                        )
                    )
                    skip.append(user_id)
            shared = ""
            if players_see:
                shared = timeline_fragment([event_html(event, viewer=None, viewer_is_gm=False)])
            messages.append(
                (
                    room_group(session.pk, PLAYERS, variant),
                    _event_message(event, shared, skip=skip),
                )
            )
    panels = kind.panels if kind is not None else frozenset()
    if panels:
        messages += panel_messages(session=session, viewers=viewers, panels=panels)
    return messages


def spectator_event_messages(*, event: TimelineEvent, kind) -> list[Message]:
    """The event and the public panels it changed, rendered once per language and zone the
    room's spectators use (an empty fragment when the event is not for everyone)."""
    variants = spectator_variants(session_id=event.session_id)
    if not variants:
        return []
    session = event.session
    panels = kind.panels if kind is not None else frozenset()
    version = session_last_seq(session_id=session.pk) if spectator_partials(panels) else 0
    messages: list[Message] = []
    for language, zone in variants:
        variant = Variant(language, zone)
        group = room_group(session.pk, SPECTATORS, variant)
        with viewing(variant):
            html = spectator_event_html(event)
            messages.append(
                (group, _event_message(event, timeline_fragment([html]) if html else ""))
            )
            if version:
                panels_message = {
                    "type": "room.panels",
                    "version": version,
                    "html": spectator_panels_html(session, panels),
                }
                messages.append((group, panels_message))
    return messages


def _event_message(event: TimelineEvent, html: str, *, skip: list[int] | None = None) -> dict:
    message = {"type": "room.event", "seq": event.seq, "html": html}
    if skip:
        # These users' sockets get their own rendering of the event from their own group.
        message["skip"] = skip
    return message


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
    """The room partials of these panels for this viewer, each ready to swap out of band."""
    names = panel_partials(panels, viewer_is_gm)
    if not names:
        return ""
    context = {**room_panels_context(session, user, viewer_is_gm), "oob": True}
    return "".join(render_to_string(f"{ROOM_TEMPLATE}#{name}", context) for name in names)


def panel_messages(*, session: GameSession, viewers, panels: Iterable[Panel]) -> list[Message]:
    """The changed panels, rendered once for each person present (and their variant).

    Each carries the sequence number read before it was rendered: a socket keeps the panel
    with the highest, so one rendered earlier but delivered later never wins.
    """
    panels = frozenset(panels)
    version = session_last_seq(session_id=session.pk)
    users = _users(user_id for user_id, *_rest in viewers)
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


def presence_messages(*, session_id: int) -> list[Message]:
    """Who is in the room, rendered once per variant for everyone there (the page marks
    its own viewer)."""
    session = GameSession.objects.filter(pk=session_id).only("table_id").first()
    if session is None:
        return []
    viewers = viewers_present(session_id=session_id, table_id=session.table_id)
    messages: list[Message] = []
    for variant, present in _by_variant(viewers).items():
        with viewing(variant):
            message = {"type": "room.presence", "html": presence_html(session_id)}
        for role in {GM if viewer_is_gm else PLAYERS for _user_id, viewer_is_gm in present}:
            messages.append((room_group(session_id, role, variant), message))
    return messages


def match_list_html(boards_html: Iterable[str]) -> str:
    return render_to_string(
        f"{ROOM_TEMPLATE}#match-list", {"match_boards": list(boards_html), "oob": True}
    )


def board_messages(*, session_id: int, board_id: int) -> list[Message]:
    """One board changed: each person present gets it as their seat (or a spectator) sees it,
    rendered once per seat and variant, with the whole list for a page that shows another
    set of boards (one started or ended)."""
    session = GameSession.objects.filter(pk=session_id).only("table_id").first()
    if session is None:
        return []
    viewers = viewers_present(session_id=session_id, table_id=session.table_id)
    if not viewers:
        return []
    registered = rooms.boards()
    shown = list(registered.on_show(session_id))
    shown_ids = [board.pk for board in shown]
    users = _users(user_id for user_id, *_rest in viewers)
    rendered: dict[tuple, tuple[str, str]] = {}
    messages: list[Message] = []
    for user_id, _viewer_is_gm, language, zone in viewers:
        user = users.get(user_id)
        if user is None:
            continue
        variant = Variant(language, zone)
        seats = tuple(registered.audience(board, user) for board in shown)
        key = (variant, seats)
        if key not in rendered:
            with viewing(variant):
                boards_html = [registered.render(board, user) for board in shown]
                changed = next(
                    (
                        html
                        for board, html in zip(shown, boards_html, strict=True)
                        if board.pk == board_id
                    ),
                    "",
                )
                rendered[key] = (changed, match_list_html(boards_html))
        changed, whole = rendered[key]
        messages.append(
            (
                room_group(session_id, user_audience(user_id), variant),
                {
                    "type": "room.board",
                    "board_id": board_id,
                    "shown": shown_ids,
                    "html": changed,
                    "list_html": whole,
                },
            )
        )
    return messages
