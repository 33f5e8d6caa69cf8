"""The dice of an exported log checked from the file alone, by the import and by the standalone
script (static/verify/verify_dice.py): every kind of tampering a server or a player could try
on a published log is refused by both."""

import copy
import datetime
import json
import time

import pytest
from django.core.exceptions import ValidationError

from sessions_app import log_export
from sessions_app.models import DiceEpoch
from sessions_app.rules import dice_proof
from sessions_app.services import dice as dice_service
from sessions_app.services.checks import (
    check_request,
    check_roll,
    command_roll,
    gm_roll,
    roll_reveal,
)
from sessions_app.services.dice import dice_commit_ahead, dice_reserve, proof_block
from sessions_app.services.logs import MAX_DICE, log_import
from tests.factories import CharacterFactory
from tests.verifier import run_verifier

BROWSER_VALUE = "5a" * 16


@pytest.fixture
def exported(session, gm, player):
    """A GM's export: a check (key 0), a secret NPC roll later revealed (key 1, its index
    published to the players meanwhile), and three roll-box commands (keys 2, 3, 4)."""
    pc = CharacterFactory(
        table=session.table, owner=player, name="Aki", judgement_values={"Strength": 5}
    )
    npc = CharacterFactory(
        table=session.table, owner=gm, kind="npc", name="Guard", judgement_values={"Senses": 4}
    )
    session.characters.add(pc)
    dice_commit_ahead(session=session)
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength", difficulty=9
    )
    check_roll(request_id=request.pk, by=player, dice_value=BROWSER_VALUE)
    secret = gm_roll(session=session, by=gm, character=npc, label="Ambush", value=4, secret=True)
    for text in ("2D6+1", "3D6", "1D20"):
        command_roll(session=session, by=player, text=text, dice_value=BROWSER_VALUE)
    roll_reveal(roll=secret, by=gm)
    viewer = log_export.log_viewer(session=session, user=gm)
    return json.loads(log_export.export_json_text(viewer=viewer))


def _commands(document) -> list[dict]:
    return [event for event in document["events"] if event["kind"] == "command_rolled"]


def _renumbered(document) -> dict:
    for seq, event in enumerate(document["events"], start=1):
        event["seq"] = seq
    return document


def _refused_by_both(tmp_path, document, gm, match: str) -> None:
    """Both refuse; where the keys are not accounted for, both name the index."""
    with pytest.raises(ValidationError, match=match):
        log_import(data=json.dumps(document), by=gm)
    result = run_verifier(tmp_path, document)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "DOES NOT VERIFY" in result.stdout
    if match.startswith("key "):
        assert match in result.stdout


def _flip(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def test_untouched_export_imports_and_verifies(tmp_path, exported, gm):
    log_import(data=json.dumps(exported), by=gm)

    result = run_verifier(tmp_path, exported)
    assert result.returncode == 0, result.stdout
    assert "All rolls verify." in result.stdout


def test_verifier_refuses_a_changed_face(tmp_path, exported, gm):
    roll = _commands(exported)[0]["payload"]
    roll["faces"][0] = roll["faces"][0] % 6 + 1
    _refused_by_both(tmp_path, exported, gm, "do not verify")


def test_verifier_refuses_a_changed_face_in_the_proof_and_card(tmp_path, exported, gm):
    roll = _commands(exported)[1]["payload"]
    roll["faces"][0] = roll["proof"]["faces"][0] = roll["faces"][0] % 6 + 1
    _refused_by_both(tmp_path, exported, gm, "the dice show")


def test_verifier_refuses_a_changed_key(tmp_path, exported, gm):
    proof = _commands(exported)[0]["payload"]["proof"]
    proof["key"] = _flip(proof["key"])
    _refused_by_both(tmp_path, exported, gm, "not the one committed")


def test_verifier_refuses_a_changed_path_element(tmp_path, exported, gm):
    proof = _commands(exported)[0]["payload"]["proof"]
    proof["path"][3] = _flip(proof["path"][3])
    _refused_by_both(tmp_path, exported, gm, "not the one committed")


def _value_giving_other_faces(proof: dict) -> str:
    """A roller value that gives other faces than the proof's: one value in 36 gives the
    same two dice, and a change that shows nowhere is nothing a verifier could refuse."""
    key = bytes.fromhex(proof["key"])
    for byte in range(256):
        value = f"{byte:02x}" * 16
        if dice_proof.derive_faces(key, value, proof["draws"]) != list(proof["faces"]):
            return value
    raise AssertionError("no value gives other faces")


def test_verifier_refuses_a_changed_roller_value(tmp_path, exported, gm):
    proof = _commands(exported)[0]["payload"]["proof"]
    proof["value"] = _value_giving_other_faces(proof)
    _refused_by_both(tmp_path, exported, gm, "do not verify")


def test_verifier_refuses_a_dropped_roll(tmp_path, exported, gm):
    exported["events"].remove(_commands(exported)[1])
    # A complete log numbered with a gap is refused for that already; the dice say why too.
    with pytest.raises(ValidationError):
        log_import(data=json.dumps(exported), by=gm)
    result = run_verifier(tmp_path, exported)
    assert result.returncode == 1
    assert "key 4 of batch 0 comes where key 3 is next" in result.stdout


def test_verifier_refuses_a_dropped_roll_renumbered(tmp_path, exported, gm):
    exported["events"].remove(_commands(exported)[1])
    _renumbered(exported)
    _refused_by_both(tmp_path, exported, gm, "key 4 of batch 0 comes where key 3 is next")


def test_verifier_refuses_two_rolls_proofs_swapped(tmp_path, exported, gm):
    first, second = _commands(exported)[:2]
    first["payload"], second["payload"] = second["payload"], first["payload"]
    _refused_by_both(tmp_path, exported, gm, "key 3 of batch 0 comes where key 2 is next")


def test_verifier_refuses_a_commitment_moved_after_its_first_roll(tmp_path, exported, gm):
    events = exported["events"]
    commit = next(event for event in events if event["kind"] == "dice_committed")
    first_roll = next(event for event in events if "proof" in event["payload"])
    events.remove(commit)
    events.insert(events.index(first_roll) + 1, commit)
    _renumbered(exported)
    _refused_by_both(tmp_path, exported, gm, "commitment")


def test_verifier_refuses_an_index_used_twice(tmp_path, exported, gm, session):
    # What a server that knows every key could forge: the third command re-uses the second's
    # key with faces recomputed for it, so that each proof verifies on its own.
    second, third = (event["payload"] for event in _commands(exported)[1:3])
    master = bytes(DiceEpoch.objects.get(session=session, number=0).master)
    key = dice_proof.roll_key(master, session.pk, 0, second["proof"]["index"])
    value, draws = third["proof"]["value"], third["proof"]["draws"]
    third["proof"] = {**second["proof"], "value": value, "draws": draws}
    third["faces"] = third["proof"]["faces"] = dice_proof.derive_faces(key, value, draws)
    _refused_by_both(tmp_path, exported, gm, "key 3 of batch 0 is used by two rolls")


def test_verifier_refuses_a_secret_rolls_place_moved(tmp_path, exported, gm):
    twin = next(event for event in exported["events"] if event["kind"] == "secret_roll")
    twin["payload"]["proof"]["index"] = 7
    _refused_by_both(tmp_path, exported, gm, "key 7 of batch 0 comes where key 2 is next")


# --------------------------------------------------------------------------- bounded work


def test_import_refuses_a_proof_drawing_more_than_a_roll_can_fast(exported, gm):
    proof = _commands(exported)[0]["payload"]["proof"]
    proof["draws"] = [[1_000_000, 6]]
    started = time.perf_counter()

    with pytest.raises(ValidationError, match="a roll draws at most 10000"):
        log_import(data=json.dumps(exported), by=gm)
    assert time.perf_counter() - started < 1.0


def test_import_refuses_a_die_larger_than_a_roll_can_draw(exported, gm):
    proof = _commands(exported)[0]["payload"]["proof"]
    proof["draws"] = [[1, 2**40]]
    proof["faces"] = [1]

    with pytest.raises(ValidationError, match="outside what a roll can draw"):
        log_import(data=json.dumps(exported), by=gm)


def test_import_refuses_more_dice_in_all_than_it_checks(exported, gm, session):
    # Forged as only the server could: every proof valid, but too many dice in all.
    template = _commands(exported)[0]
    master = bytes(DiceEpoch.objects.get(session=session, number=0).master)
    events = exported["events"]
    for number in range(MAX_DICE // 10_000 + 1):
        key_index = 5 + number
        event = copy.deepcopy(template)
        faces = dice_proof.derive_faces(
            dice_proof.roll_key(master, session.pk, 0, key_index), BROWSER_VALUE, [[10_000, 6]]
        )
        event["payload"]["roll_id"] = 10_000 + number
        event["payload"]["faces"] = faces
        event["payload"]["proof"] = proof_block(
            session_id=session.pk,
            epoch=0,
            index=key_index,
            value=BROWSER_VALUE,
            value_source="browser",
            draws=[[10_000, 6]],
            faces=faces,
        )
        events.append(event)
    _renumbered(exported)

    with pytest.raises(ValidationError, match="more than 200000 in all"):
        log_import(data=json.dumps(exported), by=gm)


# --------------------------------------------------------------------------- reserved keys


@pytest.fixture
def reserved_then_skipped(session, gm, player, monkeypatch):
    """A key reserved for a roll that never came (published as skipped at the next roll,
    made five minutes later), then that roll."""
    dice_commit_ahead(session=session)
    monkeypatch.setattr(dice_service, "RESERVATION_LIFETIME", datetime.timedelta(0))
    dice_reserve(session=session, by=player)
    command_roll(session=session, by=player, text="2D6", dice_value=BROWSER_VALUE)
    document = json.loads(
        log_export.export_json_text(viewer=log_export.log_viewer(session=session, user=gm))
    )
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=5)
    for event in document["events"]:
        if event["kind"] in ("dice_skipped", "command_rolled"):
            event["created_at"] = later.isoformat()
    return document


def test_verifier_accepts_a_reserved_key_published_as_skipped(tmp_path, reserved_then_skipped, gm):
    log_import(data=json.dumps(reserved_then_skipped), by=gm)
    assert run_verifier(tmp_path, reserved_then_skipped).returncode == 0


def test_verifier_refuses_a_reserved_key_whose_roll_went_missing_without_its_skip(
    tmp_path, reserved_then_skipped, gm
):
    events = reserved_then_skipped["events"]
    events.remove(next(event for event in events if event["kind"] == "dice_skipped"))
    _renumbered(reserved_then_skipped)
    _refused_by_both(
        tmp_path,
        reserved_then_skipped,
        gm,
        "key 0 of batch 0 was reserved, and neither rolled with nor published as skipped",
    )
