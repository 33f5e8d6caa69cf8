"""The roll-box parser's refusals reach the reader in their language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from sessions_app.rules import dice_commands, dice_grammar, srs_checks, srs_commands, srs_odds
from sessions_app.services.checks import command_roll
from sessions_app.srs_messages import COMMAND_MESSAGES, command_error_message


def _templates_in_the_parser() -> set[str]:
    source = "".join(
        Path(module.__file__).read_text(encoding="utf-8")
        for module in (srs_checks, srs_odds, srs_commands, dice_commands, dice_grammar)
    )
    templates = {
        "".join(re.findall(r'"([^"]*)"', match))
        for match in re.findall(r'CommandError\(\s*((?:"[^"]*"\s*)+)', source)
    }
    templates |= set(re.findall(r'"(?:missing|twice)": "([^"]*)"', source))
    return templates


def test_every_refusal_the_parser_can_raise_is_in_the_catalogue():
    templates = _templates_in_the_parser()
    assert len(templates) > 20
    assert templates <= set(COMMAND_MESSAGES)
    assert srs_commands._EXAMPLES in COMMAND_MESSAGES


@pytest.mark.parametrize(
    "command",
    ["", "2D6>=", "2D6@", "2D6[11", "3D6@9", "XYZ", "2D6+", "201D6", "0D6", "x0 1D6", "3U6"],
)
def test_english_text_is_the_parser_s_own(command):
    with pytest.raises(srs_commands.CommandError) as caught:
        srs_commands.parse_command(command)
    with translation.override("en"):
        assert command_error_message(caught.value) == str(caught.value)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("2D6>=", "目標値がありません"),
        ("", "コマンドが空です"),
        ("2D6[11", "「]」がありません"),
        ("201D6", "N は200以下"),
    ],
)
def test_japanese_readers_get_japanese(command, expected):
    with pytest.raises(srs_commands.CommandError) as caught:
        srs_commands.parse_command(command)
    with translation.override("ja"):
        message = command_error_message(caught.value)
    assert expected in message
    assert "is not" not in message


@pytest.mark.django_db
def test_the_roll_box_refuses_in_the_session_s_language(session, player):
    with translation.override("ja"), pytest.raises(ValidationError) as caught:
        command_roll(session=session, by=player, text="2D6>=")
    assert "目標値がありません" in caught.value.message_dict["text"][0]
