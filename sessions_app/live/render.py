"""Each committed change rendered once per audience and variant, as messages to its groups.

An event is rendered once for each audience that may see it (the players, the GM when it
sees more than they do, a listed user, the owner of a hidden number) and each language and
time zone the room's open pages use (`roster` says which); the panels it changed are
rendered once per person present. Every audience hears every sequence number: an event it
may not see arrives as an empty fragment, so a socket tells a gap (something was lost) from
an event that was not for it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import rooms
from ..kinds.registry import EventDelivery, Panel, event_delivery
from ..models import GameSession, TimelineEvent
from ..presenters.live import (
    GM,
    PLAYERS,
    SPECTATORS,
    Message,
    Variant,
    by_variant,
    event_html,
    match_list_html,
    panel_messages,
    presence_html,
    room_group,
    timeline_fragment,
    user_audience,
    users_by_id,
    viewing,
)
from ..presenters.panels import (
    all_shared,
    shared_panels_html,
    spectator_panels_html,
    spectator_partials,
)
from ..presenters.spectators import spectator_event_html, spectator_viewer
from ..selectors.timeline import session_last_seq
from . import roster


def _fresh(session: GameSession) -> GameSession:
    """The session as committed: panels show its state now, not the appending service's copy."""
    return GameSession.objects.select_related("table", "rules_profile").get(pk=session.pk)


def _fresh_or_none(session_id: int) -> GameSession | None:
    sessions = GameSession.objects.select_related("table", "rules_profile")
    return sessions.filter(pk=session_id).first()


def event_messages(*, event: TimelineEvent) -> list[Message]:
    """What carries one committed event, and the panels it changed, to everyone present.

    The event is the one the service appended (its session and actor attached): it is not
    read again.
    """
    session = event.session
    delivery = event_delivery(event.kind, event.payload)
    spectators = roster.spectators(session_id=session.pk)
    viewers = roster.viewers(session_id=session.pk, table_id=session.table_id)
    messages = spectator_event_messages(event=event, panels=delivery.panels, variants=spectators)
    if not viewers:
        return messages
    messages += _line_messages(event, delivery, viewers)
    panels = delivery.panels
    if panels and all_shared(panels):
        messages += shared_panel_messages(session=_fresh(session), viewers=viewers, panels=panels)
    elif panels:
        messages += panel_messages(session=_fresh(session), viewers=viewers, panels=panels)
    return messages


def _line_messages(event: TimelineEvent, delivery: EventDelivery, viewers) -> list[Message]:
    """The event's line for the room's members present, once per audience and variant."""
    messages: list[Message] = []
    visibility = event.visibility
    listed = (
        set(event.audience.values_list("pk", flat=True))
        if visibility == TimelineEvent.Visibility.USERS
        else set()
    )
    players_see = visibility in (
        TimelineEvent.Visibility.EVERYONE,
        TimelineEvent.Visibility.PLAYERS,
    )
    # The owners of a hidden resource the event moved read its numbers; the other players
    # share a rendering without them.
    owners = delivery.owners if players_see else frozenset()
    personal_ids = {
        user_id
        for user_id, viewer_is_gm, _language, _zone in viewers
        if not viewer_is_gm and (user_id in listed or user_id in owners)
    }
    users = users_by_id(personal_ids)
    # A line the GM sees as the players do is rendered once for both.
    gm_shares = visibility == TimelineEvent.Visibility.EVERYONE and not delivery.gm_sees_more
    for variant, present in by_variant(viewers).items():
        gm_present = any(viewer_is_gm for _user_id, viewer_is_gm in present)
        players = [user_id for user_id, viewer_is_gm in present if not viewer_is_gm]
        with viewing(variant):
            shared = ""
            if players_see and (players or gm_present and gm_shares):
                shared = timeline_fragment([event_html(event, viewer=None, viewer_is_gm=False)])
            if gm_present:
                html = ""
                if gm_shares:
                    html = shared
                elif visibility != TimelineEvent.Visibility.PLAYERS:
                    html = timeline_fragment([event_html(event, viewer=None, viewer_is_gm=True)])
                messages.append(
                    (room_group(event.session_id, GM, variant), _event_message(event, html))
                )
            if not players:
                continue
            personal = [users[user_id] for user_id in players if user_id in personal_ids]
            messages += _personal_messages(event, variant, personal)
            messages.append(
                (
                    room_group(event.session_id, PLAYERS, variant),
                    _event_message(event, shared, skip=[user.pk for user in personal]),
                )
            )
    return messages


def shared_panel_messages(*, session: GameSession, viewers, panels) -> list[Message]:
    """Panels that are the same for everyone: rendered once per variant, for the GM and the
    players alike."""
    version = session_last_seq(session_id=session.pk)
    messages: list[Message] = []
    for variant, present in by_variant(viewers).items():
        with viewing(variant):
            message = {
                "type": "room.panels",
                "version": version,
                "html": shared_panels_html(session, panels),
            }
        for role in {GM if viewer_is_gm else PLAYERS for _user_id, viewer_is_gm in present}:
            messages.append((room_group(session.pk, role, variant), message))
    return messages


def spectator_event_messages(
    *, event: TimelineEvent, panels: frozenset[Panel], variants
) -> list[Message]:
    """The event and the public `panels` it changed, rendered once per language and zone
    the room's spectators use (`variants`; an empty fragment when the event is not for
    everyone)."""
    if not variants:
        return []
    session = event.session
    version = 0
    if spectator_partials(panels):
        version = session_last_seq(session_id=session.pk)
        session = _fresh(session)
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


def _personal_messages(event: TimelineEvent, variant: Variant, users) -> list[Message]:
    """The event for players who see more of it than the others, each in their own group."""
    return [
        (
            room_group(event.session_id, user_audience(user.pk), variant),
            _event_message(
                event, timeline_fragment([event_html(event, viewer=user, viewer_is_gm=False)])
            ),
        )
        for user in users
    ]


def _event_message(event: TimelineEvent, html: str, *, skip: list[int] | None = None) -> dict:
    message = {"type": "room.event", "seq": event.seq, "html": html}
    if skip:
        # These users' sockets get their own rendering of the event from their own group.
        message["skip"] = skip
    return message


def presence_messages(*, session_id: int) -> list[Message]:
    """Who is in the room, rendered once per variant for everyone there (the page marks
    its own viewer)."""
    session = GameSession.objects.filter(pk=session_id).only("table_id").first()
    if session is None:
        return []
    viewers = roster.viewers(session_id=session_id, table_id=session.table_id)
    messages: list[Message] = []
    for variant, present in by_variant(viewers).items():
        with viewing(variant):
            message = {"type": "room.presence", "html": presence_html(session_id)}
        for role in {GM if viewer_is_gm else PLAYERS for _user_id, viewer_is_gm in present}:
            messages.append((room_group(session_id, role, variant), message))
    return messages


def board_messages(
    *, session_id: int, board_id: int, user_ids: Iterable[int] | None = None
) -> list[Message]:
    """One board changed: each person present gets it as their seat (or a spectator) sees it,
    rendered once per seat and variant, with the whole list for a page that shows another
    set of boards (one started or ended). ``user_ids``: only these people are told (a change
    nobody else can see, such as a seat's private setting)."""
    session = GameSession.objects.filter(pk=session_id).only("table_id").first()
    if session is None:
        return []
    viewers = roster.viewers(session_id=session_id, table_id=session.table_id)
    registered = rooms.boards()
    # A change only some seats may see is nothing a spectator is told of.
    messages = spectator_board_messages(session_id=session_id) if user_ids is None else []
    if user_ids is not None:
        only = set(user_ids)
        viewers = [viewer for viewer in viewers if viewer[0] in only]
    if not viewers:
        return messages
    shown = list(registered.on_show(session_id))
    shown_ids = [board.pk for board in shown]
    users = users_by_id(user_id for user_id, *_rest in viewers)
    rendered: dict[tuple, tuple[str, str]] = {}
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


def inbox_messages(*, session_id: int, user_ids: Iterable[int] | None = None) -> list[Message]:
    """The GMs present (of ``user_ids`` when given) get their inbox again: for a change that
    is no event of the session, such as a board's question to a seat they run or growth
    asked between sessions."""
    session = _fresh_or_none(session_id)
    if session is None:
        return []
    viewers = [
        viewer
        for viewer in roster.viewers(session_id=session_id, table_id=session.table_id)
        if viewer[1] and (user_ids is None or viewer[0] in set(user_ids))
    ]
    if not viewers:
        return []
    return panel_messages(session=session, viewers=viewers, panels={Panel.INBOX})


def panels_messages(*, session_id: int, panels: Iterable[Panel]) -> list[Message]:
    """Panels changed by something that is no event of the session (a character's pictures
    edited on its sheet): everyone present gets them again, a spectator their public part."""
    panels = frozenset(panels)
    session = _fresh_or_none(session_id)
    if session is None:
        return []
    messages: list[Message] = []
    if spectator_partials(panels):
        version = session_last_seq(session_id=session_id)
        for language, zone in roster.spectators(session_id=session_id):
            variant = Variant(language, zone)
            with viewing(variant):
                html = spectator_panels_html(session, panels)
            message = {"type": "room.panels", "version": version, "html": html}
            messages.append((room_group(session_id, SPECTATORS, variant), message))
    viewers = roster.viewers(session_id=session_id, table_id=session.table_id)
    if viewers and all_shared(panels):
        messages += shared_panel_messages(session=session, viewers=viewers, panels=panels)
    elif viewers:
        messages += panel_messages(session=session, viewers=viewers, panels=panels)
    return messages


def spectator_board_messages(*, session_id: int) -> list[Message]:
    """The boards as a spectator sees them (nobody's seat: no hand, no hidden plan), the
    whole list rendered once per language and zone the room's spectators use."""
    variants = roster.spectators(session_id=session_id)
    if not variants:
        return []
    registered = rooms.boards()
    shown = list(registered.on_show(session_id))
    viewer = spectator_viewer()
    messages: list[Message] = []
    for language, zone in variants:
        variant = Variant(language, zone)
        with viewing(variant):
            boards_html = [registered.render(board, viewer) for board in shown]
            message = {"type": "room.board", "list_html": match_list_html(boards_html)}
        messages.append((room_group(session_id, SPECTATORS, variant), message))
    return messages
