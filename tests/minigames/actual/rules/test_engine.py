"""Rule tests for the Actual engine: one seed rule or digest decision per test."""

import json

import pytest
from django.utils import translation

from minigames.actual.rules import engine as E
from minigames.game import IllegalAction, InvalidState
from minigames.messages import translate


def setup_action(player, lives=(3, 2), columns=None, deck=None):
    columns = columns or E.CENTRED_COLUMNS[len(lives)]
    return {
        "type": "setup",
        "player": player,
        "deck": deck or E.suggested_deck(),
        "pieces": [{"column": c, "life": life} for c, life in zip(columns, lives, strict=True)],
    }


def started(options=None, seed=0, first=0):
    state = E.initial_state({"first_player": first, **(options or {})}, seed)
    state = E.apply(state, setup_action(0))
    return E.apply(state, setup_action(1))


def arrange(state, pieces=None, hands=None, decks=None):
    """Return a validated copy with these pieces and hands (card kinds per seat).

    Cards not in the hand go to the deck, or, when ``decks`` gives a deck size for the
    seat, the rest go to the used pile.
    """
    s = state.copy()
    if pieces is not None:
        s.pieces = [tuple(p) for p in pieces]
    for seat, kinds in (hands or {}).items():
        pool = s.hands[seat] + s.decks[seat] + s.used_shown[seat] + s.used_hidden[seat]
        hand = []
        for kind in kinds:
            hand.append(next(c for c in pool if s.kinds[seat][c] == kind and c not in hand))
        rest = [c for c in pool if c not in hand]
        size = (decks or {}).get(seat, len(rest))
        s.hands[seat], s.decks[seat] = hand, rest[:size]
        s.used_shown[seat], s.used_hidden[seat] = rest[size:], []
    return E.from_dict(E.to_dict(s))


def card(state, seat, kind):
    return next(c for c in state.hands[seat] if state.kinds[seat][c] == kind)


def use(state, seat, kind, piece=None, target=None):
    action = {"type": "use", "player": seat, "card": card(state, seat, kind)}
    if piece is not None:
        action.update(piece=piece, target=list(target))
    return action


def attack_lands(state, piece, target):
    """Seat 0 attacks and seat 1, asked about a Counter, lets the attack land."""
    after = E.apply(state, use(state, 0, "attack", piece, target))
    if after.pending is not None:
        after = E.apply(after, {"type": "counter", "player": 1, "use": False})
    return after


def end_turn(seat):
    return {"type": "end_turn", "player": seat}


def life_of(state, piece_id):
    return next((pc[2] for pc in state.pieces if pc[0] == piece_id), 0)


def square_of(state, piece_id):
    return next((pc[3], pc[4]) for pc in state.pieces if pc[0] == piece_id)


FIVE_MIXED = ["move", "move", "attack", "attack", "attack"]


def duel(options=None, hand0=FIVE_MIXED, hand1=FIVE_MIXED, life0=3, life1=3):
    """Seat 0's piece 0 on [2, 2] faces seat 1's piece 5 on [2, 3]; seat 0 to play."""
    return arrange(
        started(options),
        pieces=[(0, 0, life0, 2, 2), (5, 1, life1, 2, 3)],
        hands={0: list(hand0), 1: list(hand1)},
    )


# --- setup -----------------------------------------------------------------------------


def test_suggested_deck_is_ten_move_nine_attack_one_counter():
    assert E.suggested_deck() == {"move": 10, "attack": 9, "counter": 1}


def test_validate_setup_accepts_suggested_deck():
    deck, pieces = E.validate_setup(E.suggested_deck(), [{"column": 2, "life": 5}])
    assert deck == {"move": 10, "attack": 9, "counter": 1}
    assert pieces == [{"column": 2, "life": 5}]


def test_validate_setup_refuses_second_counter():
    with pytest.raises(IllegalAction, match="at most one Counter"):
        E.validate_setup({"move": 10, "attack": 8, "counter": 2}, [{"column": 2, "life": 5}])


def test_validate_setup_accepts_deck_without_counter():
    E.validate_setup({"move": 10, "attack": 10}, [{"column": 2, "life": 5}])


def test_validate_setup_refuses_deck_not_twenty_cards():
    with pytest.raises(IllegalAction, match="exactly 20"):
        E.validate_setup({"move": 10, "attack": 9}, [{"column": 2, "life": 5}])


def test_validate_setup_refuses_unknown_card_kind():
    with pytest.raises(IllegalAction, match="Unknown card kind: jump") as refused:
        E.validate_setup({"move": 10, "jump": 10}, [{"column": 2, "life": 5}])

    with translation.override("ja"):
        assert translate(refused.value.message) == "不明なカードの種類です: jump。"


def test_validate_setup_refuses_lives_not_summing_to_five():
    pieces = [{"column": 0, "life": 3}, {"column": 1, "life": 3}]
    with pytest.raises(IllegalAction, match="Lives must add up to 5"):
        E.validate_setup(E.suggested_deck(), pieces)


def test_validate_setup_refuses_zero_life():
    pieces = [{"column": 0, "life": 5}, {"column": 1, "life": 0}]
    with pytest.raises(IllegalAction, match="at least 1"):
        E.validate_setup(E.suggested_deck(), pieces)


def test_validate_setup_refuses_six_pieces():
    pieces = [{"column": c % 5, "life": 1} for c in range(6)]
    with pytest.raises(IllegalAction, match="between 1 and 5"):
        E.validate_setup(E.suggested_deck(), pieces)


def test_validate_setup_refuses_no_piece():
    with pytest.raises(IllegalAction, match="between 1 and 5"):
        E.validate_setup(E.suggested_deck(), [])


def test_validate_setup_refuses_two_pieces_in_one_column():
    pieces = [{"column": 1, "life": 2}, {"column": 1, "life": 3}]
    with pytest.raises(IllegalAction, match="share a square"):
        E.validate_setup(E.suggested_deck(), pieces)


def test_validate_setup_refuses_column_off_board():
    with pytest.raises(IllegalAction, match="Columns"):
        E.validate_setup(E.suggested_deck(), [{"column": 5, "life": 5}])


def test_setup_action_refuses_invalid_deck():
    state = E.initial_state({}, 1)
    bad = setup_action(0, deck={"move": 9, "attack": 9, "counter": 2})
    with pytest.raises(IllegalAction, match="at most one Counter"):
        E.apply(state, bad)


def test_setup_waits_for_both_seats():
    state = E.apply(E.initial_state({}, 1), setup_action(0))
    assert state.phase == E.SETUP
    assert state.pieces == []
    assert E.player_view(state, 1)["players"][0]["ready"] is True


def test_setup_may_be_replaced_before_the_start():
    state = E.apply(E.initial_state({}, 1), setup_action(0, lives=(5,)))
    state = E.apply(state, setup_action(0, lives=(1, 4)))
    state = E.apply(state, setup_action(1))
    assert [pc[2] for pc in state.pieces if pc[1] == 0] == [1, 4]


def test_start_places_pieces_on_each_start_row():
    state = started()
    assert {(pc[1], pc[4]) for pc in state.pieces} == {(0, 0), (1, 6)}
    assert sorted(pc[3] for pc in state.pieces if pc[1] == 0) == [1, 3]


def test_start_deals_five_cards_and_leaves_fifteen():
    state = started()
    assert [len(h) for h in state.hands] == [5, 5]
    assert [len(d) for d in state.decks] == [15, 15]


def test_start_uses_the_fixed_first_player():
    assert started(first=1).current == 1


def test_start_picks_first_player_from_the_seed():
    def first(seed):
        return started(seed=seed, first=None).current

    assert first(3) == first(3)
    assert {first(seed) for seed in range(20)} == {0, 1}


def test_start_shuffles_decks_by_seed():
    assert started(seed=5).decks == started(seed=5).decks
    assert started(seed=5).decks != started(seed=6).decks


def test_setup_refused_after_the_start():
    with pytest.raises(IllegalAction, match="already started"):
        E.apply(started(), setup_action(0))


def test_play_refused_before_the_start():
    with pytest.raises(IllegalAction, match="not started"):
        E.apply(E.initial_state({}, 0), end_turn(0))


def test_card_ids_unique_across_both_seats():
    state = started()
    assert len(set(state.kinds[0]) | set(state.kinds[1])) == 40


# --- moving ----------------------------------------------------------------------------


def test_move_goes_one_square_orthogonally():
    state = duel()
    after = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    assert square_of(after, 0) == (1, 2)


def test_move_diagonal_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="up, down, left or right"):
        E.apply(state, use(state, 0, "move", 0, [1, 1]))


def test_move_two_squares_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="up, down, left or right"):
        E.apply(state, use(state, 0, "move", 0, [0, 2]))


def test_move_off_board_refused():
    state = arrange(started(), pieces=[(0, 0, 5, 0, 0), (5, 1, 5, 4, 6)], hands={0: FIVE_MIXED})
    with pytest.raises(IllegalAction, match="off the board"):
        E.apply(state, use(state, 0, "move", 0, [-1, 0]))


def test_move_into_occupied_square_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="occupied"):
        E.apply(state, use(state, 0, "move", 0, [2, 3]))


def test_move_enemy_piece_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="your own pieces"):
        E.apply(state, use(state, 0, "move", 5, [3, 3]))


def test_use_card_not_in_hand_refused():
    state = duel()
    opponents_card = state.hands[1][0]
    action = {"type": "use", "player": 0, "card": opponents_card, "piece": 0, "target": [1, 2]}
    with pytest.raises(IllegalAction, match="do not hold"):
        E.apply(state, action)


def test_several_cards_may_act_with_the_same_piece():
    state = duel()
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    state = E.apply(state, use(state, 0, "move", 0, [1, 1]))
    assert square_of(state, 0) == (1, 1)


def test_used_card_goes_face_up_to_the_used_pile():
    state = duel()
    after = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    assert len(after.used_shown[0]) == len(state.used_shown[0]) + 1
    assert E.player_view(after, 1)["players"][0]["used_shown"]["move"] == 1


# --- attacking -------------------------------------------------------------------------


def test_attack_takes_one_life_from_adjacent_enemy():
    state = duel()
    after = attack_lands(state, 0, [2, 3])
    assert life_of(after, 5) == 2


def test_attack_removes_piece_at_zero_life():
    state = arrange(
        started(),
        pieces=[(0, 0, 3, 2, 2), (5, 1, 1, 2, 3), (6, 1, 4, 0, 6)],
        hands={0: FIVE_MIXED, 1: FIVE_MIXED},
    )
    after = attack_lands(state, 0, [2, 3])
    assert 5 not in [pc[0] for pc in after.pieces]
    assert not E.is_terminal(after)


def test_attack_on_empty_square_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="no piece"):
        E.apply(state, use(state, 0, "attack", 0, [1, 2]))


def test_attack_on_own_piece_refused():
    state = arrange(
        started(),
        pieces=[(0, 0, 3, 2, 2), (1, 0, 2, 1, 2), (5, 1, 5, 2, 3)],
        hands={0: FIVE_MIXED},
    )
    with pytest.raises(IllegalAction, match="your own piece"):
        E.apply(state, use(state, 0, "attack", 0, [1, 2]))


def test_attack_two_squares_away_refused():
    state = arrange(started(), pieces=[(0, 0, 5, 2, 2), (5, 1, 5, 2, 4)], hands={0: FIVE_MIXED})
    with pytest.raises(IllegalAction, match="adjacent"):
        E.apply(state, use(state, 0, "attack", 0, [2, 4]))


def test_diagonal_attack_refused_without_option():
    state = arrange(started(), pieces=[(0, 0, 5, 2, 2), (5, 1, 5, 3, 3)], hands={0: FIVE_MIXED})
    with pytest.raises(IllegalAction, match="Diagonal"):
        E.apply(state, use(state, 0, "attack", 0, [3, 3]))


def test_diagonal_attack_allowed_with_option():
    state = arrange(
        started({"diagonal_attack": True}),
        pieces=[(0, 0, 5, 2, 2), (5, 1, 5, 3, 3)],
        hands={0: FIVE_MIXED},
    )
    after = attack_lands(state, 0, [3, 3])
    assert life_of(after, 5) == 4


def test_diagonal_move_refused_even_with_diagonal_attack():
    state = duel({"diagonal_attack": True})
    with pytest.raises(IllegalAction, match="up, down, left or right"):
        E.apply(state, use(state, 0, "move", 0, [1, 1]))


def test_legal_actions_list_diagonal_attacks_only_with_option():
    pieces = [(0, 0, 5, 2, 2), (5, 1, 5, 3, 3)]
    plain = arrange(started(), pieces=pieces, hands={0: FIVE_MIXED})
    diagonal = arrange(started({"diagonal_attack": True}), pieces=pieces, hands={0: FIVE_MIXED})

    def attacks(state):
        return [a for a in E.legal_actions(state, 0) if a.get("target") == [3, 3]]

    assert attacks(plain) == []
    assert len(attacks(diagonal)) == 1


# --- turn structure --------------------------------------------------------------------


def test_acting_out_of_turn_refused():
    state = duel()
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(state, use(state, 1, "move", 5, [2, 4]))


def test_end_turn_draws_back_to_five_and_passes():
    state = duel()
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    state = E.apply(state, use(state, 0, "move", 0, [1, 1]))
    after = E.apply(state, end_turn(0))
    assert len(after.hands[0]) == 5
    assert (after.current, after.turn) == (1, 2)


def test_pass_without_using_a_card_is_allowed():
    state = duel()
    after = E.apply(state, end_turn(0))
    assert after.hands[0] == state.hands[0]
    assert after.current == 1


def test_discard_goes_face_down_and_ends_the_turn():
    state = duel()
    cards = state.hands[0][:2]
    after = E.apply(state, {"type": "discard", "player": 0, "cards": cards})
    seen = E.player_view(after, 1)["players"][0]
    assert (seen["used_face_down"], sum(seen["used_shown"].values())) == (2, 0)
    assert after.current == 1
    assert len(after.hands[0]) == 5


def test_discard_after_using_a_card_refused():
    state = duel()
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    with pytest.raises(IllegalAction, match="cannot discard"):
        E.apply(state, {"type": "discard", "player": 0, "cards": state.hands[0][:1]})


def test_discard_of_nothing_refused():
    with pytest.raises(IllegalAction, match="at least one"):
        E.apply(duel(), {"type": "discard", "player": 0, "cards": []})


def test_discard_of_same_card_twice_refused():
    state = duel()
    twice = [state.hands[0][0]] * 2
    with pytest.raises(IllegalAction, match="only once"):
        E.apply(state, {"type": "discard", "player": 0, "cards": twice})


def test_discard_accepts_any_held_subset():
    state = duel()
    subset = state.hands[0][1:4]
    after = E.apply(state, {"type": "discard", "player": 0, "cards": subset})
    assert sorted(after.used_hidden[0]) == sorted(subset)


def test_counter_used_on_own_turn_does_nothing():
    state = duel(hand0=["counter", "move", "move", "attack", "attack"])
    after = E.apply(state, use(state, 0, "counter"))
    assert after.pieces == state.pieces
    assert card(state, 0, "counter") in after.used_shown[0]


# --- the Counter -----------------------------------------------------------------------

WITH_COUNTER = ["counter", "move", "move", "attack", "attack"]


def attacked(hand1=WITH_COUNTER, options=None):
    """Seat 0 attacks seat 1's piece 5 with its piece 0."""
    state = duel(options, hand1=hand1)
    return E.apply(state, use(state, 0, "attack", 0, [2, 3]))


def public_after_attack(view):
    """What an attack shows to one viewer: everything in their view but their own hand."""
    return {k: v for k, v in view.items() if k != "you"}


def answer(state, use):
    return E.apply(state, {"type": "counter", "player": 1, "use": use})


def test_counter_mode_ask_is_the_default_and_pauses_the_attack():
    after = attacked()
    assert E.player_view(after, 1)["you"]["counter_mode"] == "ask"
    assert after.pending == (0, 0, 5)
    assert (life_of(after, 5), life_of(after, 0)) == (3, 3)


def test_counter_mode_ask_pauses_every_attack_whatever_the_hand_holds():
    # Seed 「「反撃」が手札にあるとき…攻撃を受けたとき」: asked at the attack, with or without one.
    for hand1 in (WITH_COUNTER, FIVE_MIXED):
        after = attacked(hand1)
        assert after.current == 0
        assert E.player_view(after, 1)["pending"]["prompt"] == "you_may_counter"


def test_counter_question_names_the_attacking_and_the_attacked_piece():
    pending = E.player_view(attacked(), 1)["pending"]
    assert pending == {
        "attacker": 0,
        "defender": 1,
        "attacking_piece": 0,
        "target_piece": 5,
        "prompt": "you_may_counter",
    }


def test_counter_shown_at_the_attack_cancels_it_and_hits_the_attacker():
    after = answer(attacked(), True)
    assert (life_of(after, 5), life_of(after, 0)) == (3, 2)
    assert after.pending is None
    assert E.player_view(after, 0)["players"][1]["used_shown"]["counter"] == 1


def test_counter_kept_at_the_attack_lets_it_land_and_stays_in_hand():
    after = answer(attacked(), False)
    assert (life_of(after, 5), life_of(after, 0)) == (2, 3)
    assert card(after, 1, "counter") in after.hands[1]


def test_counter_shown_without_one_in_hand_is_refused_with_a_message():
    state = attacked(FIVE_MIXED)
    with pytest.raises(IllegalAction, match="You hold no Counter to show"):
        answer(state, True)
    assert [a for a in E.legal_actions(state, 1) if a["type"] == "counter"] == [
        {"type": "counter", "player": 1, "use": False}
    ]


def test_counter_answer_must_be_yes_or_no():
    with pytest.raises(IllegalAction, match="yes or no"):
        E.apply(attacked(), {"type": "counter", "player": 1, "use": "maybe"})


def test_counter_question_stops_the_attacker_until_answered():
    state = attacked()
    for action in (use(state, 0, "move", 0, [1, 2]), end_turn(0)):
        with pytest.raises(IllegalAction, match="Waiting for the defender"):
            E.apply(state, action)
    with pytest.raises(IllegalAction, match="Waiting for the defender"):
        E.apply(state, {"type": "counter", "player": 0, "use": False})
    assert {a["type"] for a in E.legal_actions(state, 0)} == {"resign", "counter_mode"}
    assert not E.player_view(state, 0)["can_discard"]
    assert any(a["type"] == "end_turn" for a in E.legal_actions(answer(state, False), 0))


def test_counter_question_comes_first_for_the_defender():
    state = attacked()
    with pytest.raises(IllegalAction, match="Decide whether to show your Counter first"):
        E.apply(state, end_turn(1))


def test_counter_question_is_asked_again_at_each_attack_of_a_turn():
    # Seed 「好きなだけ…使用」: several attacks a turn, each its own decision.
    state = answer(attacked(), False)
    state = E.apply(state, use(state, 0, "attack", 0, [2, 3]))
    assert state.pending == (0, 0, 5)
    state = answer(state, True)
    assert (life_of(state, 5), life_of(state, 0)) == (2, 2)


def test_counter_without_an_open_question_is_refused():
    with pytest.raises(IllegalAction, match="There is no attack to counter"):
        answer(duel(hand1=WITH_COUNTER), True)


def test_counter_question_looks_the_same_to_others_whatever_the_defender_holds():
    # Before and after the answer, the attacker and a spectator cannot tell a declined
    # Counter from a hand without one.
    held, none = attacked(WITH_COUNTER), attacked(FIVE_MIXED)
    for viewer in (0, None):
        assert public_after_attack(E.player_view(held, viewer)) == public_after_attack(
            E.player_view(none, viewer)
        )
        assert E.player_view(held, viewer)["pending"]["prompt"] == "waiting_for_defender"
    held, none = answer(held, False), answer(none, False)
    for viewer in (0, None):
        assert public_after_attack(E.player_view(held, viewer)) == public_after_attack(
            E.player_view(none, viewer)
        )


def test_a_declined_counter_leaves_no_public_trace():
    view = E.player_view(answer(attacked(), False), 0)
    assert [e["type"] for e in view["log"]][-2:] == ["use", "damage"]
    assert "counter" not in json.dumps(view["log"])
    assert view["players"][1]["used_shown"]["counter"] == 0


def test_counter_mode_always_shows_a_held_counter_without_asking():
    after = attacked(options={"counter_mode": "always"})
    assert after.pending is None
    assert (life_of(after, 5), life_of(after, 0)) == (3, 2)


def test_counter_mode_always_without_a_counter_lets_the_attack_land():
    after = attacked(FIVE_MIXED, {"counter_mode": "always"})
    assert after.pending is None
    assert life_of(after, 5) == 2


def test_counter_mode_never_keeps_the_counter_without_asking():
    after = attacked(options={"counter_mode": ["ask", "never"]})
    assert after.pending is None
    assert (life_of(after, 5), life_of(after, 0)) == (2, 3)
    assert card(after, 1, "counter") in after.hands[1]


def test_counter_mode_can_be_changed_on_the_opponent_s_turn():
    state = duel(hand1=WITH_COUNTER)
    state = E.apply(state, {"type": "counter_mode", "player": 1, "value": "never"})
    after = E.apply(state, use(state, 0, "attack", 0, [2, 3]))
    assert life_of(after, 5) == 2
    assert E.player_view(after, 1)["you"]["counter_mode"] == "never"


def test_counter_mode_is_private_to_its_seat():
    state = duel(hand1=WITH_COUNTER)
    changed = E.apply(state, {"type": "counter_mode", "player": 1, "value": "always"})
    for viewer in (0, None):
        assert E.player_view(changed, viewer) == E.player_view(state, viewer)
    assert "counter_mode" not in json.dumps(public_after_attack(E.player_view(changed, 1)))
    assert changed.log == state.log and changed.rng_draws == state.rng_draws


def test_counter_mode_unknown_value_refused():
    with pytest.raises(IllegalAction, match="ask, always or never"):
        E.apply(duel(), {"type": "counter_mode", "player": 1, "value": True})


def test_counter_mode_may_change_while_asked_and_the_question_stays_open():
    state = E.apply(attacked(), {"type": "counter_mode", "player": 1, "value": "never"})
    assert state.pending == (0, 0, 5)


def test_resign_closes_an_open_counter_question():
    state = E.apply(attacked(), {"type": "resign", "player": 1})
    assert state.pending is None and E.winner(state) == 0


def test_counter_question_survives_a_json_round_trip():
    state = attacked()
    assert E.from_dict(json.loads(json.dumps(E.to_dict(state)))) == state


def test_counter_damage_cannot_itself_be_countered():
    state = duel(hand0=["counter", "attack", "attack"], hand1=WITH_COUNTER)
    after = answer(E.apply(state, use(state, 0, "attack", 0, [2, 3])), True)
    assert life_of(after, 0) == 2
    assert after.pending is None
    assert card(state, 0, "counter") in after.hands[0]


def test_counter_removing_last_attacker_wins_for_defender():
    state = duel(hand1=WITH_COUNTER, life0=1)
    after = answer(E.apply(state, use(state, 0, "attack", 0, [2, 3])), True)
    assert E.result(after) == {"winner": 1, "reason": "pieces", "pieces_left": [0, 1]}


def _older(state, version, always, pending=None, log_extra=()):
    data = E.to_dict(state)
    data["version"] = version
    del data["counter_mode"]
    data["always_counter"] = always
    if pending is None:
        del data["pending"]
    else:
        data["pending"] = pending
    data["log"] = data["log"] + list(log_extra)
    return data


def test_a_version_2_state_reads_its_standing_choice_as_a_counter_mode():
    upgraded = E.from_dict(_older(duel(), 2, [True, False]))
    assert upgraded.counter_mode == ["always", "never"]
    assert E.to_dict(upgraded)["version"] == 3


def test_a_version_1_state_keeps_its_open_question_with_off_read_as_ask():
    # The attack card was used and no life lost yet: the old engine waited for seat 1.
    state = attacked(options={"counter_mode": ["always", "never"]})
    state.pieces = [(0, 0, 3, 2, 2), (5, 1, 3, 2, 3)]
    pending = {"attacker": 0, "attacking_piece": 0, "target_piece": 5}
    upgraded = E.from_dict(_older(state, 1, [True, False], pending))
    assert upgraded.counter_mode == ["always", "ask"]
    assert upgraded.pending == (0, 0, 5)
    assert (life_of(answer(upgraded, True), 0)) == 2


def test_a_version_1_state_loses_its_public_trace_of_declined_counters():
    declined = {"type": "counter", "player": 1, "used": False, "turn": 1}
    shown = {"type": "counter", "player": 1, "used": True, "automatic": True, "piece": 0}
    upgraded = E.from_dict(
        _older(duel(), 1, [False, False], log_extra=[declined, {**shown, "turn": 1}])
    )
    counters = [e for e in upgraded.log if e["type"] == "counter"]
    assert counters == [{"type": "counter", "player": 1, "piece": 0, "turn": 1}]


# --- running out of cards --------------------------------------------------------------


def test_empty_deck_blocks_drawing_while_hand_holds_cards():
    state = arrange(duel(), hands={0: ["move", "attack"]}, decks={0: 0})
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    after = E.apply(state, end_turn(0))
    assert (len(after.hands[0]), len(after.decks[0])) == (1, 0)


def test_empty_deck_and_used_up_hand_reshuffle_and_draw_five():
    state = arrange(duel(), hands={0: ["move"]}, decks={0: 0})
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    after = E.apply(state, end_turn(0))
    assert (len(after.hands[0]), len(after.decks[0]), len(after.used_shown[0])) == (5, 15, 0)


def test_empty_deck_and_discarded_hand_reshuffle_and_draw_five():
    state = arrange(duel(), hands={0: ["move", "attack"]}, decks={0: 0})
    after = E.apply(state, {"type": "discard", "player": 0, "cards": list(state.hands[0])})
    assert (len(after.hands[0]), len(after.decks[0]), len(after.used_hidden[0])) == (5, 15, 0)


def test_deck_emptying_part_way_keeps_the_cards_drawn():
    state = arrange(duel(), hands={0: ["move", "move"]}, decks={0: 1})
    after = E.apply(state, end_turn(0))
    assert (len(after.hands[0]), len(after.decks[0])) == (3, 0)


def test_reshuffle_follows_the_seed():
    state = arrange(duel(), hands={0: ["move"]}, decks={0: 0})
    state = E.apply(state, use(state, 0, "move", 0, [1, 2]))
    assert E.apply(state, end_turn(0)).decks == E.apply(state, end_turn(0)).decks


# --- endings ---------------------------------------------------------------------------


def test_last_piece_removed_ends_the_game_mid_turn():
    state = duel(life1=1)
    after = attack_lands(state, 0, [2, 3])
    assert E.is_terminal(after)
    assert E.result(after) == {"winner": 0, "reason": "pieces", "pieces_left": [1, 0]}


def test_no_action_after_the_game_ended():
    state = duel(life1=1)
    after = attack_lands(state, 0, [2, 3])
    with pytest.raises(IllegalAction, match="over"):
        E.apply(after, end_turn(0))
    assert E.legal_actions(after, 0) == []


def test_resign_by_player_on_turn():
    after = E.apply(duel(), {"type": "resign", "player": 0})
    assert (E.winner(after), E.result(after)["reason"]) == (1, "resign")


def test_resign_out_of_turn():
    after = E.apply(duel(), {"type": "resign", "player": 1})
    assert E.winner(after) == 0


def test_resign_during_setup():
    after = E.apply(E.initial_state({}, 0), {"type": "resign", "player": 0})
    assert E.result(after) == {"winner": 1, "reason": "resign", "pieces_left": [0, 0]}


def test_turn_limit_ends_in_a_draw():
    state = started({"turn_limit": 2})
    state = E.apply(state, end_turn(0))
    after = E.apply(state, end_turn(1))
    assert E.is_terminal(after)
    assert E.winner(after) is None
    assert E.result(after) == {"winner": None, "reason": "turn_limit", "pieces_left": [2, 2]}


def test_turn_limit_not_reached_keeps_playing():
    state = E.apply(started({"turn_limit": 2}), end_turn(0))
    assert not E.is_terminal(state)


def test_result_is_none_while_playing():
    assert E.result(duel()) is None
    assert E.winner(duel()) is None


# --- interface -------------------------------------------------------------------------


def test_apply_does_not_mutate_its_input():
    state = duel(hand1=WITH_COUNTER)
    before = E.to_dict(state)
    E.apply(state, use(state, 0, "attack", 0, [2, 3]))
    E.apply(state, {"type": "discard", "player": 0, "cards": state.hands[0][:2]})
    assert E.to_dict(state) == before


def test_illegal_action_leaves_input_unchanged():
    state = duel()
    before = E.to_dict(state)
    with pytest.raises(IllegalAction):
        E.apply(state, use(state, 0, "move", 0, [2, 3]))
    assert E.to_dict(state) == before


def test_unknown_action_type_refused():
    with pytest.raises(IllegalAction, match="Unknown action"):
        E.apply(duel(), {"type": "fly", "player": 0})


def test_unknown_player_refused():
    with pytest.raises(IllegalAction, match="Unknown player"):
        E.apply(duel(), {"type": "end_turn", "player": 2})


def test_unknown_match_option_refused():
    with pytest.raises(IllegalAction, match="Unknown match option"):
        E.initial_state({"fog": True}, 0)


def test_every_listed_legal_action_applies():
    state = duel(hand0=["move", "attack", "counter", "move", "attack"])
    for action in E.legal_actions(state, 0):
        E.apply(state, action)


def test_legal_actions_name_cards_the_player_holds():
    state = duel()
    cards = {a["card"] for a in E.legal_actions(state, 0) if a["type"] == "use"}
    assert cards <= set(state.hands[0])


def test_legal_actions_offer_setup_variants_before_ready():
    setups = [a for a in E.legal_actions(E.initial_state({}, 0), 1) if a["type"] == "setup"]
    assert len(setups) == 7
    for action in setups:
        E.validate_setup(action["deck"], action["pieces"])


def test_same_seed_and_actions_give_same_game():
    def play(seed):
        state = started(seed=seed, first=None)
        for _ in range(6):
            state = E.apply(state, end_turn(state.current))
        return E.to_dict(state)

    assert play(11) == play(11)


def test_from_dict_round_trip_through_json():
    state = duel(hand1=WITH_COUNTER)
    state = E.apply(state, use(state, 0, "attack", 0, [2, 3]))
    assert E.from_dict(json.loads(json.dumps(E.to_dict(state)))) == state


def corrupt(change):
    data = json.loads(json.dumps(E.to_dict(duel())))
    change(data)
    return data


def test_from_dict_rejects_wrong_board_size():
    data = corrupt(lambda d: d.update(board={"columns": 6, "rows": 7}))
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_from_dict_rejects_piece_off_board():
    data = corrupt(lambda d: d["pieces"][0].update(row=7))
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_from_dict_rejects_non_positive_life():
    data = corrupt(lambda d: d["pieces"][0].update(life=0))
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_from_dict_rejects_unknown_card_kind():
    def change(d):
        first = next(iter(d["cards"][0]))
        d["cards"][0][first] = "fireball"

    with pytest.raises(InvalidState):
        E.from_dict(corrupt(change))


def test_from_dict_rejects_card_in_two_piles():
    data = corrupt(lambda d: d["decks"][0].append(d["hands"][0][0]))
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_from_dict_rejects_two_pieces_on_one_square():
    data = corrupt(lambda d: d["pieces"][1].update(column=2, row=2))
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_from_dict_rejects_non_mapping():
    with pytest.raises(InvalidState):
        E.from_dict(["not", "a", "state"])
