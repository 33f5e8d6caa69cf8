from sessions_app.selectors.scenarios import scenario_for_owner, scenario_plan, scenarios_for_owner
from tests.factories import PlannedSceneFactory, ScenarioFactory


def test_scenarios_for_owner_lists_only_own_scenarios(gm, outsider):
    mine = ScenarioFactory(owner=gm, title="Mine")
    ScenarioFactory(owner=outsider, title="Theirs")

    assert list(scenarios_for_owner(user=gm)) == [mine]


def test_scenario_for_owner_none_for_other_user(gm, outsider):
    scenario = ScenarioFactory(owner=gm)

    assert scenario_for_owner(user=outsider, scenario_id=scenario.pk) is None


def test_scenario_for_owner_returns_own_scenario(gm):
    scenario = ScenarioFactory(owner=gm)

    assert scenario_for_owner(user=gm, scenario_id=scenario.pk) == scenario


def test_scenario_plan_groups_scenes_by_phase_in_order(gm):
    scenario = ScenarioFactory(owner=gm)
    PlannedSceneFactory(scenario=scenario, phase="middle", position=2, title="Second")
    PlannedSceneFactory(scenario=scenario, phase="middle", position=1, title="First")
    PlannedSceneFactory(scenario=scenario, phase="ending", position=1, title="Last")

    plan = scenario_plan(scenario=scenario)

    assert [(phase, [scene.title for scene in scenes]) for phase, _label, scenes in plan] == [
        ("opening", []),
        ("middle", ["First", "Second"]),
        ("climax", []),
        ("ending", ["Last"]),
    ]
