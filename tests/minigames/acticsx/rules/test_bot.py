"""Computer opponents: legal plans, only the view as input, and the planner beats random."""

from __future__ import annotations

import inspect
import json
import random

from minigames.acticsx.rules import bot, engine
from tests.minigames.acticsx.rules.test_engine import build, plan

BUSY = build(
    actors=[
        (0, "ember_fox", "A1"),
        (0, "flame_wolf", "A6"),
        (0, "shadow_runner", "A11"),
        (0, "ash_gunner", "A4"),
        (1, "seed_scout", "B4"),
        (1, "moss_golem", "B2"),
        (1, "river_archer", "B7"),
        (1, "mist_heron", "B9"),
    ],
    hands=(
        ["battle_cry", "ballista", "cinder_imp", "ember_fox", "ambush", "torch_bearer"],
        ["pitfall", "tide_sprite", "iron_wall", "moss_golem", "supply_drop"],
    ),
)


def test_random_bot_plans_are_legal():
    state = engine.initial_state({}, 4)
    bots = [bot.RandomBot(1), bot.RandomBot(2)]
    for _turn in range(8):
        for seat in (0, 1):
            action = bots[seat].choose(engine.player_view(state, seat))
            engine.validate_plan(state, seat, action["plan"])
            state = engine.apply(state, action)
        if engine.is_terminal(state):
            break


def test_planner_plan_is_legal():
    state = engine.initial_state({}, 8)
    for _turn in range(3):
        for seat in (0, 1):
            action = bot.PlannerBot(seat, budget=0.3).choose(engine.player_view(state, seat))
            assert action["player"] == seat
            state = engine.apply(state, action)


def test_planner_takes_only_the_view():
    assert list(inspect.signature(bot.PlannerBot.choose).parameters) == ["self", "view"]
    view = json.loads(json.dumps(engine.player_view(engine.initial_state({}, 3), 1)))
    frozen = json.dumps(view, sort_keys=True)
    action = bot.PlannerBot(0, budget=0.2).choose(view)
    assert action["type"] == "plan"
    assert json.dumps(view, sort_keys=True) == frozen


def test_planner_plan_does_not_depend_on_the_other_hand():
    first = build(
        actors=[(0, "ember_fox", "A1"), (1, "seed_scout", "B4")],
        hands=(["tide_sprite", "pitfall"], ["ballista", "flame_wolf", "ember_fox"]),
    )
    second = build(
        actors=[(0, "ember_fox", "A1"), (1, "seed_scout", "B4")],
        hands=(["tide_sprite", "pitfall"], ["binding_seal", "moss_golem", "iron_wall"]),
    )
    views = [engine.player_view(s, 0) for s in (first, second)]
    views[1]["players"][1]["deck_count"] = views[0]["players"][1]["deck_count"]
    assert views[0] == views[1]
    plans = [bot.PlannerBot(5, budget=5).choose(v) for v in views]
    assert plans[0] == plans[1]


def test_planner_keeps_to_its_time_budget():
    planner = bot.PlannerBot(1, budget=0.1, worlds=6, replies=6, sweeps=50)
    planner.choose(engine.player_view(BUSY, 0))
    assert planner.last_time < 0.6


def test_planner_default_budget_plans_within_two_seconds():
    for seat in (0, 1):
        planner = bot.PlannerBot(2)
        action = planner.choose(engine.player_view(BUSY, seat))
        engine.validate_plan(BUSY, seat, action["plan"])
        assert planner.last_time < 2.0


def test_bots_make_no_plan_once_confirmed():
    state = engine.apply(build(), {"type": "plan", "player": 0, "plan": plan()})
    view = engine.player_view(state, 0)
    assert bot.RandomBot(0).choose(view) is None
    assert bot.PlannerBot(0).choose(view) is None


def test_determinize_agrees_with_the_view():
    state = engine.initial_state({}, 12)
    for seat in (0, 1):
        action = bot.RandomBot(seat).choose(engine.player_view(state, seat))
        state = engine.apply(state, action)
    view = engine.player_view(state, 1)
    world = bot.determinize(view, random.Random(0))
    again = engine.player_view(world, 1)
    for key in ("board", "actors", "turn", "phase"):
        assert again[key] == view[key]
    assert again["players"][1]["hand"] == view["players"][1]["hand"]
    assert again["players"][0]["hand_count"] == view["players"][0]["hand_count"]
    assert again["players"][0]["discard"] == view["players"][0]["discard"]


def test_planner_wins_most_of_a_small_match_against_random():
    wins = 0
    for game in range(6):
        seat = game % 2
        bots = [bot.PlannerBot(game, budget=0.5), bot.RandomBot(100 + game)]
        if seat == 1:
            bots.reverse()
        final = bot.play_match(bots, seed=game)
        wins += engine.winner(final) == seat
    assert wins >= 5
