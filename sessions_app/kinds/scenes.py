"""Kinds of main play's structure: phases, scenes, who is on stage, and handouts."""

from typing import Literal, NotRequired, TypedDict

from .dice import SAMPLE_PROOF, DicePlace, DiceProof
from .registry import Kind, LogPlace, Panel, Topic, kind_register

# "from" is a keyword: the class syntax cannot declare it.
PhaseChanged = TypedDict("PhaseChanged", {"from": str, "to": str})


class PlannedScene(TypedDict):
    scene_id: int
    number: int
    phase: str
    title: str
    place: str
    purpose: str
    master: bool
    scene_player: str  # empty in a master scene
    scene_player_id: int | None


class ContinuousScene(TypedDict):
    """Main play without scenes (a profile may allow it): one scene from opening to ending."""

    scene_id: int
    number: int
    phase: str
    title: str
    continuous: bool
    on_stage: list[str]


class SceneEnded(TypedDict):
    scene_id: int
    number: int
    title: str


class SceneBackgroundChanged(TypedDict):
    scene_id: int
    number: int
    shown: bool  # false when the GM took the background away


class BackstageNote(TypedDict):
    scene_id: int
    number: int
    text: str


class CharacterEntered(TypedDict):
    character: str
    character_id: int
    way: Literal["scene_player", "companion", "entry", "gm"]
    scene_number: int


class CharacterExited(TypedDict):
    character: str
    character_id: int
    asked: bool  # the player asked to exit; otherwise the GM took the character off stage
    scene_number: int


class StageRequest(TypedDict):
    request_id: int
    request_kind: Literal["companion", "entry", "exit"]
    status: str
    character: str
    character_id: int


class EntryCheck(StageRequest):
    condition: Literal["check"]
    met: bool


class EntryCost(StageRequest):
    condition: Literal["cost"]
    resource: str
    amount: str
    faces: list[int]
    rolled: int
    before: int
    after: int
    met: bool
    proof: NotRequired[DiceProof]  # a rolled cost's proof
    # Paid from a hidden resource: its numbers are for the GM and `owner_id` (the
    # character's player) alone.
    hidden: NotRequired[bool]
    owner_id: NotRequired[int | None]


class EntryCostWithheld(StageRequest):
    """An entry cost paid from a hidden resource, as everyone but its owner and the GM sees
    it: which resource paid, without a number (the proof only says which key it used)."""

    condition: Literal["cost"]
    resource: str
    met: bool
    withheld: Literal[True]
    proof: NotRequired[DicePlace]


class AfterSceneRow(TypedDict):
    character: str
    character_id: int
    resource: str
    amount: str
    faces: list[int]
    rolled: int
    before: int
    after: int
    hidden: NotRequired[bool]
    owner_id: NotRequired[int | None]


class AfterSceneRowWithheld(TypedDict):
    character: str
    character_id: int
    resource: str
    withheld: Literal[True]


class AfterScene(TypedDict):
    scene_number: int
    rows: list[AfterSceneRow | AfterSceneRowWithheld]
    # Every row's faces, in row order, from one roll key; only its place when a row's
    # numbers are withheld from the reader (the faces would tell them).
    proof: NotRequired[DiceProof | DicePlace]


_WITHHELD = ("amount", "faces", "rolled", "before", "after", "hidden", "owner_id")


def _sees_numbers(part: dict, reader_id: int | None) -> bool:
    return not part.get("hidden") or (reader_id is not None and part.get("owner_id") == reader_id)


def _withhold(part: dict) -> dict:
    return {key: value for key, value in part.items() if key not in _WITHHELD} | {"withheld": True}


def _proof_placed(payload: dict) -> dict:
    proof = payload.get("proof")
    if isinstance(proof, dict) and "key" in proof:
        return {**payload, "proof": {"epoch": proof["epoch"], "index": proof["index"]}}
    return payload


def _entry_condition_redact(payload: dict, reader_id: int | None) -> dict:
    if payload.get("condition") != "cost" or _sees_numbers(payload, reader_id):
        return payload
    return _proof_placed(_withhold(payload))


def _entry_condition_owners(payload: dict) -> list[int]:
    owner = payload.get("owner_id")
    return [owner] if payload.get("hidden") and isinstance(owner, int) else []


def _after_scene_redact(payload: dict, reader_id: int | None) -> dict:
    rows = payload.get("rows") or []
    if all(_sees_numbers(row, reader_id) for row in rows):
        return payload
    shown = [row if _sees_numbers(row, reader_id) else _withhold(row) for row in rows]
    return _proof_placed({**payload, "rows": shown})


def _after_scene_owners(payload: dict) -> list[int]:
    return [
        row["owner_id"]
        for row in payload.get("rows") or []
        if row.get("hidden") and isinstance(row.get("owner_id"), int)
    ]


class SceneWish(TypedDict):
    """A player's wish for a scene: who leads it, where, what happens (any may be empty)."""

    request_id: int
    requested_by: str
    scene_player: str
    scene_player_id: int | None
    place: str
    purpose: str


class SceneWishDecided(SceneWish):
    status: Literal["started", "declined", "kept"]
    scene_number: int | None  # the scene started from it


class HandoutRevealed(TypedDict):
    handout_id: int
    title: str
    body: str
    slot: int | None


def _request(kind: str, status: str, **extra) -> dict:
    return {
        "request_id": 7,
        "request_kind": kind,
        "status": status,
        "character": "Ren",
        "character_id": 4,
        **extra,
    }


_WISH = {
    "request_id": 5,
    "requested_by": "aki",
    "scene_player": "Aki",
    "scene_player_id": 3,
    "place": "The clock tower",
    "purpose": "Aki confronts her brother",
}

_ENTRY_COST = {"resource": "HP", "amount": "1D6", "faces": [4], "rolled": 4, "before": 10}
_HIDDEN_ENTRY_COST = {
    **_ENTRY_COST,
    "resource": "MP",
    "hidden": True,
    "owner_id": 12,
    "proof": {**SAMPLE_PROOF, "draws": [[1, 6]], "faces": [4]},
}
_AFTER_SCENE_ROWS = [
    {
        "character": "Ren",
        "character_id": 4,
        "resource": "HP",
        "amount": "1D6",
        "faces": [3],
        "rolled": 3,
        "before": 5,
        "after": 8,
    },
    {
        "character": "Aki",
        "character_id": 3,
        "resource": "HP",
        "amount": "2",
        "faces": [],
        "rolled": 2,
        "before": 9,
        "after": 10,
    },
]
_HIDDEN_AFTER_SCENE = {
    "scene_number": 2,
    "rows": [
        {**_AFTER_SCENE_ROWS[0], "resource": "MP", "hidden": True, "owner_id": 12},
        {**_AFTER_SCENE_ROWS[1], "amount": "1D6", "faces": [2]},
    ],
    "proof": {**SAMPLE_PROOF, "draws": [[1, 6], [1, 6]], "faces": [3, 2]},
}

kind_register(
    Kind(
        name="phase_changed",
        payload=PhaseChanged,
        samples=({"from": "preplay", "to": "opening"}, {"from": "opening", "to": "middle"}),
        panels={Panel.STAGE, Panel.INBOX},
        place=LogPlace.BOUNDARY,
    ),
    Kind(
        name="scene_started",
        payload=PlannedScene | ContinuousScene,
        samples=(
            {
                "scene_id": 1,
                "number": 1,
                "phase": "opening",
                "title": "The reading room",
                "place": "Library",
                "purpose": "Meet the clerk",
                "master": False,
                "scene_player": "Aki",
                "scene_player_id": 3,
            },
            {
                "scene_id": 2,
                "number": 2,
                "phase": "middle",
                "title": "",
                "place": "",
                "purpose": "",
                "master": True,
                "scene_player": "",
                "scene_player_id": None,
            },
            {
                "scene_id": 3,
                "number": 1,
                "phase": "opening",
                "title": "Main play",
                "continuous": True,
                "on_stage": ["Aki", "Ren"],
            },
        ),
        panels={Panel.STAGE, Panel.AUDIO, Panel.INBOX},
        place=LogPlace.BOUNDARY,
    ),
    Kind(
        name="scene_ended",
        payload=SceneEnded,
        samples=({"scene_id": 1, "number": 1, "title": "The reading room"},),
        panels={Panel.STAGE, Panel.AUDIO, Panel.INBOX},
        place=LogPlace.BOUNDARY,
    ),
    Kind(
        name="scene_background_changed",
        payload=SceneBackgroundChanged,
        samples=({"scene_id": 1, "number": 1, "shown": True},),
        panels={Panel.STAGE},
    ),
    Kind(
        name="backstage_note",
        payload=BackstageNote,
        samples=({"scene_id": 1, "number": 1, "text": "The clerk saw them."},),
        topic=Topic.CHAT,
        place=LogPlace.AFTER_SCENE,
    ),
    Kind(
        name="character_entered",
        folds=True,
        payload=CharacterEntered,
        samples=tuple(
            {"character": "Ren", "character_id": 4, "way": way, "scene_number": 1}
            for way in ("scene_player", "companion", "entry", "gm")
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="character_exited",
        folds=True,
        payload=CharacterExited,
        samples=tuple(
            {"character": "Ren", "character_id": 4, "asked": asked, "scene_number": 1}
            for asked in (True, False)
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="stage_requested",
        folds=True,
        gm_sees_more=True,
        payload=StageRequest,
        samples=(
            _request("companion", "asked"),
            _request("entry", "pending"),
            _request("exit", "pending"),
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="stage_request_answered",
        folds=True,
        gm_sees_more=True,
        payload=StageRequest,
        samples=(_request("companion", "pending"), _request("companion", "declined")),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="stage_request_withdrawn",
        folds=True,
        payload=StageRequest,
        samples=(_request("entry", "withdrawn"),),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="stage_request_decided",
        folds=True,
        payload=StageRequest,
        samples=(
            _request("entry", "allowed"),
            _request("entry", "refused"),
            _request("entry", "checking"),
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="entry_condition",
        payload=EntryCheck | EntryCost | EntryCostWithheld,
        samples=(
            _request("entry", "allowed", condition="check", met=True),
            _request("entry", "failed", condition="check", met=False),
            _request("entry", "pending", condition="cost", met=True, after=6, **_ENTRY_COST),
            _request("entry", "failed", condition="cost", met=False, after=10, **_ENTRY_COST),
            _request("entry", "pending", condition="cost", met=True, after=6, **_HIDDEN_ENTRY_COST),
            _entry_condition_redact(
                _request(
                    "entry", "pending", condition="cost", met=True, after=6, **_HIDDEN_ENTRY_COST
                ),
                None,
            ),
        ),
        redact=_entry_condition_redact,
        owners=_entry_condition_owners,
        # A cost paid from a resource moves it as a resource command does.
        panels={Panel.STAGE, Panel.CHARACTERS, Panel.INBOX},
        topic=Topic.CHECKS,
    ),
    Kind(
        name="after_scene",
        payload=AfterScene,
        samples=(
            {"scene_number": 1, "rows": _AFTER_SCENE_ROWS},
            _HIDDEN_AFTER_SCENE,
            _after_scene_redact(_HIDDEN_AFTER_SCENE, None),
        ),
        redact=_after_scene_redact,
        owners=_after_scene_owners,
        panels={Panel.CHARACTERS},
        place=LogPlace.AFTER_SCENE,
    ),
    Kind(
        name="scene_requested",
        folds=True,
        gm_sees_more=True,
        payload=SceneWish,
        samples=(
            _WISH,
            {**_WISH, "scene_player": "", "scene_player_id": None, "purpose": ""},
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="scene_request_decided",
        folds=True,
        payload=SceneWishDecided,
        samples=(
            {**_WISH, "status": "started", "scene_number": 4},
            {**_WISH, "status": "declined", "scene_number": None},
            {**_WISH, "status": "kept", "scene_number": None},
        ),
        panels={Panel.STAGE, Panel.INBOX},
    ),
    Kind(
        name="handout_revealed",
        payload=HandoutRevealed,
        samples=(
            {"handout_id": 1, "title": "A torn map", "body": "North of the well.", "slot": None},
            {"handout_id": 2, "title": "Your secret", "body": "", "slot": 1},
        ),
        panels={Panel.HANDOUTS},
    ),
)
