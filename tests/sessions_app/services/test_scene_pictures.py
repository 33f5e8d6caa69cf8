"""Backgrounds of scenes and images of handouts: who sets them, who sees them."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sessions_app.models import Scene
from sessions_app.services.play import handout_reveal, session_scenario_set
from sessions_app.services.scene_pictures import (
    handout_image_set,
    planned_scene_background_set,
    scene_background_set,
)
from sessions_app.services.scenes import scene_start
from tests.factories import (
    HandoutFactory,
    PlannedSceneFactory,
    ScenarioFactory,
    cast_member,
    main_play_start,
)
from tests.pictures import picture_bytes


@pytest.fixture
def session_scenario(session, gm):
    """A scenario of the GM's, set as the session's."""
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=session, by=gm, scenario=scenario)
    return scenario


@pytest.fixture
def planned(session_scenario, gm):
    planned = PlannedSceneFactory(scenario=session_scenario, scene_player_slot=None)
    return planned_scene_background_set(
        planned_scene=planned, by=gm, data=picture_bytes("JPEG", size=(40, 20))
    )


def test_planned_background_seen_by_its_gm_only(client, gm, player, planned):
    url = reverse("planned_scene_background", args=[planned.pk])
    client.force_login(player)
    assert client.get(url).status_code == 404
    client.force_login(gm)
    assert client.get(url)["Content-Type"] == "image/jpeg"


def test_scene_started_from_the_plan_carries_its_background(
    client, session, gm, player, pc, planned
):
    main_play_start(session, gm)
    scene = scene_start(session=session, by=gm, planned=planned)
    assert scene.background.name == planned.background.name
    client.force_login(player)
    assert client.get(reverse("scene_background", args=[scene.pk])).status_code == 200
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert 'class="standing-background"' in page


def test_scene_background_hidden_from_an_outsider(client, session, gm, pc, outsider, planned):
    main_play_start(session, gm)
    scene = scene_start(session=session, by=gm, planned=planned)
    client.force_login(outsider)
    assert client.get(reverse("scene_background", args=[scene.pk])).status_code == 404


def test_scene_background_set_by_a_player_is_refused(session, gm, player, pc):
    from django.core.exceptions import PermissionDenied

    main_play_start(session, gm)
    scene = scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )
    with pytest.raises(PermissionDenied):
        scene_background_set(scene=scene, by=player, data=picture_bytes("PNG"))
    assert not Scene.objects.get(pk=scene.pk).background


def test_scene_background_upload_of_a_text_file_says_why(client, session, gm, pc):
    main_play_start(session, gm)
    scene = scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )
    client.force_login(gm)
    response = client.post(
        reverse("scene_background_set", args=[session.pk]),
        {"image": SimpleUploadedFile("bg.png", b"not a picture")},
        HTTP_HX_REQUEST="true",
    )
    assert "use a PNG, JPEG, WebP or GIF image" in response.content.decode()
    assert not Scene.objects.get(pk=scene.pk).background


def test_handout_image_hidden_until_revealed(client, session, gm, player, pc, session_scenario):
    handout = HandoutFactory(scenario=session_scenario, slot=None)
    handout_image_set(handout=handout, by=gm, data=picture_bytes("WEBP"))
    url = reverse("handout_image", args=[handout.pk])
    client.force_login(player)
    assert client.get(url).status_code == 404
    handout_reveal(session=session, by=gm, handout=handout)
    assert client.get(url)["Content-Type"] == "image/webp"


def test_handout_image_for_one_slot_hidden_from_other_players(
    client, session, gm, player, pc, session_scenario
):
    from tests.factories import MembershipFactory, UserFactory

    ren = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    cast_member(session, ren, name="Ren", slot=2)
    handout = HandoutFactory(scenario=session_scenario, slot=1)
    handout_image_set(handout=handout, by=gm, data=picture_bytes("PNG"))
    handout_reveal(session=session, by=gm, handout=handout)
    client.force_login(ren)
    assert client.get(reverse("handout_image", args=[handout.pk])).status_code == 404


def _background_uploaded(client, user, scenario, picture_format):
    """`user` uploads a picture in `picture_format` as the background of a new planned scene
    of `scenario`, from the scenario page: (the planned scene, the answer)."""
    planned = PlannedSceneFactory(scenario=scenario)
    client.force_login(user)
    extension = picture_format.lower()
    response = client.post(
        reverse("planned_scene_background_set", args=[scenario.pk, planned.pk]),
        {"image": SimpleUploadedFile(f"bg.{extension}", picture_bytes(picture_format))},
    )
    return planned, response


def test_scenario_page_uploads_a_planned_scene_background(client, gm, session_scenario):
    planned, response = _background_uploaded(client, gm, session_scenario, "GIF")
    assert response.status_code == 302
    planned.refresh_from_db()
    assert planned.background.name.endswith(".png")


def test_scenario_page_upload_by_another_user_is_not_found(client, player, session_scenario):
    planned, response = _background_uploaded(client, player, session_scenario, "PNG")
    assert response.status_code == 404
    planned.refresh_from_db()
    assert not planned.background


def test_planned_background_changed_later_keeps_the_scene_played_with_it(
    session, gm, pc, planned, django_capture_on_commit_callbacks
):
    from django.core.files.storage import default_storage

    main_play_start(session, gm)
    scene = scene_start(session=session, by=gm, planned=planned)
    with django_capture_on_commit_callbacks(execute=True):
        planned_scene_background_set(planned_scene=planned, by=gm, data=None)
    assert default_storage.exists(scene.background.name)
