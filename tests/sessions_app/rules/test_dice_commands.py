"""BCDice's common commands in the roll box, with fixed faces.

Most vectors are BCDice's own (test/data/None.toml, AddDice.toml, UpperDice.toml,
D66Dice.toml, calc.toml, choice.toml, Repeat.toml): the same input and faces must give the
same total, successes or choice here.
"""

import json
import random

import pytest

from sessions_app.rules import dice_grammar, srs_checks, srs_commands


def roll(text, faces):
    return srs_commands.roll_command(text, faces)


# --------------------------------------------------------------------------- sums


@pytest.mark.parametrize(
    ("text", "faces", "notation", "total"),
    [
        ("1D20+1", [1], "1D20+1", 2),
        ("2D6*2*3", [2, 3], "2D6*2*3", 30),
        ("2D6*2*3-1", [2, 3], "2D6*2*3-1", 29),
        ("1D6*1D6+2", [2, 3], "1D6*1D6+2", 8),
        ("(2D6+1D4)*2", [5, 3, 4], "(2D6+1D4)*2", 24),
        ("(2D6+(1D4+3)*3)*2", [5, 3, 4], "(2D6+(1D4+3)*3)*2", 58),
        ("D20+3D4", [20, 1, 2, 3], "1D20+3D4", 26),
        ("1+2D6", [4, 3], "1+2D6", 8),
        ("2d10--3-4", [3, 5], "2D10-1", 7),
        ("2D6+4D10", [5, 4, 1, 9, 7, 4], "2D6+4D10", 30),
        ("2d6*3-1d6+1", [6, 2, 3], "2D6*3-1D6+1", 22),
        ("(2+3)d6-1+3d6+2", [2, 3, 1, 5, 6, 5, 4, 4], "5D6-1+3D6+2", 31),
        ("(2*3-4)d6-1d4+1", [6, 5, 2], "2D6-1D4+1", 10),
        ("((2+3)*4/3)d6*2+5", [6, 5, 6, 2, 1, 4], "6D6*2+5", 53),
        ("2D", [2, 5], "2D6", 7),
        ("D6", [4], "1D6", 4),
        ("２Ｄ６＋１Ｄ６", [1, 2, 3], "2D6+1D6", 6),
        ("2D66", [6, 6, 5, 4], "2D66", 120),
        ("1D3+2D66", [3, 1, 6, 6, 1], "1D3+2D66", 80),
    ],
)
def test_sum_vectors(text, faces, notation, total):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation, result.total) == ("sum", notation, total)
    assert result.check is None
    assert result.faces == tuple(faces)


@pytest.mark.parametrize(
    ("text", "faces", "notation", "total"),
    [
        ("2D10/10", [1, 8], "2D10/10", 0),
        ("2D10/10", [1, 9], "2D10/10", 1),
        ("2D10/10", [1, 10], "2D10/10", 1),
        ("2D10/10R", [1, 3], "2D10/10R", 0),
        ("2D10/10R", [1, 4], "2D10/10R", 1),
        ("2D10/10R", [10, 4], "2D10/10R", 1),
        ("2D10/10R", [10, 5], "2D10/10R", 2),
        ("2D10/10U", [1, 1], "2D10/10U", 1),
        ("2D10/10U", [1, 10], "2D10/10U", 2),
        ("1D6+3/2U", [1], "1D6+3/2U", 3),
        ("1D6+3/2C", [1], "1D6+3/2U", 3),
        ("1D6+3/2F", [1], "1D6+3/2F", 2),
        ("1D6+3/2R", [1], "1D6+3/2R", 3),
        ("1D6+4/3R", [1], "1D6+4/3R", 2),
        ("1D6/2", [1], "1D6/2", 0),
        ("3D6/2", [1, 2, 4], "3D6/2", 3),
        ("3D6/2U", [1, 2, 4], "3D6/2U", 4),
        ("3D6+1D6/2", [1, 2, 4, 5], "3D6+1D6/2", 9),
        ("5D6/10u", [6, 6, 6, 2, 1], "5D6/10U", 3),
        ("1D100/10R", [55], "1D100/10R", 6),
        ("1D100/10r", [54], "1D100/10R", 5),
        ("1d6/-3", [4], "1D6/-3", -2),
        ("1d6/-3u", [4], "1D6/-3U", -1),
        ("1d6/-3r", [4], "1D6/-3R", -1),
        ("1d6/-3r", [5], "1D6/-3R", -2),
        ("1d6/2*3", [6], "1D6/2*3", 9),
        ("1D6/0", [1], "1D6/0", 1),
    ],
)
def test_division_rounds_as_bcdice(text, faces, notation, total):
    result = roll(text, faces)

    assert (result.command.notation, result.total) == (notation, total)


def test_sum_groups_faces_per_term():
    result = roll("2D6+1D4*2", [5, 3, 4])

    assert result.detail["groups"] == [
        {"notation": "2D6", "sides": 6, "faces": [5, 3]},
        {"notation": "1D4", "sides": 4, "faces": [4]},
    ]


def test_d66_term_in_a_sum_keeps_each_pair():
    group = roll("2D66", [6, 6, 5, 4]).detail["groups"][0]

    assert (group["dice"], group["values"]) == ([[6, 6], [5, 4]], [66, 54])


# --------------------------------------------------------------------------- comparisons


@pytest.mark.parametrize(
    ("text", "faces", "operator", "target", "success"),
    [
        ("2D6=7", [3, 4], "=", 7, True),
        ("2D6=7", [3, 3], "=", 7, False),
        ("2D6==7", [3, 4], "=", 7, True),
        ("2D6<>7", [3, 4], "<>", 7, False),
        ("2D6<>7", [3, 3], "<>", 7, True),
        ("2D6!=7", [3, 5], "<>", 7, True),
        ("2D6<7", [3, 3], "<", 7, True),
        ("2D6<7", [3, 4], "<", 7, False),
        ("2D6>7", [3, 5], ">", 7, True),
        ("2D6>7", [3, 4], ">", 7, False),
        ("2D6<=7", [3, 4], "<=", 7, True),
        ("2D6=<7", [3, 5], "<=", 7, False),
        ("-2D6<-7", [3, 5], "<", -7, True),
        ("-2D6>=-7", [3, 4], ">=", -7, True),
        ("-2D6>=-7", [3, 5], ">=", -7, False),
        ("1d6>=1+2", [3], ">=", 3, True),
        ("1d6-(1-2)>=3+2", [3], ">=", 5, False),
        ("3D6>=10", [6, 3, 1], ">=", 10, True),
        ("2D6+1D6>=8", [1, 2, 4], ">=", 8, False),
        ("1+2D6>=8", [3, 4], ">=", 8, True),
        ("2D6*2>=8", [1, 2], ">=", 8, False),
    ],
)
def test_plain_comparison_vectors(text, faces, operator, target, success):
    result = roll(text, faces)

    assert result.command.kind == "sum"
    assert result.check is None
    assert (result.detail["comparison"], result.detail["target"]) == (operator, target)
    assert result.detail["success"] is success


@pytest.mark.parametrize(("text", "faces"), [("2D6>11", [6, 6]), ("3D6<=5", [1, 1, 1])])
def test_plain_comparison_never_criticals_or_fumbles(text, faces):
    result = roll(text, faces)

    assert result.check is None
    assert set(result.detail) == {"groups", "comparison", "target", "success"}


@pytest.mark.parametrize(
    ("text", "faces", "modifier", "target", "outcome"),
    [
        ("2D6>=7", [3, 4], 0, 7, "success"),
        ("2D6=>8", [3, 4], 0, 8, "failure"),
        ("2D6+1*2>=8", [3, 3], 2, 8, "success"),
        ("2D6+(1+2)>=8", [6, 6], 3, 8, "critical"),
        ("2D6-3/2>=8", [1, 1], -1, 8, "fumble"),
        ("2D6+1*2@11>=20", [5, 6], 2, 20, "critical"),
        ("S2D6+4/2U>=9 sneak", [3, 4], 2, 9, "success"),
    ],
)
def test_srs_check_keeps_its_meaning_with_arithmetic_modifiers(
    text, faces, modifier, target, outcome
):
    result = roll(text, faces)

    assert result.command.kind == "check"
    assert (result.command.modifier, result.command.target) == (modifier, target)
    assert result.check.outcome == outcome


# --------------------------------------------------------------------------- B dice


@pytest.mark.parametrize(
    ("text", "faces", "notation", "successes"),
    [
        ("2b6", [3, 4], "2B6", None),
        ("(1*2)b(2+4)", [4, 3], "2B6", None),
        ("2b6+4b10", [1, 3, 1, 10, 3, 1], "2B6+4B10", None),
        ("2b6=3", [3, 4], "2B6=3", 1),
        ("2b6=3", [2, 1], "2B6=3", 0),
        ("2b6<>3", [2, 1], "2B6<>3", 2),
        ("2b6>3", [3, 4], "2B6>3", 1),
        ("2b6<3", [2, 1], "2B6<3", 2),
        ("2b6>=3", [3, 4], "2B6>=3", 2),
        ("2b6<=3", [3, 4], "2B6<=3", 1),
        ("2b6+4b10>3", [3, 4, 9, 7, 1, 5], "2B6+4B10>3", 4),
        ("2b6+3b8+5b12<5", [5, 2, 7, 3, 4, 11, 9, 8, 12, 6], "2B6+3B8+5B12<5", 3),
        ("(1*2)b(2+4)>3", [4, 3], "2B6>3", 1),
        ("3B6>=4", [5, 2, 4], "3B6>=4", 2),
        ("5B6>=2+2", [1, 2, 3, 4, 5], "5B6>=4", 2),
    ],
)
def test_barabara_vectors(text, faces, notation, successes):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation) == ("barabara", notation)
    assert result.detail.get("successes") == successes
    assert "success" not in result.detail
    assert [face for group in result.detail["groups"] for face in group["faces"]] == faces


def test_barabara_groups_each_term():
    groups = roll("2B6+3B8", [1, 2, 3, 4, 5]).detail["groups"]

    assert [(group["notation"], group["faces"]) for group in groups] == [
        ("2B6", [1, 2]),
        ("3B8", [3, 4, 5]),
    ]


# --------------------------------------------------------------------------- U dice

_FOUR_U6 = [5, 2, 6, 5, 6, 6, 6, 5]
_MIXED_U = [1, 5, 5, 3, 2, 4, 4, 4, 3]


@pytest.mark.parametrize(
    ("text", "faces", "notation", "expected"),
    [
        ("4U6[6]", _FOUR_U6, "4U6[6]", {"maximum": 23, "total": 41}),
        ("4U6[6]>=10", _FOUR_U6, "4U6[6]>=10", {"successes": 2}),
        ("4U6[6]>=7+3", _FOUR_U6, "4U6[6]>=10", {"successes": 2}),
        ("4U6>=10@6", _FOUR_U6, "4U6[6]>=10", {"successes": 2}),
        ("4U6[6]+11", _FOUR_U6, "4U6[6]+11", {"maximum": 34, "total": 52}),
        ("4U6[6]+11>=21", _FOUR_U6, "4U6[6]+11>=21", {"successes": 2}),
        ("4U6+11>=21@6", _FOUR_U6, "4U6[6]+11>=21", {"successes": 2}),
        ("4U6[6]+1+2+10", _FOUR_U6, "4U6[6]+13", {"maximum": 36, "total": 54}),
        ("4U6[6]-1+2+10", _FOUR_U6, "4U6[6]+11", {"maximum": 34, "total": 52}),
        ("2U6+2U4[4]+6", _MIXED_U, "2U6+2U4[4]+6", {"maximum": 21, "total": 37}),
        ("2U6+2U4[4]+6>=8", _MIXED_U, "2U6+2U4[4]+6>=8", {"successes": 3}),
        ("2U6+2U4[4]<>13", _MIXED_U, "2U6+2U4[4]<>13", {"successes": 3}),
        ("1U6[3]", [3, 2], "1U6[3]", {"maximum": 5, "total": 5}),
    ],
)
def test_upper_vectors(text, faces, notation, expected):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation) == ("upper", notation)
    found = {"total": result.total, **result.detail}
    assert {key: found[key] for key in expected} == expected


def test_upper_keeps_each_die_s_rerolls():
    group = roll("4U6[6]", _FOUR_U6).detail["groups"][0]

    assert group["dice"] == [[5], [2], [6, 5], [6, 6, 6, 5]]
    assert group["values"] == [5, 2, 11, 23]


# --------------------------------------------------------------------------- D66, calc


@pytest.mark.parametrize(
    ("text", "faces", "notation", "total"),
    [
        ("D66", [1, 6], "D66", 16),
        ("D66", [6, 1], "D66", 61),
        ("D66A", [6, 1], "D66A", 16),
        ("d66s", [6, 1], "D66S", 16),
        ("D66D", [1, 6], "D66D", 61),
        ("D66N", [6, 1], "D66N", 61),
    ],
)
def test_d66_vectors(text, faces, notation, total):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation, result.total) == (
        "d66",
        notation,
        total,
    )
    assert result.detail["groups"][0]["faces"] == faces


@pytest.mark.parametrize(
    ("text", "notation", "total"),
    [
        ("C(1+2)", "C(1+2)", 3),
        ("C(1-2)", "C(1-2)", -1),
        ("C(2/3)", "C(2/3)", 0),
        ("C(12/3-2*6)", "C(12/3-2*6)", -8),
        ("C(99/21*11-23+57/3*7+13-17)", "C(99/21*11-23+57/3*7+13-17)", 150),
        ("c(30-10/2)", "C(30-10/2)", 25),
        ("c((10+10)*9)", "C((10+10)*9)", 180),
        ("C(-1---1)", "C(-1-1)", -2),
        ("C(5/-1)", "C(5/-1)", -5),
        ("C(-20/5)", "C(-20/5)", -4),
        ("C(20/-4)", "C(20/-4)", -5),
        ("C(10*3+2)", "C(10*3+2)", 32),
        ("c1+4*3/2", "C(1+4*3/2)", 7),
        ("c1/2R", "C(1/2R)", 1),
        ("c1/2C", "C(1/2U)", 1),
        ("c1/3R", "C(1/3R)", 0),
        ("c1/3F", "C(1/3F)", 0),
    ],
)
def test_calc_vectors(text, notation, total):
    result = roll(text, [])

    assert (result.command.kind, result.command.notation, result.total) == (
        "calc",
        notation,
        total,
    )
    assert result.faces == ()


# --------------------------------------------------------------------------- choice


@pytest.mark.parametrize(
    ("text", "faces", "notation", "chosen", "label"),
    [
        ("choice[abc,def]", [1], "choice[abc,def]", ["abc"], ""),
        ("CHOICE[abc,def] big", [1], "choice[abc,def]", ["abc"], "big"),
        ("choice(A, B,  C , D   )", [4], "choice(A,B,C,D)", ["D"], ""),
        ("choice a b c", [2], "choice a b c", ["b"], ""),
        ("choice A,B X,Y", [2], "choice A,B X,Y", ["X,Y"], ""),
        ("choice[A(), B(), C()]", [1], "choice[A(),B(),C()]", ["A()"], ""),
        ("choice(A[], B[])", [2], "choice(A[],B[])", ["B[]"], ""),
        ("choice[A,,C]", [2], "choice[A,C]", ["C"], ""),
        ("choice2[A,B,C]", [1, 2], "choice2[A,B,C]", ["A", "C"], ""),
        ("choice[A-D]", [4], "choice[A-D]", ["D"], ""),
        ("choice[b-g]", [1], "choice[b-g]", ["b"], ""),
        ("choice[3-7]", [5], "choice[3-7]", ["7"], ""),
        ("choice[A-D,Z]", [1], "choice[A-D,Z]", ["A-D"], ""),
        ("choice[D-A]", [1], "choice[D-A]", ["D-A"], ""),
        ("choice[東,西,南,北] 方角", [3], "choice[東,西,南,北]", ["南"], "方角"),
    ],
)
def test_choice_vectors(text, faces, notation, chosen, label):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation) == ("choice", notation)
    assert (result.detail["chosen"], result.command.label) == (chosen, label)
    assert result.total is None


# --------------------------------------------------------------------------- repeat


@pytest.mark.parametrize(
    ("text", "faces", "totals"),
    [
        ("x5 1D6", [2, 2, 4, 3, 4], [2, 2, 4, 3, 4]),
        ("rep2 3D6/2", [1, 2, 4, 6, 6, 6], [3, 9]),
        ("repeat2 5B6>=4", [1, 2, 3, 4, 5, 6, 6, 6, 6, 6], [15, 30]),
        ("x2 D66", [1, 6, 6, 1], [16, 61]),
        ("x3 C(1+2)", [], [3, 3, 3]),
    ],
)
def test_repeat_vectors(text, faces, totals):
    result = roll(text, faces)

    assert result.command.kind == "repeat"
    assert [each["total"] for each in result.detail["rolls"]] == totals
    assert result.faces == tuple(faces)


def test_repeat_of_an_srs_check_decides_each_check():
    result = roll("x3 2D6+1>=8 attack", [6, 6, 3, 4, 1, 1])

    rolls = result.detail["rolls"]
    assert [each["check"]["outcome"] for each in rolls] == ["critical", "success", "fumble"]
    assert [each["groups"][0]["faces"] for each in rolls] == [[6, 6], [3, 4], [1, 1]]
    assert result.command.label == "attack"


@pytest.mark.parametrize(
    ("text", "faces", "kind", "notation"),
    [
        ("ｘ２\u3000Ｄ６６", [1, 2, 3, 4], "repeat", "x2 D66"),
        ("ｃｈｏｉｃｅ［東，西］", [2], "choice", "choice[東,西]"),
        ("５Ｂ６＞＝４", [1, 2, 3, 4, 5], "barabara", "5B6>=4"),
        ("Ｃ（１＋２）", [], "calc", "C(1+2)"),
    ],
)
def test_full_width_input_from_japanese_ime(text, faces, kind, notation):
    result = roll(text, faces)

    assert (result.command.kind, result.command.notation) == (kind, notation)


def test_repeat_of_a_choice():
    rolls = roll("x2 choice[a,b,c]", [3, 1]).detail["rolls"]

    assert [each["chosen"] for each in rolls] == [["c"], ["a"]]


# --------------------------------------------------------------------------- secret


@pytest.mark.parametrize(
    ("secret", "open_text"),
    [
        ("S3D6/2", "3D6/2"),
        ("S2D6>7", "2D6>7"),
        ("S5B6>=4", "5B6>=4"),
        ("S3U6[6]", "3U6[6]"),
        ("SD66", "D66"),
        ("SC(1+2)", "C(1+2)"),
        ("sc1+4*3/2", "c1+4*3/2"),
        ("Schoice[a,b]", "choice[a,b]"),
        ("sChoice a b", "Choice a b"),
        ("Sx2 1D6", "x2 1D6"),
        ("x2 S1D6", "x2 1D6"),
    ],
)
def test_secret_prefix_on_every_kind(secret, open_text):
    assert srs_commands.parse_command(secret).secret is True
    assert srs_commands.parse_command(open_text).secret is False


# --------------------------------------------------------------------------- limits and refusals


@pytest.mark.parametrize(
    "text", ["200D6", "1D10000", "200B6", "2B10000", "200U6[6]", "x50 200D6", "x100 1D6"]
)
def test_bcdice_limits_are_allowed(text):
    srs_commands.parse_command(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("201D6", "N must be ≤ 200"),
        ("1D10001", "M must be ≤ 10000"),
        ("201B6", "N must be ≤ 200"),
        ("2U10001[6]", "M must be ≤ 10000"),
        ("0B6", "at least 1"),
        ("x51 200D6", "more than 10000 dice"),
        ("rep0 1D6", "repeat from 1 to 100 times"),
        ("rep101 1D6", "repeat from 1 to 100 times"),
        ("rep1", "must be followed by the command to repeat"),
        ("x2 x2 1D6", "cannot hold another repeat"),
        ("x2 hello", "a roll starts with NdM"),
        ("4U6[6]+11>=21@4", "not both"),
        ("4U6+2U4+11>=21", "threshold of at least 2"),
        ("4U6+2U4[1]+14-3>=21", "threshold of at least 2"),
        ("C(1/0)", "divides by zero"),
        ("C(1+(2-3*4/(5/6))-7)", "divides by zero"),
        ("c1+4*", r"'\*' must be followed by a number"),
        ("2B6>=1/0", "divides by zero"),
        ("choice", "choice lists its items"),
        ("choice[]", "nothing to choose from"),
        ("choice[a,b", "missing"),
        ("choice3[a,b]", "picks 3 items from only 2"),
        ("choice[1-101]", "at most 100 items"),
        ("choice[" + ",".join(str(n) for n in range(101)) + "]", "at most 100 items"),
        ("1+2", "rolls no dice"),
        ("2D6>=1D6", "cannot roll dice"),
        ("2D6>", "target number is missing after '>'"),
        ("(1D6)D6", "cannot be rolled"),
        ("(2D6+1", r"missing '\)'"),
        ("2D6/", r"'/' must be followed by a number"),
        ("1D6/3x", "(?i)'x'"),
        ("2D6!5", "is not understood"),
    ],
)
def test_refusals(text, message):
    with pytest.raises(srs_commands.CommandError, match=message):
        srs_commands.parse_command(text)


def test_dice_limit_counts_rerolls_at_roll_time():
    class AlwaysTwo(random.Random):
        def randint(self, a, b):
            return 2

    # Every die shows the threshold again, so only the limit ends the rerolls.
    with pytest.raises(srs_commands.CommandError, match="more than 10000 dice"):
        srs_commands.roll_command_random("1U6[2]", AlwaysTwo())


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("2D6+1D6/2U>=5", [1, 2, 3]),
        ("5B6>=4", [1, 2, 3, 4, 5]),
        ("2U6[6]+1", [6, 1, 2]),
        ("D66", [3, 5]),
        ("C(1+2)", []),
        ("choice[a,b,c]", [2]),
        ("Sx2 2D6+1>=8 go", [1, 2, 6, 6]),
    ],
)
def test_every_kind_survives_json_round_trip(text, faces):
    result = roll(text, faces)

    assert srs_commands.CommandResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_stored_faces_cannot_be_swapped_for_another_choice():
    data = roll("choice[a,b,c]", [2]).to_dict()
    data["detail"]["chosen"] = ["c"]

    with pytest.raises(ValueError, match="detail"):
        srs_commands.CommandResult.from_dict(data)


def test_random_rolls_draw_through_one_function(monkeypatch):
    calls = []

    def recording_draw(count, sides, rng=None):
        calls.append((count, sides))
        return [sides] * count if sides != 6 else [1] * count

    monkeypatch.setattr(srs_checks, "draw_faces", recording_draw)
    srs_commands.roll_command_random("2D6+1D20")
    srs_commands.roll_command_random("2B8")
    srs_commands.roll_command_random("x2 D66")

    assert calls == [(2, 6), (1, 20), (2, 8), (2, 6), (2, 6)]


def test_random_rolls_match_the_same_faces_given():
    twin = random.Random(9)
    faces = [twin.randint(1, sides) for sides in (6, 6, 20)]

    assert srs_commands.roll_command_random("2D6+1D20", random.Random(9)) == roll("2D6+1D20", faces)


def test_comparison_operator_follows_bcdice_normalize():
    assert [dice_grammar.comparison_operator(text) for text in ("=>", "=<", "!=", "==", "!")] == [
        ">=",
        "<=",
        "<>",
        "=",
        None,
    ]


def test_repeated_check_keeps_the_table_s_critical_through_a_round_trip():
    result = srs_commands.roll_command("x2 2D6>=20", [5, 6, 1, 2], critical=11, fumble=3)

    assert [each["check"]["outcome"] for each in result.detail["rolls"]] == ["critical", "fumble"]
    assert srs_commands.CommandResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
