import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from sessions_app.models import Handout, PlannedScene, PreparedCheck, Scenario, ScenarioNpc
from sessions_app.services.scenarios import (
    handout_create,
    handout_delete,
    handout_update,
    planned_scene_create,
    planned_scene_delete,
    planned_scene_move,
    planned_scene_update,
    prepared_check_create,
    prepared_check_delete,
    prepared_check_update,
    scenario_create,
    scenario_delete,
    scenario_npc_create,
    scenario_npc_delete,
    scenario_npc_update,
    scenario_update,
)
from tests.factories import (
    HandoutFactory,
    PlannedSceneFactory,
    PreparedCheckFactory,
    ScenarioNpcFactory,
)


def _titles(scenario, phase="opening"):
    return list(
        scenario.scenes.filter(phase=phase)
        .order_by("position", "id")
        .values_list("title", flat=True)
    )


# Scenarios


def test_scenario_create_by_gm_owns_it(gm, table):
    scenario = scenario_create(by=gm, title="  Night library ", player_count=4)

    assert scenario.owner == gm
    assert scenario.title == "Night library"
    assert scenario.player_count == 4


def test_scenario_create_by_user_without_table_allowed(outsider):
    scenario = scenario_create(by=outsider, title="My first scenario")

    assert scenario.owner == outsider


def test_scenario_create_anonymous_refused(db):
    with pytest.raises(PermissionDenied):
        scenario_create(by=AnonymousUser(), title="Nobody's")

    assert not Scenario.objects.exists()


def test_scenario_create_blank_title_refused(gm):
    with pytest.raises(ValidationError):
        scenario_create(by=gm, title="  ")

    assert not Scenario.objects.exists()


def test_scenario_create_player_count_out_of_range_refused(gm):
    with pytest.raises(ValidationError):
        scenario_create(by=gm, title="Crowded", player_count=13)


def test_scenario_update_by_owner_saves(scenario, gm):
    scenario_update(
        scenario=scenario, by=gm, title="Renamed", summary="S", player_count=3, gm_notes="N"
    )

    scenario.refresh_from_db()
    assert (scenario.title, scenario.summary, scenario.player_count, scenario.gm_notes) == (
        "Renamed",
        "S",
        3,
        "N",
    )


def test_scenario_update_by_other_user_refused(scenario, outsider):
    with pytest.raises(PermissionDenied):
        scenario_update(scenario=scenario, by=outsider, title="Mine", player_count=2)

    scenario.refresh_from_db()
    assert scenario.title == "The Akashic Library"


def test_scenario_update_player_count_below_used_slot_refused(scenario, gm):
    HandoutFactory(scenario=scenario, slot=2)

    with pytest.raises(ValidationError) as error:
        scenario_update(scenario=scenario, by=gm, title="Fewer", player_count=1)

    assert "player_count" in error.value.error_dict
    scenario.refresh_from_db()
    assert scenario.player_count == 2


def test_scenario_delete_by_owner_removes_parts(scenario, gm):
    PreparedCheckFactory(planned_scene=PlannedSceneFactory(scenario=scenario))
    HandoutFactory(scenario=scenario)

    scenario_delete(scenario=scenario, by=gm)

    assert not Scenario.objects.exists()
    assert not PreparedCheck.objects.exists()
    assert not Handout.objects.exists()


def test_scenario_delete_by_other_gm_refused(scenario, outsider):
    with pytest.raises(PermissionDenied):
        scenario_delete(scenario=scenario, by=outsider)

    assert Scenario.objects.filter(pk=scenario.pk).exists()


# Planned scenes


def test_planned_scene_create_goes_to_end_of_phase(scenario, gm):
    planned_scene_create(scenario=scenario, by=gm, phase="opening", title="First")
    planned_scene_create(scenario=scenario, by=gm, phase="middle", title="Elsewhere")
    planned_scene_create(scenario=scenario, by=gm, phase="opening", title="Second")

    assert _titles(scenario) == ["First", "Second"]


def test_planned_scene_create_without_slot_is_master_scene(scenario, gm):
    scene = planned_scene_create(
        scenario=scenario, by=gm, phase="ending", title="Farewell", scene_player_slot=None
    )

    assert scene.is_master


def test_planned_scene_create_slot_above_player_count_refused(scenario, gm):
    with pytest.raises(ValidationError) as error:
        planned_scene_create(
            scenario=scenario, by=gm, phase="opening", title="PC3 intro", scene_player_slot=3
        )

    assert "scene_player_slot" in error.value.error_dict
    assert not PlannedScene.objects.exists()


def test_planned_scene_create_slot_zero_refused(scenario, gm):
    with pytest.raises(ValidationError):
        planned_scene_create(
            scenario=scenario, by=gm, phase="opening", title="Nobody", scene_player_slot=0
        )


def test_planned_scene_create_pre_play_phase_refused(scenario, gm):
    with pytest.raises(ValidationError):
        planned_scene_create(scenario=scenario, by=gm, phase="preplay", title="Too soon")


def test_planned_scene_create_by_other_user_refused(scenario, player):
    with pytest.raises(PermissionDenied):
        planned_scene_create(scenario=scenario, by=player, phase="opening", title="X")

    assert not PlannedScene.objects.exists()


def test_planned_scene_update_to_other_phase_goes_to_its_end(scenario, gm):
    PlannedSceneFactory(scenario=scenario, phase="middle", position=1, title="Already there")
    scene = PlannedSceneFactory(scenario=scenario, phase="opening", position=1, title="Moving")

    planned_scene_update(
        planned_scene=scene, by=gm, phase="middle", title="Moving", scene_player_slot=2
    )

    assert _titles(scenario, "middle") == ["Already there", "Moving"]
    scene.refresh_from_db()
    assert scene.scene_player_slot == 2


def test_planned_scene_update_by_other_user_refused(scenario, outsider):
    scene = PlannedSceneFactory(scenario=scenario, title="Kept")

    with pytest.raises(PermissionDenied):
        planned_scene_update(planned_scene=scene, by=outsider, phase="opening", title="X")

    scene.refresh_from_db()
    assert scene.title == "Kept"


def test_planned_scene_delete_removes_its_checks(scenario, gm):
    check = PreparedCheckFactory(planned_scene__scenario=scenario)

    planned_scene_delete(planned_scene=check.planned_scene, by=gm)

    assert not PreparedCheck.objects.exists()


def test_planned_scene_delete_by_other_user_refused(scenario, outsider):
    scene = PlannedSceneFactory(scenario=scenario)

    with pytest.raises(PermissionDenied):
        planned_scene_delete(planned_scene=scene, by=outsider)

    assert PlannedScene.objects.filter(pk=scene.pk).exists()


def test_planned_scene_move_up_swaps_with_previous(scenario, gm):
    for position, title in enumerate(["A", "B", "C"], start=1):
        PlannedSceneFactory(scenario=scenario, position=position, title=title)

    planned_scene_move(planned_scene=scenario.scenes.get(title="C"), by=gm, direction="up")

    assert _titles(scenario) == ["A", "C", "B"]


def test_planned_scene_move_down_swaps_with_next(scenario, gm):
    for position, title in enumerate(["A", "B", "C"], start=1):
        PlannedSceneFactory(scenario=scenario, position=position, title=title)

    planned_scene_move(planned_scene=scenario.scenes.get(title="A"), by=gm, direction="down")

    assert _titles(scenario) == ["B", "A", "C"]


def test_planned_scene_move_up_first_stays_first(scenario, gm):
    for position, title in enumerate(["A", "B"], start=1):
        PlannedSceneFactory(scenario=scenario, position=position, title=title)

    planned_scene_move(planned_scene=scenario.scenes.get(title="A"), by=gm, direction="up")

    assert _titles(scenario) == ["A", "B"]


def test_planned_scene_move_stays_within_its_phase(scenario, gm):
    PlannedSceneFactory(scenario=scenario, phase="opening", position=1, title="Opening")
    PlannedSceneFactory(scenario=scenario, phase="middle", position=1, title="Middle")

    planned_scene_move(planned_scene=scenario.scenes.get(title="Middle"), by=gm, direction="up")

    assert _titles(scenario, "middle") == ["Middle"]
    assert _titles(scenario, "opening") == ["Opening"]


def test_planned_scene_move_repairs_duplicate_positions(scenario, gm):
    for title in ["A", "B", "C"]:
        PlannedSceneFactory(scenario=scenario, position=1, title=title)

    planned_scene_move(planned_scene=scenario.scenes.get(title="C"), by=gm, direction="up")

    positions = list(scenario.scenes.order_by("position").values_list("position", flat=True))
    assert positions == [1, 2, 3]
    assert _titles(scenario) == ["A", "C", "B"]


def test_planned_scene_move_unknown_direction_refused(scenario, gm):
    scene = PlannedSceneFactory(scenario=scenario)

    with pytest.raises(ValidationError):
        planned_scene_move(planned_scene=scene, by=gm, direction="sideways")


def test_planned_scene_move_by_other_user_refused(scenario, outsider):
    PlannedSceneFactory(scenario=scenario, position=1, title="A")
    second = PlannedSceneFactory(scenario=scenario, position=2, title="B")

    with pytest.raises(PermissionDenied):
        planned_scene_move(planned_scene=second, by=outsider, direction="up")

    assert _titles(scenario) == ["A", "B"]


# Prepared checks


def test_prepared_check_create_by_owner(scenario, gm):
    scene = PlannedSceneFactory(scenario=scenario)

    check = prepared_check_create(
        planned_scene=scene, by=gm, label=" Read the seal ", value_name="Intellect", difficulty=9
    )

    assert (check.label, check.value_name, check.difficulty, check.secret) == (
        "Read the seal",
        "Intellect",
        9,
        False,
    )


def test_prepared_check_create_without_value_name_refused(scenario, gm):
    scene = PlannedSceneFactory(scenario=scenario)

    with pytest.raises(ValidationError):
        prepared_check_create(planned_scene=scene, by=gm, label="X", value_name=" ")

    assert not PreparedCheck.objects.exists()


def test_prepared_check_create_difficulty_out_of_range_refused(scenario, gm):
    scene = PlannedSceneFactory(scenario=scenario)

    with pytest.raises(ValidationError):
        prepared_check_create(
            planned_scene=scene, by=gm, label="X", value_name="Senses", difficulty=100
        )


def test_prepared_check_create_by_other_user_refused(scenario, outsider):
    scene = PlannedSceneFactory(scenario=scenario)

    with pytest.raises(PermissionDenied):
        prepared_check_create(planned_scene=scene, by=outsider, label="X", value_name="Senses")


def test_prepared_check_update_makes_it_secret(scenario, gm):
    check = PreparedCheckFactory(planned_scene__scenario=scenario)

    prepared_check_update(
        prepared_check=check, by=gm, label="Hidden", value_name="Senses", secret=True
    )

    check.refresh_from_db()
    assert check.secret
    assert check.difficulty is None


def test_prepared_check_update_by_other_user_refused(scenario, outsider):
    check = PreparedCheckFactory(planned_scene__scenario=scenario, label="Kept")

    with pytest.raises(PermissionDenied):
        prepared_check_update(prepared_check=check, by=outsider, label="X", value_name="Senses")


def test_prepared_check_delete_by_owner(scenario, gm):
    check = PreparedCheckFactory(planned_scene__scenario=scenario)

    prepared_check_delete(prepared_check=check, by=gm)

    assert not PreparedCheck.objects.exists()


def test_prepared_check_delete_by_other_user_refused(scenario, outsider):
    check = PreparedCheckFactory(planned_scene__scenario=scenario)

    with pytest.raises(PermissionDenied):
        prepared_check_delete(prepared_check=check, by=outsider)

    assert PreparedCheck.objects.exists()


# NPCs


def test_scenario_npc_create_with_judgement_values(scenario, gm):
    npc = scenario_npc_create(
        scenario=scenario, by=gm, name="Index Ghost", judgement_values={" Intellect ": 6}
    )

    assert npc.judgement_values == {"Intellect": 6}


def test_scenario_npc_create_non_number_value_refused(scenario, gm):
    with pytest.raises(ValidationError) as error:
        scenario_npc_create(
            scenario=scenario, by=gm, name="Ghost", judgement_values={"Intellect": "six"}
        )

    assert "judgement_values" in error.value.error_dict
    assert not ScenarioNpc.objects.exists()


def test_scenario_npc_create_value_out_of_range_refused(scenario, gm):
    with pytest.raises(ValidationError):
        scenario_npc_create(
            scenario=scenario, by=gm, name="Ghost", judgement_values={"Intellect": 100}
        )


def test_scenario_npc_create_by_other_user_refused(scenario, outsider):
    with pytest.raises(PermissionDenied):
        scenario_npc_create(scenario=scenario, by=outsider, name="Ghost")


def test_scenario_npc_update_by_owner(scenario, gm):
    npc = ScenarioNpcFactory(scenario=scenario)

    scenario_npc_update(
        npc=npc, by=gm, name="Renamed", concept="Ghost", judgement_values={"Senses": 2}
    )

    npc.refresh_from_db()
    assert (npc.name, npc.concept, npc.judgement_values) == ("Renamed", "Ghost", {"Senses": 2})


def test_scenario_npc_update_by_other_user_refused(scenario, outsider):
    npc = ScenarioNpcFactory(scenario=scenario, name="Kept")

    with pytest.raises(PermissionDenied):
        scenario_npc_update(npc=npc, by=outsider, name="X")


def test_scenario_npc_delete_by_owner(scenario, gm):
    npc = ScenarioNpcFactory(scenario=scenario)

    scenario_npc_delete(npc=npc, by=gm)

    assert not ScenarioNpc.objects.exists()


def test_scenario_npc_delete_by_other_user_refused(scenario, outsider):
    npc = ScenarioNpcFactory(scenario=scenario)

    with pytest.raises(PermissionDenied):
        scenario_npc_delete(npc=npc, by=outsider)


# Handouts


def test_handout_create_for_everyone(scenario, gm):
    handout = handout_create(scenario=scenario, by=gm, title="Invitation", body="Come.")

    assert handout.slot is None


def test_handout_create_for_slot_in_range(scenario, gm):
    handout = handout_create(scenario=scenario, by=gm, title="Secret", slot=2)

    assert handout.slot == 2


def test_handout_create_slot_above_player_count_refused(scenario, gm):
    with pytest.raises(ValidationError) as error:
        handout_create(scenario=scenario, by=gm, title="PC3", slot=3)

    assert "slot" in error.value.error_dict
    assert not Handout.objects.exists()


def test_handout_create_by_other_user_refused(scenario, outsider):
    with pytest.raises(PermissionDenied):
        handout_create(scenario=scenario, by=outsider, title="X")


def test_handout_update_by_owner(scenario, gm):
    handout = HandoutFactory(scenario=scenario)

    handout_update(handout=handout, by=gm, title="New", body="Text", slot=1)

    handout.refresh_from_db()
    assert (handout.title, handout.body, handout.slot) == ("New", "Text", 1)


def test_handout_update_by_other_user_refused(scenario, outsider):
    handout = HandoutFactory(scenario=scenario, title="Kept")

    with pytest.raises(PermissionDenied):
        handout_update(handout=handout, by=outsider, title="X")


def test_handout_delete_by_owner(scenario, gm):
    handout = HandoutFactory(scenario=scenario)

    handout_delete(handout=handout, by=gm)

    assert not Handout.objects.exists()


def test_handout_delete_by_other_user_refused(scenario, outsider):
    handout = HandoutFactory(scenario=scenario)

    with pytest.raises(PermissionDenied):
        handout_delete(handout=handout, by=outsider)

    assert Handout.objects.exists()
