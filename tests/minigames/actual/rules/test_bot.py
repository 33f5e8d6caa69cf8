"""Tests for the Actual computer players."""

import inspect
import random
import time

import pytest

from minigames.actual.rules import engine as E
from minigames.actual.rules.bot import RandomBot, SearchBot, decide, sample_world

TURN_LIMIT = 80


def small_search_bot(seed):
    return SearchBot(seed=seed, time_budget=0.5, max_playouts=40, first_round=2, horizon=3)


def play(bots, seed, options=None, on_choice=None):
    state = E.initial_state({"turn_limit": TURN_LIMIT, **(options or {})}, seed)
    while not E.is_terminal(state):
        seat = E.seat_to_act(state)
        legal = E.legal_actions(state, seat)
        action = bots[seat].choose(E.player_view(state, seat), legal)
        if on_choice is not None:
            on_choice(action, legal)
        state = E.apply(state, action)
    return state


def must_be_listed(action, legal):
    assert action in legal


def test_random_bot_returns_only_listed_legal_actions(random_games):
    for seed in range(random_games(20)):
        play([RandomBot(seed), RandomBot(seed + 100)], seed, on_choice=must_be_listed)


def test_random_bot_returns_none_when_nothing_to_play():
    state = E.initial_state({}, 0)
    state = E.apply(state, E.legal_actions(state, 0)[0])
    assert decide(RandomBot(1), state, 0) is None


def test_search_bot_returns_only_listed_legal_actions():
    for seed in range(3):
        options = {"diagonal_attack": seed == 1}
        play([small_search_bot(seed), RandomBot(seed)], seed, options, on_choice=must_be_listed)


def test_search_bot_against_itself_returns_legal_actions():
    play([small_search_bot(1), small_search_bot(2)], 4, on_choice=must_be_listed)


def test_search_bot_choose_takes_only_a_view_and_legal_actions():
    assert list(inspect.signature(SearchBot.choose).parameters) == ["self", "view", "legal"]


def test_search_bot_refuses_a_full_state():
    state = E.initial_state({}, 0)
    with pytest.raises(TypeError, match="player_view"):
        SearchBot(seed=0).choose(state, E.legal_actions(state, 0))


def test_search_bot_refuses_stored_state_data():
    state = E.initial_state({}, 0)
    with pytest.raises(TypeError):
        SearchBot(seed=0).choose(E.to_dict(state), E.legal_actions(state, 0))


def midgame(seed=6, steps=40):
    """Return a seeded random mid-game state where seat 0 is about to start its turn."""
    rng = random.Random(seed)
    state = E.initial_state({"first_player": 0}, seed)
    for _ in range(steps):
        seat = E.seat_to_act(state)
        options = [
            a for a in E.legal_actions(state, seat) if a["type"] not in ("resign", "counter_mode")
        ]
        state = E.apply(state, rng.choice(options))
    while state.pending is not None or state.current != 0 or state.cards_used:
        seat = E.seat_to_act(state)
        if state.pending is not None:
            state = E.apply(state, {"type": "counter", "player": seat, "use": False})
        else:
            state = E.apply(state, {"type": "end_turn", "player": seat})
    assert state.phase == E.PLAY
    return state


def test_search_bot_choice_ignores_hidden_information():
    state = midgame()
    other = state.copy()
    # Same view for seat 0, different truth: the opponent's hand and every deck order change.
    pool, held = other.decks[1] + other.hands[1], len(other.hands[1])
    other.hands[1], other.decks[1] = pool[:held], pool[held:]
    assert other.hands[1] != state.hands[1]
    other.decks[0] = other.decks[0][::-1]
    assert E.player_view(state, 0) == E.player_view(other, 0)
    assert decide(small_search_bot(5), state, 0) == decide(small_search_bot(5), other, 0)


def test_sample_world_agrees_with_the_view():
    state = midgame()
    view = E.player_view(state, 0)
    world = sample_world(view, random.Random(0))
    world_view = E.player_view(world, 0)
    assert world_view["board"] == view["board"]
    for mine, seen in zip(world_view["players"], view["players"], strict=True):
        assert {**mine, "ready": True} == seen
    assert world_view["you"]["hand"] == view["you"]["hand"]
    assert world_view["you"]["deck_kinds"] == view["you"]["deck_kinds"]


def test_search_bot_sets_up_a_valid_army():
    state = E.initial_state({}, 0)
    action = decide(SearchBot(seed=0), state, 1)
    E.validate_setup(action["deck"], action["pieces"])
    assert action["player"] == 1


def hold(data, seat, kind):
    """Put a card of ``kind`` into ``seat``'s hand in stored data; return its id."""
    cid = next(c for c, k in data["cards"][seat].items() if k == kind)
    if cid in data["hands"][seat]:
        return cid
    for pile in ("decks", "used_shown", "used_hidden"):
        if cid in data[pile][seat]:
            data[pile][seat].remove(cid)
            if data["hands"][seat]:
                data[pile][seat].append(data["hands"][seat].pop(0))
    data["hands"][seat].append(cid)
    return cid


def duel_data(life1):
    data = E.to_dict(midgame())
    data["pieces"] = [
        {"id": 0, "owner": 0, "life": 3, "column": 2, "row": 2},
        {"id": 5, "owner": 1, "life": life1, "column": 2, "row": 3},
    ]
    return data


def asked(counter_in_hand):
    """Seat 0 has attacked seat 1's piece and seat 1 (asking, the default) is asked."""
    data = duel_data(life1=3)
    if counter_in_hand:
        hold(data, 1, "counter")
    attack = hold(data, 0, "attack")
    state = E.apply(E.from_dict(data), E.use_action(0, attack, 0, 2, 3))
    assert state.pending is not None
    return state


def test_computer_defender_shows_its_counter_at_once_when_asked():
    for bot in (SearchBot(seed=0), RandomBot(0)):
        action = decide(bot, asked(counter_in_hand=True), 1)
        assert action["type"] == "counter"
    assert decide(SearchBot(seed=0), asked(True), 1) == {
        "type": "counter",
        "player": 1,
        "use": True,
    }


def test_computer_defender_without_a_counter_lets_the_attack_land():
    for bot in (SearchBot(seed=0), RandomBot(0)):
        assert decide(bot, asked(False), 1) == {"type": "counter", "player": 1, "use": False}


def test_computer_attacker_waits_while_the_defender_decides():
    for bot in (SearchBot(seed=0, max_playouts=20), RandomBot(0)):
        assert decide(bot, asked(True), 0) is None


def test_search_bot_takes_a_winning_attack():
    data = duel_data(life1=1)
    hold(data, 0, "attack")
    state = E.from_dict(data)
    after = E.apply(state, decide(SearchBot(seed=0), state, 0))
    after = E.apply(after, {"type": "counter", "player": 1, "use": False})
    assert E.result(after)["winner"] == 0


def test_search_bot_answers_within_its_time_budget():
    state = midgame()
    bot = SearchBot(seed=0, time_budget=0.2)
    start = time.perf_counter()
    decide(bot, state, 0)
    assert time.perf_counter() - start < 0.6


def test_search_bot_beats_random_in_a_small_match():
    wins = 0
    for seed in range(10):
        seat = seed % 2
        bots = [None, None]
        bots[seat] = small_search_bot(seed)
        bots[1 - seat] = RandomBot(seed)
        wins += E.winner(play(bots, seed)) == seat
    assert wins >= 8
