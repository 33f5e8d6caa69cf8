"""Kinds of checks, rolls and contests."""

from typing import Literal, NotRequired, TypedDict

from ..rules import srs_commands
from .dice import SAMPLE_PROOF, DicePlace, DiceProof
from .registry import Kind, Panel, Topic, kind_register


class CheckRequested(TypedDict):
    request_id: int
    character: str
    character_id: int
    owner_id: int
    label: str
    value_name: str
    value: int
    gm_modifier: int
    difficulty: int | None  # None for players when the difficulty is secret
    difficulty_secret: bool
    critical: int
    fumble: int
    secret: bool
    contest_id: int | None
    side: str  # "action" or "reaction" in a contest, else empty


class CheckResult(TypedDict):
    """srs_checks.CheckResult.to_dict(): a check's inputs and its verdict."""

    value: int
    dice: list[int] | None  # None for a side that need not roll
    modifier: int
    difficulty: int | None
    critical: int
    fumble: int
    dice_total: int | None
    outcome: str
    achievement: int | None
    success: bool | None


class Modifier(TypedDict):
    label: str
    amount: int


class Roll(TypedDict):
    roll_id: int
    source: Literal["request", "gm", "command"]
    label: str
    character: str  # empty for a roll-box roll made without a character
    character_id: int | None
    roller: str
    faces: list[int]
    modifiers: list[Modifier]
    secret: bool
    difficulty_secret: bool
    # The key and proof of verifiable dice, for those who may see the faces; absent from
    # rolls made before dice were verifiable.
    proof: NotRequired[DiceProof]
    # True for the GM's own roll-box roll: nobody asked the GM, and nobody needs telling.
    by_gm: NotRequired[bool]


class CheckRoll(Roll, CheckResult):
    """A roll for a check the GM asked for (or rolled for an NPC)."""

    request_id: int
    value_name: str
    contest_id: int | None
    side: str


class CommandSum(Roll):
    """A roll-box command that only adds dice up."""

    total: int
    kind: str
    command_modifier: int
    sides: int
    command: str


class DiceGroup(TypedDict):
    """The faces one term of a roll-box command rolled (2D6, 5B6, 3U6, D66 …)."""

    notation: str
    sides: int
    faces: list[int]
    dice: NotRequired[list[list[int]]]  # U dice: each die and its rerolls; NdD66: each pair
    values: NotRequired[list[int]]  # what each die of `dice` counts for


class CommandOutcome(TypedDict):
    """srs_commands.CommandResult.summary(): what a BCDice-style command gave."""

    kind: str  # sum, check, barabara, upper, d66, calc, choice, repeat
    total: int | None  # None for a choice or a repeat
    groups: list[DiceGroup]
    comparison: NotRequired[str]  # >=, >, <=, <, =, <>
    target: NotRequired[int]
    success: NotRequired[bool]  # a sum compared with its target
    successes: NotRequired[int]  # B and U dice compared one by one
    maximum: NotRequired[int]  # U dice without a comparison: the largest die
    threshold: NotRequired[int]  # U dice: rerolled at this face or more
    modifier: NotRequired[int]  # U dice: added to each die
    chosen: NotRequired[list[str]]


class RepeatedCommand(CommandOutcome):
    """One roll of a repeat (x3 …)."""

    notation: str
    check: NotRequired[CheckResult]  # when the repeated command is an SRS check


class CommandRolled(Roll, CommandOutcome):
    """A roll-box command in BCDice's common syntax, with its faces per term."""

    command_modifier: int
    sides: int  # 0 when the dice differ in size or are rerolled
    command: str
    rolls: NotRequired[list[RepeatedCommand]]


class CommandCheck(CommandSum, CheckResult):
    """A roll-box command with a difficulty or a judgement value: a check of its own."""

    groups: NotRequired[list[DiceGroup]]  # events from before BCDice's commands lack it


class RevealedCheckRoll(CheckRoll):
    revealed_by: str


class RevealedCommandSum(CommandSum):
    revealed_by: str


class RevealedCommandCheck(CommandCheck):
    revealed_by: str


class RevealedCommandRolled(CommandRolled):
    revealed_by: str


class SecretRoll(TypedDict):
    """What the other players learn of a secret roll: that it happened."""

    roll_id: int
    character: str
    roller: str
    source: str
    proof: NotRequired[DicePlace]


class RollVoided(TypedDict):
    roll_id: int
    label: str  # empty for a secret roll nobody revealed
    character: str
    reason: str


class CheckCancelled(TypedDict):
    request_id: int
    label: str
    character: str


class ContestSide(TypedDict):
    character: str
    character_id: int
    value_name: str
    value: int
    gm_modifier: int
    # Each side's own values; events from before a side could override them lack both.
    critical: NotRequired[int]
    fumble: NotRequired[int]


class ContestOpened(TypedDict):
    contest_id: int
    label: str
    action: ContestSide
    reaction: ContestSide
    reaction_can_roll: bool
    action_chance: str  # an exact fraction, "613/1296"


class ContestDecided(TypedDict):
    contest_id: int
    label: str
    winner: Literal["action", "reaction"]
    reason: str
    winner_character: str
    action_character: str
    reaction_character: str
    action: CheckResult
    reaction: CheckResult | None  # None when the reaction side need not roll
    # A reaction side that cannot roll: the GM's and its player's modifiers, as a roll has.
    reaction_modifiers: NotRequired[list[Modifier]]


_SUCCESS = {
    "value": 5,
    "dice": [4, 3],
    "modifier": 1,
    "difficulty": 10,
    "critical": 12,
    "fumble": 2,
    "dice_total": 7,
    "outcome": "success",
    "achievement": 13,
    "success": True,
}
_CRITICAL = {
    **_SUCCESS,
    "dice": [6, 6],
    "dice_total": 12,
    "outcome": "critical",
    "achievement": None,
}
_FUMBLE = {
    **_SUCCESS,
    "dice": [1, 1],
    "dice_total": 2,
    "outcome": "fumble",
    "achievement": None,
    "success": False,
}
_NO_ROLL = {
    **_SUCCESS,
    "dice": None,
    "dice_total": None,
    "difficulty": None,
    "outcome": "achieved",
    "achievement": 6,
    "success": None,
}

_ROLL = {
    "roll_id": 11,
    "source": "request",
    "label": "Search the shelves",
    "character": "Aki",
    "character_id": 3,
    "roller": "aki",
    "faces": [4, 3],
    "modifiers": [{"label": "GM modifier", "amount": 1}],
    "secret": False,
    "difficulty_secret": False,
}
_CHECK_ROLL = {
    **_ROLL,
    **_SUCCESS,
    "request_id": 5,
    "value_name": "Perception",
    "contest_id": None,
    "side": "",
}
_CHECK_ROLLS = (
    _CHECK_ROLL,
    {**_CHECK_ROLL, "proof": SAMPLE_PROOF},
    # A secret difficulty, as players see it until the GM reveals it.
    {
        **_CHECK_ROLL,
        "difficulty_secret": True,
        "difficulty": None,
        "outcome": "achieved",
        "success": None,
    },
    # The GM rolling an NPC's side of a contest, with non-standard critical and fumble.
    {
        **_CHECK_ROLL,
        **_CRITICAL,
        "source": "gm",
        "character": "Clerk",
        "roller": "gm",
        "value_name": "",
        "modifiers": [],
        "contest_id": 2,
        "side": "reaction",
        "critical": 11,
        "fumble": 3,
    },
)
_COMMAND_SUM = {
    **_ROLL,
    "source": "command",
    "label": "",
    "character": "",
    "character_id": None,
    "faces": [4],
    "modifiers": [],
    "total": 5,
    "kind": "sum",
    "command_modifier": 1,
    "sides": 6,
    "command": "1D6+1",
}
_COMMAND_ROLLS = (
    _COMMAND_SUM,
    {**_COMMAND_SUM, "roller": "gm", "by_gm": True},
    {**_COMMAND_SUM, "faces": [2, 5, 6], "total": 13, "command": "1D10+1D20", "sides": 20},
    {
        **_COMMAND_SUM,
        **_FUMBLE,
        "faces": [1, 1],
        "total": 4,
        "kind": "check",
        "command_modifier": 2,
        "command": "S2D6+2>=10",
        "value": 0,
        "modifier": 2,
        "secret": True,
    },
    {**_COMMAND_SUM, "proof": {**SAMPLE_PROOF, "draws": [[1, 6]], "faces": [4]}},
)


def _command_rolled(text: str, faces: list[int], label: str = "") -> dict:
    """A roll-box payload as command_roll stores one, decided by the rules themselves."""
    result = srs_commands.roll_command(text, faces)
    command = result.command
    return {
        **_COMMAND_SUM,
        "faces": faces,
        "label": label,
        "secret": command.secret,
        **result.summary(),
        **(result.check.to_dict() if result.check else {}),
        "command_modifier": command.modifier,
        "sides": command.faces,
        "command": ("S" if command.secret else "") + command.notation,
    }


# One of each kind of BCDice's common commands, in the shape they are stored today.
_BCDICE_ROLLS = (
    _command_rolled("2D6+1*2>=8", [3, 4], label="Climb"),
    _command_rolled("3D6>=10", [2, 3, 4]),
    _command_rolled("(2D6+1D4)*2", [5, 3, 4]),
    _command_rolled("3D6/2U", [1, 2, 4]),
    _command_rolled("S5B6>=4", [1, 4, 6, 2, 5]),
    _command_rolled("2B6+3B8", [1, 2, 3, 4, 8]),
    _command_rolled("3U6[6]", [6, 5, 2, 6, 6, 1]),
    _command_rolled("2U6[6]+1>=7", [6, 5, 2]),
    _command_rolled("D66", [5, 2]),
    _command_rolled("2D66", [6, 6, 5, 4]),
    _command_rolled("C(10*3+2)", []),
    _command_rolled("choice[north,south,east] door", [2], label="door"),
    _command_rolled("x3 2D6+1>=8 attack", [6, 6, 3, 4, 1, 1], label="attack"),
    _command_rolled("x2 5B6>=5", [1, 5, 6, 2, 2, 6, 6, 6, 1, 1]),
)

_CHECK_REQUESTED = {
    "request_id": 5,
    "character": "Aki",
    "character_id": 3,
    "owner_id": 2,
    "label": "Search the shelves",
    "value_name": "Perception",
    "value": 5,
    "gm_modifier": 1,
    "difficulty": 10,
    "difficulty_secret": False,
    "critical": 12,
    "fumble": 2,
    "secret": False,
    "contest_id": None,
    "side": "",
}
_SIDE = {"character": "Aki", "character_id": 3, "value_name": "", "value": 5, "gm_modifier": 0}
_CONTEST_DECIDED = {
    "contest_id": 2,
    "label": "Grab the key",
    "winner": "reaction",
    "reason": "higher_achievement",
    "winner_character": "Clerk",
    "action_character": "Aki",
    "reaction_character": "Clerk",
    "action": _SUCCESS,
    "reaction": _CRITICAL,
}

kind_register(
    Kind(
        name="check_requested",
        payload=CheckRequested,
        samples=(
            _CHECK_REQUESTED,
            {
                **_CHECK_REQUESTED,
                "value_name": "",
                "gm_modifier": 0,
                "difficulty": None,
                "difficulty_secret": True,
                "secret": True,
                "contest_id": 2,
                "side": "action",
            },
        ),
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
    ),
    Kind(
        name="check_rolled",
        payload=CheckRoll,
        samples=_CHECK_ROLLS,
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
        gm_sees_more=True,
    ),
    Kind(
        name="command_rolled",
        payload=CommandSum | CommandCheck | CommandRolled,
        samples=_COMMAND_ROLLS + _BCDICE_ROLLS,
        topic=Topic.CHECKS,
        gm_sees_more=True,
    ),
    Kind(
        name="roll_revealed",
        payload=RevealedCheckRoll
        | RevealedCommandSum
        | RevealedCommandCheck
        | RevealedCommandRolled,
        samples=tuple(
            {**roll, "revealed_by": "gm"}
            for roll in (
                _CHECK_ROLL,
                {**_CHECK_ROLL, "proof": SAMPLE_PROOF},
                *_COMMAND_ROLLS[::2],
                *_BCDICE_ROLLS[::3],
            )
        ),
        topic=Topic.CHECKS,
    ),
    Kind(
        name="secret_roll",
        payload=SecretRoll,
        samples=(
            {"roll_id": 11, "character": "Aki", "roller": "aki", "source": "request"},
            {"roll_id": 12, "character": "", "roller": "aki", "source": "command"},
            {
                "roll_id": 13,
                "character": "Aki",
                "roller": "aki",
                "source": "request",
                "proof": {"epoch": 0, "index": 4},
            },
        ),
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
        notice=True,
    ),
    Kind(
        name="roll_voided",
        payload=RollVoided,
        samples=(
            {"roll_id": 11, "label": "Search", "character": "Aki", "reason": "Misclick"},
            {"roll_id": 12, "label": "", "character": "aki", "reason": "Rolled twice"},
        ),
        topic=Topic.CHECKS,
    ),
    Kind(
        name="check_cancelled",
        payload=CheckCancelled,
        samples=({"request_id": 5, "label": "Search the shelves", "character": "Aki"},),
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
    ),
    Kind(
        name="contest_opened",
        payload=ContestOpened,
        samples=(
            {
                "contest_id": 2,
                "label": "Grab the key",
                "action": _SIDE,
                "reaction": {**_SIDE, "character": "Clerk", "character_id": 9, "value": 4},
                "reaction_can_roll": True,
                "action_chance": "613/1296",
            },
            {
                "contest_id": 3,
                "label": "Slip past",
                "action": {**_SIDE, "value_name": "Agility", "gm_modifier": 2},
                "reaction": {**_SIDE, "character": "Guard", "character_id": 8},
                "reaction_can_roll": False,
                "action_chance": "7/12",
            },
            # A table whose critical is 11, and a reaction side with its own values.
            {
                "contest_id": 4,
                "label": "Out-stare",
                "action": {**_SIDE, "critical": 11, "fumble": 2},
                "reaction": {
                    **_SIDE,
                    "character": "Guard",
                    "character_id": 8,
                    "critical": 10,
                    "fumble": 3,
                },
                "reaction_can_roll": True,
                "action_chance": "613/1296",
            },
        ),
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
    ),
    Kind(
        name="contest_decided",
        payload=ContestDecided,
        samples=(
            _CONTEST_DECIDED,
            {
                **_CONTEST_DECIDED,
                "winner": "reaction",
                "reason": "action_fumble",
                "action": _FUMBLE,
                "reaction": None,
            },
            {
                **_CONTEST_DECIDED,
                "winner": "action",
                "reason": "higher_achievement",
                "winner_character": "Aki",
                "reaction": _NO_ROLL,
            },
            {
                **_CONTEST_DECIDED,
                "winner": "reaction",
                "reason": "higher_achievement",
                "action": {
                    **_SUCCESS,
                    "value": 0,
                    "difficulty": None,
                    "outcome": "achieved",
                    "achievement": 8,
                    "success": None,
                },
                "reaction": {**_NO_ROLL, "modifier": 4, "achievement": 9},
                "reaction_modifiers": [
                    {"label": "GM modifier", "amount": 1},
                    {"label": "Shield", "amount": 3},
                ],
            },
        ),
        panels={Panel.CHECKS},
        topic=Topic.CHECKS,
    ),
)
