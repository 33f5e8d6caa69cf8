"""Who may act in the scene: the stage rule that checks, contests and matches share."""

import pytest
from django.core.exceptions import ValidationError

from minigames import services as minigame_services
from minigames.models import Match
from minigames.services import SeatSpec
from sessions_app.models import CheckRequest, Contest
from sessions_app.services.checks import ContestSide, check_request, contest_open
from sessions_app.services.scenes import scene_start, stage_bring_in, stage_take_out
from sessions_app.services.stage import stage_require
from tests.factories import main_play_start


@pytest.fixture
def scene(session, gm, pc, pc2):
    """Main play with a scene where only Aki is on stage."""
    main_play_start(session, gm)
    return scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )


def test_stage_require_outside_main_play_allows_anyone(session, pc2):
    stage_require(session, pc2)


def test_stage_require_main_play_without_scene_refused(session, gm, pc):
    main_play_start(session, gm)

    with pytest.raises(ValidationError):
        stage_require(session, pc)


def test_stage_require_off_stage_refused(scene, session, pc2):
    with pytest.raises(ValidationError):
        stage_require(session, pc2)


def test_stage_require_on_stage_allowed(scene, session, pc):
    stage_require(session, pc)


def test_stage_require_after_exit_refused(scene, session, gm, pc):
    stage_take_out(session=session, by=gm, character=pc)

    with pytest.raises(ValidationError):
        stage_require(session, pc)


def test_check_request_off_stage_pc_in_main_play_refused(scene, session, gm, pc2):
    with pytest.raises(ValidationError):
        check_request(session=session, by=gm, character=pc2, label="Climb", value_name="Strength")

    assert not CheckRequest.objects.exists()


def test_check_request_on_stage_pc_in_main_play_allowed(scene, session, gm, pc):
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )

    assert request.character == pc


def test_check_request_any_pc_in_preplay_allowed(session, gm, pc2):
    request = check_request(
        session=session, by=gm, character=pc2, label="Climb", value_name="Strength"
    )

    assert request.status == CheckRequest.Status.PENDING


def test_check_request_off_stage_npc_refused(scene, session, gm, npc):
    with pytest.raises(ValidationError):
        check_request(session=session, by=gm, character=npc, label="Hide", value=4)


def test_contest_open_with_off_stage_side_refused(scene, session, gm, pc, pc2):
    with pytest.raises(ValidationError):
        contest_open(
            session=session,
            by=gm,
            label="Arm wrestling",
            action=ContestSide(pc, value_name="Strength"),
            reaction=ContestSide(pc2, value_name="Strength"),
        )

    assert not Contest.objects.exists()


def test_contest_open_both_on_stage_allowed(scene, session, gm, pc, pc2):
    stage_bring_in(session=session, by=gm, character=pc2)

    contest = contest_open(
        session=session,
        by=gm,
        label="Arm wrestling",
        action=ContestSide(pc, value_name="Strength"),
        reaction=ContestSide(pc2, value_name="Strength"),
    )

    assert contest.requests.count() == 2


def test_match_create_with_off_stage_character_refused(scene, session, player, pc, pc2):
    with pytest.raises(ValidationError):
        minigame_services.match_create(
            session=session, by=player, seats=[SeatSpec(pc), SeatSpec(pc2)], seed=1
        )

    assert not Match.objects.exists()


def test_match_create_both_on_stage_allowed(scene, session, gm, player, pc, pc2):
    stage_bring_in(session=session, by=gm, character=pc2)

    match = minigame_services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(pc2)], seed=1
    )

    assert match.seat0_user == player
