"""Kinds of what happens to a character in play: its resources going up and down."""

from typing import Literal, NotRequired, TypedDict

from .dice import SAMPLE_PROOF, DicePlace, DiceProof
from .registry import Kind, Panel, Topic, kind_register


class ResourceChanged(TypedDict):
    character: str
    character_id: int
    resource: str
    op: Literal["+", "-", "="]
    amount: str  # as typed: "3", "1D6"
    faces: list[int]  # the dice of a rolled amount; empty for a number
    before: int
    after: int
    max: int
    proof: NotRequired[DiceProof]  # a rolled amount's dice, drawn like any roll's


class HiddenRoll(TypedDict):
    """What the other players learn of a hidden resource's roll: which key it used."""

    character: str
    shows_seq: int  # the event that shows the roll to those who may see it
    proof: DicePlace


kind_register(
    Kind(
        name="resource_changed",
        payload=ResourceChanged,
        samples=(
            {
                "character": "Aki",
                "character_id": 3,
                "resource": "HP",
                "op": "-",
                "amount": "3",
                "faces": [],
                "before": 10,
                "after": 7,
                "max": 10,
            },
            {
                "character": "Aki",
                "character_id": 3,
                "resource": "MP",
                "op": "+",
                "amount": "1D6",
                "faces": [4],
                "before": 2,
                "after": 6,
                "max": 8,
            },
            {
                "character": "Ren",
                "character_id": 4,
                "resource": "HP",
                "op": "=",
                "amount": "12",
                "faces": [],
                "before": 5,
                "after": 12,
                "max": 12,
            },
            {
                "character": "Aki",
                "character_id": 3,
                "resource": "MP",
                "op": "+",
                "amount": "2D6",
                "faces": [4, 3],
                "before": 2,
                "after": 8,
                "max": 8,
                "proof": SAMPLE_PROOF,
            },
        ),
        panels={Panel.CHARACTERS},
    ),
    Kind(
        name="hidden_roll",
        payload=HiddenRoll,
        samples=({"character": "Aki", "shows_seq": 12, "proof": {"epoch": 0, "index": 4}},),
        topic=Topic.CHECKS,
        notice=True,
    ),
)
