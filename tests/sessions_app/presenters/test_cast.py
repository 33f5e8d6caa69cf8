"""The cast panel: who takes part in a session, and a player taking their own PC out."""

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.services.scenes import scene_start
from tests.factories import main_play_start

HTMX = {"HTTP_HX_REQUEST": "true"}


# The pc fixture's Aki (tests/sessions_app/conftest.py) takes part without a PC slot.
pytestmark = pytest.mark.pc_fields(slot=None)


def _remove(client, session, pc, **extra):
    data = {"character": pc.pk, "taking_part": "0", **extra}
    return client.post(reverse("cast_update", args=[session.pk]), data, **HTMX)


def test_removing_one_s_own_pc_asks_to_confirm(player_client, session, pc):
    response = _remove(player_client, session, pc)

    page = response.content.decode()
    assert "Take Aki out of this session?" in page
    assert 'name="confirm" value="1"' in page
    assert session.characters.filter(pk=pc.pk).exists()


def _stage_of(page):
    return page.split('<section id="stage"')[1].split("</section>")[0]


def test_removing_one_s_own_pc_once_confirmed(player_client, session, pc):
    room = player_client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert "Aki" in _stage_of(room)

    response = _remove(player_client, session, pc, confirm="1")

    page = response.content.decode()
    assert not session.characters.filter(pk=pc.pk).exists()
    assert "No characters are taking part yet." in page.split('<section id="stage"')[0]
    # The stage follows through the live push (its panel is the cast's), not this answer.
    assert '<section id="stage"' not in page
    room = player_client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert "Aki" not in _stage_of(room)


def test_keeping_one_s_own_pc_changes_nothing(player_client, session, pc):
    _remove(player_client, session, pc, confirm="0")

    assert session.characters.filter(pk=pc.pk).exists()


def test_removing_one_s_own_pc_asks_without_script_too(player_client, session, pc):
    response = player_client.post(
        reverse("cast_update", args=[session.pk]), {"character": pc.pk, "taking_part": "0"}
    )

    assert response.status_code == 200
    assert "Take Aki out of this session?" in response.content.decode()
    assert session.characters.filter(pk=pc.pk).exists()


def test_the_gm_removes_a_player_s_pc_without_a_question(session, gm, pc):
    client = Client()
    client.force_login(gm)

    _remove(client, session, pc)

    assert not session.characters.filter(pk=pc.pk).exists()


def test_a_pc_on_stage_stays_in_the_cast(player_client, session, gm, pc):
    scene_start(
        session=main_play_start(session, gm),
        by=gm,
        scene_player=pc,
        title="The tower",
        place="The inn",
        purpose="To meet the contact",
    )

    response = _remove(player_client, session, pc, confirm="1")

    assert "Aki is on stage in this scene: leave the scene first." in response.content.decode()
    assert session.characters.filter(pk=pc.pk).exists()
