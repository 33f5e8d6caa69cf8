"""Standard RPG System (SRS) checks and contests, and the dice they are rolled with.

Pure Python like the whole rules package: views, services, consumers and bots share one
copy of the rules, and the tests need no database. Randomness is always injectable; the
default is the operating system's generator because players must not be able to predict
a GM's secret roll.
"""

# Sources: the digest /work/shared/rules/srs.md (sections 1, 2, 4) and the seed
# /work/shared/seeds/003_ba3c6eee1105a7df.txt (行為判定ルール, 対決による判定). The seed wins.
#
# No disagreement between them changes a result. Where the digest says more than the seed,
# the extra is an inference this module also relies on:
# - Action fumble: the seed only says the reaction side need not roll
#   (リアクション側は判定を行なう必要はない); the digest adds "the reaction side wins". That
#   follows from a fumble being an automatic failure (自動失敗), so the reaction side wins.
# - Reaction critical against a non-critical action: not spelled out in the seed; it follows
#   from a critical being an automatic success (自動成功), so the reaction side wins.
# - The seed gives no order for the contest rules; the digest numbers them. Only both sides
#   fumbling depends on the order, and the seed settles it: after an action fumble the
#   reaction side does not roll at all, so the action fumble is checked first.
# - The digest's example of a designer option ("a skill that lowers the critical value") is
#   narrower than the seed, which lets data change either value in any direction
#   (何らかのデータによって変動); critical and fumble are therefore plain parameters.
# - Only the reaction side may be unable to roll (判定ができない) in the seed, and the digest
#   agrees; contest() therefore refuses an action side without dice.
# - A reaction side that cannot roll: the digest says "judgement value plus modifiers"; the
#   seed says the judgement value with the modifiers of skills and equipment
#   (判定値に特技や装備などによる修正を行なったもの), i.e. the player's own modifiers, not
#   only the GM's. The seed wins: the app lets that side's player declare them.
# - "trivial" (difficulty below 6) is not in the seed's table; the app needs a name for it.

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from . import dice_grammar

DEFAULT_CRITICAL = 12
DEFAULT_FUMBLE = 2

OUTCOME_CRITICAL = "critical"
OUTCOME_FUMBLE = "fumble"
OUTCOME_SUCCESS = "success"
OUTCOME_FAILURE = "failure"
OUTCOME_ACHIEVED = "achieved"
OUTCOMES = (OUTCOME_CRITICAL, OUTCOME_FUMBLE, OUTCOME_SUCCESS, OUTCOME_FAILURE, OUTCOME_ACHIEVED)

ACTION = "action"
REACTION = "reaction"

REASON_ACTION_FUMBLE = "action_fumble"
REASON_REACTION_FUMBLE = "reaction_fumble"
REASON_ACTION_CRITICAL = "action_critical"
REASON_BOTH_CRITICAL = "both_critical"
REASON_REACTION_CRITICAL = "reaction_critical"
REASON_HIGHER_ACHIEVEMENT = "higher_achievement"
REASON_TIE_REACTION_PRIORITY = "tie_reaction_priority"
CONTEST_REASONS = (
    REASON_ACTION_FUMBLE,
    REASON_REACTION_FUMBLE,
    REASON_ACTION_CRITICAL,
    REASON_BOTH_CRITICAL,
    REASON_REACTION_CRITICAL,
    REASON_HIGHER_ACHIEVEMENT,
    REASON_TIE_REACTION_PRIORITY,
)

BAND_TRIVIAL = "trivial"
BAND_EASY = "easy"
BAND_ORDINARY = "ordinary"
BAND_HARD = "hard"
BAND_EXTREME = "extreme"

KIND_CHECK = "check"
KIND_SUM = "sum"

MAX_DICE_COUNT = dice_grammar.MAX_DICE_PER_TERM
MAX_DICE_FACES = dice_grammar.MAX_SIDES
# Long enough for any real command; short enough that int() never sees a huge literal.
MAX_COMMAND_CHARS = 100
# The largest number (either sign) a stored roll or log may hold: the database's 32-bit
# columns, and what an imported log may carry. A command whose result goes beyond it is
# refused, so that every session's own export can be imported again.
MAX_NUMBER = 2**31 - 1

_OUTCOMES_PER_SIDE = 36

# A secure generator by default: a predictable PRNG would let a player foresee secret rolls.
_SYSTEM_RANDOM = secrets.SystemRandom()


def _require_int(name: str, number: Any) -> int:
    # bool is an int subclass; True as a judgement value is always a bug upstream.
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"{name} must be an int, got {number!r}")
    return number


def _require_optional_int(name: str, number: Any) -> int | None:
    return None if number is None else _require_int(name, number)


def _pair_of_d6(dice: Any) -> tuple[int, int]:
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence) or len(dice) != 2:
        raise ValueError(f"dice must be a pair of d6 faces or None, got {dice!r}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"a d6 face must be an int from 1 to 6, got {face!r}")
    return (dice[0], dice[1])


# --------------------------------------------------------------------------- action check


@dataclass(frozen=True)
class CheckResult:
    value: int
    dice: tuple[int, int] | None
    modifier: int
    difficulty: int | None
    critical: int
    fumble: int
    dice_total: int | None
    outcome: str
    achievement: int | None
    success: bool | None

    @property
    def is_critical(self) -> bool:
        return self.outcome == OUTCOME_CRITICAL

    @property
    def is_fumble(self) -> bool:
        return self.outcome == OUTCOME_FUMBLE

    def to_dict(self) -> dict[str, Any]:
        """Return the inputs and the verdict as plain JSON types."""
        return {
            "value": self.value,
            "dice": None if self.dice is None else list(self.dice),
            "modifier": self.modifier,
            "difficulty": self.difficulty,
            "critical": self.critical,
            "fumble": self.fumble,
            "dice_total": self.dice_total,
            "outcome": self.outcome,
            "achievement": self.achievement,
            "success": self.success,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CheckResult":
        """Rebuild a result from to_dict() output, re-deciding it from its inputs."""
        # Re-deciding instead of trusting stored verdicts means a row edited by hand (or
        # written by an older rule) cannot smuggle in an outcome the rules would not give.
        result = check(
            data["value"],
            data["dice"],
            modifier=data["modifier"],
            difficulty=data["difficulty"],
            critical=data["critical"],
            fumble=data["fumble"],
        )
        _refuse_mismatch(result.to_dict(), data)
        return result


def _refuse_mismatch(recomputed: dict[str, Any], stored: dict[str, Any]) -> None:
    for key, value in recomputed.items():
        if key in stored and stored[key] != value:
            raise ValueError(f"stored {key}={stored[key]!r} does not follow the rules ({value!r})")


def _decide(
    dice_total: int | None,
    value: int,
    modifier: int,
    difficulty: int | None,
    critical: int,
    fumble: int,
) -> tuple[str, int | None, bool | None]:
    # The seed compares the raw dice (振ったダイスの目), not the modified total, so a big
    # modifier can neither cause nor prevent a critical or a fumble.
    if dice_total is not None and dice_total >= critical:
        return OUTCOME_CRITICAL, None, True
    if dice_total is not None and dice_total <= fumble:
        return OUTCOME_FUMBLE, None, False
    achievement = value + modifier + (dice_total or 0)
    if difficulty is None:
        return OUTCOME_ACHIEVED, achievement, None
    if achievement >= difficulty:
        return OUTCOME_SUCCESS, achievement, True
    return OUTCOME_FAILURE, achievement, False


def check(
    value: int,
    dice: Sequence[int] | None,
    *,
    modifier: int = 0,
    difficulty: int | None = None,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CheckResult:
    """Resolve one action check (行為判定) from the judgement value and the faces rolled.

    Pass ``dice=None`` for a side that cannot roll (判定ができない): its achievement is
    value + modifier and it can neither critical nor fumble. Leave ``difficulty`` as None
    when the GM asks only for the achievement. Raise ValueError for faces outside 1-6.
    """
    _require_int("value", value)
    _require_int("modifier", modifier)
    _require_optional_int("difficulty", difficulty)
    _require_int("critical", critical)
    _require_int("fumble", fumble)
    faces = None if dice is None else _pair_of_d6(dice)
    dice_total = None if faces is None else faces[0] + faces[1]
    outcome, achievement, success = _decide(
        dice_total, value, modifier, difficulty, critical, fumble
    )
    return CheckResult(
        value=value,
        dice=faces,
        modifier=modifier,
        difficulty=difficulty,
        critical=critical,
        fumble=fumble,
        dice_total=dice_total,
        outcome=outcome,
        achievement=achievement,
        success=success,
    )


def difficulty_band(difficulty: int) -> str:
    """Name the seed's difficulty band (難易度と行為のイメージ表) that a difficulty falls in."""
    _require_int("difficulty", difficulty)
    if difficulty >= 16:
        return BAND_EXTREME
    if difficulty >= 12:
        return BAND_HARD
    if difficulty >= 9:
        return BAND_ORDINARY
    if difficulty >= 6:
        return BAND_EASY
    return BAND_TRIVIAL


# --------------------------------------------------------------------------- contest


@dataclass(frozen=True)
class ContestResult:
    action: CheckResult
    reaction: CheckResult | None
    winner: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return both sides and the verdict as plain JSON types."""
        return {
            "action": self.action.to_dict(),
            "reaction": None if self.reaction is None else self.reaction.to_dict(),
            "winner": self.winner,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ContestResult":
        """Rebuild a contest from to_dict() output, re-deciding it from both sides."""
        reaction_data = data["reaction"]
        result = contest(
            CheckResult.from_dict(data["action"]),
            None if reaction_data is None else CheckResult.from_dict(reaction_data),
        )
        _refuse_mismatch({"winner": result.winner, "reason": result.reason}, data)
        return result


def contest(action: CheckResult, reaction: CheckResult | None) -> ContestResult:
    """Decide an opposed check (対決) between the action side and the reaction side.

    Pass ``reaction=None`` only after an action fumble, when the reaction side need not
    roll. Any difficulty on either side is ignored: a contest compares the two sides.
    """
    if not isinstance(action, CheckResult):
        raise TypeError(f"action must be a CheckResult, got {action!r}")
    if reaction is not None and not isinstance(reaction, CheckResult):
        raise TypeError(f"reaction must be a CheckResult or None, got {reaction!r}")
    if action.dice is None:
        raise ValueError("the action side must roll; only the reaction side may be unable to")

    def decided(winner: str, reason: str) -> ContestResult:
        return ContestResult(action=action, reaction=reaction, winner=winner, reason=reason)

    # First because it makes the reaction roll unnecessary: when both "fumble", the
    # reaction side never rolled and wins.
    if action.is_fumble:
        return decided(REACTION, REASON_ACTION_FUMBLE)
    if reaction is None:
        raise ValueError("the reaction side may skip its roll only after an action fumble")
    if reaction.is_fumble:
        return decided(ACTION, REASON_REACTION_FUMBLE)
    if action.is_critical:
        if reaction.is_critical:
            return decided(REACTION, REASON_BOTH_CRITICAL)
        return decided(ACTION, REASON_ACTION_CRITICAL)
    if reaction.is_critical:
        return decided(REACTION, REASON_REACTION_CRITICAL)
    if action.achievement > reaction.achievement:
        return decided(ACTION, REASON_HIGHER_ACHIEVEMENT)
    if action.achievement < reaction.achievement:
        return decided(REACTION, REASON_HIGHER_ACHIEVEMENT)
    return decided(REACTION, REASON_TIE_REACTION_PRIORITY)


# --------------------------------------------------------------------------- dice


def draw_faces(count: int, sides: int, rng: Random | None = None) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces: every face the app rolls comes from here.

    The operating system's generator unless given one (tests inject a seeded Random).
    """
    generator = _SYSTEM_RANDOM if rng is None else rng
    return [generator.randint(1, sides) for _ in range(count)]


def roll_2d6(rng: Random | None = None) -> tuple[int, int]:
    """Roll two six-sided dice, with the operating system's generator unless given one."""
    first, second = draw_faces(2, 6, rng)
    return (first, second)
