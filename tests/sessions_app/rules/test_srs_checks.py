import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.rules import srs_checks, srs_odds

ALL_DICE = list(itertools.product(range(1, 7), repeat=2))

# Modest example counts keep the file within a few seconds; no deadline because a loaded
# CI machine must not turn a slow example into a failure.
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)

values = st.integers(min_value=-10, max_value=20)
modifiers = st.integers(min_value=-6, max_value=6)
difficulties = st.integers(min_value=-5, max_value=30)
criticals = st.integers(min_value=1, max_value=13)
fumbles = st.integers(min_value=1, max_value=12)
pairs_of_dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


# --------------------------------------------------------------------------- check


@pytest.mark.parametrize(
    ("value", "dice", "kwargs", "outcome", "achievement", "success"),
    [
        pytest.param(3, (3, 4), {"difficulty": 10}, "success", 10, True, id="equal-succeeds"),
        pytest.param(3, (3, 3), {"difficulty": 10}, "failure", 9, False, id="one-short-fails"),
        pytest.param(
            3, (2, 3), {"modifier": 2, "difficulty": 10}, "success", 10, True, id="modifier-adds"
        ),
        pytest.param(3, (6, 6), {"difficulty": 30}, "critical", None, True, id="critical-wins"),
        pytest.param(3, (1, 1), {"difficulty": 0}, "fumble", None, False, id="fumble-loses"),
        pytest.param(
            0,
            (6, 6),
            {"modifier": -20, "difficulty": 5},
            "critical",
            None,
            True,
            id="raw-dice-critical-beats-negative-modifier",
        ),
        pytest.param(
            0,
            (1, 1),
            {"modifier": 50, "difficulty": 5},
            "fumble",
            None,
            False,
            id="fumble-beats-large-modifier",
        ),
        pytest.param(4, (3, 3), {}, "achieved", 10, None, id="no-difficulty-achieved"),
        pytest.param(4, (6, 6), {}, "critical", None, True, id="no-difficulty-critical"),
        pytest.param(4, (1, 1), {}, "fumble", None, False, id="no-difficulty-fumble"),
        pytest.param(
            4,
            (5, 6),
            {"critical": 11, "difficulty": 30},
            "critical",
            None,
            True,
            id="critical-lowered-to-11",
        ),
        pytest.param(
            4,
            (1, 2),
            {"fumble": 3, "difficulty": 0},
            "fumble",
            None,
            False,
            id="fumble-raised-to-3",
        ),
        pytest.param(
            4,
            (2, 2),
            {"critical": 4, "fumble": 6},
            "critical",
            None,
            True,
            id="critical-before-fumble-when-ranges-overlap",
        ),
        pytest.param(
            4,
            (1, 1),
            {"critical": 13, "difficulty": 6},
            "fumble",
            None,
            False,
            id="critical-13-never-happens",
        ),
        pytest.param(
            4,
            None,
            {"modifier": 2, "difficulty": 6},
            "success",
            6,
            True,
            id="cannot-roll-uses-value-plus-modifier",
        ),
        pytest.param(
            4,
            None,
            {"critical": 0, "fumble": 12},
            "achieved",
            4,
            None,
            id="cannot-roll-has-no-critical-or-fumble",
        ),
    ],
)
def test_check_outcome_table(value, dice, kwargs, outcome, achievement, success):
    result = srs_checks.check(value, dice, **kwargs)

    assert (result.outcome, result.achievement, result.success) == (outcome, achievement, success)


def test_check_keeps_inputs_and_dice_total():
    result = srs_checks.check(5, [2, 4], modifier=-1, difficulty=9, critical=11, fumble=3)

    assert (result.value, result.dice, result.modifier) == (5, (2, 4), -1)
    assert (result.difficulty, result.critical, result.fumble) == (9, 11, 3)
    assert result.dice_total == 6


def test_check_without_dice_has_no_dice_total():
    assert srs_checks.check(5, None).dice_total is None


@pytest.mark.parametrize(
    "dice",
    [(0, 3), (3, 7), (-1, 1), (1,), (1, 2, 3), (1.0, 2), ("1", 2), "12", 12, (True, 2)],
)
def test_check_bad_dice_raise_value_error(dice):
    with pytest.raises(ValueError):
        srs_checks.check(3, dice)


@pytest.mark.parametrize("name", ["value", "modifier", "difficulty", "critical", "fumble"])
def test_check_non_int_number_raises_type_error(name):
    arguments = {"value": 3, "modifier": 0, "difficulty": 10, "critical": 12, "fumble": 2}
    arguments[name] = "3"
    value = arguments.pop("value")

    with pytest.raises(TypeError):
        srs_checks.check(value, (3, 3), **arguments)


def test_check_result_is_frozen():
    result = srs_checks.check(3, (3, 3))

    with pytest.raises(AttributeError):
        result.outcome = "success"


@pytest.mark.parametrize("dice", [(3, 4), (6, 6), (1, 1), None])
def test_check_result_survives_json_round_trip(dice):
    result = srs_checks.check(3, dice, modifier=1, difficulty=10)

    assert srs_checks.CheckResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_check_result_from_dict_refuses_tampered_outcome():
    data = srs_checks.check(3, (3, 3), difficulty=10).to_dict()
    data["outcome"] = "success"

    with pytest.raises(ValueError, match="outcome"):
        srs_checks.CheckResult.from_dict(data)


@pytest.mark.parametrize(
    ("difficulty", "band"),
    [
        (-3, "trivial"),
        (5, "trivial"),
        (6, "easy"),
        (8, "easy"),
        (9, "ordinary"),
        (11, "ordinary"),
        (12, "hard"),
        (15, "hard"),
        (16, "extreme"),
        (40, "extreme"),
    ],
)
def test_difficulty_band_table(difficulty, band):
    assert srs_checks.difficulty_band(difficulty) == band


# --------------------------------------------------------------------------- contest


def side(value, dice, **kwargs):
    return srs_checks.check(value, dice, **kwargs)


@pytest.mark.parametrize(
    ("action", "reaction", "winner", "reason"),
    [
        pytest.param(
            side(5, (1, 1)),
            side(0, (6, 6)),
            "reaction",
            srs_checks.REASON_ACTION_FUMBLE,
            id="action-fumble-even-against-reaction-critical",
        ),
        pytest.param(
            side(5, (1, 1)),
            side(5, (1, 1)),
            "reaction",
            srs_checks.REASON_ACTION_FUMBLE,
            id="both-fumble-reaction-never-rolled",
        ),
        pytest.param(
            side(0, (2, 2)),
            side(9, (1, 1)),
            "action",
            srs_checks.REASON_REACTION_FUMBLE,
            id="reaction-fumble",
        ),
        pytest.param(
            side(0, (6, 6)),
            side(0, (1, 1)),
            "action",
            srs_checks.REASON_REACTION_FUMBLE,
            id="reaction-fumble-against-action-critical",
        ),
        pytest.param(
            side(0, (6, 6)),
            side(20, (5, 5)),
            "action",
            srs_checks.REASON_ACTION_CRITICAL,
            id="action-critical-beats-higher-achievement",
        ),
        pytest.param(
            side(9, (6, 6)),
            side(0, (6, 6)),
            "reaction",
            srs_checks.REASON_BOTH_CRITICAL,
            id="both-critical-reaction-priority",
        ),
        pytest.param(
            side(20, (5, 5)),
            side(0, (6, 6)),
            "reaction",
            srs_checks.REASON_REACTION_CRITICAL,
            id="reaction-critical",
        ),
        pytest.param(
            side(5, (4, 4)),
            side(5, (3, 4)),
            "action",
            srs_checks.REASON_HIGHER_ACHIEVEMENT,
            id="action-higher",
        ),
        pytest.param(
            side(5, (3, 4)),
            side(5, (4, 4)),
            "reaction",
            srs_checks.REASON_HIGHER_ACHIEVEMENT,
            id="reaction-higher",
        ),
        pytest.param(
            side(5, (3, 4)),
            side(4, (4, 4)),
            "reaction",
            srs_checks.REASON_TIE_REACTION_PRIORITY,
            id="tie-goes-to-reaction",
        ),
        pytest.param(
            side(3, (3, 4), modifier=-2),
            side(4, (2, 2), modifier=2),
            "reaction",
            srs_checks.REASON_HIGHER_ACHIEVEMENT,
            id="modifiers-count-in-achievement",
        ),
        pytest.param(
            side(3, (3, 4)),
            side(6, None, modifier=5),
            "reaction",
            srs_checks.REASON_HIGHER_ACHIEVEMENT,
            id="cannot-roll-reaction-uses-value-plus-modifier",
        ),
        pytest.param(
            side(3, (3, 4)),
            side(10, None),
            "reaction",
            srs_checks.REASON_TIE_REACTION_PRIORITY,
            id="cannot-roll-reaction-tie",
        ),
        pytest.param(
            side(0, (6, 6)),
            side(99, None),
            "action",
            srs_checks.REASON_ACTION_CRITICAL,
            id="action-critical-beats-cannot-roll",
        ),
        pytest.param(
            side(0, (5, 6), critical=11),
            side(0, (5, 6), critical=11),
            "reaction",
            srs_checks.REASON_BOTH_CRITICAL,
            id="both-critical-at-changed-value-11",
        ),
        pytest.param(
            side(9, (1, 2), fumble=3),
            side(0, (3, 3)),
            "reaction",
            srs_checks.REASON_ACTION_FUMBLE,
            id="action-fumble-at-changed-value-3",
        ),
    ],
)
def test_contest_rule_table(action, reaction, winner, reason):
    result = srs_checks.contest(action, reaction)

    assert (result.winner, result.reason) == (winner, reason)


def test_contest_action_fumble_accepts_no_reaction():
    result = srs_checks.contest(side(5, (1, 1)), None)

    assert (result.winner, result.reason, result.reaction) == (
        "reaction",
        srs_checks.REASON_ACTION_FUMBLE,
        None,
    )


def test_contest_missing_reaction_without_action_fumble_raises():
    with pytest.raises(ValueError, match="reaction"):
        srs_checks.contest(side(5, (3, 4)), None)


def test_contest_action_that_cannot_roll_raises():
    with pytest.raises(ValueError, match="action side must roll"):
        srs_checks.contest(side(5, None), side(5, (3, 4)))


def test_contest_keeps_both_sides():
    action, reaction = side(5, (3, 4)), side(4, (2, 2))

    result = srs_checks.contest(action, reaction)

    assert (result.action, result.reaction) == (action, reaction)


def test_contest_ignores_difficulty():
    result = srs_checks.contest(side(5, (3, 4), difficulty=30), side(4, (2, 2), difficulty=0))

    assert result.winner == "action"


@pytest.mark.parametrize(
    ("action", "reaction"),
    [(side(5, (3, 4)), side(4, None)), (side(5, (1, 1)), None), (side(0, (6, 6)), side(1, (6, 6)))],
)
def test_contest_result_survives_json_round_trip(action, reaction):
    result = srs_checks.contest(action, reaction)

    assert srs_checks.ContestResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_contest_result_from_dict_refuses_tampered_winner():
    data = srs_checks.contest(side(5, (3, 4)), side(4, (2, 2))).to_dict()
    data["winner"] = "reaction"

    with pytest.raises(ValueError, match="winner"):
        srs_checks.ContestResult.from_dict(data)


# --------------------------------------------------------------------------- exact odds


def brute_force_check_chances(value, modifier, difficulty, critical, fumble):
    results = [
        srs_checks.check(
            value, dice, modifier=modifier, difficulty=difficulty, critical=critical, fumble=fumble
        )
        for dice in ALL_DICE
    ]
    return srs_odds.CheckChances(
        critical=Fraction(sum(r.outcome == "critical" for r in results), 36),
        fumble=Fraction(sum(r.outcome == "fumble" for r in results), 36),
        success=Fraction(sum(r.success is True for r in results), 36),
        failure=Fraction(sum(r.success is False for r in results), 36),
    )


def brute_force_contest_chance(
    action_value, reaction_value, action_modifier, reaction_modifier, can_roll, critical, fumble
):
    def sides(value, modifier, rolls):
        return [
            srs_checks.check(value, dice, modifier=modifier, critical=critical, fumble=fumble)
            for dice in rolls
        ]

    actions = sides(action_value, action_modifier, ALL_DICE)
    # A side that cannot roll gets the same result for each of the 36 outcomes.
    reactions = sides(reaction_value, reaction_modifier, ALL_DICE if can_roll else [None] * 36)
    wins = sum(
        srs_checks.contest(action, reaction).winner == "action"
        for action in actions
        for reaction in reactions
    )
    return Fraction(wins, 36 * 36)


@pytest.mark.parametrize(
    ("value", "kwargs", "expected"),
    [
        pytest.param(
            0,
            {"difficulty": 7},
            srs_odds.CheckChances(
                Fraction(1, 36), Fraction(1, 36), Fraction(21, 36), Fraction(15, 36)
            ),
            id="plain-2d6-against-7",
        ),
        pytest.param(
            0,
            {"difficulty": 99},
            srs_odds.CheckChances(
                Fraction(1, 36), Fraction(1, 36), Fraction(1, 36), Fraction(35, 36)
            ),
            id="only-critical-succeeds",
        ),
        pytest.param(
            50,
            {"difficulty": 0},
            srs_odds.CheckChances(
                Fraction(1, 36), Fraction(1, 36), Fraction(35, 36), Fraction(1, 36)
            ),
            id="only-fumble-fails",
        ),
        pytest.param(
            0,
            {"difficulty": 99, "critical": 11, "fumble": 3},
            srs_odds.CheckChances(
                Fraction(3, 36), Fraction(3, 36), Fraction(3, 36), Fraction(33, 36)
            ),
            id="critical-11-fumble-3",
        ),
    ],
)
def test_check_chances_known_values(value, kwargs, expected):
    assert srs_odds.check_chances(value, **kwargs) == expected


def test_check_chances_difficulty_is_required():
    with pytest.raises(TypeError):
        srs_odds.check_chances(3)


def test_check_chances_survive_json_round_trip():
    chances = srs_odds.check_chances(3, modifier=1, difficulty=10)

    assert srs_odds.CheckChances.from_dict(json.loads(json.dumps(chances.to_dict()))) == chances


@pytest.mark.parametrize(
    ("action_value", "reaction_value", "kwargs", "expected"),
    [
        pytest.param(3, 3, {}, Fraction(575, 1296), id="equal-sides-favour-reaction"),
        pytest.param(
            0,
            0,
            {"reaction_can_roll": False},
            Fraction(35, 36),
            id="anything-but-fumble-beats-a-zero-that-cannot-roll",
        ),
        pytest.param(
            0,
            99,
            {"reaction_can_roll": False},
            Fraction(1, 36),
            id="only-critical-beats-a-huge-value-that-cannot-roll",
        ),
    ],
)
def test_contest_chance_known_values(action_value, reaction_value, kwargs, expected):
    assert srs_odds.contest_chance(action_value, reaction_value, **kwargs) == expected


@PROPERTY_SETTINGS
@given(values, modifiers, difficulties, criticals, fumbles)
def test_check_chances_sum_to_one(value, modifier, difficulty, critical, fumble):
    chances = srs_odds.check_chances(
        value, modifier=modifier, difficulty=difficulty, critical=critical, fumble=fumble
    )

    assert chances.success + chances.failure == 1
    assert chances.critical <= chances.success
    assert chances.fumble <= chances.failure


@PROPERTY_SETTINGS
@given(values, modifiers, difficulties, criticals, fumbles)
def test_check_chances_equal_brute_force(value, modifier, difficulty, critical, fumble):
    chances = srs_odds.check_chances(
        value, modifier=modifier, difficulty=difficulty, critical=critical, fumble=fumble
    )

    assert chances == brute_force_check_chances(value, modifier, difficulty, critical, fumble)


@PROPERTY_SETTINGS
@given(values, values, modifiers, modifiers, pairs_of_dice, st.none() | pairs_of_dice)
def test_contest_is_decided_for_every_roll(
    action_value, reaction_value, action_modifier, reaction_modifier, action_dice, reaction_dice
):
    action = srs_checks.check(action_value, action_dice, modifier=action_modifier)
    reaction = srs_checks.check(reaction_value, reaction_dice, modifier=reaction_modifier)

    result = srs_checks.contest(action, reaction)

    assert result.winner in (srs_checks.ACTION, srs_checks.REACTION)
    assert result.reason in srs_checks.CONTEST_REASONS


@settings(max_examples=25, deadline=None)
@given(values, values, modifiers, modifiers, st.booleans(), criticals, fumbles)
def test_contest_chance_equals_brute_force(
    action_value, reaction_value, action_modifier, reaction_modifier, can_roll, critical, fumble
):
    chance = srs_odds.contest_chance(
        action_value,
        reaction_value,
        action_modifier=action_modifier,
        reaction_modifier=reaction_modifier,
        reaction_can_roll=can_roll,
        critical=critical,
        fumble=fumble,
    )

    assert chance == brute_force_contest_chance(
        action_value,
        reaction_value,
        action_modifier,
        reaction_modifier,
        can_roll,
        critical,
        fumble,
    )


@settings(max_examples=25, deadline=None)
@given(values, values, modifiers, modifiers, st.booleans(), criticals, fumbles, criticals, fumbles)
def test_contest_chance_per_side_critical_and_fumble_equals_brute_force(
    action_value,
    reaction_value,
    action_modifier,
    reaction_modifier,
    can_roll,
    action_critical,
    action_fumble,
    reaction_critical,
    reaction_fumble,
):
    chance = srs_odds.contest_chance(
        action_value,
        reaction_value,
        action_modifier=action_modifier,
        reaction_modifier=reaction_modifier,
        reaction_can_roll=can_roll,
        action_critical=action_critical,
        action_fumble=action_fumble,
        reaction_critical=reaction_critical,
        reaction_fumble=reaction_fumble,
    )

    actions = [
        srs_checks.check(
            action_value,
            dice,
            modifier=action_modifier,
            critical=action_critical,
            fumble=action_fumble,
        )
        for dice in ALL_DICE
    ]
    reactions = [
        srs_checks.check(
            reaction_value,
            dice,
            modifier=reaction_modifier,
            critical=reaction_critical,
            fumble=reaction_fumble,
        )
        for dice in (ALL_DICE if can_roll else [None] * 36)
    ]
    wins = sum(srs_checks.contest(a, r).winner == "action" for a in actions for r in reactions)
    assert chance == Fraction(wins, 36 * 36)


def test_contest_chance_side_values_override_the_shared_ones():
    # Against 20 the action side wins only by the reaction's fumble (35 x 1 ways) or by its
    # own critical against a plain reaction (criticals x 34); a critical of 11 for the
    # action side alone makes that 3 ways instead of 1, the reaction side's stays 12.
    shared = srs_odds.contest_chance(0, 20, critical=12)
    own = srs_odds.contest_chance(0, 20, critical=12, action_critical=11)

    assert (shared, own) == (Fraction(35 + 34, 36 * 36), Fraction(35 + 3 * 34, 36 * 36))


@settings(max_examples=25, deadline=None)
@given(values, values, modifiers, modifiers, pairs_of_dice, st.booleans(), criticals, fumbles)
def test_reaction_chance_equals_brute_force(
    action_value, reaction_value, action_modifier, reaction_modifier, dice, can_roll, crit, fum
):
    action = srs_checks.check(action_value, dice, modifier=action_modifier)

    chance = srs_odds.reaction_chance(
        action,
        reaction_value,
        reaction_modifier=reaction_modifier,
        reaction_can_roll=can_roll,
        critical=crit,
        fumble=fum,
    )

    reactions = [
        srs_checks.check(
            reaction_value, faces, modifier=reaction_modifier, critical=crit, fumble=fum
        )
        for faces in (ALL_DICE if can_roll else [None] * 36)
    ]
    wins = sum(srs_checks.contest(action, reaction).winner == "reaction" for reaction in reactions)
    assert chance == Fraction(wins, 36)


def test_reaction_chance_without_dice_is_certain():
    action = srs_checks.check(5, (3, 4))  # achievement 12

    assert srs_odds.reaction_chance(action, 10, reaction_modifier=2, reaction_can_roll=False) == 1
    assert srs_odds.reaction_chance(action, 10, reaction_modifier=1, reaction_can_roll=False) == 0


# --------------------------------------------------------------------------- rolling


def test_roll_2d6_uses_injected_rng():
    expected_rng = random.Random(7)
    expected = (expected_rng.randint(1, 6), expected_rng.randint(1, 6))

    assert srs_checks.roll_2d6(random.Random(7)) == expected


def test_roll_2d6_default_gives_two_d6_faces():
    faces = srs_checks.roll_2d6()

    assert len(faces) == 2
    assert all(1 <= face <= 6 for face in faces)
