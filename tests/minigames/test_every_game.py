"""Generic tests, run for every game of the registry: what the match framework relies on."""

import ast
import json
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from minigames import services
from minigames.game import IllegalAction, render
from minigames.messages import translate
from minigames.models import Match
from minigames.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
PO_PATH = ROOT / "sessions_app" / "locale" / "ja" / "LC_MESSAGES" / "django.po"
SEAT_NAMES = {"seat": lambda seat, _language: ["Aki", "Ren"][seat]}
every_game = pytest.mark.parametrize("spec", list(GAMES.values()), ids=list(GAMES))


def _japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


def _messages_in(value):
    """Every message nested anywhere in a view."""
    if isinstance(value, dict):
        if "msg" in value:
            yield value
            return
        for item in value.values():
            yield from _messages_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _messages_in(item)


def _computer_playout(spec, seed):
    """Yield every state of a game both seats of which the computer plays at random."""
    options = spec.clean_options({"turn_limit": 40}, players=[None, None])
    state = spec.engine.initial_state(options, seed)
    yield state
    for step in range(5000):
        if spec.engine.is_terminal(state):
            return
        acted = False
        for seat in (0, 1):
            action = spec.computer(state, seat, level="random", seed=seed * 7919 + step)
            if action is not None and not spec.engine.is_terminal(state):
                state = spec.engine.apply(state, action)
                acted = True
                yield state
        assert acted, "neither seat had anything to do in a game not over"
    raise AssertionError("a game between two computers did not end")


def test_registry_holds_the_games_a_match_can_be():
    assert {key: str(spec.label) for key, spec in GAMES.items()} == {
        value: str(label) for value, label in Match.Game.choices
    }


@every_game
def test_games_between_computers_end_with_a_result(spec):
    for seed in range(6):
        *_, final = _computer_playout(spec, seed)

        assert spec.engine.is_terminal(final) and spec.engine.has_started(final)
        assert spec.engine.result(final)["winner"] == spec.engine.winner(final)


@every_game
def test_state_survives_json_at_every_step(spec):
    for state in _computer_playout(spec, 1):
        data = json.loads(json.dumps(spec.engine.to_dict(state)))

        assert spec.engine.to_dict(spec.engine.from_dict(data)) == spec.engine.to_dict(state)


@every_game
def test_narration_is_worded_in_english_and_japanese(spec):
    seen = 0
    for state in _computer_playout(spec, 2):
        for viewer in (0, 1, None):
            view = spec.engine.player_view(state, viewer)
            json.dumps(view)
            for msg in _messages_in(view):
                english = render(msg, terms=SEAT_NAMES)
                with translation.override("ja"):
                    japanese = translate(msg, terms=SEAT_NAMES)
                assert english and "%(" not in english
                assert _japanese(japanese), (msg, japanese)
                seen += 1
    assert seen


@every_game
def test_refusal_is_a_message_worded_in_both_languages(spec):
    state = spec.engine.initial_state(spec.clean_options({}, players=[None, None]), 3)

    with pytest.raises(IllegalAction) as refused:
        spec.engine.apply(state, {"type": "no such move", "player": 0})

    with translation.override("ja"):
        japanese = translate(refused.value.message)
    assert str(refused.value).startswith("Unknown action")
    assert _japanese(japanese)


def _engine_message_ids():
    """The message ids the pure game code names, read from its source."""
    names = {"IllegalAction", "message", "message_plural"}
    found = set()
    for path in (ROOT / "minigames").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            first = node.args[0]
            if name in names and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def test_every_message_id_the_engines_name_is_in_the_japanese_catalogue():
    translated = {
        entry.msgid
        for entry in polib.pofile(str(PO_PATH)).translated_entries()
        if "fuzzy" not in entry.flags
    }
    named = _engine_message_ids()

    assert len(named) > 100
    assert sorted(named - translated) == []


@every_game
def test_practice_board_opens_for_its_player(spec, player):
    match = services.match_create_practice(by=player, level="random", game=spec.key)
    client = Client()
    client.force_login(player)

    response = client.get(reverse("match_detail", args=[match.pk]))

    assert response.status_code == 200
    assert f'id="match-{match.pk}"' in response.content.decode()
