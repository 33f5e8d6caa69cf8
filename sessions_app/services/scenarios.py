"""A GM's scenarios: planned scenes per phase, prepared checks, NPCs and handouts.

A scenario belongs to its writer alone, outside any table or session: only the owner reads
or changes it, and players see its parts only when the GM reveals them in play. So these
services append no timeline events; running a scenario in a session does.

Any logged-in user may write a scenario, also one who runs no table yet: preparing a
scenario is how one gets ready to run a first table, and nobody else ever sees it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..models import (
    MAIN_PLAY_PHASES,
    Handout,
    PlannedScene,
    PreparedCheck,
    Scenario,
    ScenarioNpc,
)
from .access import require_not_guest
from .characters import _clean_judgement_values

DIFFICULTY_RANGE = (0, 99)


def require_scenario_owner(scenario: Scenario, by) -> None:
    """Refuse anyone but the scenario's writer."""
    _require_owner(scenario, by)


def _require_owner(scenario: Scenario, by) -> None:
    if by is None or not by.is_authenticated or scenario.owner_id != by.pk:
        raise PermissionDenied(_("Only the scenario's writer can change it."))


def _locked(scenario: Scenario) -> Scenario:
    """Lock the scenario row: two tabs reordering scenes cannot interleave."""
    return Scenario.objects.select_for_update().get(pk=scenario.pk)


def _clean_slot(scenario: Scenario, slot, field: str) -> int | None:
    if slot in (None, ""):
        return None
    whole = isinstance(slot, int) and not isinstance(slot, bool)
    if not whole or not 1 <= slot <= scenario.player_count:
        raise ValidationError(
            {field: _("Choose a PC slot from 1 to %(count)d.") % {"count": scenario.player_count}}
        )
    return slot


def _clean_difficulty(difficulty) -> int | None:
    if difficulty in (None, ""):
        return None
    low, high = DIFFICULTY_RANGE
    whole = isinstance(difficulty, int) and not isinstance(difficulty, bool)
    if not whole or not low <= difficulty <= high:
        raise ValidationError(
            {
                "difficulty": _("The difficulty must be between %(low)d and %(high)d.")
                % {"low": low, "high": high}
            }
        )
    return difficulty


def _clean_phase(phase: str) -> str:
    if phase not in MAIN_PLAY_PHASES:
        raise ValidationError({"phase": _("Choose opening, middle, climax or ending.")})
    return str(phase)


# Scenarios ---------------------------------------------------------------------------------


def scenario_create(
    *, by, title: str, summary: str = "", player_count: int = 3, gm_notes: str = ""
) -> Scenario:
    """Write a new scenario owned by `by`."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to write scenarios."))
    require_not_guest(
        user=by, message=_("A guest account cannot write scenarios. Set a password first.")
    )
    scenario = Scenario(
        owner=by,
        title=(title or "").strip(),
        summary=summary or "",
        player_count=player_count,
        gm_notes=gm_notes or "",
    )
    with transaction.atomic():
        scenario.full_clean()
        scenario.save()
    return scenario


def scenario_update(
    *, scenario: Scenario, by, title: str, summary: str = "", player_count: int, gm_notes: str = ""
) -> Scenario:
    """Change a scenario's title, texts or number of players (not below a slot in use)."""
    _require_owner(scenario, by)
    with transaction.atomic():
        scenario = _locked(scenario)
        highest = max(
            scenario.scenes.aggregate(top=Max("scene_player_slot"))["top"] or 0,
            scenario.handouts.aggregate(top=Max("slot"))["top"] or 0,
        )
        if isinstance(player_count, int) and player_count < highest:
            raise ValidationError(
                {
                    "player_count": _(
                        "A scene or handout is for PC%(slot)d: change it before lowering "
                        "the number of players."
                    )
                    % {"slot": highest}
                }
            )
        scenario.title = (title or "").strip()
        scenario.summary = summary or ""
        scenario.player_count = player_count
        scenario.gm_notes = gm_notes or ""
        scenario.full_clean()
        scenario.save()
    return scenario


def scenario_delete(*, scenario: Scenario, by) -> None:
    """Delete a scenario with all its parts; sessions that ran it keep their history."""
    _require_owner(scenario, by)
    with transaction.atomic():
        scenario.delete()


# Planned scenes ----------------------------------------------------------------------------


def _next_position(scenario: Scenario, phase: str) -> int:
    top = scenario.scenes.filter(phase=phase).aggregate(top=Max("position"))["top"]
    return (top or 0) + 1


def planned_scene_create(
    *,
    scenario: Scenario,
    by,
    phase: str,
    title: str,
    scene_player_slot: int | None = None,
    place: str = "",
    purpose: str = "",
    gm_notes: str = "",
) -> PlannedScene:
    """Plan a scene at the end of its phase; no slot means a master scene."""
    _require_owner(scenario, by)
    with transaction.atomic():
        scenario = _locked(scenario)
        phase = _clean_phase(phase)
        scene = PlannedScene(
            scenario=scenario,
            phase=phase,
            position=_next_position(scenario, phase),
            title=(title or "").strip(),
            scene_player_slot=_clean_slot(scenario, scene_player_slot, "scene_player_slot"),
            place=(place or "").strip(),
            purpose=(purpose or "").strip(),
            gm_notes=gm_notes or "",
        )
        scene.full_clean()
        scene.save()
    return scene


def planned_scene_update(
    *,
    planned_scene: PlannedScene,
    by,
    phase: str,
    title: str,
    scene_player_slot: int | None = None,
    place: str = "",
    purpose: str = "",
    gm_notes: str = "",
) -> PlannedScene:
    """Change a planned scene; moved to another phase, it goes to that phase's end."""
    scenario = planned_scene.scenario
    _require_owner(scenario, by)
    with transaction.atomic():
        scenario = _locked(scenario)
        phase = _clean_phase(phase)
        if phase != planned_scene.phase:
            planned_scene.position = _next_position(scenario, phase)
        planned_scene.phase = phase
        planned_scene.title = (title or "").strip()
        planned_scene.scene_player_slot = _clean_slot(
            scenario, scene_player_slot, "scene_player_slot"
        )
        planned_scene.place = (place or "").strip()
        planned_scene.purpose = (purpose or "").strip()
        planned_scene.gm_notes = gm_notes or ""
        planned_scene.full_clean()
        planned_scene.save()
    return planned_scene


def planned_scene_delete(*, planned_scene: PlannedScene, by) -> None:
    """Delete a planned scene and its prepared checks."""
    _require_owner(planned_scene.scenario, by)
    with transaction.atomic():
        planned_scene.delete()


def planned_scene_move(*, planned_scene: PlannedScene, by, direction: str) -> PlannedScene:
    """Move a planned scene one place up or down within its phase (no-op at either end)."""
    _require_owner(planned_scene.scenario, by)
    if direction not in ("up", "down"):
        raise ValidationError(_("Move a scene up or down."))
    with transaction.atomic():
        _locked(planned_scene.scenario)
        scenes = list(
            PlannedScene.objects.filter(
                scenario_id=planned_scene.scenario_id, phase=planned_scene.phase
            ).order_by("position", "id")
        )
        index = next(i for i, scene in enumerate(scenes) if scene.pk == planned_scene.pk)
        other = index - 1 if direction == "up" else index + 1
        if 0 <= other < len(scenes):
            scenes[index], scenes[other] = scenes[other], scenes[index]
        # Renumbering the whole phase also repairs duplicate positions (e.g. from the admin).
        for position, scene in enumerate(scenes, start=1):
            if scene.position != position:
                scene.position = position
                scene.save(update_fields=["position"])
    planned_scene.refresh_from_db()
    return planned_scene


# Prepared checks ---------------------------------------------------------------------------


def _apply_check(check: PreparedCheck, *, label, value_name, difficulty, secret) -> None:
    check.label = (label or "").strip()
    check.value_name = (value_name or "").strip()
    check.difficulty = _clean_difficulty(difficulty)
    check.secret = bool(secret)
    check.full_clean()
    check.save()


def prepared_check_create(
    *,
    planned_scene: PlannedScene,
    by,
    label: str,
    value_name: str,
    difficulty: int | None = None,
    secret: bool = False,
) -> PreparedCheck:
    """Prepare a check for a planned scene, to fire in one click during play."""
    _require_owner(planned_scene.scenario, by)
    check = PreparedCheck(planned_scene=planned_scene)
    with transaction.atomic():
        _apply_check(
            check, label=label, value_name=value_name, difficulty=difficulty, secret=secret
        )
    return check


def prepared_check_update(
    *,
    prepared_check: PreparedCheck,
    by,
    label: str,
    value_name: str,
    difficulty: int | None = None,
    secret: bool = False,
) -> PreparedCheck:
    """Change a prepared check."""
    _require_owner(prepared_check.planned_scene.scenario, by)
    with transaction.atomic():
        _apply_check(
            prepared_check,
            label=label,
            value_name=value_name,
            difficulty=difficulty,
            secret=secret,
        )
    return prepared_check


def prepared_check_delete(*, prepared_check: PreparedCheck, by) -> None:
    """Delete a prepared check."""
    _require_owner(prepared_check.planned_scene.scenario, by)
    with transaction.atomic():
        prepared_check.delete()


# NPCs --------------------------------------------------------------------------------------


def _apply_npc(npc: ScenarioNpc, *, name, concept, judgement_values, notes) -> None:
    npc.name = (name or "").strip()
    npc.concept = (concept or "").strip()
    npc.judgement_values = _clean_judgement_values(
        {} if judgement_values is None else judgement_values
    )
    npc.notes = notes or ""
    npc.full_clean()
    npc.save()


def scenario_npc_create(
    *,
    scenario: Scenario,
    by,
    name: str,
    concept: str = "",
    judgement_values: dict | None = None,
    notes: str = "",
) -> ScenarioNpc:
    """Write an NPC into a scenario, with its judgement values (name → whole number)."""
    _require_owner(scenario, by)
    npc = ScenarioNpc(scenario=scenario)
    with transaction.atomic():
        _apply_npc(npc, name=name, concept=concept, judgement_values=judgement_values, notes=notes)
    return npc


def scenario_npc_update(
    *,
    npc: ScenarioNpc,
    by,
    name: str,
    concept: str = "",
    judgement_values: dict | None = None,
    notes: str = "",
) -> ScenarioNpc:
    """Change a scenario's NPC (sheets already made from it at a table stay as they are)."""
    _require_owner(npc.scenario, by)
    with transaction.atomic():
        _apply_npc(npc, name=name, concept=concept, judgement_values=judgement_values, notes=notes)
    return npc


def scenario_npc_delete(*, npc: ScenarioNpc, by) -> None:
    """Delete a scenario's NPC."""
    _require_owner(npc.scenario, by)
    with transaction.atomic():
        npc.delete()


# Handouts ----------------------------------------------------------------------------------


def _apply_handout(handout: Handout, scenario: Scenario, *, title, body, slot) -> None:
    handout.title = (title or "").strip()
    handout.body = body or ""
    handout.slot = _clean_slot(scenario, slot, "slot")
    handout.full_clean()
    handout.save()


def handout_create(
    *, scenario: Scenario, by, title: str, body: str = "", slot: int | None = None
) -> Handout:
    """Write a handout for everyone (no slot) or for the player of one PC slot."""
    _require_owner(scenario, by)
    handout = Handout(scenario=scenario)
    with transaction.atomic():
        _apply_handout(handout, scenario, title=title, body=body, slot=slot)
    return handout


def handout_update(
    *, handout: Handout, by, title: str, body: str = "", slot: int | None = None
) -> Handout:
    """Change a handout; one already revealed in a session is shown as it now reads."""
    _require_owner(handout.scenario, by)
    with transaction.atomic():
        _apply_handout(handout, handout.scenario, title=title, body=body, slot=slot)
    return handout


def handout_delete(*, handout: Handout, by) -> None:
    """Delete a handout (and its reveals in sessions)."""
    _require_owner(handout.scenario, by)
    with transaction.atomic():
        handout.delete()
