"""Generic game tests: random playouts end, state survives JSON, views keep secrets."""

from __future__ import annotations

import copy
import json
import random

import pytest

from minigames.acticsx.rules import cards, engine
from minigames.game import IllegalAction, InvalidState
from tests.minigames.acticsx.rules.test_engine import build, move, plan


def playout(seed, options=None):
    """Yield (state, action) for every action of a seeded random game, then the final state."""
    rng = random.Random(seed)
    state = engine.initial_state(options or {}, seed)
    while not engine.is_terminal(state):
        seats = [0, 1]
        rng.shuffle(seats)
        for seat in seats:
            action = {
                "type": "plan",
                "player": seat,
                "plan": engine.random_plan(engine.player_view(state, seat), rng),
            }
            yield state, action
            state = engine.apply(state, action)
    yield state, None


def public_card_ids(state):
    """Card ids anyone may know of: discard piles, the board and the last steps."""
    ids = {a["card"] for a in state["actors"]}
    for seat in state["players"]:
        ids.update(seat["discard"])
    text = json.dumps(state["last_resolution"], ensure_ascii=False)
    ids.update(cid for cid in cards.CARDS if f'"{cid}"' in text)
    names = {
        cid for cid, c in cards.CARDS.items() if c["name"]["en"] in text or c["name"]["ja"] in text
    }
    return ids | names


def secret_ids(state, seat):
    """Ids in ``seat``'s hand (and pending plan) that nothing public shows."""
    return set(state["players"][seat]["hand"]) - public_card_ids(state)


def leaks(view, card_ids):
    text = json.dumps(view, ensure_ascii=False)
    found = []
    for cid in card_ids:
        c = cards.CARDS[cid]
        if f'"{cid}"' in text or c["name"]["en"] in text or c["name"]["ja"] in text:
            found.append(cid)
    return found


# -- playouts -------------------------------------------------------------------------------


def test_random_games_end_within_the_turn_limit(random_games):
    outcomes = set()
    # Twenty games hold both outcomes.
    for seed in range(random_games(500, least=20)):
        options = {
            "decks": ["tide_grove", "ember_steel"][:: 1 if seed % 2 else -1],
            "turn_limit": 20,
        }
        *_, (final, _none) = playout(seed, options)
        assert engine.is_terminal(final)
        assert final["turn"] <= final["options"]["turn_limit"]
        outcomes.add(engine.result(final)["reason"])
    assert {"life", "turn_limit"} <= outcomes


def test_state_round_trips_through_json_at_every_step(random_games):
    for seed in range(random_games(50)):
        for state, action in playout(seed):
            stored = json.loads(json.dumps(engine.to_dict(state)))
            loaded = engine.from_dict(stored)
            assert loaded == state
            if action is not None:
                assert engine.apply(loaded, action) == engine.apply(state, action)


def test_apply_never_changes_its_input():
    for state, action in playout(3):
        if action is None:
            break
        before = copy.deepcopy(state)
        engine.apply(state, action)
        assert state == before


def test_replaying_the_actions_reproduces_every_step():
    actions = [a for _s, a in playout(11) if a is not None]
    first = engine.initial_state({}, 11)
    second = engine.initial_state({}, 11)
    for action in actions:
        first, second = engine.apply(first, action), engine.apply(second, action)
        assert first["last_resolution"] == second["last_resolution"]
    assert first == second


# -- legal actions ---------------------------------------------------------------------------


def test_legal_actions_are_all_accepted():
    for seed in range(3):
        for state, action in playout(seed):
            if action is None:
                break
            seat = action["player"]
            for legal in engine.legal_actions(state, seat):
                engine.apply(state, legal)


def test_legal_actions_include_wait_all_and_single_cards():
    state = build(actors=[(0, "ember_fox", "A9")], hands=(["seed_scout", "pitfall"], []))
    plans = [a["plan"] for a in engine.legal_actions(state, 0)]
    assert {"play": [], "actors": []} in plans
    assert {"play": [{"card": "seed_scout", "square": "A10"}], "actors": []} in plans
    assert {"play": [{"card": "pitfall", "square": "A5"}], "actors": []} in plans
    assert {"play": [], "actors": [move("A9", "F", 2)]} in plans


def test_legal_actions_empty_once_the_seat_has_confirmed():
    state = engine.apply(build(), {"type": "plan", "player": 0, "plan": plan()})
    assert engine.legal_actions(state, 0) == []
    assert engine.legal_actions(state, 1)


def test_legal_actions_empty_when_over():
    state = engine.apply(build(), {"type": "resign", "player": 0})
    assert engine.legal_actions(state, 1) == []


# -- views -----------------------------------------------------------------------------------


def test_views_never_hold_the_other_seats_hidden_hand(random_games):
    checked = 0
    # Four games hold over a thousand hidden cards to check.
    for seed in range(random_games(40, least=4)):
        for state, _action in playout(seed):
            for seat in (0, 1):
                hidden = secret_ids(state, seat)
                checked += len(hidden)
                assert leaks(engine.player_view(state, 1 - seat), hidden) == []
                assert leaks(engine.player_view(state, None), hidden) == []
    assert checked > 1000


def test_view_hides_an_unconfirmed_plan_and_its_face_down_counter():
    state = build(actors=[(0, "ember_fox", "A5")], hands=(["pitfall"], []))
    before = engine.player_view(state, 1)
    secret = plan(move("A5", "F"), play=[{"card": "pitfall", "square": "A1"}])
    after = engine.player_view(
        engine.apply(state, {"type": "plan", "player": 0, "plan": secret}), 1
    )
    assert leaks(after, ["pitfall"]) == []
    before["players"][0]["confirmed"] = True
    assert after == before


def test_view_shows_the_seat_its_own_plan_and_hand():
    state = build(actors=[(0, "ember_fox", "A5")], hands=(["pitfall"], []))
    secret = plan(move("A5", "F"), play=[{"card": "pitfall", "square": "A1"}])
    view = engine.player_view(engine.apply(state, {"type": "plan", "player": 0, "plan": secret}), 0)
    assert view["players"][0]["plan"] == secret
    assert view["players"][0]["hand"] == ["pitfall"]


def test_view_gives_the_other_hand_only_as_a_count():
    state = build(hands=(["pitfall", "ember_fox"], ["tide_sprite"]))
    view = engine.player_view(state, 1)
    assert "hand" not in view["players"][0]
    assert view["players"][0]["hand_count"] == 2
    assert leaks(view, ["pitfall", "ember_fox"]) == []


def test_spectator_view_holds_no_hand_plan_or_deck_list():
    view = engine.player_view(engine.initial_state({}, 5), None)
    for seat in view["players"]:
        assert {"hand", "plan", "deck_list"}.isdisjoint(seat)


def test_view_never_shows_deck_order():
    state = engine.initial_state({}, 5)
    text = json.dumps(engine.player_view(state, 0))
    assert json.dumps(state["players"][0]["deck"]) not in text
    assert json.dumps(state["players"][1]["deck"]) not in text


def test_view_shows_discard_piles_to_everyone():
    state = build(actors=[(0, "ember_fox", "A1"), (1, "ember_fox", "B4")])
    after = engine.apply(
        engine.apply(state, {"type": "plan", "player": 0, "plan": plan(move("A1", "F"))}),
        {"type": "plan", "player": 1, "plan": plan()},
    )
    for viewer in (0, 1, None):
        piles = [p["discard"] for p in engine.player_view(after, viewer)["players"]]
        assert piles == [["ember_fox"], ["ember_fox"]]


def test_view_has_what_a_ui_needs():
    view = engine.player_view(build(actors=[(0, "ember_fox", "B4")]), 0)
    assert len(view["board"]) == 24
    square = next(sq for sq in view["board"] if sq["square"] == "B4")
    assert square["actor"]["owner"] == 0
    assert square["actor"]["card"] == "ember_fox"
    assert square["actor"]["power"] == 3
    assert square["actor"]["awake"] is True
    assert {"turn", "phase", "players", "last_resolution", "result", "limits"} <= set(view)
    json.dumps(view)


# -- storage -----------------------------------------------------------------------------------


def test_to_dict_is_plain_json():
    state = engine.initial_state({}, 1)
    assert json.loads(json.dumps(engine.to_dict(state))) == engine.to_dict(state)


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.pop("rng"),
        lambda s: s.update(rng="not hex at all!"),
        lambda s: s.update(phase="lunch"),
        lambda s: s["players"][0]["hand"].append("dragon_king"),
        lambda s: s["players"][0]["discard"].append(s["players"][0]["hand"][0]),
        lambda s: s["players"][1]["deck"].append("ember_fox"),
        lambda s: s["players"][0].update(life=-1),
        lambda s: s.update(result={"winner": 0, "reason": "life", "lives": [3, 0]}),
        lambda s: s["options"].update(turn_limit=0),
        lambda s: s.update(turn=0),
        lambda s: s.update(turn=99, options={**s["options"], "turn_limit": 20}),
    ],
)
def test_from_dict_rejects_damaged_data(damage):
    state = engine.to_dict(engine.initial_state({}, 1))
    damage(state)
    with pytest.raises(InvalidState):
        engine.from_dict(state)


def test_from_dict_rejects_two_actors_on_one_square():
    state = engine.to_dict(build(actors=[(0, "ember_fox", "A1"), (0, "seed_scout", "A2")]))
    state["actors"][1]["square"] = "A1"
    with pytest.raises(InvalidState):
        engine.from_dict(state)


def test_from_dict_rejects_an_illegal_stored_plan():
    state = engine.apply(
        build(actors=[(0, "ember_fox", "A5")]),
        {"type": "plan", "player": 0, "plan": plan(move("A5", "F"))},
    )
    stored = engine.to_dict(state)
    stored["players"][0]["plan"]["actors"][0]["distance"] = 5
    with pytest.raises(InvalidState):
        engine.from_dict(stored)


def test_from_dict_rejects_an_actor_in_the_enemy_base():
    state = engine.to_dict(build(actors=[(0, "ember_fox", "A1")]))
    state["actors"][0]["square"] = "B9"
    with pytest.raises(InvalidState):
        engine.from_dict(state)


# -- set-up and results ------------------------------------------------------------------------


def test_initial_state_deals_five_and_draws_one():
    state = engine.initial_state({}, 2)
    assert [len(p["hand"]) for p in state["players"]] == [6, 6]
    assert [len(p["deck"]) for p in state["players"]] == [14, 14]
    assert [p["life"] for p in state["players"]] == [3, 3]


def test_initial_state_rejects_an_illegal_deck():
    with pytest.raises(InvalidState, match="At most 2 copies"):
        engine.initial_state({"decks": [["ember_fox"] * 20, "tide_grove"]}, 1)


def test_initial_state_rejects_an_unknown_option():
    with pytest.raises(InvalidState, match="Unknown match options"):
        engine.initial_state({"gravity": 2}, 1)


def test_result_winner_and_terminal_while_playing():
    state = engine.initial_state({}, 2)
    assert engine.result(state) is None
    assert engine.winner(state) is None
    assert engine.is_terminal(state) is False


def test_unknown_action_type_refused():
    with pytest.raises(IllegalAction, match="Unknown action type"):
        engine.apply(engine.initial_state({}, 2), {"type": "shuffle", "player": 0})


def test_plan_of_a_seat_that_does_not_exist_refused():
    with pytest.raises(IllegalAction, match="player must be 0"):
        engine.apply(engine.initial_state({}, 2), {"type": "plan", "player": 2, "plan": plan()})
