"""A match's seed is drawn from the session's committed dice and proven once it is over."""

import json

from minigames import services
from sessions_app import log_export
from sessions_app.models import TimelineEvent
from sessions_app.rules import dice_proof
from sessions_app.services.logs import log_import
from tests.matches import dealt


def test_match_seed_is_hidden_while_playing_and_verifies_after(session, player, seat_specs):
    match = dealt(
        services.match_create(session=session, by=player, seats=seat_specs, dice_value="3c" * 16)
    )

    started = TimelineEvent.objects.get(kind="match_started").payload["proof"]
    assert set(started) == {"epoch", "index", "value", "value_source"}
    assert started["value"] == "3c" * 16
    played = json.dumps(list(TimelineEvent.objects.values_list("payload", flat=True)))
    assert str(match.seed) not in played

    services.match_move(match_id=match.pk, by=player, action={"type": "resign"}, version=0)

    finished = TimelineEvent.objects.get(kind="match_finished").payload["proof"]
    commit = TimelineEvent.objects.get(kind="dice_committed").payload
    faces = dice_proof.verify(
        dice_proof.published_proof(finished, commit), bytes.fromhex(commit["root"])
    )
    assert faces == [match.seed + 1]
    assert finished["draws"] == [[1, 2**62]]


def test_match_with_a_chosen_seed_takes_no_key(session, player, seat_specs):
    services.match_create(session=session, by=player, seats=seat_specs, seed=11)

    assert "proof" not in TimelineEvent.objects.get(kind="match_started").payload
    assert not session.dice_epochs.exists()


def test_finished_match_with_a_seed_of_2_to_the_62_exports_and_imports(
    session, gm, player, seat_specs
):
    match = dealt(
        services.match_create(session=session, by=player, seats=seat_specs, dice_value="3c" * 16)
    )
    services.match_move(match_id=match.pk, by=player, action={"type": "resign"}, version=0)
    viewer = log_export.log_viewer(session=session, user=gm)

    imported = log_import(data=log_export.export_json_text(viewer=viewer), by=gm)

    finished = imported.events.get(kind="match_finished").payload["proof"]
    assert finished["faces"] == [match.seed + 1]
    assert finished["draws"] == [[1, 2**62]]
