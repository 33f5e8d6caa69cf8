"""Kinds of after-play: experience, growth, closing the session, the GM's stamp on its sheet."""

from typing import TypedDict

from .registry import Kind, Panel, kind_register


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


class GrowthStep(TypedDict):
    """Growth asked of, confirmed or declined by the GM; value_name is empty when the growth
    raises no judgement value, and before/after are known once it is confirmed."""

    name: str
    growth: str
    cost: int
    value_name: str
    before: int
    after: int


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
    Kind(
        name="growth_requested",
        payload=GrowthStep,
        samples=(
            {
                "name": "Aki",
                "growth": "+1 Strength",
                "cost": 10,
                "value_name": "Strength",
                "before": 0,
                "after": 0,
            },
            {
                "name": "Aki",
                "growth": "A new contact",
                "cost": 3,
                "value_name": "",
                "before": 0,
                "after": 0,
            },
        ),
    ),
    Kind(
        name="growth_confirmed",
        payload=GrowthStep,
        samples=(
            {
                "name": "Aki",
                "growth": "+1 Strength",
                "cost": 10,
                "value_name": "Strength",
                "before": 3,
                "after": 4,
            },
            {
                "name": "Aki",
                "growth": "A new contact",
                "cost": 3,
                "value_name": "",
                "before": 0,
                "after": 0,
            },
        ),
    ),
    Kind(
        name="growth_declined",
        payload=GrowthStep,
        samples=(
            {
                "name": "Aki",
                "growth": "+1 Strength",
                "cost": 10,
                "value_name": "Strength",
                "before": 0,
                "after": 0,
            },
        ),
    ),
    # The room shows the closed phase and read-only controls from then on.
    Kind(name="session_closed", payload=Nothing, samples=({},), panels={Panel.STAGE}),
    Kind(name="session_sheet_signed", payload=Named, samples=({"name": "gm"},)),
)
