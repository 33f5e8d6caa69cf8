"""What the stage panel shows a viewer: the room's page and its websocket both render it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from ..models import (
    MAIN_PLAY_PHASES,
    PHASE_ORDER,
    Character,
    CharacterFace,
    Handout,
    HandoutReveal,
    Phase,
    PlannedScene,
    Scenario,
    Scene,
    SceneRequest,
    StageRequest,
)
from ..selectors.pictures import portraits_of
from ..selectors.play import phase_next, preparation_state, preplay_warnings
from ..selectors.scenes import (
    open_scene_requests,
    open_stage_requests,
    running_scene,
    scene_last_lines,
    session_participations,
    session_players,
    session_scenes,
    sheet_changes_unchecked,
    stage_appearances,
)
from ..selectors.tables import table_characters


def speakers(session, user, is_gm: bool, on_stage: list[Character]):
    """The "say as" choices of the chat form: out of character, own characters on stage,
    narration and whispers (the GM to a player, a player to the GM)."""
    choices = [speaker_choice("ooc")]
    for character in on_stage:
        if character.owner_id == user.pk:
            choices.append(speaker_choice(f"ic:{character.pk}", character=character))
    if is_gm:
        choices.append(speaker_choice("narration"))
        players = get_user_model().objects.filter(
            memberships__table_id=session.table_id, memberships__role="player"
        )
        for player in players.order_by("username"):
            choices.append(speaker_choice(f"whisper:{player.pk}", whisper_to=player))
    else:
        choices.append(speaker_choice("whisper:gm"))
    return choices


def speaker_choice(value: str, *, character=None, whisper_to=None) -> tuple[str, str]:
    """One "say as" choice: its value ("ooc", "narration", "ic:<id>", "whisper:<id|gm>")
    and its label, naming the `character` spoken as or the player whispered `to`."""
    mode = value.partition(":")[0]
    if mode == "ic" and character is not None:
        return value, _("As %(name)s (in character)") % {"name": character.name}
    if mode == "narration":
        return value, _("GM narration")
    if mode == "whisper" and whisper_to is not None:
        return value, _("Whisper to %(name)s") % {"name": whisper_to.get_username()}
    if mode == "whisper":
        return value, _("Whisper to the GM")
    return value, _("Out of character")


def stage_context(session, user, is_gm: bool) -> dict:
    """Everything the stage panel shows this viewer, in a fixed number of queries."""
    phase = session.phase
    participations = session_participations(session=session)
    context = {
        "phases": [(value, Phase(value).label) for value in PHASE_ORDER if value != Phase.CLOSED],
        "phase": phase,
        "phase_label": Phase(phase).label,
        "next_phase": phase_next(phase),
        "in_preplay": phase == Phase.PRE_PLAY,
        "in_main_play": phase in MAIN_PLAY_PHASES,
        "participations": participations,
        "scenes_enabled": session.rules_profile.scenes_enabled,
        "decisions": 0,
    }
    if context["next_phase"]:
        context["next_phase_label"] = Phase(context["next_phase"]).label
    if phase == Phase.PRE_PLAY:
        context.update(_preplay_context(session, is_gm))
    scene = running_scene(session_id=session.pk) if context["in_main_play"] else None
    context["scene"] = scene
    context["standing_scene"] = scene
    context["standing"] = []
    context["scenes"] = session_scenes(session_id=session.pk)
    if context["in_main_play"] and context["scenes_enabled"]:
        context["scene_requests"] = _scene_request_rows(session, is_gm, scene)
        if is_gm:
            context["decisions"] += sum(
                request.status == SceneRequest.Status.PENDING
                for request, _can in context["scene_requests"]
            )
    if is_gm:
        context["sheets_to_recheck"] = sheet_changes_unchecked(session=session)
    if scene is not None:
        cast = [row.character for row in participations]
        context.update(_on_stage_context(session, user, is_gm, scene, cast))
        context["decisions"] += sum(
            1 for _request, can in context["stage_requests"] if can["decide"] or can["answer"]
        )
    return context


def _scene_request_rows(session, is_gm: bool, scene):
    rows = []
    for request in open_scene_requests(session_id=session.pk):
        can = {
            # One scene at a time: a request waits while another scene runs.
            "start": is_gm and scene is None,
            "keep": is_gm and request.status == SceneRequest.Status.PENDING,
            "decline": is_gm,
        }
        rows.append((request, can))
    return rows


def _preplay_context(session, is_gm: bool) -> dict:
    """Who plays, and for the GM the preparation checklist and what still looks amiss."""
    context = {"players": session_players(session=session)}
    if is_gm:
        done = preparation_state(session=session)
        context["preparation"] = [
            (item, label, done[item])
            for item, label in [
                ("rulebook", _("Rulebook read")),
                ("scenario", _("Scenario chosen")),
                ("tools", _("Tools ready")),
            ]
        ]
        context["warnings"] = preplay_warnings(session=session)
    return context


def _on_stage_context(session, user, is_gm: bool, scene, cast: list[Character]) -> dict:
    """The running scene's stage: who stands on it (with portraits), who of the cast does
    not, the open entry requests and what this viewer may do with each."""
    appearances = stage_appearances(scene=scene)
    on_stage = [appearance.character for appearance in appearances]
    portraits = portraits_of(characters=on_stage)
    for character in on_stage:
        character.portrait = portraits.get(character.pk)
    on_stage_ids = {character.pk for character in on_stage}
    requests = open_stage_requests(scene=scene)
    rows = [(request, _stage_request_can(request, user, is_gm)) for request in requests]
    context = {
        "standing": standing_figures(scene=scene, on_stage=on_stage, portraits=portraits),
        "on_stage": on_stage,
        "off_stage": [character for character in cast if character.pk not in on_stage_ids],
        "stage_requests": rows,
        "asked": {(request.character_id, request.kind) for request in requests},
        "leads": scene.scene_player is not None and scene.scene_player.owner_id == user.pk,
    }
    if is_gm:
        context["npcs_off_stage"] = [
            npc
            for npc in table_characters(table=session.table, kind="npc")
            if npc.pk not in on_stage_ids
        ]
    return context


def _stage_request_can(request, user, is_gm: bool) -> dict:
    """What this viewer may do with an open stage request."""
    return {
        "decide": is_gm and request.status == StageRequest.Status.PENDING,
        "answer": request.status == StageRequest.Status.ASKED
        and request.character.owner_id == user.pk,
        # A proposed companion's player answers rather than withdraws.
        "withdraw": request.status in ("asked", "pending")
        and not is_gm
        and (
            user.pk == request.requested_by_id
            or (request.kind != "companion" and user.pk == request.character.owner_id)
        ),
    }


def gm_scenario_context(session, user) -> dict:
    """The GM's prepared material for this session: scenarios to choose from, planned
    scenes with their checks and whether a scene of this session was played from each,
    handouts and whether each is out yet."""
    context = {"gm_scenarios": list(Scenario.objects.filter(owner=user).order_by("title"))}
    if session.scenario_id is None:
        return context
    planned = list(
        PlannedScene.objects.filter(scenario_id=session.scenario_id)
        .prefetch_related("checks")
        .order_by("phase", "position", "id")
    )
    phase_rank = {"opening": 0, "middle": 1, "climax": 2, "ending": 3}
    planned.sort(key=lambda scene: (phase_rank.get(scene.phase, 9), scene.position, scene.pk))
    played = set(
        Scene.objects.filter(session=session, planned__isnull=False).values_list(
            "planned_id", flat=True
        )
    )
    for scene in planned:
        scene.played = scene.pk in played
    revealed = set(
        HandoutReveal.objects.filter(session=session).values_list("handout_id", flat=True)
    )
    handouts = [
        (handout, handout.pk in revealed)
        for handout in Handout.objects.filter(scenario_id=session.scenario_id)
    ]
    return {**context, "planned_scenes": planned, "handouts": handouts}


@dataclass(frozen=True)
class StandingFigure:
    """One character standing on the stage: the picture it shows now, and whether it spoke
    last. `face_id` names a face of a line said in the scene (served as that line's face),
    `portrait_id` the character's portrait; neither, and the stage shows its name instead."""

    character: Character
    expression: str = ""
    face_id: int | None = None
    portrait_id: int | None = None
    speaking: bool = False
    # The sequence number of its last line in the scene (0: it has not spoken yet).
    spoke_at: int = 0


def standing_context(session) -> dict:
    """The standing pictures (立ち絵): who is on the running scene's stage, each with the
    expression of their last line in it (else their portrait), the one who spoke last in
    front. Built from what everyone may see only, so it is the same for every viewer,
    spectators included, and is rendered once per language for all of them."""
    scene = None
    if session.phase in MAIN_PLAY_PHASES:
        scene = running_scene(session_id=session.pk)
    if scene is None:
        return {"standing_scene": None, "standing": []}
    on_stage = [appearance.character for appearance in stage_appearances(scene=scene)]
    return {"standing_scene": scene, "standing": standing_figures(scene=scene, on_stage=on_stage)}


def standing_figures(*, scene, on_stage: list[Character], portraits=None) -> list[StandingFigure]:
    """The figures of `on_stage` in the order they stand, the speaker last (in front);
    `portraits` (character id → portrait) when the caller has read them already."""
    if portraits is None:
        portraits = portraits_of(characters=on_stage)
    last_lines = scene_last_lines(scene=scene, character_ids=[c.pk for c in on_stage])
    kept_faces = set(
        CharacterFace.objects.filter(
            pk__in=[line.get("face_id") for _seq, line in last_lines.values()]
        ).values_list("pk", flat=True)
    )
    figures = []
    for character in on_stage:
        portrait = portraits.get(character.pk)
        seq, line = last_lines.get(character.pk, (0, {}))
        face_id = line.get("face_id")
        if face_id in kept_faces:
            figure = StandingFigure(
                character, expression=line.get("face", ""), face_id=face_id, spoke_at=seq
            )
        elif portrait is not None:
            figure = StandingFigure(
                character, expression=portrait.label, portrait_id=portrait.pk, spoke_at=seq
            )
        else:
            figure = StandingFigure(character, spoke_at=seq)
        figures.append(figure)
    speaker = max(figures, key=lambda figure: figure.spoke_at, default=None)
    if speaker is None or not speaker.spoke_at:
        return figures
    figures.remove(speaker)
    return [*figures, replace(speaker, speaking=True)]
