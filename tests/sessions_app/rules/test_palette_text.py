"""The chat palette's text and the resource commands, as pure functions."""

import pytest

from sessions_app.rules.palette_text import (
    PaletteError,
    palette_default,
    palette_lines,
    palette_resolve,
    resource_apply,
    resource_command_parse,
)


def test_palette_default_lists_each_judgement_value_as_its_check_then_resources():
    text = palette_default({"筋力": 3, "反射": 2}, {"HP": {}, "MP": {}})

    assert text.splitlines() == [
        "2D6+{筋力}>=",
        "2D6+{反射}>=",
        "2D6",
        ":HP-",
        ":HP+",
        ":MP-",
        ":MP+",
    ]


def test_palette_lines_drop_blank_lines_and_trailing_spaces():
    assert palette_lines("2D6+{筋力}>=  \r\n\n  \n:HP-1\n") == ["2D6+{筋力}>=", ":HP-1"]


def test_palette_resolve_replaces_references_with_current_values():
    assert palette_resolve("2D6+{筋力}>=8 {名前}", {"筋力": 3, "名前": "Aki"}) == "2D6+3>=8 Aki"


def test_palette_resolve_unknown_reference_raises_naming_it():
    with pytest.raises(PaletteError) as raised:
        palette_resolve("2D6+{知力}>=", {"筋力": 3})

    assert raised.value.reference == "知力"


@pytest.mark.parametrize(
    ("text", "name", "op", "amount"),
    [
        (":HP-3", "HP", "-", "3"),
        (":MP+1", "MP", "+", "1"),
        (":HP=10", "HP", "=", "10"),
        (":HP-1d6", "HP", "-", "1D6"),
        ("：ＨＰ－３", "HP", "-", "3"),  # typed with a Japanese input method, full width
        (":HP−2", "HP", "-", "2"),  # the minus sign U+2212
        (":正気度-1", "正気度", "-", "1"),
    ],
)
def test_resource_command_parse_reads_ccfolia_commands(text, name, op, amount):
    command = resource_command_parse(text)

    assert (command.name, command.op, command.amount) == (name, op, amount)


@pytest.mark.parametrize("text", ["HP-3", ":HP", ":HP-", ":HP-3 ouch", "2D6+1", ":-3", ""])
def test_resource_command_parse_refuses_anything_else(text):
    assert resource_command_parse(text) is None


@pytest.mark.parametrize(
    ("current", "maximum", "op", "amount", "after"),
    [
        (10, 10, "-", 3, 7),
        (2, 10, "-", 5, 0),
        (8, 10, "+", 5, 10),
        (12, 10, "+", 1, 12),  # above its maximum already: a gain does not cut it down
        (5, 10, "=", 7, 7),
        (5, 10, "=", 15, 10),
    ],
)
def test_resource_apply_keeps_the_value_between_zero_and_the_maximum(
    current, maximum, op, amount, after
):
    assert resource_apply(current, maximum, op, amount) == after
