"""Benchmark the Actual engine and its searching player (a script, not a pytest module).

Run: .venv/bin/python tests/benchmarks/bench_actual.py [--games 200] [--budget 0.5]

Prints, one per line: random playouts per second, actions applied per second, the
searching player's win rate against the random player (seats alternate, turn limit on) and
its median and worst think time per decision.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from minigames.actual.rules import engine as E  # noqa: E402
from minigames.actual.rules.bot import RandomBot, SearchBot  # noqa: E402


def random_playouts(seconds: float, turn_limit: int, views: bool) -> tuple[float, float]:
    """Return (playouts per second, apply calls per second) for random-vs-random games.

    With ``views`` the RandomBot decides from player_view, as in a real match; without, the
    loop is the bare engine: legal_actions, a random pick, apply.
    """
    playouts = actions = 0
    apply_time = 0.0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        bots = (RandomBot(seed), RandomBot(seed + 1))
        state = E.initial_state({"turn_limit": turn_limit}, seed)
        while not E.is_terminal(state):
            seat = E.seat_to_act(state)
            legal = E.legal_actions(state, seat)
            if views:
                action = bots[seat].choose(E.player_view(state, seat), legal)
            else:
                action = bots[seat].rng.choice(
                    [a for a in legal if a["type"] not in ("resign", "counter_mode")]
                )
            t = time.perf_counter()
            state = E.apply(state, action)
            apply_time += time.perf_counter() - t
            actions += 1
        playouts += 1
        seed += 2
    elapsed = time.perf_counter() - start
    return playouts / elapsed, actions / apply_time


def search_match(games: int, budget: float, turn_limit: int) -> tuple[dict[str, int], list, list]:
    """Play the searching player against random; return outcomes and think times."""
    outcomes = {"win": 0, "draw": 0, "loss": 0}
    think: list[float] = []
    searching: list[float] = []
    for game in range(games):
        seat = game % 2
        search = SearchBot(seed=game, time_budget=budget)
        bots = {seat: search, 1 - seat: RandomBot(10_000 + game)}
        state = E.initial_state({"turn_limit": turn_limit}, game)
        while not E.is_terminal(state):
            who = E.seat_to_act(state)
            view, legal = E.player_view(state, who), E.legal_actions(state, who)
            searches = search.searches
            t = time.perf_counter()
            action = bots[who].choose(view, legal)
            if who == seat:
                think.append(time.perf_counter() - t)
                if search.searches > searches:
                    searching.append(think[-1])
            state = E.apply(state, action)
        won = E.winner(state)
        outcomes["draw" if won is None else "win" if won == seat else "loss"] += 1
        if sys.stderr.isatty():  # a progress line for a person watching, not for a log
            print(f"game {game + 1}/{games}: {outcomes}", file=sys.stderr, end="\r")
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return outcomes, think, searching


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="search-vs-random games")
    parser.add_argument("--budget", type=float, default=0.5, help="search time budget (s)")
    parser.add_argument("--turn-limit", type=int, default=100, help="turns of both seats")
    parser.add_argument("--random-seconds", type=float, default=10.0)
    args = parser.parse_args()

    per_second, actions_per_second = random_playouts(args.random_seconds, args.turn_limit, False)
    with_views, _ = random_playouts(args.random_seconds, args.turn_limit, True)
    print(f"random playouts per second: {per_second:.1f} (turn limit {args.turn_limit})")
    print(f"random playouts per second with player views: {with_views:.1f}")
    print(f"actions applied per second: {actions_per_second:.0f}")

    outcomes, think, searching = search_match(args.games, args.budget, args.turn_limit)
    print(
        f"search win rate vs random: {outcomes['win'] / args.games:.3f} "
        f"({outcomes['win']} won, {outcomes['draw']} drawn, {outcomes['loss']} lost "
        f"of {args.games}; turn limit {args.turn_limit})"
    )
    print(f"search think time median (all decisions): {statistics.median(think):.4f} s")
    print(
        f"search think time median (decisions that searched): {statistics.median(searching):.4f} s"
    )
    print(f"search think time worst: {max(think):.4f} s")
    print(f"search decisions: {len(think)} ({len(searching)} searched)")


if __name__ == "__main__":
    main()
