"""Kinds and payload parts of verifiable dice (sessions_app.rules.dice_proof)."""

from typing import Literal, NotRequired, TypedDict

from .registry import Kind, Topic, kind_register


class DiceCommitted(TypedDict):
    """A batch of roll keys committed before any of its rolls: the Merkle root of its keys."""

    session: int  # the number the keys were derived with (kept when a log is imported)
    epoch: int
    size: int
    root: str  # hex SHA-256
    procedure: str  # "srs-dice/v1"


class DicePlace(TypedDict):
    """Which key a roll used, without the key: all players learn of a secret roll."""

    epoch: int
    index: int


class DiceDrawn(DicePlace):
    """Which key a draw used and the roller's value, without the key: a match's seed until
    the match ends (the seed fixes every hidden card)."""

    value: str
    value_source: Literal["browser", "server"]
    # A match's seed: each seated player's browser's value, in order (``value`` joins them),
    # and whose each is.
    values: NotRequired[list[str]]
    value_by: NotRequired[list[str]]


class DiceProof(DicePlace):
    """A roll's key with its Merkle path, the roller's value and what they give."""

    key: str
    path: list[str]
    value: str
    value_source: Literal["browser", "server"]
    values: NotRequired[list[str]]
    value_by: NotRequired[list[str]]
    draws: list[list[int]]  # [count, sides] in the order drawn
    faces: list[int]


_ROOT = "9f" * 32

kind_register(
    Kind(
        name="dice_committed",
        payload=DiceCommitted,
        samples=(
            {"session": 4, "epoch": 0, "size": 1024, "root": _ROOT, "procedure": "srs-dice/v1"},
        ),
        topic=Topic.CHECKS,
        record=True,
    ),
)

SAMPLE_PROOF = {
    "epoch": 0,
    "index": 3,
    "key": "ab" * 32,
    "path": ["cd" * 32] * 10,
    "value": "01" * 16,
    "value_source": "browser",
    "draws": [[2, 6]],
    "faces": [4, 3],
}


class DiceReserved(TypedDict):
    """A key set aside for a user's next roll before their browser drew its value."""

    user: str
    expires_at: str  # ISO 8601: after it, the key is published as skipped if unused
    proof: DicePlace


class DiceSkipped(TypedDict):
    """A reserved key nobody rolled with, published with its key once it expired."""

    user: str
    proof: DiceProof


kind_register(
    Kind(
        name="dice_reserved",
        payload=DiceReserved,
        samples=(
            {
                "user": "aki",
                "expires_at": "2026-12-05T19:02:00+00:00",
                "proof": {"epoch": 0, "index": 3},
            },
        ),
        topic=Topic.CHECKS,
        record=True,
    ),
    Kind(
        name="dice_skipped",
        payload=DiceSkipped,
        samples=(
            {
                "user": "aki",
                "proof": {
                    **SAMPLE_PROOF,
                    "value": "",
                    "draws": [],
                    "faces": [],
                    "value_source": "server",
                },
            },
        ),
        topic=Topic.CHECKS,
        record=True,
    ),
)
