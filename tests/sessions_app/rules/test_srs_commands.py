import json
import random

import pytest

from sessions_app.rules import srs_commands

FIELDS = ("kind", "secret", "count", "faces", "modifier", "target", "critical", "fumble", "label")


def check_command(modifier=0, target=None, critical=12, fumble=2, secret=False, label=""):
    return ("check", secret, 2, 6, modifier, target, critical, fumble, label)


def sum_command(count, faces, modifier=0, secret=False, label=""):
    return ("sum", secret, count, faces, modifier, None, None, None, label)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2D6>=10", check_command(target=10)),
        ("2D6+2>=10", check_command(modifier=2, target=10)),
        ("2D6-1>=8", check_command(modifier=-1, target=8)),
        ("2D6+1-2+3>=10", check_command(modifier=2, target=10)),
        ("2D6+2>=10[11]", check_command(modifier=2, target=10, critical=11)),
        ("2D6+2>=10[12,4]", check_command(modifier=2, target=10, fumble=4)),
        ("2D6+2>=10[,4]", check_command(modifier=2, target=10, fumble=4)),
        ("2D6+2>=10[11,]", check_command(modifier=2, target=10, critical=11)),
        ("2D6+2>=10[]", check_command(modifier=2, target=10)),
        ("2D6+2@11>=10", check_command(modifier=2, target=10, critical=11)),
        ("2D6+2#4>=10", check_command(modifier=2, target=10, fumble=4)),
        ("2D6+2@12#4>=10", check_command(modifier=2, target=10, fumble=4)),
        ("2D6+2#3@11>=10", check_command(modifier=2, target=10, critical=11, fumble=3)),
        ("2D6@11+2>=10", check_command(modifier=2, target=10, critical=11)),
        ("2D6>=8+2", check_command(target=10)),
        ("2D6[]", check_command()),
        ("2D6+2[11]", check_command(modifier=2, critical=11)),
        ("2D6[,3]", check_command(fumble=3)),
        ("2D6@11", check_command(critical=11)),
        ("2D6#3", check_command(fumble=3)),
        ("2d6+2>=10", check_command(modifier=2, target=10)),
        ("  2D6+2>=10  ", check_command(modifier=2, target=10)),
        ("S2D6+2>=10", check_command(modifier=2, target=10, secret=True)),
        ("s2d6[]", check_command(secret=True)),
        ("2D6+2>=10 climb the wall", check_command(modifier=2, target=10, label="climb the wall")),
        ("2D6>=9\u3000壁を登る", check_command(target=9, label="壁を登る")),
        ("２Ｄ６＋２＞＝１０", check_command(modifier=2, target=10)),
        ("2D6", sum_command(2, 6)),
        ("2D6+3", sum_command(2, 6, modifier=3)),
        ("1D6+1-1+2", sum_command(1, 6, modifier=2)),
        ("3D6", sum_command(3, 6)),
        ("3d6-2", sum_command(3, 6, modifier=-2)),
        ("100D1000", sum_command(100, 1000)),
        ("1D100", sum_command(1, 100)),
        ("S1D6", sum_command(1, 6, secret=True)),
        ("2D6+4 sword damage", sum_command(2, 6, modifier=4, label="sword damage")),
    ],
)
def test_parse_command_vectors(text, expected):
    parsed = srs_commands.parse_command(text)

    assert tuple(getattr(parsed, name) for name in FIELDS) == expected


def test_parse_command_keeps_stripped_text():
    assert srs_commands.parse_command("  2D6+2>=10 climb  ").text == "2D6+2>=10 climb"


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("2d6+1-2+3@11>=10", "2D6+2>=10[11,2]"),
        ("2D6[]", "2D6[12,2]"),
        ("S3D6-1", "3D6-1"),
    ],
)
def test_parsed_command_notation(text, notation):
    assert srs_commands.parse_command(text).notation == notation


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("hello", "a roll starts with NdM"),
        ("*2D6", "a roll starts with NdM"),
        ("2D6>=", "target number is missing"),
        ("3D6@11>=10", "only an SRS check"),
        ("1D6[]", "only an SRS check"),
        ("2D10@9", "only an SRS check"),
        ("2D6+1D6@11", "only an SRS check"),
        ("201D6", "N must be ≤ 200"),
        ("1D10001", "M must be ≤ 10000"),
        ("0D6", "at least 1"),
        ("1D0", "at least 1"),
        ("2D6[12,2,1]", r"\[12,2,1\]"),
        ("2D6[a]", r"\[a\]"),
        ("2D6[11", "missing '\\]'"),
        ("2D6@", "'@' must be followed by the critical value"),
        ("2D6#", "'#' must be followed by the fumble value"),
        ("2D6@11@10", "critical value is given twice"),
        ("2D6#3#4", "fumble value is given twice"),
        ("2D6@11[12]", "not both"),
        ("2D6[11]>=10", "nothing may follow"),
        ("2D6@11>10", "'>=' only"),
        ("2D6<=10[11]", "'>=' only"),
        ("2D6>=10>=11", "target is given twice"),
        ("2D6>=10@11", "before '>='"),
        ("2D6+", "'\\+' must be followed by a number"),
        ("2D6*", "'\\*' must be followed by a number"),
        ("2D6+1@11+2>=10", "one place"),
        ("2D6x2", "(?i)'x2'"),
        ("2D6 +2>=10", "remove the space"),
        ("2D6+2 >=10", "remove the space"),
        ("2D6" + "+1" * 60, "longer than 100"),
    ],
)
def test_parse_command_refusal(text, message):
    with pytest.raises(srs_commands.CommandError, match=message):
        srs_commands.parse_command(text)


def test_parse_command_non_text_refused():
    with pytest.raises(srs_commands.CommandError):
        srs_commands.parse_command(None)


def test_command_error_is_value_error():
    assert issubclass(srs_commands.CommandError, ValueError)


@pytest.mark.parametrize(
    ("text", "dice", "total", "outcome", "achievement"),
    [
        ("2D6+2>=10", [4, 4], 10, "success", 10),
        ("2D6+2>=10", [3, 4], 9, "failure", 9),
        ("2D6-5>=3", [6, 6], 7, "critical", None),
        ("2D6+9>=3", [1, 1], 11, "fumble", None),
        ("2D6+2>=10[11]", [5, 6], 13, "critical", None),
        ("2D6@12#3>=5", [1, 2], 3, "fumble", None),
        ("2D6+1[]", [3, 4], 8, "achieved", 8),
        ("2D6@11", [5, 6], 11, "critical", None),
    ],
)
def test_roll_command_check_vectors(text, dice, total, outcome, achievement):
    result = srs_commands.roll_command(text, dice)

    assert (result.total, result.check.outcome, result.check.achievement) == (
        total,
        outcome,
        achievement,
    )


@pytest.mark.parametrize(
    ("text", "dice", "total"),
    [("2D6", [6, 6], 12), ("3D6+1-3", [1, 2, 3], 4), ("1D100", [100], 100), ("2D6+3", [1, 1], 5)],
)
def test_roll_command_sum_vectors(text, dice, total):
    result = srs_commands.roll_command(text, dice)

    assert (result.total, result.check, result.faces) == (total, None, tuple(dice))


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("2D6>=10", [3]),
        ("2D6>=10", [3, 3, 3]),
        ("2D6>=10", [0, 3]),
        ("2D6>=10", [3, 7]),
        ("1D100", [101]),
        ("3D6", [1, 2, 3.0]),
        ("1D6", "4"),
    ],
)
def test_roll_command_wrong_dice_raise_value_error(text, dice):
    with pytest.raises(ValueError):
        srs_commands.roll_command(text, dice)


def test_roll_command_bad_text_raises_command_error():
    with pytest.raises(srs_commands.CommandError):
        srs_commands.roll_command("hello", [1, 2])


def test_roll_command_random_uses_injected_rng():
    twin = random.Random(5)
    expected = srs_commands.roll_command("3D6+1", [twin.randint(1, 6) for _ in range(3)])
    rng = random.Random(5)

    assert srs_commands.roll_command_random("3D6+1", rng) == expected


def test_roll_command_random_default_rolls_valid_faces():
    result = srs_commands.roll_command_random("S2D6+2>=10 sneak")

    assert len(result.faces) == 2
    assert all(1 <= face <= 6 for face in result.faces)


def test_roll_command_random_refuses_before_rolling():
    class ExplodingRandom(random.Random):
        def randint(self, a, b):
            raise AssertionError("rolled a refused command")

    with pytest.raises(srs_commands.CommandError):
        srs_commands.roll_command_random("3D6@11>=10", ExplodingRandom())


@pytest.mark.parametrize(
    ("text", "dice"),
    [("S2D6+2>=10 climb", [3, 4]), ("2D6[]", [6, 6]), ("4D10-1 damage", [1, 2, 3, 10])],
)
def test_command_result_survives_json_round_trip(text, dice):
    result = srs_commands.roll_command(text, dice)

    assert srs_commands.CommandResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_command_result_from_dict_refuses_tampered_total():
    data = srs_commands.roll_command("2D6+2>=10", [3, 4]).to_dict()
    data["total"] = 12

    with pytest.raises(ValueError, match="total"):
        srs_commands.CommandResult.from_dict(data)


def test_parse_command_takes_the_table_values_where_the_command_gives_none():
    parsed = srs_commands.parse_command("2D6>=20", critical=11, fumble=3)

    assert (parsed.critical, parsed.fumble, parsed.notation) == (11, 3, "2D6>=20[11,3]")


@pytest.mark.parametrize(
    ("text", "critical", "fumble"),
    [("2D6@12#2>=9", 12, 2), ("2D6>=9[12,2]", 12, 2), ("2D6>=9[10]", 10, 3), ("2D6#4", 11, 4)],
)
def test_parse_command_own_values_win_over_the_table(text, critical, fumble):
    parsed = srs_commands.parse_command(text, critical=11, fumble=3)

    assert (parsed.critical, parsed.fumble) == (critical, fumble)


def test_roll_command_table_critical_on_five_and_six():
    assert srs_commands.roll_command("2D6>=20", [5, 6], critical=11, fumble=3).check.is_critical
    assert srs_commands.roll_command("2D6>=2", [1, 2], critical=11, fumble=3).check.is_fumble


def test_command_result_with_table_values_survives_round_trip():
    result = srs_commands.roll_command("2D6+1>=9", [2, 6], critical=8, fumble=3)

    assert srs_commands.CommandResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


class _CountingDice:
    """A take_dice that counts how often the rules asked for dice."""

    def __init__(self, seed=7):
        self.calls = 0
        self.seed = seed

    def __call__(self):
        self.calls += 1
        return random.Random(self.seed)


def test_command_rolled_takes_dice_once_for_a_command_that_draws():
    take_dice = _CountingDice()

    rolled = srs_commands.command_rolled("S2D6+1>=8 Sneak", take_dice=take_dice)

    assert take_dice.calls == 1
    assert rolled.command == "S2D6+1>=8[12,2]"
    assert rolled.label == "Sneak"
    assert rolled.secret is True
    assert len(rolled.faces) == 2
    assert rolled.result["total"] == sum(rolled.faces) + 1
    assert rolled.result["command_modifier"] == 1
    assert rolled.result["sides"] == 6


def test_command_rolled_takes_no_dice_for_a_calculation():
    take_dice = _CountingDice()

    rolled = srs_commands.command_rolled("C(10*3+2)", take_dice=take_dice)

    assert take_dice.calls == 0
    assert rolled.result["total"] == 32


@pytest.mark.parametrize("text", ["2D6>=", "2D6>=8>=9", "hello"])
def test_command_rolled_takes_no_dice_for_a_command_in_error(text):
    take_dice = _CountingDice()

    with pytest.raises(srs_commands.CommandError):
        srs_commands.command_rolled(text, take_dice=take_dice)

    assert take_dice.calls == 0


def test_command_rolled_with_faces_given_uses_them_and_takes_no_dice():
    take_dice = _CountingDice()

    rolled = srs_commands.command_rolled("2D6+2>=10", take_dice=take_dice, faces=(6, 6))

    assert take_dice.calls == 0
    assert rolled.faces == [6, 6]
    assert rolled.result["outcome"] == "critical"


def test_command_rolled_refuses_a_total_too_large_to_keep():
    with pytest.raises(srs_commands.CommandError):
        srs_commands.command_rolled("2D6+9999999999999", take_dice=_CountingDice())
