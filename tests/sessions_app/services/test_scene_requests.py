"""Players may ask the GM for a scene (プレイヤーもシーンの作成をＧＭに依頼してもよい); the GM
has the final say: starts a scene from the wish, keeps it for later, or declines it."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from sessions_app.models import Appearance, Scene, SceneRequest, TimelineEvent
from sessions_app.presenters.stage import stage_context
from sessions_app.services.scenes import (
    scene_end,
    scene_request_create,
    scene_request_decide,
    scene_start,
)
from tests.factories import MembershipFactory, UserFactory, main_play_start


@pytest.fixture
def opening(session, gm, pc):
    return main_play_start(session, gm)


def _kinds(session) -> list[str]:
    return list(
        TimelineEvent.objects.filter(session=session).order_by("seq").values_list("kind", flat=True)
    )


def test_player_asks_the_gm_for_a_scene(opening, player, pc):
    request = scene_request_create(
        session=opening, by=player, scene_player=pc, place="Clock tower", purpose="Meet the twin"
    )

    event = TimelineEvent.objects.get(session=opening, kind="scene_requested")
    assert (request.status, request.scene_player, request.place) == (
        SceneRequest.Status.PENDING,
        pc,
        "Clock tower",
    )
    assert (event.actor, event.visibility, event.payload["purpose"]) == (
        player,
        TimelineEvent.Visibility.EVERYONE,
        "Meet the twin",
    )


def test_player_asks_for_a_scene_saying_nothing_refused(opening, player):
    with pytest.raises(ValidationError):
        scene_request_create(session=opening, by=player, place="  ")
    assert not SceneRequest.objects.exists()


def test_player_asks_for_a_scene_before_main_play_refused(session, player, pc):
    with pytest.raises(ValidationError):
        scene_request_create(session=session, by=player, place="Clock tower")


def test_gm_asks_for_a_scene_refused(opening, gm):
    with pytest.raises(PermissionDenied):
        scene_request_create(session=opening, by=gm, place="Clock tower")


def test_outsider_asks_for_a_scene_refused(opening, outsider):
    with pytest.raises(PermissionDenied):
        scene_request_create(session=opening, by=outsider, place="Clock tower")


def test_gm_starts_a_scene_from_a_player_request(opening, gm, player, pc):
    request = scene_request_create(
        session=opening, by=player, scene_player=pc, place="Clock tower", purpose="Meet the twin"
    )

    scene = scene_start(session=opening, by=gm, scene_request=request)

    request.refresh_from_db()
    assert (scene.scene_player, scene.place, scene.purpose) == (pc, "Clock tower", "Meet the twin")
    assert (request.status, request.scene, request.decided_by) == ("started", scene, gm)
    assert Appearance.objects.get(scene=scene).character == pc
    assert _kinds(opening)[-3:] == ["scene_started", "scene_request_decided", "character_entered"]


def test_gm_starts_a_scene_from_a_request_naming_nobody_as_a_master_scene(opening, gm, player):
    request = scene_request_create(session=opening, by=player, place="Rooftops")

    scene = scene_start(session=opening, by=gm, scene_request=request, purpose="Chase the thief")

    assert scene.is_master and scene.place == "Rooftops"


def test_gm_starts_a_scene_from_a_request_with_their_own_choices_first(opening, gm, player, pc):
    request = scene_request_create(session=opening, by=player, scene_player=pc, place="Tower")

    scene = scene_start(
        session=opening,
        by=gm,
        scene_request=request,
        master=True,
        place="Cellar",
        purpose="Hide the map",
    )

    assert (scene.is_master, scene.place) == (True, "Cellar")


def test_gm_keeps_a_scene_request_for_later_then_starts_it(opening, gm, player, pc):
    request = scene_request_create(
        session=opening, by=player, place="Tower", purpose="Ring the bell"
    )
    scene_start(
        session=opening, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )

    kept = scene_request_decide(session=opening, by=gm, request_id=request.pk, keep=True)
    scene_end(session=opening, by=gm)
    scene = scene_start(session=opening, by=gm, scene_request=kept)

    kept.refresh_from_db()
    assert (kept.status, kept.scene) == ("started", scene)


def test_gm_declines_a_scene_request(opening, gm, player):
    request = scene_request_decide(
        session=opening,
        by=gm,
        request_id=scene_request_create(session=opening, by=player, place="Tower").pk,
        keep=False,
    )

    event = TimelineEvent.objects.get(session=opening, kind="scene_request_decided")
    assert (request.status, event.payload["status"]) == ("declined", "declined")
    with pytest.raises(ValidationError):
        scene_start(session=opening, by=gm, scene_request=request)
    assert not Scene.objects.exists()


def test_player_decides_a_scene_request_refused(opening, player):
    request = scene_request_create(session=opening, by=player, place="Tower")

    with pytest.raises(PermissionDenied):
        scene_request_decide(session=opening, by=player, request_id=request.pk, keep=False)


def test_scene_request_of_another_session_refused(opening, gm, player, table):
    from tests.factories import GameSessionFactory

    other = main_play_start(GameSessionFactory(table=table), gm)
    request = scene_request_create(session=opening, by=player, place="Tower")

    with pytest.raises(ValidationError):
        scene_request_decide(session=other, by=gm, request_id=request.pk, keep=False)


def test_stage_shows_scene_requests_and_counts_them_for_the_gm(opening, gm, player):
    other = MembershipFactory(table=opening.table, user=UserFactory(username="ren")).user
    scene_request_create(session=opening, by=player, place="Tower")
    kept = scene_request_create(session=opening, by=other, purpose="A duel")
    scene_request_decide(session=opening, by=gm, request_id=kept.pk, keep=True)

    as_gm = stage_context(opening, gm, True)
    as_player = stage_context(opening, player, False)

    assert [row[0].status for row in as_gm["scene_requests"]] == ["pending", "kept"]
    assert as_gm["decisions"] == 1
    assert as_gm["scene_requests"][0][1] == {"start": True, "keep": True, "decline": True}
    assert as_player["scene_requests"][0][1] == {"start": False, "keep": False, "decline": False}


def test_gm_starting_a_scene_from_a_request_without_a_purpose_is_asked_for_one(
    opening, gm, player, pc
):
    request = scene_request_create(session=opening, by=player, scene_player=pc, place="Tower")

    with pytest.raises(ValidationError) as refused:
        scene_start(session=opening, by=gm, scene_request=request)

    request.refresh_from_db()
    assert "Say what the scene is for" in refused.value.message_dict["purpose"][0]
    assert request.status == SceneRequest.Status.PENDING
