"""Reads of a GM's scenarios."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from ..models import (
    MAIN_PLAY_PHASES,
    PlannedScene,
    PreparedCheck,
    RulesProfile,
    Scenario,
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
