"""Reads of a GM's scenarios."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from ..models import (
    MAIN_PLAY_PHASES,
    Handout,
    PlannedScene,
    PreparedCheck,
    RulesProfile,
    Scenario,
    ScenarioNpc,
)


def scenarios_for_owner(*, user) -> QuerySet[Scenario]:
    """Return the user's own scenarios, by title, with how many scenes each plans."""
    if user is None or not user.is_authenticated:
        return Scenario.objects.none()
    return (
        Scenario.objects.filter(owner=user)
        .annotate(scene_count=Count("scenes", distinct=True))
        .order_by("title", "id")
    )


def scenario_for_owner(*, user, scenario_id: int) -> Scenario | None:
    """Return the scenario if `user` wrote it, else None (for everyone else it is not there)."""
    if user is None or not user.is_authenticated:
        return None
    return Scenario.objects.filter(pk=scenario_id, owner=user).first()


def scenario_plan(*, scenario: Scenario) -> list[tuple[str, str, list[PlannedScene]]]:
    """Return (phase, label, planned scenes in order with their checks) for each main phase."""
    scenes = scenario.scenes.prefetch_related(
        Prefetch("checks", queryset=PreparedCheck.objects.order_by("id"))
    ).order_by("position", "id")
    by_phase: dict[str, list[PlannedScene]] = {phase.value: [] for phase in MAIN_PLAY_PHASES}
    for scene in scenes:
        by_phase.setdefault(scene.phase, []).append(scene)
    return [(phase.value, phase.label, by_phase[phase.value]) for phase in MAIN_PLAY_PHASES]


def judgement_value_names_for(*, user) -> list[str]:
    """Return the judgement value names of the shipped profiles and of the user's tables."""
    names: list[str] = []
    profiles = RulesProfile.objects.filter(Q(table__isnull=True) | Q(table__gm=user))
    for profile in profiles.order_by("table_id", "name", "id"):
        for name in profile.judgement_value_names or []:
            if name not in names:
                names.append(name)
    return names


def planned_scene_for_owner(*, user, scenario_id: int, scene_id: int) -> PlannedScene | None:
    """A planned scene of the user's own scenario, with the scenario, else None."""
    return (
        PlannedScene.objects.select_related("scenario")
        .filter(pk=scene_id, scenario_id=scenario_id, scenario__owner_id=user.pk)
        .first()
    )


def handout_for_owner(*, user, scenario_id: int, handout_id: int) -> Handout | None:
    """A handout of the user's own scenario, with the scenario, else None."""
    return (
        Handout.objects.select_related("scenario")
        .filter(pk=handout_id, scenario_id=scenario_id, scenario__owner_id=user.pk)
        .first()
    )


# A scenario's items of each kind, each with the rows up to the scenario; `scenario` may be
# the scenario or its id.


def scenario_planned_scenes(*, scenario) -> QuerySet[PlannedScene]:
    return PlannedScene.objects.select_related("scenario").filter(scenario=scenario)


def scenario_prepared_checks(*, scenario) -> QuerySet[PreparedCheck]:
    return PreparedCheck.objects.select_related("planned_scene__scenario").filter(
        planned_scene__scenario=scenario
    )


def scenario_npcs(*, scenario) -> QuerySet[ScenarioNpc]:
    return ScenarioNpc.objects.select_related("scenario").filter(scenario=scenario)


def scenario_handouts(*, scenario) -> QuerySet[Handout]:
    return Handout.objects.select_related("scenario").filter(scenario=scenario)
