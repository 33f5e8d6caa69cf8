"""Kinds of what happens to a character in play: its resources going up and down."""

from typing import Literal, TypedDict

from .registry import Kind, Panel, kind_register


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
        ),
        panels={Panel.CHARACTERS},
    ),
)
