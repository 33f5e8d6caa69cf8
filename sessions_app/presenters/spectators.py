"""What a spectator's page shows of a room: the same panels as a player's, built for nobody.

A spectator has no account, so everything is rendered for an anonymous viewer who is
neither the GM nor a player: no controls, no hidden resources, no hands of cards, and of
the handouts only those revealed to everyone (part of what everyone at the table sees, as
their timeline line is); never one given to a single PC. The page, its catch-up and the
live updates all build it here, once per language and zone.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from .. import rooms
from ..models import GameSession, TimelineEvent
from ..selectors.scenes import handouts_for_everyone, session_cast
from .audio import audio_context
from .characters import character_rows, session_characters
from .stage import stage_context

WATCH_TEMPLATE = "sessions_app/watch_session.html"


def spectator_viewer() -> AnonymousUser:
    return AnonymousUser()


def spectator_panels_context(session: GameSession) -> dict:
    """Everything the spectator page's panels show, for a viewer with no rights at all."""
    viewer = spectator_viewer()
    stage = stage_context(session, viewer, False)
    return {
        **stage,
        **audio_context(session, stage.get("scene"), False),
        "room_characters": character_rows(session_characters(session, False), viewer, False),
        "cast": session_cast(session=session),
        "cast_candidates": [],
        "public_handouts": handouts_for_everyone(session=session),
        "match_boards": spectator_boards(session),
        "session": session,
        "profile": session.rules_profile,
        "viewer": viewer,
        "viewer_is_gm": False,
        "spectator": True,
    }


def spectator_boards(session: GameSession) -> list[str]:
    """The boards on show as a spectator sees them: seated nowhere, with no hand of cards
    and no plan before it is revealed."""
    return rooms.render_all(session.pk, spectator_viewer())[1]


def spectator_event_html(event: TimelineEvent) -> str:
    """One timeline line as a spectator sees it; empty unless everyone may see the event."""
    if event.visibility != TimelineEvent.Visibility.EVERYONE:
        return ""
    return render_to_string(
        f"{WATCH_TEMPLATE}#event",
        {"event": event, "viewer": None, "viewer_is_gm": False, "spectator": True},
    )
