"""The live panels, declared once: for each `Panel`, the partials that show it to the GM, to
a player and to a spectator, the page they belong to, and how their context is built.

The live updates render a changed panel from here, the pages mark each of its partials with
``{% live_panel %}`` from here (the room's script finds them by that mark), and a reconnect
sends again what is listed here. A `Panel` with no spec fails the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.template.loader import render_to_string

from .. import rooms
from ..kinds.registry import Panel
from ..models import GameSession
from .afterplay import AFTERPLAY_TEMPLATE, afterplay_context
from .inbox import inbox_context
from .room import ROOM_TEMPLATE, room_panels_context
from .spectators import WATCH_TEMPLATE, spectator_panels_context
from .stage import standing_context

ContextBuilder = Callable[[GameSession, object, bool], dict]
SharedContextBuilder = Callable[[GameSession], dict]


def match_list_context(session: GameSession, user, viewer_is_gm: bool) -> dict:
    """The boards on show, each as this viewer's seat (or a watcher) sees it."""
    return {"match_boards": rooms.render_all(session.pk, user)[1]}


@dataclass(frozen=True)
class PanelSpec:
    """What one live panel is made of, for each audience."""

    gm: tuple[str, ...] = ()
    player: tuple[str, ...] = ()
    # Partials of the spectator page; a panel with none has no public side.
    spectator: tuple[str, ...] = ()
    # The page the members' partials belong to, and what they are rendered from.
    template: str = ROOM_TEMPLATE
    context: ContextBuilder = room_panels_context
    # The room's script (static/js/room/live-panels.js) keeps what the viewer typed, chose or
    # opened in these partials when they are swapped; Actics X's boards keep their own plans
    # (static/js/acticsx/board.js), board by board.
    keeps_input: bool = True
    # Sent whole again to a page that missed events; the open checks and the boards have
    # their own catch-up (item by item, and with the board ids the socket follows).
    caught_up: bool = True
    # A panel that is the same for everyone who sees it (built from what everyone may see):
    # when it alone changed, it is rendered once per language from this context and sent to
    # every audience, rather than once per person present.
    shared: SharedContextBuilder | None = None

    def partials(self, viewer_is_gm: bool) -> tuple[str, ...]:
        return self.gm if viewer_is_gm else self.player


PANELS: dict[Panel, PanelSpec] = {
    Panel.STAGE: PanelSpec(
        gm=(
            "afterplay-link",
            "stage",
            "chat-form",
            "roll-box",
            "gm-controls",
            "check-request-form",
            "standing",
        ),
        player=("afterplay-link", "stage", "chat-form", "roll-box", "player-controls", "standing"),
        spectator=("stage", "standing"),
    ),
    Panel.STANDING: PanelSpec(
        gm=("standing",),
        player=("standing",),
        spectator=("standing",),
        context=lambda session, user, viewer_is_gm: standing_context(session),
        keeps_input=False,
        shared=standing_context,
    ),
    # The open checks change item by item (see live.check_items), so that a half-typed
    # modifier survives: no partial is swapped whole.
    Panel.CHECKS: PanelSpec(caught_up=False),
    Panel.HANDOUTS: PanelSpec(
        gm=("gm-controls",), player=("player-controls",), spectator=("handouts",)
    ),
    # The characters taking part, and the forms and voices that choose among them.
    Panel.CAST: PanelSpec(
        gm=(
            "stage",
            "characters",
            "chat-form",
            "roll-box",
            "cast-panel",
            "gm-controls",
            "check-request-form",
            "contest-form",
            "npc-roll-form",
        ),
        player=("stage", "characters", "chat-form", "roll-box", "cast-panel", "player-controls"),
        spectator=("stage", "characters", "cast-panel"),
    ),
    Panel.MATCHES: PanelSpec(
        gm=("match-list",),
        player=("match-list",),
        # The boards as nobody's seat sees them: no hand, no plan not yet revealed.
        spectator=("match-list",),
        context=match_list_context,
        keeps_input=False,
        caught_up=False,
    ),
    # The character panel, and the voices (roll as) that follow who is on stage.
    Panel.CHARACTERS: PanelSpec(
        gm=("characters", "roll-box"),
        player=("characters", "roll-box"),
        spectator=("characters",),
    ),
    # The music every browser loops; the GM's list of sounds and their controls.
    Panel.AUDIO: PanelSpec(
        gm=("scene-audio", "audio-controls"),
        player=("scene-audio",),
        spectator=("scene-audio",),
    ),
    # The tab bar and the chat form's channels for everyone; the GM's list of tabs.
    Panel.CHAT_TABS: PanelSpec(
        gm=("channel-tabs", "chat-form", "chat-tabs-manage"),
        player=("channel-tabs", "chat-form"),
    ),
    Panel.AFTERPLAY: PanelSpec(
        gm=("afterplay",),
        player=("afterplay",),
        template=AFTERPLAY_TEMPLATE,
        context=afterplay_context,
    ),
    # What waits for the GM's answer: the GM's (and a co-GM's) alone, never a player's.
    Panel.INBOX: PanelSpec(gm=("inbox",), context=inbox_context),
}


def _member_parts(panels: Iterable[Panel], viewer_is_gm: bool) -> list[tuple[PanelSpec, str]]:
    """Each partial to send when these panels changed, once, in the table's order."""
    parts: list[tuple[PanelSpec, str]] = []
    seen: set[tuple[str, str]] = set()
    for panel in Panel:
        if panel not in panels:
            continue
        spec = PANELS[panel]
        for name in spec.partials(viewer_is_gm):
            if (spec.template, name) not in seen:
                seen.add((spec.template, name))
                parts.append((spec, name))
    return parts


def member_panels_html(
    session: GameSession, user, viewer_is_gm: bool, panels: Iterable[Panel]
) -> str:
    """The partials of these panels for one member, each ready to swap out of band; each
    context they need is built once, and only for the panels asked for."""
    panels = frozenset(panels)
    contexts: dict[ContextBuilder, dict] = {}
    html: list[str] = []
    for spec, name in _member_parts(panels, viewer_is_gm):
        if spec.context not in contexts:
            contexts[spec.context] = {**spec.context(session, user, viewer_is_gm), "oob": True}
        html.append(render_to_string(f"{spec.template}#{name}", contexts[spec.context]))
    return "".join(html)


def spectator_partials(panels: Iterable[Panel]) -> list[str]:
    panels = frozenset(panels)
    names: list[str] = []
    for panel in Panel:
        if panel in panels:
            for name in PANELS[panel].spectator:
                if name not in names:
                    names.append(name)
    return names


def spectator_panels_html(session: GameSession, panels: Iterable[Panel]) -> str:
    """The spectator page's partials of these panels, each ready to swap out of band."""
    names = spectator_partials(panels)
    if not names:
        return ""
    if all_shared(panels):
        context = {**shared_context(session, panels), "spectator": True}
    else:
        context = {**spectator_panels_context(session), "oob": True}
    return "".join(render_to_string(f"{WATCH_TEMPLATE}#{name}", context) for name in names)


def all_shared(panels: Iterable[Panel]) -> bool:
    """Whether these panels are all the same for everyone (see PanelSpec.shared)."""
    panels = frozenset(panels)
    return bool(panels) and all(PANELS[panel].shared is not None for panel in panels)


def shared_context(session: GameSession, panels: Iterable[Panel]) -> dict:
    context: dict = {"session": session, "oob": True}
    for panel in Panel:
        if panel in panels:
            context.update(PANELS[panel].shared(session))
    return context


def shared_panels_html(session: GameSession, panels: Iterable[Panel]) -> str:
    """The members' partials of panels that are the same for everyone, rendered once."""
    context = shared_context(session, panels)
    return "".join(
        render_to_string(f"{spec.template}#{name}", context)
        for spec, name in _member_parts(frozenset(panels), viewer_is_gm=False)
    )


def member_catch_up_panels() -> tuple[Panel, ...]:
    """What a member's page that missed events gets again whole."""
    return tuple(
        panel for panel, spec in PANELS.items() if spec.caught_up and (spec.gm or spec.player)
    )


def spectator_catch_up_panels() -> tuple[Panel, ...]:
    return tuple(panel for panel, spec in PANELS.items() if spec.spectator)


def partial_marks(name: str) -> tuple[list[str], bool] | None:
    """The panels a partial of that name belongs to, and whether the page keeps what the
    viewer did in it across a swap; None for a partial no panel names."""
    owners = [
        panel
        for panel, spec in PANELS.items()
        if name in spec.gm or name in spec.player or name in spec.spectator
    ]
    if not owners:
        return None
    return [panel.value for panel in owners], all(PANELS[panel].keeps_input for panel in owners)
