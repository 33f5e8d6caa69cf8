"""Small wording of the room's lines, in both languages."""

from fractions import Fraction

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import strip_tags

CHAT = "sessions_app/kinds/chat.html"


def _chat_line(language: str, text: str = "Found it!") -> str:
    payload = {"mode": "ic", "character": "Aki", "text": text, "channel": "main"}
    with translation.override(language):
        return strip_tags(render_to_string(CHAT, {"p": payload, "actor": "aki"}))


def test_in_character_line_in_english_is_in_english_quotes():
    line = _chat_line("en")
    assert "“Found it!”" in line
    assert "「" not in line


def test_in_character_quotes_follow_the_line_s_language_not_the_reader_s():
    assert "“Found it!”" in _chat_line("ja")
    assert "「見つけた！」" in _chat_line("en", "見つけた！")
    assert "「ｶﾀｶﾅ」" in _chat_line("en", "ｶﾀｶﾅ")


def test_in_character_line_in_japanese_is_in_japanese_brackets():
    assert "「見つけた！」" in _chat_line("ja", "見つけた！")


def test_japanese_odds_line_uses_one_separator():
    context = {
        "without_dice": False,
        "win_chance": None,
        "show_success": True,
        "chances": {
            "success": Fraction(21, 36),
            "critical": Fraction(1, 36),
            "fumble": Fraction(1, 36),
        },
        "total_modifier": 1,
    }
    with translation.override("ja"):
        line = strip_tags(render_to_string("sessions_app/session_room.html#chances", context))
    assert "・" not in line
    assert line.count("·") == 3
