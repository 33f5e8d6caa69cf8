"""Kinds of after-play: experience, closing the session, the GM's stamp on its sheet."""

from typing import TypedDict

from .registry import Kind, kind_register


class ExperienceTotal(TypedDict):
    user_id: int
    name: str
    total: int
    gm: bool


class ExperienceAwarded(TypedDict):
    totals: list[ExperienceTotal]


class ExperienceCorrected(TypedDict):
    name: str
    amount: int
    reason: str


class Nothing(TypedDict):
    """The kind says it all."""


class Named(TypedDict):
    name: str


kind_register(
    Kind(
        name="experience_awarded",
        payload=ExperienceAwarded,
        samples=(
            {
                "totals": [
                    {"user_id": 2, "name": "aki", "total": 7, "gm": False},
                    {"user_id": 1, "name": "gm", "total": 5, "gm": True},
                ]
            },
        ),
    ),
    Kind(
        name="experience_corrected",
        payload=ExperienceCorrected,
        samples=(
            {"name": "aki", "amount": -2, "reason": "Counted twice"},
            {"name": "aki", "amount": 1, "reason": "Forgotten line"},
        ),
    ),
    Kind(name="session_closed", payload=Nothing, samples=({},)),
    Kind(name="session_sheet_signed", payload=Named, samples=({"name": "gm"},)),
)
