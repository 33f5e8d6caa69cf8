"""Kinds of after-play: experience, growth, closing the session, the GM's stamp on its sheet."""

from typing import NotRequired, TypedDict

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
    # The request it answers (the GM's inbox item it links to); older lines have none.
    request_id: NotRequired[int]


class Nothing(TypedDict):
    """The kind says it all."""


class Named(TypedDict):
    name: str


kind_register(
    Kind(
        name="experience_awarded",
        payload=ExperienceAwarded,
        panels={Panel.AFTERPLAY},
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
        panels={Panel.AFTERPLAY},
        samples=(
            {"name": "aki", "amount": -2, "reason": "Counted twice"},
            {"name": "aki", "amount": 1, "reason": "Forgotten line"},
        ),
    ),
    Kind(
        name="growth_requested",
        folds=True,
        gm_sees_more=True,
        payload=GrowthStep,
        panels={Panel.AFTERPLAY, Panel.INBOX},
        samples=(
            {
                "name": "Aki",
                "growth": "+1 Strength",
                "cost": 10,
                "value_name": "Strength",
                "before": 0,
                "after": 0,
                "request_id": 6,
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
        folds=True,
        payload=GrowthStep,
        panels={Panel.AFTERPLAY, Panel.INBOX},
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
        folds=True,
        payload=GrowthStep,
        panels={Panel.AFTERPLAY, Panel.INBOX},
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
    Kind(
        name="session_closed",
        payload=Nothing,
        samples=({},),
        # The GM's sound tools lose the cut-in form: nothing more is shown in a closed room.
        panels={Panel.STAGE, Panel.AFTERPLAY, Panel.INBOX, Panel.AUDIO},
    ),
    Kind(name="session_sheet_signed", payload=Named, samples=({"name": "gm"},)),
)
