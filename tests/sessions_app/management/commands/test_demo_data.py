import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from sessions_app.models import GameSession, Participation, PreparedCheck, Scenario


@pytest.fixture(autouse=True)
def _debug_on(settings):
    # The embedded default, where `make run` loads the demo.
    settings.DEBUG = True


def test_demo_data_refused_with_debug_off(db, settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="passwords are published"):
        call_command("demo_data", stdout=io.StringIO())

    assert not get_user_model().objects.filter(username="gm").exists()


def test_demo_data_with_debug_off_runs_when_forced(db, settings):
    settings.DEBUG = False

    call_command("demo_data", "--force", stdout=io.StringIO())

    assert get_user_model().objects.filter(username="gm").exists()


def test_demo_data_twice_keeps_one_scenario_attached_with_slots(db):
    call_command("demo_data", stdout=io.StringIO())
    call_command("demo_data", stdout=io.StringIO())

    scenario = Scenario.objects.get(title="The Akashic Library")
    session = GameSession.objects.get(title="The Akashic Library")
    assert session.scenario == scenario
    assert scenario.scenes.count() == 6
    assert PreparedCheck.objects.filter(planned_scene__scenario=scenario, secret=True).count() == 1
    slots = dict(Participation.objects.values_list("character__name", "slot"))
    assert slots == {"Aki Tsukishiro": 1, "Ren Kagami": 2}


def test_demo_data_twice_gives_each_character_one_set_of_drawn_faces(db):
    from sessions_app.models import CharacterFace, PlannedScene

    call_command("demo_data", stdout=io.StringIO())
    call_command("demo_data", stdout=io.StringIO())

    assert CharacterFace.objects.filter(is_portrait=True).count() == 3
    assert CharacterFace.objects.count() == 9
    assert PlannedScene.objects.exclude(background="").count() == 2
