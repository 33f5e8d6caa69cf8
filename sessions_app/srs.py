"""Standard RPG System (SRS) dice rules: checks, contests, exact odds and roll-box commands.

This module imports nothing from Django or from the rest of the project, so that views,
services, consumers and bots can share one copy of the rules and the tests need no database.
Randomness is always injectable; the default is the operating system's generator because
players must not be able to predict a GM's secret roll.
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
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from random import Random
from typing import Any

from . import dice_commands, dice_grammar
from .dice_grammar import CommandError

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


# --------------------------------------------------------------------------- exact odds


def _count_2d6_totals() -> dict[int, int]:
    ways: dict[int, int] = {}
    for first in range(1, 7):
        for second in range(1, 7):
            ways[first + second] = ways.get(first + second, 0) + 1
    return ways


# Odds only depend on the total, so the 36 outcomes fold into 11 weighted totals once.
_TWO_D6_TOTAL_WAYS = tuple(sorted(_count_2d6_totals().items()))


def _side_distribution(
    value: int, modifier: int, critical: int, fumble: int, can_roll: bool
) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """Return (critical ways, fumble ways, (achievement, ways) pairs) out of 36."""
    if not can_roll:
        return 0, 0, ((value + modifier, _OUTCOMES_PER_SIDE),)
    critical_ways = fumble_ways = 0
    achievements: list[tuple[int, int]] = []
    for total, ways in _TWO_D6_TOTAL_WAYS:
        outcome, achievement, _ = _decide(total, value, modifier, None, critical, fumble)
        if outcome == OUTCOME_CRITICAL:
            critical_ways += ways
        elif outcome == OUTCOME_FUMBLE:
            fumble_ways += ways
        else:
            achievements.append((achievement, ways))
    return critical_ways, fumble_ways, tuple(achievements)


@dataclass(frozen=True)
class CheckChances:
    critical: Fraction
    fumble: Fraction
    success: Fraction
    failure: Fraction

    def to_dict(self) -> dict[str, str]:
        """Return the chances as exact "n/d" strings (JSON has no fractions)."""
        return {
            "critical": str(self.critical),
            "fumble": str(self.fumble),
            "success": str(self.success),
            "failure": str(self.failure),
        }

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> "CheckChances":
        """Rebuild chances from to_dict() output."""
        return cls(**{name: Fraction(data[name]) for name in cls.__dataclass_fields__})


def check_chances(
    value: int,
    *,
    modifier: int = 0,
    difficulty: int,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CheckChances:
    """Compute the exact chances of a check before it is rolled.

    ``success`` includes critical and ``failure`` includes fumble, so they sum to 1.
    """
    for name, number in (("value", value), ("modifier", modifier), ("difficulty", difficulty)):
        _require_int(name, number)
    _require_int("critical", critical)
    _require_int("fumble", fumble)
    critical_ways, fumble_ways, achievements = _side_distribution(
        value, modifier, critical, fumble, can_roll=True
    )
    success_ways = critical_ways + sum(ways for got, ways in achievements if got >= difficulty)
    return CheckChances(
        critical=Fraction(critical_ways, _OUTCOMES_PER_SIDE),
        fumble=Fraction(fumble_ways, _OUTCOMES_PER_SIDE),
        success=Fraction(success_ways, _OUTCOMES_PER_SIDE),
        failure=Fraction(_OUTCOMES_PER_SIDE - success_ways, _OUTCOMES_PER_SIDE),
    )


def contest_chance(
    action_value: int,
    reaction_value: int,
    *,
    action_modifier: int = 0,
    reaction_modifier: int = 0,
    reaction_can_roll: bool = True,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
    action_critical: int | None = None,
    action_fumble: int | None = None,
    reaction_critical: int | None = None,
    reaction_fumble: int | None = None,
) -> Fraction:
    """Compute the exact chance that the action side wins a contest (36 x 36 outcomes).

    ``critical`` and ``fumble`` apply to both sides unless a side's own value is given,
    as a single check may override them. The reaction side wins otherwise: every contest
    is decided.
    """
    action_critical = critical if action_critical is None else action_critical
    action_fumble = fumble if action_fumble is None else action_fumble
    reaction_critical = critical if reaction_critical is None else reaction_critical
    reaction_fumble = fumble if reaction_fumble is None else reaction_fumble
    for name, number in (
        ("action_value", action_value),
        ("reaction_value", reaction_value),
        ("action_modifier", action_modifier),
        ("reaction_modifier", reaction_modifier),
        ("action_critical", action_critical),
        ("action_fumble", action_fumble),
        ("reaction_critical", reaction_critical),
        ("reaction_fumble", reaction_fumble),
    ):
        _require_int(name, number)
    action_critical, action_fumble, action_achievements = _side_distribution(
        action_value, action_modifier, action_critical, action_fumble, can_roll=True
    )
    reaction_critical, reaction_fumble, reaction_achievements = _side_distribution(
        reaction_value, reaction_modifier, reaction_critical, reaction_fumble, reaction_can_roll
    )
    reaction_plain = _OUTCOMES_PER_SIDE - reaction_critical - reaction_fumble
    # Mirrors contest(): anything but an action fumble beats a reaction fumble; an action
    # critical beats any plain reaction; plain against plain needs a strictly higher
    # achievement because ties go to the reaction side.
    action_wins = (_OUTCOMES_PER_SIDE - action_fumble) * reaction_fumble
    action_wins += action_critical * reaction_plain
    for action_achievement, action_ways in action_achievements:
        beaten = sum(ways for got, ways in reaction_achievements if got < action_achievement)
        action_wins += action_ways * beaten
    return Fraction(action_wins, _OUTCOMES_PER_SIDE * _OUTCOMES_PER_SIDE)


def reaction_chance(
    action: CheckResult,
    reaction_value: int,
    *,
    reaction_modifier: int = 0,
    reaction_can_roll: bool = True,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> Fraction:
    """Compute the exact chance that the reaction side wins once the action side has rolled.

    A side that cannot roll has one outcome, so its chance is 0 or 1.
    """
    if not isinstance(action, CheckResult):
        raise TypeError(f"action must be a CheckResult, got {action!r}")
    if action.is_fumble:
        return Fraction(1)
    outcomes = (
        [(total, ways) for total, ways in _TWO_D6_TOTAL_WAYS]
        if reaction_can_roll
        else [(None, _OUTCOMES_PER_SIDE)]
    )
    wins = 0
    for total, ways in outcomes:
        # Any pair of faces with this total decides the same way; contest() stays the rule.
        dice = None if total is None else (total - min(total - 1, 6), min(total - 1, 6))
        reaction = check(
            reaction_value, dice, modifier=reaction_modifier, critical=critical, fumble=fumble
        )
        if contest(action, reaction).winner == REACTION:
            wins += ways
    return Fraction(wins, _OUTCOMES_PER_SIDE)


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


# --------------------------------------------------------------------------- roll-box commands

KIND_BARABARA = "barabara"
KIND_UPPER = "upper"
KIND_CALC = "calc"
KIND_CHOICE = "choice"
KIND_D66 = "d66"
KIND_REPEAT = "repeat"

# A comment starting with one of these is almost surely the rest of the command split off
# by a stray space ("2D6 +2>=10"); rolling a plain 2D6 then would silently mislead.
_COMMAND_CHARACTERS = frozenset("+-@#[]<>=!")
_EXAMPLES = dice_grammar.EXAMPLES
# Roll.command holds the notation in 200 characters, secret prefix included.
MAX_NOTATION_CHARS = 190
D66 = dice_grammar.D66_SIDES


@dataclass(frozen=True)
class RepeatPlan:
    times: int
    inner: "ParsedCommand"

    @property
    def notation(self) -> str:
        return f"x{self.times} {self.inner.notation}"


@dataclass(frozen=True)
class ParsedCommand:
    text: str
    kind: str
    secret: bool
    count: int
    faces: int
    modifier: int
    target: int | None
    critical: int | None
    fumble: int | None
    label: str
    comparison: str | None = None
    # What the dice_commands grammar read; rebuilt from the text, so never serialized.
    plan: Any = field(default=None, compare=False, repr=False)

    @property
    def notation(self) -> str:
        """Spell the command the way BCDice echoes it, without the secret prefix."""
        if self.kind in (KIND_CHECK, KIND_SUM) and self.plan is None:
            modifier = f"{self.modifier:+d}" if self.modifier else ""
            text = f"{self.count}D{self.faces}{modifier}"
            if self.kind == KIND_SUM:
                return text + (f"{self.comparison}{self.target}" if self.comparison else "")
            if self.target is not None:
                text += f">={self.target}"
            return f"{text}[{self.critical},{self.fumble}]"
        return self.plan.notation

    def to_dict(self) -> dict[str, Any]:
        """Return every field as plain JSON types."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "plan"}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ParsedCommand":
        """Rebuild a command by parsing its stored text again."""
        # The stored values stand in for the table's, which the text may have left out.
        parsed = parse_command(
            data["text"],
            critical=data.get("critical") or DEFAULT_CRITICAL,
            fumble=data.get("fumble") or DEFAULT_FUMBLE,
        )
        _refuse_mismatch(parsed.to_dict(), data)
        return parsed


@dataclass(frozen=True)
class CommandResult:
    command: ParsedCommand
    faces: tuple[int, ...]
    total: int | None
    check: CheckResult | None
    # Kind-specific results as JSON: faces per term ("groups"), successes, choices, repeats.
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the command, the faces and the verdict as plain JSON types."""
        return {
            "command": self.command.to_dict(),
            "faces": list(self.faces),
            "total": self.total,
            "check": None if self.check is None else self.check.to_dict(),
            "detail": self.detail,
        }

    def summary(self) -> dict[str, Any]:
        """Return what the room shows: the kind, the total, faces per term and the verdict."""
        return {"kind": self.command.kind, "total": self.total, "groups": [], **self.detail}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CommandResult":
        """Rebuild a result from to_dict() output, re-deciding it from the faces."""
        result = _resolve_command(ParsedCommand.from_dict(data["command"]), data["faces"])
        _refuse_mismatch(result.to_dict(), data)
        return result


def _simple_parsed(text, kind, secret, label, plan, **values) -> ParsedCommand:
    return ParsedCommand(
        text=text,
        kind=kind,
        secret=secret,
        count=values.get("count", 0),
        faces=values.get("faces", 0),
        modifier=values.get("modifier", 0),
        target=values.get("target"),
        critical=values.get("critical"),
        fumble=values.get("fumble"),
        label=label,
        comparison=values.get("comparison"),
        plan=plan,
    )


def _leading_dice(tree: Any, numbers_only: bool = False) -> tuple[Any, int] | None:
    """Return (the dice, the modifier) of a sum shaped NdM+k-j…, else None.

    SRS's check takes any arithmetic without dice after its 2D6 (``2D6+1*2``); the classic
    NdM+k notation only plain numbers (``numbers_only``).
    """
    node = tree
    while isinstance(node, dice_grammar.BinOp) and node.op in "+-" and not node.rounding:
        if node.right.has_dice or (numbers_only and not isinstance(node.right, dice_grammar.Num)):
            return None
        node = node.left
    if not isinstance(node, dice_grammar.DiceRoll) or node.sides == D66:
        return None
    modifier = 0
    node = tree
    while isinstance(node, dice_grammar.BinOp):
        value = dice_grammar.dice_free_value(node.right, strict=False)
        modifier += value if node.op == "+" else -value
        node = node.left
    return node, modifier


def _dice_shape(plan: Any) -> tuple[int, int]:
    """Count the dice a plan rolls before any reroll, and their size if they share one."""
    if isinstance(plan, dice_commands.SumCommand):
        # A D66 value is two d6 faces.
        pairs = [
            (roll.count * 2, 6) if roll.sides == D66 else (roll.count, roll.sides)
            for roll in _dice_nodes(plan.tree)
        ]
    elif isinstance(plan, dice_commands.BarabaraCommand):
        pairs = list(plan.dice)
    elif isinstance(plan, dice_commands.D66Command):
        pairs = [(2, 6)]
    else:
        # Rerolled (U) dice are not a fixed number of fair faces; calc and choice roll none.
        return (sum(count for count, _ in getattr(plan, "dice", ())), 0)
    sizes = {sides for _, sides in pairs}
    return sum(count for count, _ in pairs), (sizes.pop() if len(sizes) == 1 else 0)


def _dice_nodes(node: Any):
    if isinstance(node, dice_grammar.DiceRoll):
        yield node
    for child in ("body", "left", "right"):
        if hasattr(node, child):
            yield from _dice_nodes(getattr(node, child))


def _check_command(text, secret, label, critical, fumble, modifier, target) -> ParsedCommand:
    return ParsedCommand(
        text=text,
        kind=KIND_CHECK,
        secret=secret,
        count=2,
        faces=6,
        modifier=modifier,
        target=target,
        critical=critical,
        fumble=fumble,
        label=label,
    )


def _parse_sum(text, secret, label, plan, critical, fumble) -> ParsedCommand:
    comparison = plan.comparison
    leading = _leading_dice(plan.tree)
    is_srs_shape = leading is not None and leading[0].literal == "2D6"
    if is_srs_shape and comparison is not None and comparison.operator == ">=":
        # BCDice's SRS system reads 2D6+m>=t as its check, with critical and fumble.
        return _check_command(text, secret, label, critical, fumble, leading[1], comparison.target)
    count, sides = _dice_shape(plan)
    values = {
        "count": count,
        "faces": sides,
        "target": comparison.target if comparison else None,
        "comparison": comparison.operator if comparison else None,
    }
    classic = _leading_dice(plan.tree, numbers_only=True)
    if classic is not None:
        values.update(count=classic[0].count, faces=classic[0].sides, modifier=classic[1])
        plan = None  # the classic NdM+k notation, as before
    return _simple_parsed(text, KIND_SUM, secret, label, plan, **values)


def _parse_word(text, command, label, critical, fumble) -> ParsedCommand:
    # NFKC folds the full-width digits and letters that Japanese input methods often produce.
    normalized = unicodedata.normalize("NFKC", command).upper()
    secret = normalized.startswith("S")
    body = normalized[1:] if secret else normalized
    if dice_commands.has_check_options(body) and not dice_commands.uses_upper_dice(body):
        parts = dice_commands.parse_check_options(body, command)
        return _check_command(
            text,
            secret,
            label,
            critical if parts.critical is None else parts.critical,
            fumble if parts.fumble is None else parts.fumble,
            parts.modifier,
            parts.target,
        )
    plan = dice_commands.parse_common(body, command)
    if isinstance(plan, dice_commands.SumCommand):
        return _parse_sum(text, secret, label, plan, critical, fumble)
    count, sides = _dice_shape(plan)
    values = {"count": count, "faces": sides}
    if isinstance(plan, dice_commands.UpperCommand):
        values["modifier"] = plan.modifier
    if getattr(plan, "comparison", None) is not None:
        values.update(target=plan.comparison.target, comparison=plan.comparison.operator)
    return _simple_parsed(text, plan.kind, secret, label, plan, **values)


def _split_label(text: str) -> tuple[str, str]:
    # str.split() also splits on the ideographic space (U+3000) that Japanese IMEs type.
    split = text.split(maxsplit=1)
    command = split[0]
    label = split[1] if len(split) > 1 else ""
    if len(command) > MAX_COMMAND_CHARS:
        raise CommandError("the command is longer than {limit} characters", limit=MAX_COMMAND_CHARS)
    if label and unicodedata.normalize("NFKC", label[0]) in _COMMAND_CHARACTERS:
        raise CommandError(
            "remove the space before {label}: text after a space is read as a comment, "
            "so {text} would roll just {command}",
            label=repr(label),
            text=repr(text),
            command=repr(command),
        )
    return command, label


def _parse_choice(text: str) -> ParsedCommand:
    secret, plan, label = dice_commands.parse_choice(unicodedata.normalize("NFKC", text))
    return _simple_parsed(text, KIND_CHOICE, secret, label, plan)


def _parse_one(text: str, critical: int, fumble: int) -> ParsedCommand:
    if dice_commands.is_choice(unicodedata.normalize("NFKC", text)):
        return _parse_choice(text)
    command, label = _split_label(text)
    return _parse_word(text, command, label, critical, fumble)


def _parse_repeat(text, repeat, rest, critical, fumble) -> ParsedCommand:
    times = int(repeat[3])
    if not 1 <= times <= dice_grammar.MAX_REPEATS:
        raise CommandError(
            "repeat from 1 to {limit} times, not {times}",
            limit=dice_grammar.MAX_REPEATS,
            times=times,
        )
    if not rest:
        raise CommandError(
            "{command} must be followed by the command to repeat, as in x3 2D6+1>=8",
            command=repr(text),
        )
    inner_word = unicodedata.normalize("NFKC", rest.split(maxsplit=1)[0]).upper()
    if dice_commands.REPEAT_RE.fullmatch(inner_word):
        raise CommandError("a repeat cannot hold another repeat: {command}", command=repr(text))
    inner = _parse_one(rest, critical, fumble)
    if inner.count * times > dice_grammar.MAX_DRAWS:
        raise CommandError(
            "{command} rolls more than {limit} dice in all",
            command=repr(text),
            limit=dice_grammar.MAX_DRAWS,
        )
    return replace(
        inner,
        text=text,
        kind=KIND_REPEAT,
        secret=bool(repeat[1]) or inner.secret,
        count=inner.count * times,
        modifier=0,
        target=None,
        comparison=None,
        plan=RepeatPlan(times, inner),
    )


def parse_command(
    text: str, *, critical: int = DEFAULT_CRITICAL, fumble: int = DEFAULT_FUMBLE
) -> ParsedCommand:
    """Parse a roll-box command: BCDice's common commands and SRS's own check.

    SRS checks (2D6 and modifiers only): ``2D6+m>=t``, ``2D6+m@c#f>=t``, ``2D6+m>=t[c,f]``,
    and without ``>=t`` for critical/fumble only (``2D6[]``, ``2D6@11``); the modifier may be
    arithmetic (``2D6+1*2>=8``). ``critical`` and ``fumble`` are the table's values, used
    where the command gives none. Everything else follows BCDice's common commands as
    dice_commands describes them (sums and comparisons, B and U dice, D66, C(...), choice,
    repeat), with its limits. A leading ``S`` makes the roll secret; text after the command
    (after the first space, or after a choice's list) is kept as the label. Raise
    CommandError otherwise.
    """
    _require_int("critical", critical)
    _require_int("fumble", fumble)
    if not isinstance(text, str):
        raise CommandError("a command must be text, got {text}", text=repr(text))
    stripped = text.strip()
    if not stripped:
        raise CommandError("the command is empty ({examples})", examples=_EXAMPLES)
    first, rest = (stripped.split(maxsplit=1) + [""])[:2]
    repeat = dice_commands.REPEAT_RE.fullmatch(unicodedata.normalize("NFKC", first).upper())
    if repeat:
        parsed = _parse_repeat(stripped, repeat, rest, critical, fumble)
    else:
        parsed = _parse_one(stripped, critical, fumble)
    if len(parsed.notation) > MAX_NOTATION_CHARS:
        raise CommandError(
            "the command is longer than {limit} characters", limit=MAX_NOTATION_CHARS
        )
    return parsed


class _GivenFaces:
    """Hands out faces rolled earlier (by a test, or stored with a roll) in order."""

    def __init__(self, dice: Sequence[int]):
        if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
            raise ValueError(f"dice must be a sequence of faces, got {dice!r}")
        self.dice = dice
        self.used = 0

    def __call__(self, count: int, sides: int) -> list[int]:
        faces = list(self.dice[self.used : self.used + count])
        if len(faces) < count:
            raise ValueError(f"the command needs more than the {len(self.dice)} dice given")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise ValueError(f"a d{sides} face must be an int from 1 to {sides}, got {face!r}")
        self.used += count
        return faces

    def finish(self) -> None:
        if self.used != len(self.dice):
            raise ValueError(f"the command used {self.used} dice, got {len(self.dice)}")


class _CountedDraw:
    """Keeps the faces drawn, in order, so a result can be re-decided from them later."""

    def __init__(self, draw: dice_grammar.Draw):
        self.draw = draw
        self.faces: list[int] = []

    def __call__(self, count: int, sides: int) -> list[int]:
        faces = list(self.draw(count, sides))
        self.faces.extend(faces)
        return faces


def _roll_single(parsed: ParsedCommand, draw: _CountedDraw, counter: list[int]) -> CommandResult:
    tally = dice_grammar.Tally(draw, parsed.text, counter)
    start = len(draw.faces)
    if parsed.kind == KIND_CHECK:
        faces = tally.faces(2, 6)
        tally.group("2D6", 6, faces)
        # The typed modifier already folds judgement value and modifiers together, as in BCDice.
        verdict = check(
            0,
            faces,
            modifier=parsed.modifier,
            difficulty=parsed.target,
            critical=parsed.critical,
            fumble=parsed.fumble,
        )
        total = sum(faces) + parsed.modifier
        detail = {"groups": tally.groups}
    elif parsed.plan is None:
        faces = tally.faces(parsed.count, parsed.faces)
        tally.group(f"{parsed.count}D{parsed.faces}", parsed.faces, faces)
        total, verdict = sum(faces) + parsed.modifier, None
        detail = {"groups": tally.groups}
        if parsed.comparison:
            comparison = dice_grammar.Comparison(parsed.comparison, parsed.target)
            detail.update(
                comparison=parsed.comparison,
                target=parsed.target,
                success=comparison.holds(total),
            )
    else:
        total, extra = parsed.plan.roll(tally)
        verdict, detail = None, {"groups": tally.groups, **extra}
    return CommandResult(
        command=parsed, faces=tuple(draw.faces[start:]), total=total, check=verdict, detail=detail
    )


def _repeated_summary(result: CommandResult) -> dict[str, Any]:
    summary = {"notation": result.command.notation, **result.summary()}
    if result.check is not None:
        summary["check"] = result.check.to_dict()
    return summary


def _roll_parsed(parsed: ParsedCommand, draw: dice_grammar.Draw) -> CommandResult:
    counted = _CountedDraw(draw)
    counter = [0]
    if parsed.kind != KIND_REPEAT:
        return _roll_single(parsed, counted, counter)
    plan = parsed.plan
    results = [_roll_single(plan.inner, counted, counter) for _ in range(plan.times)]
    return CommandResult(
        command=parsed,
        faces=tuple(counted.faces),
        total=None,
        check=None,
        detail={"groups": [], "rolls": [_repeated_summary(result) for result in results]},
    )


def _resolve_command(parsed: ParsedCommand, dice: Sequence[int]) -> CommandResult:
    given = _GivenFaces(dice)
    result = _roll_parsed(parsed, given)
    given.finish()
    return result


def roll_command(
    text: str,
    dice: Sequence[int],
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CommandResult:
    """Resolve a roll-box command with faces already rolled, in the order it draws them.

    ``critical`` and ``fumble`` are the table's values; ``@c#f`` or ``[c,f]`` in the
    command wins over them. Raise ValueError when the faces do not fit the command.
    """
    return _resolve_command(parse_command(text, critical=critical, fumble=fumble), dice)


def roll_command_random(
    text: str,
    rng: Random | None = None,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CommandResult:
    """Parse and roll a roll-box command, with the operating system's generator by default."""
    parsed = parse_command(text, critical=critical, fumble=fumble)
    return _roll_parsed(parsed, lambda count, sides: draw_faces(count, sides, rng))


# --------------------------------------------------------------------------- amounts


@dataclass(frozen=True)
class Amount:
    """A resource change as the rules write it: a number, or a dice sum such as 1D6+1."""

    text: str
    fixed: int | None
    command: ParsedCommand | None

    @property
    def minimum(self) -> int:
        if self.command is None:
            return self.fixed or 0
        return self.command.count + self.command.modifier


def number_out_of_range(value: Any, limit: int = MAX_NUMBER) -> int | float | None:
    """The first number in `value` (nested lists, tuples and dicts) beyond ±`limit`, or None.
    A float counts from 1e15 (beyond it, JSON readers differ)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) > limit else None
    if isinstance(value, float):
        return value if not abs(value) < 1e15 else None
    if isinstance(value, dict):
        value = value.values()
    if isinstance(value, list | tuple) or hasattr(value, "__iter__") and not isinstance(value, str):
        for item in value:
            found = number_out_of_range(item, limit)
            if found is not None:
                return found
    return None


def command_result_check(result: CommandResult) -> None:
    """Refuse a result with a number no log may hold (such as 2D6+999999999999)."""
    found = number_out_of_range(
        [result.summary(), result.check.to_dict() if result.check else {}, result.faces]
    )
    if found is not None:
        raise CommandError(
            "the result holds {number}, beyond the largest number a roll keeps ({limit})",
            number=str(found)[:30],
            limit=MAX_NUMBER,
        )


def draws_dice(parsed: ParsedCommand) -> bool:
    """Whether rolling a command draws any die: a calculation such as C(10*3+2) draws none,
    and takes no roll key."""
    if parsed.kind == KIND_REPEAT:
        return draws_dice(parsed.plan.inner)
    return parsed.kind != KIND_CALC


def amount_parse(text: str) -> Amount:
    """Read a number (0–999) or a plain dice sum; anything else raises CommandError."""
    text = (text or "").strip().upper()
    if text.isdecimal():
        number = int(text)
        if number > 999:
            raise CommandError("An amount is at most 999.")
        return Amount(text=text, fixed=number, command=None)
    parsed = parse_command(text)
    # Only NdM+k: its least value is count + modifier, which the scene forms rely on.
    if parsed.kind != KIND_SUM or parsed.secret or parsed.plan is not None or parsed.comparison:
        raise CommandError(
            "{text} is not a number or a dice sum such as 1D6 or 2D6+1.", text=repr(text)
        )
    return Amount(text=parsed.notation, fixed=None, command=parsed)


def amount_roll(amount: Amount, rng: Random | None = None) -> tuple[int, tuple[int, ...]]:
    """Return the amount's value and the faces rolled for it (none for a fixed number)."""
    if amount.command is None:
        return amount.fixed or 0, ()
    faces = draw_faces(amount.command.count, amount.command.faces, rng)
    result = _resolve_command(amount.command, faces)
    return max(0, result.total), result.faces
