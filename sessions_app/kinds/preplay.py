"""Kinds of a session's start and pre-play: the GM's preparation, sheets, order, introductions."""

from typing import Literal, TypedDict

from .registry import Kind, Panel, kind_register


class Titled(TypedDict):
    title: str  # a scenario's title is empty when the GM chose none


class PreparationTicked(TypedDict):
    item: str
    done: bool


class CharacterNamed(TypedDict):
    character: str
    character_id: int


class SheetReturned(CharacterNamed):
    comment: str


class SheetFieldChange(TypedDict):
    what: Literal[
        "name", "concept", "notes", "judgement_value", "resource", "resource_max", "entry"
    ]
    name: str  # the judgement value, resource or sheet entry; empty for the other fields
    before: str
    after: str


class SheetChanged(CharacterNamed):
    changes: list[SheetFieldChange]
    check_withdrawn: bool


class PlayerOrder(TypedDict):
    players: list[str]


class SelfIntroduction(CharacterNamed):
    text: str


class CastChanged(CharacterNamed):
    taking_part: bool


class SlotAssigned(TypedDict):
    character: str
    slot: int | None


kind_register(
    Kind(
        name="cast_changed",
        folds=True,
        payload=CastChanged,
        samples=(
            {"character": "Aki", "character_id": 3, "taking_part": True},
            {"character": "Aki", "character_id": 3, "taking_part": False},
        ),
        panels={Panel.CAST, Panel.INBOX},
    ),
    Kind(name="session_created", payload=Titled, samples=({"title": "The Silent Library"},)),
    Kind(
        name="scenario_chosen",
        folds=True,
        payload=Titled,
        samples=({"title": "The Silent Library"}, {"title": ""}),
        panels={Panel.STAGE},
    ),
    Kind(
        name="preparation_ticked",
        folds=True,
        payload=PreparationTicked,
        samples=({"item": "rulebook", "done": True}, {"item": "tools", "done": False}),
        panels={Panel.STAGE},
    ),
    Kind(
        name="sheet_checked",
        folds=True,
        payload=CharacterNamed,
        samples=({"character": "Aki", "character_id": 3},),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="sheet_returned",
        folds=True,
        payload=SheetReturned,
        samples=({"character": "Aki", "character_id": 3, "comment": "Add a weapon."},),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="sheet_changed",
        folds=True,
        payload=SheetChanged,
        samples=(
            {
                "character": "Aki",
                "character_id": 3,
                "changes": [
                    {"what": "judgement_value", "name": "Reflexes", "before": "4", "after": "6"},
                    {"what": "concept", "name": "", "before": "Clerk", "after": "Librarian"},
                    {"what": "entry", "name": "Weapon", "before": "", "after": "Knife"},
                ],
                "check_withdrawn": True,
            },
            {
                "character": "Aki",
                "character_id": 3,
                "changes": [{"what": "resource", "name": "HP", "before": "10", "after": "7"}],
                "check_withdrawn": False,
            },
        ),
        panels={Panel.STAGE, Panel.CHARACTERS, Panel.INBOX},
    ),
    Kind(
        name="sheet_check_withdrawn",
        folds=True,
        payload=CharacterNamed,
        samples=({"character": "Aki", "character_id": 3},),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="player_order_changed",
        folds=True,
        payload=PlayerOrder,
        samples=({"players": ["aki", "ren"]},),
        panels={Panel.STAGE},
    ),
    Kind(
        name="self_introduction",
        payload=SelfIntroduction,
        samples=(
            {"character": "Aki", "character_id": 3, "text": "A librarian who fears\nnothing."},
            {"character": "Aki", "character_id": 3, "text": ""},
        ),
        panels={Panel.STAGE},
    ),
    Kind(
        name="slot_assigned",
        folds=True,
        payload=SlotAssigned,
        samples=({"character": "Aki", "slot": 1}, {"character": "Aki", "slot": None}),
        panels={Panel.STAGE},
    ),
)
