"""What a spectator's page shows of a room: the same panels as a player's, built for nobody.

A spectator has no account, so everything is rendered for an anonymous viewer who is
neither the GM nor a player: no controls, no hidden resources, no hands or handouts. The
page, its catch-up and the live updates all build it here, once per language and zone.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from ..kinds.registry import Panel
from ..models import GameSession, TimelineEvent
from ..selectors.scenes import session_cast
from .characters import character_rows, session_characters
from .stage import stage_context

WATCH_TEMPLATE = "sessions_app/watch_session.html"

# The spectator page's partials each live panel consists of; the others have no public part.
SPECTATOR_PARTIALS: dict[Panel, tuple[str, ...]] = {
    Panel.STAGE: ("stage",),
    Panel.CHARACTERS: ("characters",),
    Panel.CAST: ("stage", "characters", "cast-panel"),
}
ALL_SPECTATOR_PANELS = (Panel.STAGE, Panel.CAST)


def spectator_viewer() -> AnonymousUser:
    return AnonymousUser()


def spectator_panels_context(session: GameSession) -> dict:
    """Everything the spectator page's panels show, for a viewer with no rights at all."""
    viewer = spectator_viewer()
    return {
        **stage_context(session, viewer, False),
        "room_characters": character_rows(session_characters(session, False), viewer, False),
        "cast": session_cast(session=session),
        "cast_candidates": [],
        "session": session,
        "profile": session.rules_profile,
        "viewer": viewer,
        "viewer_is_gm": False,
        "spectator": True,
    }


def spectator_event_html(event: TimelineEvent) -> str:
    """One timeline line as a spectator sees it; empty unless everyone may see the event."""
    if event.visibility != TimelineEvent.Visibility.EVERYONE:
        return ""
    return render_to_string(
        f"{WATCH_TEMPLATE}#event",
        {"event": event, "viewer": None, "viewer_is_gm": False, "spectator": True},
    )


def spectator_partials(panels: Iterable[Panel]) -> list[str]:
    names: list[str] = []
    for panel in panels:
        for name in SPECTATOR_PARTIALS.get(panel, ()):
            if name not in names:
                names.append(name)
    return names


def spectator_panels_html(session: GameSession, panels: Iterable[Panel]) -> str:
    """The spectator page's partials of these panels, each ready to swap out of band."""
    names = spectator_partials(panels)
    if not names:
        return ""
    context = {**spectator_panels_context(session), "oob": True}
    return "".join(render_to_string(f"{WATCH_TEMPLATE}#{name}", context) for name in names)
