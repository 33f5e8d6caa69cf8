"""Dice statistics against numbers worked out by hand, plus properties of any sample."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sessions_app.rules import dice_stats
from sessions_app.rules.dice_stats import DiceRow

# The fixture, worked by hand from the 36 equally likely 2D6 outcomes. Ways per total:
# 2:1 3:2 4:3 5:4 6:5 7:6 8:5 9:4 10:3 11:2 12:1.
#
# A value 3, difficulty 10, critical 12, fumble 2, rolled 4+3=7 → 10, success.
#   critical {12} = 1/36; fumble {2} = 1/36; success = totals 7..12 = 21/36.
# B value 5, modifier +1, difficulty 9, rolled 1+1 → fumble.
#   critical 1/36; fumble 1/36; success = totals 3..12 = 35/36.
# C value 2, no difficulty, critical 11, fumble 3, rolled 6+5 → critical.
#   critical {11, 12} = 3/36; fumble {2, 3} = 3/36; no success counted.
# D roll box 2D6+2>=8 (value 0, modifier 2), rolled 2+3=5 → 7, failure.
#   critical 1/36; fumble 1/36; success = totals 6..12 = 26/36.
# E value 4, difficulty 12, critical 10, fumble 2, rolled 5+5 → critical.
#   critical {10, 11, 12} = 6/36; fumble 1/36; success = 6 critical ways + totals 8, 9
#   (4 + 8 = 12) = 6 + 9 = 15/36.
# F a plain 2D6 sum from the roll box, rolled 6+6: in the histogram, but no critical.
# G a 1D6 and H a 3D6: neither is a 2D6 roll, so neither counts anywhere.
#
# Criticals expected: (1 + 1 + 3 + 1 + 6) / 36 = 12/36 = 1/3; observed 2 (C, E).
# Fumbles expected: (1 + 1 + 3 + 1 + 1) / 36 = 7/36; observed 1 (B).
# Successes expected over A, B, D, E: (21 + 35 + 26 + 15) / 36 = 97/36; observed 2 (A, E).
FIXTURE = [
    DiceRow("aki", "Aki", (4, 3), critical=12, fumble=2, value=3, difficulty=10),
    DiceRow("aki", "Aki", (1, 1), critical=12, fumble=2, value=5, modifier=1, difficulty=9),
    DiceRow("gm", "Librarian", (6, 5), critical=11, fumble=3, value=2),
    DiceRow("ren", "", (2, 3), critical=12, fumble=2, value=0, modifier=2, difficulty=8),
    DiceRow("ren", "Ren", (5, 5), critical=10, fumble=2, value=4, difficulty=12),
    DiceRow("ren", "", (6, 6)),
    DiceRow("ren", "", (4,)),
    DiceRow("ren", "", (1, 2, 3)),
]


def test_group_stats_counts_only_2d6_rolls():
    stats = dice_stats.group_stats(FIXTURE)

    assert (stats.rolls, stats.checks, stats.decided) == (6, 5, 4)


def test_group_stats_expected_criticals_exact():
    stats = dice_stats.group_stats(FIXTURE)

    assert (stats.criticals, stats.expected_criticals) == (2, Fraction(1, 3))


def test_group_stats_expected_fumbles_exact():
    stats = dice_stats.group_stats(FIXTURE)

    assert (stats.fumbles, stats.expected_fumbles) == (1, Fraction(7, 36))


def test_group_stats_expected_successes_exact():
    stats = dice_stats.group_stats(FIXTURE)

    assert (stats.successes, stats.expected_successes) == (2, Fraction(97, 36))
    assert stats.success_rate == 0.5
    assert stats.expected_success_rate == pytest.approx(97 / 144)


def test_group_stats_histogram_ignores_other_dice():
    stats = dice_stats.group_stats(FIXTURE)

    assert stats.histogram.observed == {
        2: 1, 3: 0, 4: 0, 5: 1, 6: 0, 7: 1, 8: 0, 9: 0, 10: 1, 11: 1, 12: 1
    }  # fmt: skip


def test_group_stats_without_difficulty_has_no_success_rate():
    stats = dice_stats.group_stats([FIXTURE[2]])

    assert (stats.decided, stats.success_rate, stats.expected_success_rate) == (0, None, None)


def test_grouped_splits_by_key_in_first_seen_order():
    groups = dice_stats.grouped(FIXTURE, key=lambda row: row.who)

    assert [(name, stats.rolls) for name, stats in groups] == [("aki", 2), ("gm", 1), ("ren", 3)]


def test_histogram_expected_is_rolls_times_ways_over_36():
    histogram = dice_stats.histogram([7] * 18)

    assert histogram.expected[7] == 3
    assert histogram.expected[2] == Fraction(1, 2)


def test_histogram_chi_square_of_a_perfect_sample_is_zero():
    totals = [total for total, ways in dice_stats.TOTAL_WAYS.items() for _ in range(ways)]

    histogram = dice_stats.histogram(totals)

    assert (histogram.chi_square, histogram.p_value) == (0, 1.0)


def test_histogram_chi_square_hand_computed():
    # 18 rolls, so each expected count is ways/2. Observed against expected:
    # 2: 0 vs 1/2 → (1/2)²/(1/2) = 1/2     3: 1 vs 1 → 0     4: 1 vs 3/2 → (1/4)/(3/2) = 1/6
    # 5: 2 vs 2 → 0    6: 3 vs 5/2 → (1/4)/(5/2) = 1/10     7: 3 vs 3 → 0
    # 8: 2 vs 5/2 → 1/10    9: 2 vs 2 → 0    10: 2 vs 3/2 → 1/6    11: 1 vs 1 → 0
    # 12: 1 vs 1/2 → 1/2.   Sum: 1 + 1/3 + 1/5 = 23/15.
    totals = [3, 4, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9, 9, 10, 10, 11, 12]

    histogram = dice_stats.histogram(totals)

    assert histogram.chi_square == Fraction(23, 15)
    assert histogram.degrees_of_freedom == 10
    # 10 degrees of freedom: p = e^-y (1 + y + y²/2 + y³/6 + y⁴/24) with y = 23/30.
    y = 23 / 30
    assert histogram.p_value == pytest.approx(
        math.exp(-y) * (1 + y + y**2 / 2 + y**3 / 6 + y**4 / 24)
    )


def test_histogram_chi_square_all_sevens():
    # 36 sevens: the ten other totals contribute their expected counts (30 in all) and
    # the seven contributes (36 - 6)² / 6 = 150.
    histogram = dice_stats.histogram([7] * 36)

    assert histogram.chi_square == 180
    assert histogram.verdict == dice_stats.VERDICT_UNUSUAL


def test_histogram_empty_has_no_statistic():
    histogram = dice_stats.histogram([])

    assert (histogram.rolls, histogram.chi_square, histogram.p_value) == (0, None, None)
    assert histogram.verdict == dice_stats.VERDICT_TOO_FEW


def test_histogram_refuses_impossible_total():
    with pytest.raises(ValueError):
        dice_stats.histogram([13])


def test_histogram_verdict_fair_for_perfect_sample():
    totals = [total for total, ways in dice_stats.TOTAL_WAYS.items() for _ in range(ways)]

    assert dice_stats.histogram(totals).verdict == dice_stats.VERDICT_FAIR


def test_histogram_verdict_too_few_below_36_rolls():
    assert dice_stats.histogram([2] * 35).verdict == dice_stats.VERDICT_TOO_FEW


@pytest.mark.parametrize(
    ("statistic", "degrees_of_freedom", "p_value"),
    [
        # Textbook critical values of the chi-square distribution.
        (3.841459, 1, 0.05),
        (5.991465, 2, 0.05),
        (7.814728, 3, 0.05),
        (18.307038, 10, 0.05),
        (23.209251, 10, 0.01),
        (2.558212, 10, 0.99),
    ],
)
def test_chi_square_survival_matches_tables(statistic, degrees_of_freedom, p_value):
    assert dice_stats.chi_square_survival(statistic, degrees_of_freedom) == pytest.approx(
        p_value, rel=1e-5
    )


def test_chi_square_survival_refuses_zero_degrees():
    with pytest.raises(ValueError):
        dice_stats.chi_square_survival(1.0, 0)


totals_samples = st.lists(st.integers(min_value=2, max_value=12), max_size=300)


@given(totals_samples)
def test_histogram_expected_sums_to_rolls(totals):
    histogram = dice_stats.histogram(totals)

    assert sum(histogram.expected.values()) == len(totals)
    assert sum(histogram.observed.values()) == len(totals)


@given(totals_samples)
def test_histogram_chi_square_not_negative_and_p_in_range(totals):
    histogram = dice_stats.histogram(totals)

    if totals:
        assert histogram.chi_square >= 0
        assert 0 <= histogram.p_value <= 1


checks = st.builds(
    DiceRow,
    who=st.just("someone"),
    character=st.just(""),
    faces=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    critical=st.integers(2, 12),
    fumble=st.integers(2, 12),
    value=st.integers(-5, 10),
    modifier=st.integers(-5, 5),
    difficulty=st.none() | st.integers(0, 20),
)


@given(st.lists(checks, max_size=40))
def test_group_stats_expectations_bounded_by_counts(rows):
    stats = dice_stats.group_stats(rows)

    assert 0 <= stats.expected_criticals <= stats.checks
    assert 0 <= stats.expected_fumbles <= stats.checks
    assert 0 <= stats.expected_successes <= stats.decided
    assert stats.criticals + stats.fumbles <= stats.checks
