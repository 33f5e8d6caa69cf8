"""Dice statistics: what was rolled against what fair dice would give, exactly.

Pure Python like the rest of the rules package: the selectors turn stored rolls into DiceRow
values, and this module only counts. Every expected number is an exact Fraction built from
srs_odds's own odds, so a fixture can be checked by hand and nothing here re-derives a dice rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from . import srs_checks, srs_odds

TOTALS = tuple(range(2, 13))
# Ways to make each 2D6 total out of 36, taken from srs_odds rather than counted again.
TOTAL_WAYS = dict(srs_odds._TWO_D6_TOTAL_WAYS)
DEGREES_OF_FREEDOM = len(TOTALS) - 1
# Pearson's approximation wants every expected count to be at least 5; the rarest totals
# (2 and 12) come once in 36 rolls, so below 180 rolls the p-value is only a rough guide.
ROLLS_FOR_RELIABLE_P = 5 * 36
# Below this a 2D6 histogram says nothing either way; the page says so instead of a verdict.
ROLLS_TO_JUDGE = 36

VERDICT_TOO_FEW = "too_few"
VERDICT_FAIR = "fair"
VERDICT_SOMEWHAT_UNUSUAL = "somewhat_unusual"
VERDICT_UNUSUAL = "unusual"


@dataclass(frozen=True)
class DiceRow:
    """One roll as far as the viewer may know it.

    ``critical`` and ``fumble`` are None for a plain dice sum; ``difficulty`` is None when
    there was none or the viewer may not know it. The verdict is re-decided from the faces
    by srs_checks.check, so a row cannot carry an outcome the rules would not give.
    """

    who: str
    character: str
    faces: tuple[int, ...]
    sides: int = 6
    critical: int | None = None
    fumble: int | None = None
    value: int = 0
    modifier: int = 0
    difficulty: int | None = None
    who_id: int | None = None
    character_id: int | None = None

    @property
    def is_2d6(self) -> bool:
        return self.sides == 6 and len(self.faces) == 2

    @property
    def is_check(self) -> bool:
        return self.is_2d6 and self.critical is not None and self.fumble is not None

    @property
    def total(self) -> int:
        return sum(self.faces)


@dataclass(frozen=True)
class Histogram:
    observed: dict[int, int]
    expected: dict[int, Fraction]
    rolls: int
    chi_square: Fraction | None
    degrees_of_freedom: int
    p_value: float | None

    @property
    def verdict(self) -> str:
        if self.p_value is None or self.rolls < ROLLS_TO_JUDGE:
            return VERDICT_TOO_FEW
        if self.p_value < 0.01:
            return VERDICT_UNUSUAL
        if self.p_value < 0.05:
            return VERDICT_SOMEWHAT_UNUSUAL
        return VERDICT_FAIR

    @property
    def rough(self) -> bool:
        """Say whether some expected count is below 5, so the p-value is approximate."""
        return self.rolls < ROLLS_FOR_RELIABLE_P


@dataclass(frozen=True)
class GroupStats:
    """Observed and exactly expected counts for one person, one character, or everyone."""

    rolls: int
    checks: int
    criticals: int
    expected_criticals: Fraction
    fumbles: int
    expected_fumbles: Fraction
    decided: int
    successes: int
    expected_successes: Fraction
    histogram: Histogram = field(repr=False)

    @property
    def success_rate(self) -> float | None:
        return None if not self.decided else self.successes / self.decided

    @property
    def expected_success_rate(self) -> float | None:
        return None if not self.decided else float(self.expected_successes / self.decided)


def histogram(totals: Iterable[int]) -> Histogram:
    """Count 2D6 totals and compare them with fair dice by Pearson's chi-square."""
    observed = dict.fromkeys(TOTALS, 0)
    for total in totals:
        if total not in observed:
            raise ValueError(f"a 2D6 total is from 2 to 12, got {total!r}")
        observed[total] += 1
    rolls = sum(observed.values())
    expected = {total: Fraction(rolls * TOTAL_WAYS[total], 36) for total in TOTALS}
    if rolls == 0:
        return Histogram(observed, expected, 0, None, DEGREES_OF_FREEDOM, None)
    chi_square = sum(
        ((observed[total] - expected[total]) ** 2 / expected[total] for total in TOTALS),
        Fraction(0),
    )
    p_value = chi_square_survival(float(chi_square), DEGREES_OF_FREEDOM)
    return Histogram(observed, expected, rolls, chi_square, DEGREES_OF_FREEDOM, p_value)


def chi_square_survival(statistic: float, degrees_of_freedom: int) -> float:
    """Return P(X >= statistic) for a chi-square variable: the test's p-value.

    This is the regularised upper gamma function Q(k/2, x/2), summed in closed form:
    Q(1/2, y) = erfc(sqrt y), Q(1, y) = e^-y, and Q(a + 1, y) = Q(a, y) + y^a e^-y / Γ(a + 1).
    For the 10 degrees of freedom of a 2D6 histogram that is e^-y (1 + y + … + y^4 / 4!).
    """
    if degrees_of_freedom < 1:
        raise ValueError("a chi-square distribution needs at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if degrees_of_freedom % 2 == 0:
        shape = 1.0
        survival = math.exp(-half)
    else:
        shape = 0.5
        survival = math.erfc(math.sqrt(half))
    while shape < degrees_of_freedom / 2:
        survival += math.exp(shape * math.log(half) - half - math.lgamma(shape + 1))
        shape += 1
    return min(1.0, survival)


def group_stats(rows: Iterable[DiceRow]) -> GroupStats:
    """Summarise rolls: 2D6 totals, criticals, fumbles and successes against exact odds."""
    rolls = checks = criticals = fumbles = decided = successes = 0
    expected_criticals = expected_fumbles = expected_successes = Fraction(0)
    totals = []
    for row in rows:
        if not row.is_2d6:
            continue
        rolls += 1
        totals.append(row.total)
        if not row.is_check:
            continue
        checks += 1
        # The critical and fumble odds do not depend on the difficulty; any will do.
        chances = srs_odds.check_chances(
            row.value,
            modifier=row.modifier,
            difficulty=row.difficulty if row.difficulty is not None else 0,
            critical=row.critical,
            fumble=row.fumble,
        )
        outcome = srs_checks.check(
            row.value,
            row.faces,
            modifier=row.modifier,
            difficulty=row.difficulty,
            critical=row.critical,
            fumble=row.fumble,
        )
        expected_criticals += chances.critical
        expected_fumbles += chances.fumble
        criticals += outcome.is_critical
        fumbles += outcome.is_fumble
        if row.difficulty is not None:
            decided += 1
            expected_successes += chances.success
            successes += bool(outcome.success)
    return GroupStats(
        rolls=rolls,
        checks=checks,
        criticals=criticals,
        expected_criticals=expected_criticals,
        fumbles=fumbles,
        expected_fumbles=expected_fumbles,
        decided=decided,
        successes=successes,
        expected_successes=expected_successes,
        histogram=histogram(totals),
    )


def grouped(
    rows: Sequence[DiceRow], key: Callable[[DiceRow], Hashable]
) -> list[tuple[Hashable, GroupStats]]:
    """Return (key, stats) for each key the rows have, in the order keys first appear."""
    groups: dict[Hashable, list[DiceRow]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return [(name, group_stats(members)) for name, members in groups.items()]
