"""Benchmark the Actics X engine and its planner (a script; pytest does not collect it).

    .venv/bin/python tests/benchmarks/bench_acticsx.py [--games N] [--random-games N]
        [--budget SECONDS]

Prints, one per line: random games per second, turns resolved per second, the planner's win
rate against the random bot over N games (seats and decks alternate) and its median and
worst planning time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from minigames.acticsx.rules import bot, engine  # noqa: E402

DECKS = (["tide_grove", "ember_steel"], ["ember_steel", "tide_grove"])
# The rules end a match only at 0 life unless it asks for a turn limit, and two random
# players can go on for ever (seed 52 of the random games did: no base was ever reached,
# and the run held every turn's state until it filled the machine's memory). Games last
# about 30 turns; a limit far beyond that ends the rare one that would not.
TURN_LIMIT = 200


def random_games(count: int) -> tuple[float, float, int]:
    """Play random games; return (games per second, turns resolved per second, turns)."""
    pairs = []
    started = time.perf_counter()
    turns = 0
    for game in range(count):
        bots = [bot.RandomBot(2 * game), bot.RandomBot(2 * game + 1)]
        state = engine.initial_state({"decks": DECKS[game % 2], "turn_limit": TURN_LIMIT}, game)
        while not engine.is_terminal(state):
            first = bots[0].choose(engine.player_view(state, 0))
            second = bots[1].choose(engine.player_view(state, 1))
            confirmed = engine.apply(state, first)
            pairs.append((confirmed, second))
            state = engine.apply(confirmed, second)
            turns += 1
    games_rate = count / (time.perf_counter() - started)
    # The action phase alone: apply the second plan, which resolves the whole turn.
    started = time.perf_counter()
    for confirmed, second in pairs:
        engine.apply(confirmed, second)
    turns_rate = len(pairs) / (time.perf_counter() - started)
    return games_rate, turns_rate, turns


def planner_games(count: int, budget: float) -> tuple[int, int, int, list[float]]:
    """Play the planner against the random bot; return (wins, draws, losses, plan times)."""
    wins = draws = losses = 0
    times: list[float] = []
    for game in range(count):
        seat = game % 2
        planner = bot.PlannerBot(game, budget=budget)
        bots = [planner, bot.RandomBot(10_000 + game)]
        if seat == 1:
            bots.reverse()
        state = engine.initial_state(
            {"decks": DECKS[(game // 2) % 2], "turn_limit": TURN_LIMIT}, 50_000 + game
        )
        while not engine.is_terminal(state):
            for player in (0, 1):
                action = bots[player].choose(engine.player_view(state, player))
                if bots[player] is planner:
                    times.append(planner.last_time)
                state = engine.apply(state, action)
        won = engine.winner(state)
        if won == seat:
            wins += 1
        elif won is None:
            draws += 1
        else:
            losses += 1
    return wins, draws, losses, times


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="planner games (default 200)")
    parser.add_argument("--random-games", type=int, default=300, help="random games (300)")
    parser.add_argument("--budget", type=float, default=1.0, help="planner budget in seconds")
    args = parser.parse_args()

    games_rate, turns_rate, turns = random_games(args.random_games)
    print(f"random games per second: {games_rate:.1f} ({args.random_games} games, {turns} turns)")
    print(f"turns resolved per second: {turns_rate:.0f}")
    wins, draws, losses, times = planner_games(args.games, args.budget)
    rate = 100.0 * wins / max(1, args.games)
    print(
        f"planner win rate against random: {rate:.1f}% over {args.games} games "
        f"({wins} won, {draws} drawn, {losses} lost)"
    )
    print(f"planner median planning time: {1000 * statistics.median(times):.0f} ms")
    print(f"planner worst planning time: {1000 * max(times):.0f} ms (budget {args.budget:g} s)")


if __name__ == "__main__":
    main()
