"""Who may act in the scene: the one rule checks, contests, matches and speech share."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..models import MAIN_PLAY_PHASES, Character, GameSession
from ..selectors.scenes import on_stage_ids, running_scene


def stage_require(session: GameSession, character: Character) -> None:
    """Refuse a character who is not on stage while main play runs (a character off stage
    can do nothing in the scene). Outside main play there is no stage to be on."""
    if session.phase not in MAIN_PLAY_PHASES:
        return
    scene = running_scene(session_id=session.pk)
    if scene is None:
        raise ValidationError(
            {"character": _("No scene is running: start a scene before anyone acts.")}
        )
    if character.pk not in on_stage_ids(scene=scene):
        raise ValidationError(
            {"character": _("%(name)s is not on stage in this scene.") % {"name": character.name}}
        )
