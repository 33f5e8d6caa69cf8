"""Computer players for Actics X.

Both bots are handed only ``engine.player_view(state, seat)``: they never receive the state,
so they cannot read the other seat's hand, deck order or plan. The planner fills the hidden
parts in itself (``determinize``): the other seat's hand and deck are drawn at random from
the cards it can still hold, judged from its public deck name, discard pile and board.

``bot.choose(view)`` returns a plan action for the viewing seat, or None when that seat has
nothing to do (match over, or its plan already confirmed).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from minigames.acticsx.rules import cards as card_data
from minigames.acticsx.rules import engine
from minigames.game import IllegalAction, InvalidState

INFO = engine.INFO


def _needs_plan(view: dict[str, Any]) -> bool:
    me = view["viewer"]
    return me is not None and view["phase"] == "planning" and not view["players"][me]["confirmed"]


class RandomBot:
    """Plays a random legal plan every turn."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """Return a random plan action for the viewing seat, or None when it has none to make."""
        if not _needs_plan(view):
            return None
        me = view["viewer"]
        return {"type": "plan", "player": me, "plan": engine.random_plan(view, self.rng)}


# -- filling in what the view hides -----------------------------------------------------------


def _expand(counts: Counter[str]) -> list[str]:
    return [cid for cid, n in sorted(counts.items()) for _ in range(n) if n > 0]


def _opponent_pool(view: dict[str, Any], rng: random.Random) -> list[str]:
    """Return cards the other seat may hold in hand and deck, as many as it has there."""
    opp = 1 - view["viewer"]
    seat = view["players"][opp]
    public = Counter(seat["discard"]) + Counter(
        a["card"] for a in view["actors"] if a["owner"] == opp
    )
    needed = seat["hand_count"] + seat["deck_count"]
    name = seat["deck_name"]
    if name in card_data.DECKS:
        pool = Counter(card_data.deck_list(name)) - public
        if sum(pool.values()) == needed:
            return _expand(pool)
    # A custom deck: any card of the set, within the copy limit, not already shown.
    copies = view["options"]["max_copies"]
    spare = []
    for cid in sorted(card_data.CARDS):
        spare.extend([cid] * max(0, copies - public[cid]))
    rng.shuffle(spare)
    return spare[:needed]


def determinize(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Return a full state consistent with ``view``, hidden parts drawn at random.

    The viewer's own hand and deck contents are known to it (deck order is shuffled); the
    other seat's hand and deck are sampled from ``_opponent_pool``. Plans are empty: the
    state is the viewer's planning phase as a simulation would start from it.
    """
    me = view["viewer"]
    opp = 1 - me
    own = view["players"][me]
    their = view["players"][opp]
    own_board = Counter(a["card"] for a in view["actors"] if a["owner"] == me)
    own_rest = (
        Counter(own["deck_list"]) - Counter(own["hand"]) - Counter(own["discard"]) - own_board
    )
    own_deck = _expand(own_rest)
    rng.shuffle(own_deck)
    pool = _opponent_pool(view, rng)
    rng.shuffle(pool)
    their_hand = pool[: their["hand_count"]]
    their_deck = pool[their["hand_count"] :]
    their_list = (
        their_hand
        + their_deck
        + list(their["discard"])
        + [a["card"] for a in view["actors"] if a["owner"] == opp]
    )
    seats = [None, None]
    seats[me] = {
        "life": own["life"],
        "deck": own_deck,
        "hand": list(own["hand"]),
        "discard": list(own["discard"]),
        "plan": None,
    }
    seats[opp] = {
        "life": their["life"],
        "deck": their_deck,
        "hand": their_hand,
        "discard": list(their["discard"]),
        "plan": None,
    }
    decks = [None, None]
    decks[me] = list(own["deck_list"])
    decks[opp] = their_list
    options = {k: v for k, v in view["options"].items() if k != "deck_names"}
    options["decks"] = decks
    state = {
        "game": engine.GAME,
        "version": engine.VERSION,
        "options": {**options, "deck_names": [None, None]},
        "seed": 0,
        "rng": f"{rng.getrandbits(64):016x}",
        "turn": view["turn"],
        "phase": "planning",
        "players": seats,
        "actors": [
            {k: a[k] for k in ("uid", "owner", "card", "square", "awake", "rest", "buff")}
            for a in view["actors"]
        ],
        "next_uid": max((a["uid"] for a in view["actors"]), default=0) + 1,
        "last_resolution": None,
        "result": None,
    }
    return engine.from_dict(state)


# -- judging a position -----------------------------------------------------------------------


def _progress(square: str, owner: int) -> int:
    """Rows an actor has come from its own base row toward the enemy's (0–5)."""
    y = engine.XY[square][1]
    return y if owner == 0 else 5 - y


def evaluate(state: dict[str, Any], me: int) -> float:
    """Score a state for seat ``me``: higher is better (a win is far above everything)."""
    if engine.is_terminal(state):
        won = engine.winner(state)
        if won is None:
            return 0.0
        return 10_000.0 if won == me else -10_000.0
    players = state["players"]
    score = 120.0 * (players[me]["life"] - players[1 - me]["life"])
    for actor in state["actors"]:
        info = INFO[actor["card"]]
        power = info.power + (info.awake_power if actor["awake"] else 0)
        progress = _progress(actor["square"], actor["owner"])
        reach = engine.actor_range(actor["card"], actor["awake"])
        value = 6.0 + 3.0 * power + 3.0 * progress
        # An actor that can enter the enemy base next turn is a standing threat.
        if progress + max(reach["F"], reach["FR"], reach["FL"]) >= 5:
            value += 18.0
        score += value if actor["owner"] == me else -value
    score += 2.5 * (len(players[me]["hand"]) - len(players[1 - me]["hand"]))
    return score


# -- the planner -----------------------------------------------------------------------------


def _entry_options(actor: dict[str, Any]) -> list[dict[str, Any]]:
    square = actor["square"]
    options: list[dict[str, Any]] = [{"square": square, "do": "wait"}]
    for direction, longest in engine.move_options(actor):
        for distance in range(1, longest + 1):
            if direction in ("F", "FR", "FL") or distance == longest:
                options.append(
                    {"square": square, "do": "move", "direction": direction, "distance": distance}
                )
    for index in INFO[actor["card"]].actions:
        options.append({"square": square, "do": "action", "text": index})
    return options


def _default_entry(options: list[dict[str, Any]]) -> dict[str, Any]:
    """Go forward as far as possible; else the first other option."""
    best = options[0]
    for option in options:
        if (
            option["do"] == "move"
            and option["direction"] == "F"
            and (best["do"] != "move" or option["distance"] > best.get("distance", 0))
        ):
            best = option
    return best


def _counter_targets(view: dict[str, Any], info: Any, me: int, rng: random.Random) -> list[str]:
    where = info.counter[1]["where"]
    allowed = engine.counter_squares(where, me, view["actors"])
    if not allowed:
        return []
    if where in ("own_actor", "enemy_actor"):
        owner = me if where == "own_actor" else 1 - me
        ranked = sorted(
            (a for a in view["actors"] if a["owner"] == owner),
            key=lambda a: -(_progress(a["square"], a["owner"]) * 10 + a["power"]),
        )
        return [a["square"] for a in ranked[:2]]
    # Where enemies are likely to step next: one or two squares ahead of them.
    likely = []
    for actor in view["actors"]:
        if actor["owner"] == me:
            continue
        x, y = engine.XY[actor["square"]]
        dx, dy = engine.VECTORS[actor["owner"]]["F"]
        for step in (1, 2):
            name = engine.NAME.get((x + dx * step, y + dy * step))
            if name in allowed and name not in likely:
                likely.append(name)
    if not likely:
        likely = [rng.choice(allowed)]
    return likely[:2]


def _play_options(view: dict[str, Any], rng: random.Random, cap: int) -> list[list[dict]]:
    """Return a handful of card plays to try: combinations within the level limit."""
    me = view["viewer"]
    own = sum(1 for a in view["actors"] if a["owner"] == me)
    free = _free_bases(view, me)
    scored = []
    for combo in _hand_combos(view["players"][me]["hand"]):
        if _within_limits(combo, view["limits"], own, len(free)):
            # The random fraction orders combinations of the same worth differently each time.
            scored.append((_combo_worth(combo) + rng.random(), combo))
    scored.sort(reverse=True)
    result: list[list[dict]] = []
    # One place is kept for playing nothing, which is always an option.
    for _worth, combo in scored[: cap - 1]:
        plays = _place_combo(view, combo, free, rng)
        if plays is not None:
            result.append(plays)
    result.append([])
    return result


def _free_bases(view: dict[str, Any], me: int) -> list[str]:
    """The viewer's base squares no actor stands on, the best first."""
    free = [sq for sq in engine.BASES[me] if all(a["square"] != sq for a in view["actors"])]
    # Middle columns first: they reach more of the board.
    free.sort(key=lambda sq: abs(engine.XY[sq][0] - 1.5))
    return free


def _hand_combos(cards: list[str]) -> list[tuple[str, ...]]:
    """Every set of up to three cards the hand holds, as sorted tuples; the empty one first."""
    hand = sorted(set(cards))
    counts = Counter(cards)
    combos: list[tuple[str, ...]] = [()]
    for first in hand:
        combos.append((first,))
        for second in hand:
            if second < first or (second == first and counts[first] < 2):
                continue
            combos.append((first, second))
            for third in hand:
                if third < second:
                    continue
                trio = (first, second, third)
                if all(Counter(trio)[c] <= counts[c] for c in trio):
                    combos.append(trio)
    return combos


def _within_limits(combo: tuple[str, ...], limits: dict[str, Any], own: int, free: int) -> bool:
    """Whether a combination fits the level and actor limits (``own`` actors on the board
    already) and the ``free`` base squares."""
    level = sum(INFO[c].level for c in combo)
    actors = [c for c in combo if INFO[c].kind == "actor"]
    normals = [c for c in combo if INFO[c].ex_kind == "normal"]
    if level > limits["level"] or own + len(actors) > limits["actors"]:
        return False
    # Actors and EX normal cards are played on base squares; EX counters go elsewhere.
    return len(actors) + len(normals) <= free


def _combo_worth(combo: tuple[str, ...]) -> int:
    """A rough worth of playing a combination: strong, high-level actors count most."""
    actors = [c for c in combo if INFO[c].kind == "actor"]
    return sum(INFO[c].power + 2 * INFO[c].level for c in actors) + 3 * (len(combo) - len(actors))


def _place_combo(
    view: dict[str, Any], combo: tuple[str, ...], free: list[str], rng: random.Random
) -> list[dict] | None:
    """Where a combination's cards go: free base squares in turn, counters where enemies are.

    None when a counter has no square left to go on.
    """
    me = view["viewer"]
    squares = list(free)
    plays: list[dict] = []
    for cid in combo:
        info = INFO[cid]
        if info.ex_kind == "counter":
            taken = {p["square"] for p in plays}
            targets = [sq for sq in _counter_targets(view, info, me, rng) if sq not in taken]
            if not targets:
                return None
            plays.append({"card": cid, "square": targets[0]})
        else:
            plays.append({"card": cid, "square": squares.pop(0)})
    return plays


class PlannerBot:
    """Searches its own plans against sampled replies of the other seat.

    Each decision samples ``worlds`` fillings of the hidden cards and, in each, ``replies``
    plans for the other seat (random ones and an all-out advance). A plan's worth is the mean
    ``evaluate`` after resolving the turn against every sample. The search starts from "deploy
    the strongest cards, everyone forward" and improves one part at a time (the cards played,
    each actor's choice, the action order) until nothing improves or ``budget`` seconds pass.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: float = 1.0,
        worlds: int = 3,
        replies: int = 3,
        play_options: int = 8,
        sweeps: int = 2,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.worlds = worlds
        self.replies = replies
        self.play_cap = play_options
        self.sweeps = sweeps
        self.last_time = 0.0

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """Return the best plan action found for the viewing seat, or None if it has none."""
        if not _needs_plan(view):
            return None
        start = time.perf_counter()
        plan = self._search(view, start + self.budget)
        self.last_time = time.perf_counter() - start
        return {"type": "plan", "player": view["viewer"], "plan": plan}

    def _scenarios(self, view: dict[str, Any]) -> list[tuple[dict, dict]]:
        me = view["viewer"]
        opp = 1 - me
        scenarios = []
        for _ in range(self.worlds):
            world = determinize(view, self.rng)
            their_view = engine.player_view(world, opp)
            replies = [_advance_plan(their_view, self.rng)]
            replies += [engine.random_plan(their_view, self.rng) for _ in range(self.replies - 1)]
            for reply in replies:
                scenarios.append((world, engine.validate_plan(world, opp, reply)))
        return scenarios

    def _search(self, view: dict[str, Any], deadline: float) -> dict[str, Any]:
        me = view["viewer"]
        rng = self.rng
        scenarios = self._scenarios(view)
        world0 = scenarios[0][0]
        mine = sorted(
            (a for a in view["actors"] if a["owner"] == me),
            key=lambda a: -_progress(a["square"], me),
        )
        entry_options = [_entry_options(a) for a in mine]
        play_options = _play_options(view, rng, self.play_cap)
        cache: dict[str, float] = {}

        def worth(plays: list[dict], entries: list[dict]) -> float:
            plan = {"play": plays, "actors": [e for e in entries if e["do"] != "wait"]}
            key = repr(plan)
            if key in cache:
                return cache[key]
            try:
                plan = engine.validate_plan(world0, me, plan)
            except IllegalAction:
                cache[key] = float("-inf")
                return cache[key]
            total = 0.0
            for world, reply in scenarios:
                plans = [plan, reply] if me == 0 else [reply, plan]
                after = engine.resolve_turn(world, plans, narrate=False, checked=True)
                total += evaluate(after, me)
            cache[key] = total / len(scenarios)
            return cache[key]

        plays = play_options[0]
        entries = [_default_entry(options) for options in entry_options]
        best = worth(plays, entries)
        for _sweep in range(self.sweeps):
            improved = False
            for option in play_options:
                if time.perf_counter() > deadline:
                    break
                value = worth(option, entries)
                if value > best + 1e-9:
                    best, plays, improved = value, option, True
            for index, options in enumerate(entry_options):
                for option in options:
                    if time.perf_counter() > deadline:
                        break
                    trial = entries[:index] + [option] + entries[index + 1 :]
                    value = worth(plays, trial)
                    if value > best + 1e-9:
                        best, entries, improved = value, trial, True
            if len(entries) > 1 and time.perf_counter() < deadline:
                for order in (entries[::-1], entries[1:] + entries[:1]):
                    value = worth(plays, order)
                    if value > best + 1e-9:
                        best, entries, improved = value, order, True
            if not improved or time.perf_counter() > deadline:
                break
        return {"play": plays, "actors": [e for e in entries if e["do"] != "wait"]}


def _advance_plan(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An all-out plan: the strongest affordable actors deployed, everyone straight ahead."""
    me = view["viewer"]
    options = _play_options(view, rng, 2)
    entries = []
    for actor in view["actors"]:
        if actor["owner"] == me:
            entry = _default_entry(_entry_options(actor))
            if entry["do"] != "wait":
                entries.append(entry)
    return {"play": options[0], "actors": entries}


def computer_action(
    state: dict[str, Any], seat: int, *, level: str, seed: int
) -> dict[str, Any] | None:
    """The computer's next plan for ``seat`` at a table: "random", or the planner (0.8 s)."""
    player = RandomBot(seed) if level == "random" else PlannerBot(seed, budget=0.8)
    return player.choose(engine.player_view(state, seat))


def play_match(
    bots: list[Any], options: dict[str, Any] | None = None, seed: int = 0
) -> dict[str, Any]:
    """Play one match between two bots and return the final state."""
    state = engine.initial_state(options or {}, seed)
    while not engine.is_terminal(state):
        for seat in (0, 1):
            action = bots[seat].choose(engine.player_view(state, seat))
            if action is None:
                raise InvalidState(f"Bot of seat {seat} made no plan.")
            state = engine.apply(state, action)
    return state
