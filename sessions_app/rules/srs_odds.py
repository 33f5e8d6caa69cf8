"""The exact odds of SRS checks and contests, as Fractions: what the check panel shows
before a roll and what the dice statistics compare the rolls with."""

from dataclasses import dataclass
from fractions import Fraction

from .srs_checks import (
    _OUTCOMES_PER_SIDE,
    DEFAULT_CRITICAL,
    DEFAULT_FUMBLE,
    OUTCOME_CRITICAL,
    OUTCOME_FUMBLE,
    REACTION,
    CheckResult,
    _decide,
    _require_int,
    check,
    contest,
)

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
