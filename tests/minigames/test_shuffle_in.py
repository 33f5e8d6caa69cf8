"""A match's seed takes a value from every seated player's browser, not from its starter's
alone: the cards are dealt once the last one has shuffled in, and the proof lists them all."""

import copy
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from minigames import services
from minigames.models import Match
from minigames.room import render_board
from minigames.services import SeatSpec
from sessions_app import log_export
from sessions_app.models import Membership, Phase, TimelineEvent
from sessions_app.rules import dice_proof
from sessions_app.services import dice as dice_service
from sessions_app.services.logs import log_import
from tests.clients import signed_in_client
from tests.factories import CharacterFactory
from tests.verifier import run_verifier

AKI_VALUE = "a1" * 16
REN_VALUE = "b2" * 16


@pytest.fixture
def waiting(session, player, pcs):
    """Aki's player seats Aki against Ren: the deal waits for Ren's player's browser."""
    aki, ren = pcs
    return services.match_create(
        session=session, by=player, seats=[SeatSpec(aki), SeatSpec(ren)], dice_value=AKI_VALUE
    )


def _finished(match, by):
    services.match_move(match_id=match.pk, by=by, action={"type": "resign"}, version=0)
    return Match.objects.get(pk=match.pk)


def _export(session, gm) -> dict:
    viewer = log_export.log_viewer(session=session, user=gm)
    return json.loads(log_export.export_json_text(viewer=viewer))


def test_a_match_between_two_players_waits_for_the_second_seats_value(waiting, second_player):
    assert waiting.status == Match.Status.WAITING
    assert waiting.state == {}
    started = TimelineEvent.objects.get(kind="match_started").payload
    assert started["proof"]["value"] == AKI_VALUE
    assert started["waiting_for"] == ["ren"]
    assert services.match_waiting_for(waiting, second_player)


def test_the_last_value_deals_from_both_values_joined(waiting, session, second_player):
    dealt = services.match_shuffle_in(match_id=waiting.pk, by=second_player, dice_value=REN_VALUE)

    assert dealt.status == Match.Status.SETUP and dealt.state
    proof = TimelineEvent.objects.get(kind="match_dealt").payload["proof"]
    assert proof["values"] == [AKI_VALUE, REN_VALUE]
    assert proof["value_by"] == ["player", "ren"]
    assert proof["value"] == AKI_VALUE + REN_VALUE and proof["value_source"] == "browser"
    draw = dice_service.draw_at(
        session_id=session.pk,
        epoch=proof["epoch"],
        index=proof["index"],
        value=AKI_VALUE + REN_VALUE,
        value_source="browser",
    )
    assert dealt.seed == draw.source.randint(0, services.SEED_LIMIT - 1)
    played = json.dumps(list(TimelineEvent.objects.values_list("payload", flat=True)))
    assert str(dealt.seed) not in played


def test_a_shuffled_matchs_seed_verifies_with_its_values_and_not_without(
    waiting, player, second_player
):
    services.match_shuffle_in(match_id=waiting.pk, by=second_player, dice_value=REN_VALUE)
    match = _finished(waiting, player)

    finished = TimelineEvent.objects.get(kind="match_finished").payload["proof"]
    commit = TimelineEvent.objects.get(kind="dice_committed").payload
    root = bytes.fromhex(commit["root"])
    assert dice_proof.verify(dice_proof.published_proof(finished, commit), root) == [match.seed + 1]
    assert finished["values"] == [AKI_VALUE, REN_VALUE]
    swapped = {**finished, "values": [REN_VALUE, AKI_VALUE]}
    with pytest.raises(dice_proof.ProofError, match="values joined"):
        dice_proof.verify(dice_proof.published_proof(swapped, commit), root)


def test_a_move_before_the_deal_is_refused(waiting, player):
    with pytest.raises(ValidationError, match="waiting for ren to shuffle in"):
        services.match_move(match_id=waiting.pk, by=player, action={"type": "resign"}, version=0)

    assert Match.objects.get(pk=waiting.pk).status == Match.Status.WAITING


def test_only_a_seated_player_still_owed_shuffles_in(waiting, gm, player, second_player):
    with pytest.raises(PermissionDenied):
        services.match_shuffle_in(match_id=waiting.pk, by=gm)
    with pytest.raises(ValidationError, match="already in"):
        services.match_shuffle_in(match_id=waiting.pk, by=player)
    with pytest.raises(ValidationError, match="malformed"):
        services.match_shuffle_in(match_id=waiting.pk, by=second_player, dice_value="zz")

    unchanged = Match.objects.get(pk=waiting.pk)
    assert unchanged.status == Match.Status.WAITING
    assert unchanged.shuffle["values"] == [AKI_VALUE]
    services.match_shuffle_in(match_id=waiting.pk, by=second_player)
    with pytest.raises(ValidationError, match="already in"):
        services.match_shuffle_in(match_id=waiting.pk, by=second_player)


def test_a_gm_seating_two_players_waits_for_both(session, gm, pcs):
    match = services.match_create(session=session, by=gm, seats=[SeatSpec(pc) for pc in pcs])

    assert TimelineEvent.objects.get(kind="match_started").payload["waiting_for"] == [
        "player",
        "ren",
    ]
    services.match_shuffle_in(match_id=match.pk, by=pcs[1].owner, dice_value=REN_VALUE)
    match = services.match_shuffle_in(match_id=match.pk, by=pcs[0].owner, dice_value=AKI_VALUE)

    assert match.status == Match.Status.SETUP
    proof = TimelineEvent.objects.get(kind="match_dealt").payload["proof"]
    assert proof["value_by"] == ["gm", "ren", "player"]
    assert proof["values"][1:] == [REN_VALUE, AKI_VALUE]


def test_nobody_else_seated_means_the_deal_is_at_once(session, gm, player, pcs, npc):
    against_computer = services.match_create(
        session=session,
        by=player,
        seats=[SeatSpec(pcs[0]), SeatSpec(npc, computer=True)],
        dice_value=AKI_VALUE,
    )
    # The GM plays both seats: one person, one value.
    clerk = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Clerk")
    both_gms = services.match_create(
        session=session, by=gm, seats=[SeatSpec(npc), SeatSpec(clerk)], dice_value=REN_VALUE
    )

    for match in (against_computer, both_gms):
        assert match.status != Match.Status.WAITING and match.shuffle == {}
    assert not TimelineEvent.objects.filter(kind="match_dealt").exists()


def test_a_match_stopped_before_its_deal_publishes_its_key_with_nothing_drawn(
    tmp_path, waiting, session, gm
):
    services.matches_stop(session=session, by=gm)
    event = TimelineEvent.objects.get(kind="match_finished")
    page = signed_in_client(gm).get(reverse("dice_verify", args=[session.pk, event.seq]))
    assert "joined in this order" in page.content.decode()
    assert page.context["seat_values"] == [("player", AKI_VALUE)]

    finished = TimelineEvent.objects.get(kind="match_finished").payload["proof"]
    assert finished["draws"] == [] and finished["faces"] == []
    assert finished["values"] == [AKI_VALUE]
    commit = TimelineEvent.objects.get(kind="dice_committed").payload
    assert (
        dice_proof.verify(
            dice_proof.published_proof(finished, commit), bytes.fromhex(commit["root"])
        )
        == []
    )
    stopped = Match.objects.get(pk=waiting.pk)
    assert "stopped" in render_board(stopped, session.table.gm)
    result = run_verifier(tmp_path, _export(session, gm))
    assert result.returncode == 0, result.stdout


def test_an_exported_shuffled_match_verifies_and_a_changed_value_is_refused(
    tmp_path, waiting, session, gm, player, second_player
):
    services.match_shuffle_in(match_id=waiting.pk, by=second_player, dice_value=REN_VALUE)
    _finished(waiting, player)
    document = _export(session, gm)
    log_import(data=json.dumps(document), by=gm)
    assert run_verifier(tmp_path, document).returncode == 0

    changed = copy.deepcopy(document)
    for event in changed["events"]:
        if event["kind"] == "match_finished":
            event["payload"]["proof"]["values"][1] = "c3" * 16
    with pytest.raises(ValidationError, match="values joined"):
        log_import(data=json.dumps(changed), by=gm)
    result = run_verifier(tmp_path, changed)
    assert result.returncode == 1 and "values joined" in result.stdout


def test_the_waiting_board_offers_shuffle_in_to_the_seat_owed_alone(
    waiting, gm, player, second_player
):
    owed = render_board(waiting, second_player)
    assert "Shuffle in" in owed and 'data-version="-1"' in owed
    for user in (gm, player):
        board = render_board(waiting, user)
        assert "Shuffle in" not in board
        assert "The deal waits for ren to shuffle in" in board


def test_shuffle_in_view_deals_or_answers_the_board_with_its_refusal(
    waiting, second_player, player
):
    client = signed_in_client(second_player)
    url = reverse("match_shuffle_in", args=[waiting.pk])

    refused = signed_in_client(player).post(url, {"dice_value": AKI_VALUE}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200
    assert "already in" in refused.content.decode()
    assert f'id="match-{waiting.pk}"' in refused.content.decode()
    answer = client.post(url, {"dice_value": REN_VALUE}, HTTP_HX_REQUEST="true")

    # The dealt board comes over the socket, to this page as to every other.
    assert answer.status_code == 204
    assert Match.objects.get(pk=waiting.pk).status == Match.Status.SETUP


def test_a_match_waiting_when_play_ends_takes_no_more_values(waiting, session, second_player):
    session.phase = Phase.AFTER_PLAY
    session.save(update_fields=["phase"])

    with pytest.raises(ValidationError, match="main play is over"):
        services.match_shuffle_in(match_id=waiting.pk, by=second_player)


def test_a_seated_player_who_left_the_table_cannot_shuffle_in(waiting, session, second_player):
    Membership.objects.filter(table=session.table, user=second_player).delete()

    with pytest.raises(PermissionDenied):
        services.match_shuffle_in(match_id=waiting.pk, by=second_player)
    assert Match.objects.get(pk=waiting.pk).status == Match.Status.WAITING
