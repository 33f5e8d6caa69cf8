"""Rule tests for the Actics X engine: one per step of the action phase and per decision.

Board reminder (x from A's left, y from A's back row): column x=0 runs A9, A5, A1, B4, B8,
B12; column x=3 runs A12, A8, A4, B1, B5, B9. A's forward is +y, B's is -y.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.utils import translation

from minigames.acticsx.rules import cards, engine
from minigames.game import IllegalAction, render
from minigames.messages import translate

_FILL = sorted(cards.CARDS)


def build(actors=(), hands=((), ()), lives=(3, 3), seed=7, turn=1, **options):
    """Return a valid state holding exactly these actors and hands; decks are filled to 20.

    ``actors`` are (owner, card id, square); an actor on the enemy side starts awake.
    """
    need = [
        Counter(hands[p]) + Counter(card for owner, card, _sq in actors if owner == p)
        for p in (0, 1)
    ]
    decks = []
    for p in (0, 1):
        deck = list(need[p].elements())
        for cid in _FILL:
            while deck.count(cid) < 2 and len(deck) < 20:
                deck.append(cid)
        decks.append(deck)
    state = engine.to_dict(engine.initial_state({"decks": decks, **options}, seed))
    for p in (0, 1):
        seat = state["players"][p]
        seat["hand"] = list(hands[p])
        seat["deck"] = sorted((Counter(decks[p]) - need[p]).elements())
        seat["discard"] = []
        seat["life"] = lives[p]
    state["actors"] = [
        {
            "uid": i + 1,
            "owner": owner,
            "card": card,
            "square": square,
            "awake": engine.square_side(square) != owner,
            "rest": False,
            "buff": 0,
        }
        for i, (owner, card, square) in enumerate(actors)
    ]
    state["next_uid"] = len(actors) + 1
    state["turn"] = turn
    return engine.from_dict(state)


def plan(*actors, play=()):
    return {"play": list(play), "actors": list(actors)}


def move(square, direction, distance=1):
    return {"square": square, "do": "move", "direction": direction, "distance": distance}


def act(square, text=0):
    return {"square": square, "do": "action", "text": text}


def wait(square):
    return {"square": square, "do": "wait"}


def card(cid, square):
    return {"card": cid, "square": square}


def run(state, plan_a=None, plan_b=None):
    """Confirm both plans (A first) and return the state after the action phase."""
    state = engine.apply(state, {"type": "plan", "player": 0, "plan": plan_a or plan()})
    return engine.apply(state, {"type": "plan", "player": 1, "plan": plan_b or plan()})


def at(state, square):
    """Return (owner, card) of the actor on ``square``, or None."""
    for actor in state["actors"]:
        if actor["square"] == square:
            return actor["owner"], actor["card"]
    return None


def steps(state, kind=None):
    found = state["last_resolution"]["steps"]
    return [s for s in found if kind is None or s["kind"] == kind]


def texts(state):
    return [render(s["text"]) for s in steps(state)]


def in_japanese(msg):
    """A message as the presenter words it for a Japanese table."""
    with translation.override("ja"):
        return translate(msg)


def refused(state, player, the_plan):
    """The English reason; every refusal is also worded in Japanese for a Japanese table."""
    return refused_in_both(state, player, the_plan)[0]


def refused_in_both(state, player, the_plan):
    with pytest.raises(IllegalAction) as info:
        engine.apply(state, {"type": "plan", "player": player, "plan": the_plan})
    japanese = in_japanese(info.value.message)
    assert japanese and any("\u3040" <= ch <= "\u30ff" for ch in japanese), japanese
    return str(info.value), japanese


# -- board -----------------------------------------------------------------------------------


def test_board_is_4_by_6_with_24_numbered_squares():
    assert len(engine.SQUARES) == 24
    assert {engine.XY[f"A{n}"][1] for n in range(1, 13)} == {0, 1, 2}
    assert {engine.XY[f"B{n}"][1] for n in range(1, 13)} == {3, 4, 5}


def test_board_bases_are_squares_9_to_12_nearest_each_player():
    assert {engine.XY[sq][1] for sq in engine.BASES[0]} == {0}
    assert {engine.XY[sq][1] for sq in engine.BASES[1]} == {5}


def test_board_squares_1_to_4_touch_the_centre_line():
    assert engine.XY["A1"] == (0, 2)
    assert engine.XY["B1"] == (3, 3)


def test_board_directions_are_relative_to_the_owner():
    # Forward is toward the enemy for both seats: A moves up the board, B down it.
    state = build(actors=[(0, "ember_fox", "A9"), (1, "ember_fox", "B9")])
    after = run(state, plan(move("A9", "F")), plan(move("B9", "F")))
    assert at(after, "A5") == (0, "ember_fox")
    assert at(after, "B5") == (1, "ember_fox")


# -- planning phase ------------------------------------------------------------------------------


def test_planning_each_player_draws_one_card():
    state = build()
    after = run(state)
    assert [len(p["hand"]) for p in after["players"]] == [1, 1]


def test_planning_level_total_over_3_refused():
    state = build(hands=(["flame_wolf", "moss_golem"], []))
    message = refused(state, 0, plan(play=[card("flame_wolf", "A9"), card("moss_golem", "A10")]))
    assert message == "Deploying Flame Wolf and Moss Golem costs level 4; the limit is 3."


def test_planning_level_total_refusal_names_the_cards_in_japanese():
    state = build(hands=(["flame_wolf", "moss_golem"], []))
    the_plan = plan(play=[card("flame_wolf", "A9"), card("moss_golem", "A10")])

    _english, japanese = refused_in_both(state, 0, the_plan)

    names = [cards.card_name(cid, "ja") for cid in ("flame_wolf", "moss_golem")]
    assert japanese == f"{'、'.join(names)}のレベルは合計4です。上限は3。"


def test_planning_move_beyond_range_refusal_in_japanese_names_the_direction():
    state = build(actors=[(0, "ember_fox", "A9")])

    _english, japanese = refused_in_both(state, 0, plan(move("A9", "F", 3)))

    assert japanese.startswith(f"A9の{cards.card_name('ember_fox', 'ja')}が前方（F）へ")


def test_planning_level_total_counts_ex_cards():
    state = build(hands=(["flame_wolf", "ballista"], []))
    message = refused(state, 0, plan(play=[card("flame_wolf", "A9"), card("ballista", "A10")]))
    assert message == "Playing Flame Wolf and Ballista costs level 4; the limit is 3."


def test_planning_level_total_of_3_accepted():
    state = build(hands=(["flame_wolf", "ember_fox"], []))
    after = run(state, plan(play=[card("flame_wolf", "A9"), card("ember_fox", "A10")]))
    assert at(after, "A9") == (0, "flame_wolf")
    assert at(after, "A10") == (0, "ember_fox")


def test_planning_fifth_actor_refused():
    state = build(
        actors=[
            (0, cid, sq)
            for cid, sq in zip(
                ["ember_fox", "seed_scout", "tide_sprite", "cinder_imp"],
                ["A1", "A2", "A3", "A4"],
                strict=True,
            )
        ],
        hands=(["shadow_runner"], []),
    )
    message = refused(state, 0, plan(play=[card("shadow_runner", "A9")]))
    assert message == (
        "Deploying Shadow Runner would put 5 of your actors on the board; the limit is 4."
    )


def test_planning_deploy_outside_own_base_refused():
    state = build(hands=(["ember_fox"], []))
    message = refused(state, 0, plan(play=[card("ember_fox", "A5")]))
    assert "own base squares (A9–A12)" in message


def test_planning_deploy_on_any_empty_base_square_including_12():
    state = build(hands=(["ember_fox"], []))
    after = run(state, plan(play=[card("ember_fox", "A12")]))
    assert at(after, "A12") == (0, "ember_fox")


def test_planning_deploy_on_occupied_square_refused():
    state = build(actors=[(0, "seed_scout", "A9")], hands=(["ember_fox"], []))
    message = refused(state, 0, plan(play=[card("ember_fox", "A9")]))
    assert message == "A9 already holds an actor; Ember Fox needs an empty square."


def test_planning_two_cards_on_one_square_refused():
    state = build(hands=(["ember_fox", "seed_scout"], []))
    message = refused(state, 0, plan(play=[card("ember_fox", "A9"), card("seed_scout", "A9")]))
    assert message == "Two cards are planned for A9; a square holds one card."


def test_planning_card_not_in_hand_refused():
    state = build(hands=(["ember_fox"], []))
    message = refused(state, 0, plan(play=[card("flame_wolf", "A9")]))
    assert message == "Flame Wolf is not in your hand."


def test_planning_counter_on_square_its_text_does_not_name_refused():
    state = build(hands=(["pitfall"], []))
    message = refused(state, 0, plan(play=[card("pitfall", "B5")]))
    assert message == "Pitfall must be played on one of your squares 1–8; B5 is not one."


def test_planning_move_beyond_range_refused():
    state = build(actors=[(0, "ember_fox", "A9")])
    message = refused(state, 0, plan(move("A9", "F", 3)))
    assert message == "Ember Fox on A9 can move at most 2 forward (F), not 3."


def test_planning_move_off_the_board_refused():
    state = build(actors=[(0, "ember_fox", "A9")])
    message = refused(state, 0, plan(move("A9", "L", 1)))
    assert message == "Ember Fox on A9 moving 1 left (L) would leave the board."


def test_planning_unknown_direction_refused():
    state = build(actors=[(0, "ember_fox", "A9")])
    message = refused(state, 0, plan(move("A9", "north", 1)))
    assert message.startswith("Unknown direction 'north'")


def test_planning_enemy_actor_cannot_be_planned():
    state = build(actors=[(1, "ember_fox", "B9")])
    assert refused(state, 0, plan(wait("B9"))) == "There is no actor of yours on B9."


def test_planning_action_for_actor_without_action_refused():
    state = build(actors=[(0, "ember_fox", "A9")])
    assert refused(state, 0, plan(act("A9"))) == "Ember Fox has no action text."


def test_planning_second_plan_of_a_seat_refused():
    state = engine.apply(build(), {"type": "plan", "player": 0, "plan": plan()})
    assert refused(state, 0, plan()) == "A has already confirmed a plan for this turn."


def test_planning_first_plan_waits_for_the_other_seat():
    state = build(actors=[(0, "ember_fox", "A9")])
    after = engine.apply(state, {"type": "plan", "player": 0, "plan": plan(move("A9", "F"))})
    assert at(after, "A9") == (0, "ember_fox")
    assert after["last_resolution"] is None
    assert after["players"][0]["plan"] is not None


def test_planning_deployed_actor_cannot_be_planned_the_same_turn():
    state = build(hands=(["ember_fox"], []))
    message = refused(state, 0, plan(move("A9", "F"), play=[card("ember_fox", "A9")]))
    assert message == "There is no actor of yours on A9."


def test_planning_hand_over_8_discards_at_random():
    hand = ["ember_fox", "seed_scout", "tide_sprite", "flame_wolf"] * 2
    after = run(build(hands=(hand, [])))
    assert len(after["players"][0]["hand"]) == 8
    assert len(after["players"][0]["discard"]) == 1
    assert steps(after, "hand_limit")[0]["player"] == 0


def test_planning_hand_over_8_discard_is_seeded():
    hand = ["ember_fox", "seed_scout", "tide_sprite", "flame_wolf"] * 2
    discarded = {
        seed: run(build(hands=(hand, []), seed=seed))["players"][0]["discard"][0]
        for seed in range(12)
    }
    again = {
        seed: run(build(hands=(hand, []), seed=seed))["players"][0]["discard"][0]
        for seed in range(12)
    }
    assert discarded == again
    assert len(set(discarded.values())) > 1


# -- action phase step 1: waiting actors rest -------------------------------------------------


def test_step1_waiting_actor_rests_and_stays():
    state = build(actors=[(0, "ember_fox", "A5")])
    after = run(state, plan(wait("A5")))
    assert at(after, "A5") == (0, "ember_fox")
    assert steps(after, "rest")[0]["square"] == "A5"


def test_step1_actor_left_out_of_the_plan_waits():
    state = build(actors=[(0, "ember_fox", "A5")])
    after = run(state, plan())
    assert steps(after, "rest")[0]["square"] == "A5"


def test_step1_rest_comes_before_everything_else():
    state = build(actors=[(0, "ember_fox", "A5")], hands=(["seed_scout"], []))
    after = run(state, plan(play=[card("seed_scout", "A9")]))
    kinds = [s["kind"] for s in steps(after)]
    assert kinds.index("rest") < kinds.index("deploy")


# -- step 2: counters before deployments --------------------------------------------------------


def test_step2_counters_execute_before_deployments():
    # Blaze Knight's deploy text discards power <= 2 within 2 ahead; the Iron Wall revealed
    # first lifts the imp to 5, so it survives.
    state = build(
        actors=[(1, "cinder_imp", "A5")],
        hands=(["blaze_knight"], ["iron_wall"]),
    )
    after = run(
        state, plan(play=[card("blaze_knight", "A9")]), plan(play=[card("iron_wall", "A5")])
    )
    assert at(after, "A5") == (1, "cinder_imp")
    kinds = [s["kind"] for s in steps(after)]
    assert kinds.index("reveal") < kinds.index("deploy")


def test_step2_counter_is_discarded_at_end_of_turn():
    state = build(hands=(["pitfall"], []))
    after = run(state, plan(play=[card("pitfall", "A5")]))
    assert after["players"][0]["discard"] == ["pitfall"]


# -- step 3: deployments and EX normal cards, base square 9 -> 12 ---------------------------------


def test_step3_base_order_9_to_12():
    state = build(hands=(["ember_fox", "seed_scout"], ["tide_sprite", "cinder_imp"]))
    after = run(
        state,
        plan(play=[card("ember_fox", "A12"), card("seed_scout", "A9")]),
        plan(play=[card("tide_sprite", "B10"), card("cinder_imp", "B9")]),
    )
    assert [s["square"] for s in steps(after, "deploy")] == ["A9", "B9", "B10", "A12"]


def test_step3_ex_normal_on_12_reaches_actor_deployed_on_9():
    state = build(hands=(["battle_cry", "ember_fox"], []))
    after = run(state, plan(play=[card("battle_cry", "A12"), card("ember_fox", "A9")]))
    assert [s["power"] for s in steps(after, "power")] == [3]


def test_step3_ex_normal_on_9_runs_before_actor_deployed_on_12():
    state = build(hands=(["battle_cry", "ember_fox"], []))
    after = run(state, plan(play=[card("battle_cry", "A9"), card("ember_fox", "A12")]))
    assert steps(after, "power") == []


def test_step3_ex_normal_goes_to_the_discard_pile():
    state = build(hands=(["supply_drop"], []))
    after = run(state, plan(play=[card("supply_drop", "A10")]))
    assert after["players"][0]["discard"] == ["supply_drop"]


# -- step 4: actors by action order ---------------------------------------------------------------


def test_step4_actors_act_in_plan_order():
    state = build(actors=[(0, "ember_fox", "A5"), (0, "tide_sprite", "A9")])
    after = run(state, plan(move("A5", "F"), move("A9", "F")))
    assert at(after, "A1") == (0, "ember_fox")
    assert at(after, "A5") == (0, "tide_sprite")


def test_step4_later_actor_blocked_when_order_is_reversed():
    state = build(actors=[(0, "ember_fox", "A5"), (0, "tide_sprite", "A9")])
    after = run(state, plan(move("A9", "F"), move("A5", "F")))
    assert at(after, "A9") == (0, "tide_sprite")


def test_step4_same_number_actors_of_both_sides_move_together():
    # Both enter A1 in the same step: a battle there, not one arriving before the other.
    state = build(actors=[(0, "ember_fox", "A5"), (1, "tide_sprite", "B4")])
    after = run(state, plan(move("A5", "F")), plan(move("B4", "F")))
    assert at(after, "A1") == (1, "tide_sprite")
    assert steps(after, "battle")[0]["square"] == "A1"


def test_step4_speed_2_action_runs_before_the_opposing_move():
    state = build(actors=[(0, "frost_maiden", "A1"), (1, "ember_fox", "B8")])
    after = run(state, plan(act("A1")), plan(move("B8", "F", 2)))
    assert at(after, "B8") == (1, "ember_fox")
    assert at(after, "A1") == (0, "frost_maiden")


def test_step4_speed_1_action_runs_after_the_opposing_move():
    # The fox steps into the archer's line; the speed-1 shot comes after the move.
    state = build(actors=[(0, "river_archer", "A5"), (1, "ember_fox", "B7")])
    after = run(state, plan(act("A5")), plan(move("B7", "R")))
    assert at(after, "B8") is None
    assert after["players"][1]["discard"] == ["ember_fox"]


def test_step4_same_speed_actions_happen_together():
    # Each shoots the other; both read the board before either shot lands.
    state = build(actors=[(0, "river_archer", "A1"), (1, "ash_gunner", "B8")])
    after = run(state, plan(act("A1")), plan(act("B8")))
    assert after["actors"] == []


def test_step4_actor_removed_before_its_turn_loses_its_plan():
    state = build(
        actors=[(0, "flame_wolf", "A1"), (1, "shadow_runner", "B9"), (1, "ember_fox", "B4")]
    )
    after = run(state, plan(move("A1", "F")), plan(move("B9", "R"), move("B4", "F")))
    assert at(after, "B4") == (0, "flame_wolf")
    fox = [a for a in state["actors"] if a["card"] == "ember_fox"][0]
    assert all(s.get("uid") != fox["uid"] for s in steps(after, "move_start"))


# -- movement ----------------------------------------------------------------------------------


def test_move_goes_the_planned_distance():
    state = build(actors=[(0, "ember_fox", "A9")])
    after = run(state, plan(move("A9", "F", 2)))
    assert at(after, "A1") == (0, "ember_fox")


def test_move_into_own_actor_stops_one_square_short():
    state = build(actors=[(0, "ember_fox", "A9"), (0, "seed_scout", "A1")])
    after = run(state, plan(move("A9", "F", 2)))
    assert at(after, "A5") == (0, "ember_fox")


def test_move_jump_passes_over_actors():
    state = build(
        actors=[(0, "shadow_runner", "A9"), (0, "seed_scout", "A5"), (1, "ember_fox", "A1")]
    )
    after = run(state, plan(move("A9", "F", 3)))
    assert at(after, "B4") == (0, "shadow_runner")
    assert at(after, "A1") == (1, "ember_fox")
    assert steps(after, "battle") == []


def test_move_without_jump_cannot_pass_over():
    state = build(actors=[(0, "ember_fox", "A9"), (0, "seed_scout", "A5")])
    after = run(state, plan(move("A9", "F", 2)))
    assert at(after, "A9") == (0, "ember_fox")


def test_move_jump_landing_on_own_actor_comes_down_on_last_free_square():
    state = build(
        actors=[(0, "shadow_runner", "A9"), (0, "seed_scout", "A1"), (0, "ember_fox", "B4")]
    )
    after = run(state, plan(move("A9", "F", 3)))
    assert at(after, "A5") == (0, "shadow_runner")


def test_move_onto_enemy_is_a_battle_that_ends_the_move():
    state = build(actors=[(0, "flame_wolf", "A5"), (1, "ember_fox", "A1")])
    after = run(state, plan(move("A5", "F", 2)))
    assert at(after, "A1") == (0, "flame_wolf")
    assert at(after, "B4") is None


def test_move_head_on_swap_is_a_battle():
    state = build(actors=[(0, "ember_fox", "A1"), (1, "tide_sprite", "B4")])
    after = run(state, plan(move("A1", "F")), plan(move("B4", "F")))
    assert len(steps(after, "battle")) == 1
    assert at(after, "A1") == (1, "tide_sprite")
    assert at(after, "B4") is None


def test_move_into_square_being_left_is_no_battle():
    state = build(actors=[(0, "ember_fox", "A5"), (1, "tide_sprite", "A1")])
    after = run(state, plan(move("A5", "F")), plan(move("A1", "L")))
    assert at(after, "A1") == (0, "ember_fox")
    assert at(after, "A2") == (1, "tide_sprite")
    assert steps(after, "battle") == []


def test_move_runs_from_where_the_actor_is_when_its_turn_comes():
    # Pushed from B1 to B5 by action number 1, the sprite's planned step back starts at B5.
    state = build(
        actors=[(0, "vine_lasher", "A4"), (1, "shadow_runner", "B12"), (1, "tide_sprite", "B1")]
    )
    after = run(state, plan(act("A4")), plan(move("B12", "L"), move("B1", "B")))
    assert at(after, "B9") == (1, "tide_sprite")


def test_move_stops_at_the_board_edge_when_pushed_toward_it():
    state = build(
        actors=[(0, "vine_lasher", "A3"), (1, "shadow_runner", "B12"), (1, "tide_sprite", "B2")]
    )
    pushed = run(state, plan(act("A3")), plan(move("B12", "L"), move("B2", "L")))
    assert at(pushed, "B5") == (1, "tide_sprite")


# -- battles -----------------------------------------------------------------------------------


def test_battle_higher_power_wins():
    state = build(actors=[(0, "flame_wolf", "A1"), (1, "seed_scout", "B8")])
    after = run(state, plan(), plan(move("B8", "F", 2)))
    assert at(after, "A1") == (0, "flame_wolf")
    assert after["players"][1]["discard"] == ["seed_scout"]


def test_battle_equal_power_discards_both():
    state = build(actors=[(0, "ember_fox", "A1"), (1, "ember_fox", "B4")])
    after = run(state, plan(move("A1", "F")))
    assert after["actors"] == []
    assert [p["discard"] for p in after["players"]] == [["ember_fox"], ["ember_fox"]]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [("tide_sprite", "ember_fox"), ("ember_fox", "seed_scout"), ("seed_scout", "tide_sprite")],
)
def test_battle_attribute_triangle_doubles_power(attacker, defender):
    # Equal printed power 2: only the doubling decides.
    state = build(actors=[(0, attacker, "A1"), (1, defender, "B4")])
    after = run(state, plan(move("A1", "F")))
    assert at(after, "B4") == (0, attacker)
    assert steps(after, "battle")[0]["power"] == [4, 2]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [("ember_fox", "tide_sprite"), ("seed_scout", "ember_fox"), ("tide_sprite", "seed_scout")],
)
def test_battle_attribute_triangle_doubles_the_defender_too(attacker, defender):
    state = build(actors=[(0, attacker, "A1"), (1, defender, "B4")])
    after = run(state, plan(move("A1", "F")))
    assert at(after, "B4") == (1, defender)


@pytest.mark.parametrize("other", ["ember_fox", "tide_sprite", "seed_scout"])
def test_battle_none_attribute_is_unaffected(other):
    state = build(actors=[(0, "wandering_monk", "A1"), (1, other, "B4")])
    after = run(state, plan(move("A1", "F")))
    assert steps(after, "battle")[0]["power"] == [2, 2]
    assert after["actors"] == []


def test_battle_step_describes_powers_and_doubling():
    state = build(actors=[(1, "flame_wolf", "B3"), (0, "moss_golem", "A6")])
    after = run(state, plan(), plan(move("B3", "F", 2)))
    assert (
        "B's Flame Wolf (power 4, fire vs wood: 8) beats A's Moss Golem "
        "(power 4, trait +2: 6) on A6." in texts(after)
    )


def test_battle_step_has_japanese_text():
    state = build(actors=[(1, "flame_wolf", "B3"), (0, "moss_golem", "A6")])
    after = run(state, plan(), plan(move("B3", "F", 2)))
    assert in_japanese(steps(after, "battle")[0]["text"]) == (
        "A6でBの炎の狼（パワー4、火対木：8）がAの苔のゴーレム（パワー4、特性+2：6）に勝利。"
    )


# -- awakening -----------------------------------------------------------------------------------


def test_awakening_gained_on_landing_on_the_enemy_side():
    state = build(actors=[(0, "ember_fox", "A1")])
    after = run(state, plan(move("A1", "F")))
    fox = after["actors"][0]
    assert fox["awake"] is True
    assert engine.player_view(after, None)["actors"][0]["power"] == 3


def test_awakening_lost_back_on_the_own_side():
    state = build(actors=[(0, "river_archer", "B3")])
    assert engine.player_view(state, None)["actors"][0]["power"] == 4
    after = run(state, plan(move("B3", "BL")))
    assert at(after, "A1") == (0, "river_archer")
    assert after["actors"][0]["awake"] is False
    assert engine.player_view(after, None)["actors"][0]["power"] == 3


def test_awakening_not_applied_before_landing():
    # Crossing B4 does not awaken the fox in time for the battle on B8: 2 against 2.
    state = build(actors=[(0, "ember_fox", "A1"), (1, "wandering_monk", "B8")])
    after = run(state, plan(move("A1", "F", 2)))
    assert steps(after, "battle")[0]["power"] == [2, 2]
    assert after["actors"] == []


def test_awakening_range_bonus_allows_longer_moves():
    state = build(actors=[(0, "ember_fox", "B4")])
    after = run(state, plan(move("B4", "R", 2)))
    assert at(after, "B2") == (0, "ember_fox")


def test_awakening_range_bonus_absent_on_own_side():
    state = build(actors=[(0, "ember_fox", "A1")])
    message = refused(state, 0, plan(move("A1", "R", 2)))
    assert message == "Ember Fox on A1 can move at most 1 right (R), not 2."


# -- base and life -------------------------------------------------------------------------------


def test_base_entry_costs_one_life_and_discards_the_actor():
    state = build(actors=[(0, "ember_fox", "B8")])
    after = run(state, plan(move("B8", "F")))
    assert after["players"][1]["life"] == 2
    assert after["actors"] == []
    assert after["players"][0]["discard"] == ["ember_fox"]


def test_base_entry_after_winning_the_battle_on_the_base_square():
    state = build(actors=[(0, "ember_fox", "B8"), (1, "shadow_runner", "B12")])
    after = run(state, plan(move("B8", "F")))
    assert after["players"][1]["life"] == 2
    assert after["actors"] == []


def test_base_entry_life_zero_loses():
    state = build(actors=[(0, "ember_fox", "B8")], lives=(3, 1))
    after = run(state, plan(move("B8", "F")))
    assert engine.is_terminal(after)
    assert engine.result(after) == {"winner": 0, "reason": "life", "lives": [3, 0]}


def test_base_entry_both_zero_in_the_same_step_is_a_draw():
    state = build(actors=[(0, "ember_fox", "B8"), (1, "ember_fox", "A8")], lives=(1, 1))
    after = run(state, plan(move("B8", "F")), plan(move("A8", "F")))
    assert engine.result(after) == {"winner": None, "reason": "both_zero", "lives": [0, 0]}


def test_base_entry_earlier_action_number_wins_first():
    state = build(
        actors=[(0, "ember_fox", "B8"), (1, "seed_scout", "B10"), (1, "ember_fox", "A8")],
        lives=(1, 1),
    )
    after = run(state, plan(move("B8", "F")), plan(move("B10", "F"), move("A8", "F")))
    assert engine.winner(after) == 0
    assert after["players"][0]["life"] == 1


# -- end of the match ---------------------------------------------------------------------------


def test_turn_limit_more_life_wins():
    state = build(lives=(3, 2), turn=20, turn_limit=20)
    after = run(state)
    assert engine.result(after) == {"winner": 0, "reason": "turn_limit", "lives": [3, 2]}


def test_turn_limit_equal_life_is_a_draw():
    state = build(turn=20, turn_limit=20)
    after = run(state)
    assert engine.is_terminal(after)
    assert engine.winner(after) is None


def test_turn_limit_is_a_match_option():
    state = build(turn=5, turn_limit=5)
    assert engine.is_terminal(run(state))


def test_no_turn_limit_unless_the_match_asks_for_one():
    # Seed 002 「相手のライフを０にする」: only a life at 0 ends a match.
    state = build(lives=(3, 2), turn=500)
    after = run(state)
    assert state["options"]["turn_limit"] is None
    assert not engine.is_terminal(after) and after["turn"] == 501
    assert engine.player_view(after, 0)["turn_limit"] is None
    assert engine.from_dict(json.loads(json.dumps(after))) == after


def test_resign_gives_the_other_seat_the_win():
    after = engine.apply(build(), {"type": "resign", "player": 1})
    assert engine.result(after) == {"winner": 0, "reason": "resign", "lives": [3, 3]}


def test_no_action_after_the_end():
    after = engine.apply(build(), {"type": "resign", "player": 1})
    assert refused(after, 0, plan()) == "The match is over."


# -- replay ---------------------------------------------------------------------------------------


def test_replay_same_seed_same_actions_same_steps():
    def game():
        state = engine.initial_state({}, 99)
        logs = []
        for _ in range(6):
            for seat in (0, 1):
                actions = engine.legal_actions(state, seat)
                state = engine.apply(state, actions[len(actions) // 2])
            logs.append(state["last_resolution"])
        return logs, state

    assert game() == game()
