import hashlib
import hmac

import pytest

from sessions_app.rules import dice_proof
from sessions_app.rules.dice_proof import DiceSource, ProofError, RollProof
from tests.verifier import run_verifier

MASTER = bytes(range(32))
OTHER_MASTER = bytes(range(1, 33))
SESSION = 7
VALUE = "00112233445566778899aabbccddeeff"
SIZE = 8
# When a hand-made log says its events were written: every export gives each event its time.
WRITTEN_AT = "2026-12-01T20:00:00+00:00"


def proof_for(index, draws=((2, 6),), *, master=MASTER, session=SESSION, value=VALUE):
    key = dice_proof.roll_key(master, session, 0, index)
    return RollProof(
        session=session,
        epoch=0,
        index=index,
        size=SIZE,
        key=key,
        path=tuple(dice_proof.proof_path(master, session, 0, index, SIZE)),
        value=value,
        draws=tuple(draws),
        faces=tuple(dice_proof.derive_faces(key, value, draws)),
    )


def test_roll_key_is_the_hmac_of_its_place():
    expected = hmac.new(MASTER, b"srs-dice/v1/key|7|0|3", hashlib.sha256).digest()
    assert dice_proof.roll_key(MASTER, SESSION, 0, 3) == expected


def test_first_face_follows_the_written_procedure():
    key = dice_proof.roll_key(MASTER, SESSION, 0, 0)
    block = hmac.new(key, f"srs-dice/v1/faces|{VALUE}|0".encode(), hashlib.sha256).digest()
    word = int.from_bytes(block[:8], "big")
    # 2**64 mod 6 = 4: only the four highest words are skipped, and this one is not among them.
    assert word < 2**64 - 4
    assert dice_proof.derive_faces(key, VALUE, [(1, 6)]) == [1 + word % 6]


# Pinned once from the procedure: a change to it (on purpose or not) breaks old proofs.
@pytest.mark.parametrize(
    ("index", "value", "draws", "faces"),
    [
        (0, VALUE, [(2, 6)], [4, 6]),
        (1, VALUE, [(2, 6)], [3, 5]),
        (0, "ff" * 16, [(2, 6)], [6, 5]),
        (2, VALUE, [(1, 10), (1, 20)], [2, 14]),
        (3, VALUE, [(1, 2**62)], [2918148242472953164]),
        (4, VALUE, [(5, 6)], [1, 5, 4, 3, 1]),
    ],
)
def test_derive_faces_known_answers(index, value, draws, faces):
    key = dice_proof.roll_key(MASTER, SESSION, 0, index)
    assert dice_proof.derive_faces(key, value, draws) == faces


def test_words_at_or_above_the_limit_are_skipped():
    # 3 * 2**60 sides: one word in 16 lies at or above the limit and must be skipped.
    sides = 3 * 2**60
    limit = 2**64 - 2**64 % sides
    key = dice_proof.roll_key(MASTER, SESSION, 0, 5)
    words = []
    for block in range(8):
        digest = hmac.new(
            key, f"srs-dice/v1/faces|{VALUE}|{block}".encode(), hashlib.sha256
        ).digest()
        words += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
    kept = [1 + word % sides for word in words if word < limit]
    assert len(kept) < len(words), "these words should include one above the limit"
    assert dice_proof.derive_faces(key, VALUE, [(len(kept), sides)]) == kept


@pytest.mark.parametrize("sides", [6, 10, 7, 100])
def test_faces_are_uniform_by_chi_square(sides):
    key = dice_proof.roll_key(MASTER, SESSION, 0, 6)
    per_face = 2000
    faces = dice_proof.derive_faces(key, VALUE, [(per_face * sides, sides)])
    counts = [0] * sides
    for face in faces:
        counts[face - 1] += 1
    chi_square = sum((count - per_face) ** 2 / per_face for count in counts)
    # Upper 0.1 % points of chi-square for sides - 1 degrees of freedom.
    critical = {6: 20.52, 10: 27.88, 7: 22.46, 100: 148.23}[sides]
    assert chi_square < critical
    assert min(faces) == 1 and max(faces) == sides


def test_source_records_its_draws_and_replays_them():
    key = dice_proof.roll_key(MASTER, SESSION, 0, 2)
    source = DiceSource(key=key, value=VALUE)
    rolled = [source.randint(1, 6), source.randint(1, 6), *source.draw(1, 20), source.randint(0, 9)]
    assert source.draws == [[2, 6], [1, 20], [1, 10]]
    replayed = dice_proof.derive_faces(key, VALUE, source.draws)
    assert replayed[:3] == rolled[:3] and replayed[3] - 1 == rolled[3]


def test_commitment_is_the_root_every_path_climbs_to():
    root = dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    for index in range(SIZE):
        key = dice_proof.roll_key(MASTER, SESSION, 0, index)
        path = dice_proof.proof_path(MASTER, SESSION, 0, index, SIZE)
        assert len(path) == 3
        assert dice_proof.root_from_path(SESSION, 0, index, key, path) == root


def test_verify_returns_the_faces_of_an_honest_roll():
    proof = proof_for(3)
    root = dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    assert dice_proof.verify(proof, root) == list(proof.faces)


def tampered_proofs():
    honest = proof_for(3)
    changed_face = ((honest.faces[0] % 6) + 1, honest.faces[1])
    other_session_key = dice_proof.roll_key(MASTER, SESSION + 1, 0, 3)
    other_index_key = dice_proof.roll_key(MASTER, SESSION, 0, 4)
    return {
        "changed face": (honest.__class__(**{**honest.__dict__, "faces": changed_face}), None),
        "changed commitment": (honest, dice_proof.commitment(OTHER_MASTER, SESSION, 0, SIZE)),
        "key from another session": (
            honest.__class__(**{**honest.__dict__, "key": other_session_key}),
            None,
        ),
        "key from another roll": (
            honest.__class__(**{**honest.__dict__, "key": other_index_key}),
            None,
        ),
        "another roll's index": (honest.__class__(**{**honest.__dict__, "index": 2}), None),
        "changed roller value": (honest.__class__(**{**honest.__dict__, "value": "ab" * 16}), None),
    }


@pytest.mark.parametrize("case", list(tampered_proofs()))
def test_verify_refuses_tampering(case):
    proof, root = tampered_proofs()[case]
    root = root or dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    # A changed roller value still climbs to the root, but its faces differ (or, 1 time in
    # 36, match by chance: this value was checked not to).
    with pytest.raises(ProofError):
        dice_proof.verify(proof, root)


@pytest.mark.parametrize("value", ["", None])
def test_clean_value_treats_nothing_as_absent(value):
    assert dice_proof.clean_value(value) is None


@pytest.mark.parametrize("value", ["xyz", "ab" * 8, "ab" * 65, "12 34"])
def test_clean_value_refuses_malformed_values(value):
    with pytest.raises(ValueError):
        dice_proof.clean_value(value)


# --------------------------------------------------------------------------- standalone verifier


def export_with(proof: RollProof, root: bytes, *, shown_faces=None) -> dict:
    dice = {
        "epoch": proof.epoch,
        "index": proof.index,
        "key": proof.key.hex(),
        "path": [step.hex() for step in proof.path],
        "value": proof.value,
        "value_source": "browser",
        "draws": [list(draw) for draw in proof.draws],
        "faces": list(proof.faces),
    }
    commit = {
        "session": proof.session,
        "epoch": 0,
        "size": SIZE,
        "root": root.hex(),
        "procedure": "srs-dice/v1",
    }
    return {
        "events": [
            {"seq": 1, "kind": "dice_committed", "payload": commit, "created_at": WRITTEN_AT},
            {
                "seq": 2,
                "kind": "command_rolled",
                "created_at": WRITTEN_AT,
                "payload": {
                    "faces": list(proof.faces if shown_faces is None else shown_faces),
                    "proof": dice,
                },
            },
        ]
    }


def test_standalone_verifier_accepts_an_honest_log(tmp_path):
    root = dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    # The batch's first key: the keys before a roll are accounted for, each by a roll.
    result = run_verifier(tmp_path, export_with(proof_for(0, ((1, 10), (2, 6))), root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified" in result.stdout


@pytest.mark.parametrize("case", list(tampered_proofs()))
def test_standalone_verifier_refuses_tampering(tmp_path, case):
    proof, root = tampered_proofs()[case]
    root = root or dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    result = run_verifier(tmp_path, export_with(proof, root))
    assert result.returncode == 1, result.stdout
    assert "DOES NOT VERIFY" in result.stdout


def test_standalone_verifier_refuses_a_card_showing_other_faces(tmp_path):
    proof = proof_for(3)
    root = dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    shown = [7 - face for face in proof.faces]
    result = run_verifier(tmp_path, export_with(proof, root, shown_faces=shown))
    assert result.returncode == 1, result.stdout


def test_standalone_verifier_refuses_a_commitment_published_after_the_roll(tmp_path):
    root = dice_proof.commitment(MASTER, SESSION, 0, SIZE)
    document = export_with(proof_for(3), root)
    document["events"][0]["seq"] = 3
    result = run_verifier(tmp_path, document)
    assert result.returncode == 1, result.stdout
