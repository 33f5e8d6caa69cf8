"""Generic game tests for Actual: seeded random playouts, storage and hidden information."""

import json
import random

from minigames.actual.rules import engine as E

TURN_LIMIT = 60


NOT_GAME = ("resign", "counter_mode")


def playout(seed, options=None, on_step=None):
    """Play one seeded random game (with a turn limit) and return the final state."""
    rng = random.Random(seed)
    state = E.initial_state({"turn_limit": TURN_LIMIT, **(options or {})}, seed)
    steps = 0
    while not E.is_terminal(state):
        seat = E.seat_to_act(state)
        actions = [a for a in E.legal_actions(state, seat) if a["type"] not in NOT_GAME]
        state = E.apply(state, rng.choice(actions))
        steps += 1
        assert steps < 5000, "a random game did not end"
        if on_step is not None:
            on_step(state)
    return state


def options_for(seed):
    rng = random.Random(seed)
    return {
        "diagonal_attack": rng.random() < 0.5,
        "counter_mode": [rng.choice(E.COUNTER_MODES), rng.choice(E.COUNTER_MODES)],
    }


def test_random_playouts_all_end_with_a_legal_result(random_games):
    reasons = set()
    # Fifty games hold both reasons (most games reach the turn limit).
    for seed in range(random_games(500, least=50)):
        final = playout(seed, options_for(seed))
        result = E.result(final)
        assert result["reason"] in ("pieces", "turn_limit")
        if result["reason"] == "pieces":
            assert result["pieces_left"][result["winner"]] > 0
            assert result["pieces_left"][1 - result["winner"]] == 0
        else:
            assert result["winner"] is None and final.turn == TURN_LIMIT
        reasons.add(result["reason"])
    assert reasons == {"pieces", "turn_limit"}


def test_random_playouts_keep_twenty_cards_per_seat(random_games):
    def check(state):
        if state.phase == E.SETUP:
            return
        for seat in (0, 1):
            piles = (state.hands, state.decks, state.used_shown, state.used_hidden)
            assert sum(len(pile[seat]) for pile in piles) == 20
            assert len(state.hands[seat]) <= 5

    for seed in range(random_games(20)):
        playout(seed, on_step=check)


def test_round_trip_through_json_at_every_step(random_games):
    def check(state):
        data = json.loads(json.dumps(E.to_dict(state)))
        assert E.from_dict(data) == state

    for seed in range(random_games(50)):
        playout(1000 + seed, options_for(seed), on_step=check)


def random_steps(state, rng, limit=None):
    done = 0
    while not E.is_terminal(state) and (limit is None or done < limit):
        seat = E.seat_to_act(state)
        actions = [a for a in E.legal_actions(state, seat) if a["type"] not in NOT_GAME]
        state = E.apply(state, rng.choice(actions))
        done += 1
    return state


def test_round_trip_continues_the_same_game():
    middle = random_steps(E.initial_state({"turn_limit": 30}, 3), random.Random(1), limit=25)
    restored = E.from_dict(json.loads(json.dumps(E.to_dict(middle))))
    finished = random_steps(middle, random.Random(7))
    assert E.to_dict(random_steps(restored, random.Random(7))) == E.to_dict(finished)


def hidden_ids(state, viewer):
    """Return the card ids ``viewer`` must not see: every opponent card and own deck cards."""
    hidden = set()
    for seat in (0, 1):
        if seat == viewer:
            hidden |= set(state.decks[seat])
        else:
            hidden |= set(state.kinds[seat])
    return hidden


def test_views_never_show_hidden_cards(random_games):
    def check(state):
        for viewer in (0, 1, None):
            text = json.dumps(E.player_view(state, viewer))
            leaked = [cid for cid in hidden_ids(state, viewer) if cid in text]
            assert leaked == [], (viewer, leaked)

    for seed in range(random_games(20)):
        playout(2000 + seed, on_step=check)


def test_own_view_shows_own_hand_ids():
    state = playout(5, {"turn_limit": 4})
    for seat in (0, 1):
        shown = [card["id"] for card in E.player_view(state, seat)["you"]["hand"]]
        assert shown == state.hands[seat]


def test_views_count_face_down_discards_without_their_kinds(random_games):
    def check(state):
        for seat in (0, 1):
            kinds = state.kinds[seat]
            face_up = {k: 0 for k in E.KINDS}
            for cid in state.used_shown[seat]:
                face_up[kinds[cid]] += 1
            for viewer in (1 - seat, None):
                public = E.player_view(state, viewer)["players"][seat]
                assert public["used_shown"] == face_up
                assert public["used_face_down"] == len(state.used_hidden[seat])

    for seed in range(random_games(20)):
        playout(3000 + seed, on_step=check)


def test_views_before_start_hide_the_opponents_pieces():
    state = E.initial_state({}, 0)
    secret = {
        "type": "setup",
        "player": 0,
        "deck": {"move": 11, "attack": 8, "counter": 1},
        "pieces": [{"column": 0, "life": 4}, {"column": 4, "life": 1}],
    }
    state = E.apply(state, secret)
    for viewer in (1, None):
        view = E.player_view(state, viewer)
        text = json.dumps(view)
        assert '"life"' not in text and '"column"' not in text and "11" not in text
        assert view["players"][0]["ready"] is True
        assert view["players"][0]["pieces_left"] is None
    assert E.player_view(state, 0)["you"]["setup"]["pieces"][0] == {"column": 0, "life": 4}


def test_views_before_start_do_not_depend_on_the_opponents_setup():
    def views_after(deck, lives):
        pieces = [{"column": c, "life": life} for c, life in enumerate(lives)]
        action = {"type": "setup", "player": 0, "deck": deck, "pieces": pieces}
        state = E.apply(E.initial_state({}, 0), action)
        return [E.player_view(state, viewer) for viewer in (1, None)]

    one = views_after({"move": 11, "attack": 8, "counter": 1}, [4, 1])
    other = views_after({"move": 20}, [1, 1, 1, 1, 1])
    assert one == other


def test_views_are_json_serialisable_with_what_a_ui_needs():
    state = playout(9, {"turn_limit": 6})
    view = json.loads(json.dumps(E.player_view(state, 0)))
    for key in ("board", "players", "you", "turn", "current_player", "log", "result"):
        assert key in view
    assert view["result"]["reason"] in ("pieces", "turn_limit")


def test_view_for_a_spectator_has_no_hand():
    state = playout(4, {"turn_limit": 4})
    assert E.player_view(state, None)["you"] is None


def test_views_of_the_same_seat_agree_when_only_hidden_cards_differ():
    state = random_steps(E.initial_state({}, 6), random.Random(2), limit=12)
    other = state.copy()
    other.decks[0] = list(reversed(other.decks[0]))
    other.hands[1], other.decks[1] = other.decks[1][:5], other.decks[1][5:] + other.hands[1]
    assert E.player_view(state, 0) == E.player_view(other, 0)


def test_views_never_show_the_opponents_counter_mode(random_games):
    # Which mode a seat plays is part of its hand's secret.
    def check(state):
        for seat in (0, 1):
            for mode in E.COUNTER_MODES:
                changed = state.copy()
                changed.counter_mode[seat] = mode
                for viewer in (1 - seat, None):
                    assert E.player_view(state, viewer) == E.player_view(changed, viewer)

    for seed in range(random_games(10)):
        playout(4000 + seed, {"counter_mode": "ask"}, on_step=check)
