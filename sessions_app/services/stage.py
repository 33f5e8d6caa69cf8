"""Who is on stage: the rule checks, contests, matches and speech share, and the steps that
bring a character on stage, which scenes and entry checks both take."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ..models import (
    MAIN_PLAY_PHASES,
    Appearance,
    Character,
    CheckRequest,
    GameSession,
    Membership,
    Scene,
    StageRequest,
)
from ..rules import srs_checks
from ..selectors.access import is_gm
from ..selectors.scenes import Voice, on_stage_ids, running_scene
from ..selectors.tables import membership_get
from .timeline import timeline_append


def stage_require(session: GameSession, character: Character, *, voice: Voice | None = None):
    """Refuse a character who is not on stage while main play runs (a character off stage
    can do nothing in the scene). Outside main play there is no stage to be on. `voice`:
    the character as the action already read it (selectors.scenes.voice_get)."""
    if session.phase not in MAIN_PLAY_PHASES:
        return
    if voice is None:
        scene = running_scene(session_id=session.pk)
        scene_running = scene is not None
        on_stage = scene_running and character.pk in on_stage_ids(scene=scene)
    else:
        scene_running, on_stage = voice.scene_running, voice.on_stage
    if not scene_running:
        raise ValidationError(
            {"character": _("No scene is running: start a scene before anyone acts.")}
        )
    if not on_stage:
        raise ValidationError(
            {"character": _("%(name)s is not on stage in this scene.") % {"name": character.name}}
        )


def character_label(character: Character) -> dict:
    return {"character": character.name, "character_id": character.pk}


def appear(scene: Scene, character: Character, way: str, by) -> Appearance:
    appearance = Appearance.objects.create(scene=scene, character=character, way=way)
    timeline_append(
        session=scene.session,
        kind="character_entered",
        actor=by,
        payload={**character_label(character), "way": way, "scene_number": scene.number},
    )
    return appearance


def request_event(request: StageRequest, kind: str, by, **extra) -> None:
    timeline_append(
        session=request.scene.session,
        kind=kind,
        actor=by,
        payload={
            "request_id": request.pk,
            "request_kind": request.kind,
            "status": request.status,
            **character_label(request.character),
            **extra,
        },
    )


def entry_check_resolved(check: CheckRequest, result: srs_checks.CheckResult, by) -> None:
    """Called when an entry check is rolled: enter on success, otherwise stay off stage."""
    request = (
        StageRequest.objects.select_for_update()
        .select_related("scene__session", "character")
        .filter(check_request=check, status=StageRequest.Status.CHECKING)
        .first()
    )
    if request is None:
        return
    succeeded = bool(result.success)
    request.status = StageRequest.Status.ALLOWED if succeeded else StageRequest.Status.FAILED
    request.save(update_fields=["status"])
    request_event(request, "entry_condition", by, condition="check", met=succeeded)
    if succeeded and request.scene.status == Scene.Status.RUNNING:
        appear(request.scene, request.character, Appearance.Way.ENTRY, by)


def speaker_check(
    session: GameSession,
    by,
    character: Character,
    *,
    membership: Membership | None = None,
    voice: Voice | None = None,
) -> None:
    """Only a character on stage speaks in character, and only its player (or the GM for NPCs).
    `membership`: `by`'s at the session's table, when the caller has it already."""
    if membership is None:
        membership = membership_get(user=by, table_id=session.table_id)
    by_gm = is_gm(membership)
    if character.owner_id != by.pk and not (by_gm and character.kind == Character.Kind.NPC):
        raise PermissionDenied(_("You can only speak as your own characters."))
    stage_require(session, character, voice=voice)
