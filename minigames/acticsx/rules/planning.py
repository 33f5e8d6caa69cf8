"""Actics X: the planning phase. What a plan may hold, and plans to choose from.

A plan is checked as a whole against the board and hand it was made for; the reason for
refusing one names the card, square or limit it breaks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from minigames.acticsx.rules.cards import card_term
from minigames.acticsx.rules.state import (
    BASES,
    COLS,
    DIRECTION_WORDS,
    DIRECTIONS,
    INFO,
    LABELS,
    ORDER,
    ROWS,
    VECTORS,
    XY,
    CardInfo,
    actor_range,
)
from minigames.game import IllegalAction, message


def _path_ok(xy: tuple[int, int], owner: int, direction: str, distance: int) -> bool:
    dx, dy = VECTORS[owner][direction]
    x, y = xy[0] + dx * distance, xy[1] + dy * distance
    return 0 <= x < COLS and 0 <= y < ROWS


def move_options(actor: dict[str, Any]) -> list[tuple[str, int]]:
    """Return (direction, longest distance) an actor may plan, for each usable direction.

    ``actor`` needs ``card``, ``owner``, ``square`` and ``awake`` (a state's or a view's actor).
    """
    reach = actor_range(actor["card"], actor["awake"])
    xy = XY[actor["square"]]
    options = []
    for direction in DIRECTIONS:
        longest = 0
        for distance in range(1, reach[direction] + 1):
            if not _path_ok(xy, actor["owner"], direction, distance):
                break
            longest = distance
        if longest:
            options.append((direction, longest))
    return options


def counter_squares(where: str, player: int, actors: Iterable[dict[str, Any]]) -> list[str]:
    """Return the squares a counter with placement rule ``where`` may be played on."""
    label = LABELS[player]
    if where == "own_normal":
        return [f"{label}{n}" for n in range(1, 9)]
    if where == "any_normal":
        return [f"{side}{n}" for side in LABELS for n in range(1, 9)]
    if where == "own_actor":
        return sorted(a["square"] for a in actors if a["owner"] == player)
    return sorted(a["square"] for a in actors if a["owner"] != player)


_WHERE_WORDS = {
    "own_normal": message("one of your squares 1–8"),
    "any_normal": message("a square 1–8 of either side"),
    "own_actor": message("a square with one of your actors"),
    "enemy_actor": message("a square with an enemy actor"),
}


def validate_plan(state: dict[str, Any], player: int, plan: Any) -> dict[str, Any]:
    """Check a whole plan for ``player``; return it normalised or raise IllegalAction.

    The plays are checked one by one in the order given, then the limits they share, then
    the actors' orders one by one: that order decides which reason a plan with several
    faults is refused for, so it is part of the rules' behaviour.
    """
    opts = state["options"]
    label = LABELS[player]
    plays, entries = _plan_lists(plan)
    seat = state["players"][player]
    board = {a["square"]: a for a in state["actors"]}
    mine = [a for a in state["actors"] if a["owner"] == player]
    out_plays, played, deployed = _checked_plays(state, player, label, seat["hand"], board, plays)
    _check_play_limits(opts, played, deployed, len(mine))
    out_entries = _checked_orders(board, player, entries)
    return {"play": out_plays, "actors": out_entries}


def _plan_lists(plan: Any) -> tuple[list, list]:
    """Return a plan's card plays and actor orders; either may be left out, meaning none."""
    if not isinstance(plan, dict):
        raise IllegalAction("A plan must be an object with 'play' and 'actors' lists.")
    extra = set(plan) - {"play", "actors"}
    if extra:
        raise IllegalAction(
            "A plan has only 'play' and 'actors'; not %(keys)s.", keys=", ".join(sorted(extra))
        )
    plays = plan.get("play", [])
    entries = plan.get("actors", [])
    if not isinstance(plays, list) or not isinstance(entries, list):
        raise IllegalAction("A plan's 'play' and 'actors' must be lists.")
    return plays, entries


def _checked_plays(
    state: dict[str, Any],
    player: int,
    label: str,
    hand_cards: list[str],
    board: dict[str, dict[str, Any]],
    plays: list,
) -> tuple[list[dict[str, str]], list[CardInfo], list[CardInfo]]:
    """Check each card play on its own; return them normalised, the cards and the actors.

    What the plays must respect together (the level limit, the actor limit) is left to
    ``_check_play_limits``, which needs all of them.
    """
    hand = Counter(hand_cards)
    used: Counter[str] = Counter()
    squares: set[str] = set()
    deployed: list[CardInfo] = []
    played: list[CardInfo] = []
    out_plays = []
    for play in plays:
        if not isinstance(play, dict) or set(play) != {"card", "square"}:
            raise IllegalAction("Each card played needs exactly 'card' and 'square'.")
        cid, square = play["card"], play["square"]
        if not isinstance(cid, str) or cid not in INFO:
            raise IllegalAction("There is no card %(card)s.", card=repr(cid))
        info = INFO[cid]
        used[cid] += 1
        _check_in_hand(cid, used[cid], hand[cid])
        _check_square_unplanned(square, squares)
        squares.add(square)
        if info.kind == "actor" or info.ex_kind == "normal":
            _check_base_square(info, square, player, label, board)
            if info.kind == "actor":
                deployed.append(info)
        else:
            _check_counter_square(info, square, player, state["actors"])
        played.append(info)
        out_plays.append({"card": cid, "square": square})
    return out_plays, played, deployed


def _check_in_hand(cid: str, wanted: int, held: int) -> None:
    """``wanted`` counts this play and the plays of the same card before it."""
    if wanted > held:
        if held:
            raise IllegalAction(
                "You have only %(count)d %(card)s in hand.",
                count=held,
                card=card_term(cid),
            )
        raise IllegalAction("%(card)s is not in your hand.", card=card_term(cid))


def _check_square_unplanned(square: Any, squares: set[str]) -> None:
    """``square`` must name a square, and not one an earlier play of the plan went to."""
    if not isinstance(square, str) or square not in XY:
        raise IllegalAction(
            "%(square)s is not a square; squares are A1–A12 and B1–B12.", square=repr(square)
        )
    if square in squares:
        raise IllegalAction(
            "Two cards are planned for %(square)s; a square holds one card.", square=square
        )


def _check_base_square(
    info: CardInfo, square: str, player: int, label: str, board: dict[str, dict[str, Any]]
) -> None:
    """Actors and EX normal cards go on an empty square of the player's own base."""
    # The seed once writes A9–A11 for deployment, but its own definition of the base
    # (拠点) and its step ③ (9 → 12) cover four squares, so any of 9–12 is allowed.
    if square not in BASES[player] and info.kind == "actor":
        raise IllegalAction(
            "Actors are deployed on your own base squares (%(side)s9–%(side)s12); not %(square)s.",
            side=label,
            square=square,
        )
    if square not in BASES[player]:
        raise IllegalAction(
            "EX normal cards go on your own base squares (%(side)s9–%(side)s12); not %(square)s.",
            side=label,
            square=square,
        )
    if square in board:
        raise IllegalAction(
            "%(square)s already holds an actor; %(card)s needs an empty square.",
            square=square,
            card=card_term(info.id),
        )


def _check_counter_square(
    info: CardInfo, square: str, player: int, actors: Iterable[dict[str, Any]]
) -> None:
    """A counter goes where its own placement rule allows (see ``counter_squares``)."""
    where = info.counter[1]["where"]
    if square not in counter_squares(where, player, actors):
        raise IllegalAction(
            "%(card)s must be played on %(where)s; %(square)s is not one.",
            card=card_term(info.id),
            where=_WHERE_WORDS[where],
            square=square,
        )


def _check_play_limits(
    opts: dict[str, Any], played: list[CardInfo], deployed: list[CardInfo], on_board: int
) -> None:
    """The limits the plays share: their total level, and the actors on the board after."""
    level = sum(info.level for info in played)
    # When every card is an actor, the refusal speaks of deploying rather than playing.
    if level > opts["level_limit"] and len(deployed) == len(played):
        raise IllegalAction(
            "Deploying %(cards)s costs level %(level)d; the limit is %(limit)d.",
            cards=[card_term(info.id) for info in played],
            level=level,
            limit=opts["level_limit"],
        )
    if level > opts["level_limit"]:
        raise IllegalAction(
            "Playing %(cards)s costs level %(level)d; the limit is %(limit)d.",
            cards=[card_term(info.id) for info in played],
            level=level,
            limit=opts["level_limit"],
        )
    if deployed and on_board + len(deployed) > opts["max_actors"]:
        raise IllegalAction(
            "Deploying %(cards)s would put %(count)d of your actors on the board; "
            "the limit is %(limit)d.",
            cards=[card_term(info.id) for info in deployed],
            count=on_board + len(deployed),
            limit=opts["max_actors"],
        )


def _checked_orders(board: dict[str, dict[str, Any]], player: int, entries: list) -> list[dict]:
    """Check each actor's order (at most one per actor); return them normalised."""
    out_entries = []
    planned: set[str] = set()
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalAction("Each actor's plan must be an object.")
        square = entry.get("square")
        actor = board.get(square) if isinstance(square, str) else None
        if actor is None or actor["owner"] != player:
            raise IllegalAction("There is no actor of yours on %(square)s.", square=str(square))
        if square in planned:
            raise IllegalAction("The actor on %(square)s is planned twice.", square=square)
        planned.add(square)
        out_entries.append(_checked_order(entry, square, actor, player))
    return out_entries


def _checked_order(
    entry: dict[str, Any], square: str, actor: dict[str, Any], player: int
) -> dict[str, Any]:
    """Check one order by what it tells the actor to do; return it normalised."""
    do = entry.get("do")
    if do == "wait":
        if set(entry) != {"square", "do"}:
            raise IllegalAction("A wait takes only 'square' and 'do'.")
        return {"square": square, "do": "wait"}
    if do == "move":
        return _checked_move(entry, square, actor, player)
    if do == "action":
        return _checked_action(entry, square, actor)
    raise IllegalAction(
        "Plan 'move', 'action' or 'wait' for the actor on %(square)s.", square=square
    )


def _checked_move(
    entry: dict[str, Any], square: str, actor: dict[str, Any], player: int
) -> dict[str, Any]:
    """A move must be within the actor's range that way, and end on the board."""
    if set(entry) != {"square", "do", "direction", "distance"}:
        raise IllegalAction("A move needs 'square', 'do', 'direction' and 'distance'.")
    direction, distance = entry["direction"], entry["distance"]
    if direction not in DIRECTIONS:
        raise IllegalAction(
            "Unknown direction %(direction)s; use one of %(directions)s.",
            direction=repr(direction),
            directions=", ".join(DIRECTIONS),
        )
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 1:
        raise IllegalAction("A move's distance must be a whole number of at least 1.")
    reach = actor_range(actor["card"], actor["awake"])[direction]
    if distance > reach:
        raise IllegalAction(
            "%(card)s on %(square)s can move at most %(reach)d %(word)s (%(direction)s), "
            "not %(distance)d.",
            card=card_term(actor["card"]),
            square=square,
            reach=reach,
            word=DIRECTION_WORDS[direction],
            direction=direction,
            distance=distance,
        )
    if not _path_ok(XY[square], player, direction, distance):
        raise IllegalAction(
            "%(card)s on %(square)s moving %(distance)d %(word)s (%(direction)s) would "
            "leave the board.",
            card=card_term(actor["card"]),
            square=square,
            distance=distance,
            word=DIRECTION_WORDS[direction],
            direction=direction,
        )
    return {"square": square, "do": "move", "direction": direction, "distance": distance}


def _checked_action(entry: dict[str, Any], square: str, actor: dict[str, Any]) -> dict[str, Any]:
    """An action names one of the card's action texts; without ``text``, its first one."""
    info = INFO[actor["card"]]
    if not info.actions:
        raise IllegalAction("%(card)s has no action text.", card=card_term(actor["card"]))
    extra_keys = set(entry) - {"square", "do", "text"}
    if extra_keys:
        raise IllegalAction("An action takes only 'square', 'do' and 'text'.")
    index = entry.get("text", next(iter(info.actions)))
    if isinstance(index, bool) or index not in info.actions:
        raise IllegalAction(
            "Text %(index)s of %(card)s is not an action.",
            index=repr(index),
            card=card_term(actor["card"]),
        )
    return {"square": square, "do": "action", "text": index}


def legal_actions(state: dict[str, Any], player: int) -> list[dict[str, Any]]:
    """Return a representative list of legal plans for ``player`` (plans are combinatorial).

    The list holds: wait-all; every single move (each direction and distance) and every
    action of each own actor with the others waiting; every single card play on each square
    it may go to; and all actors moving forward as far as they can. Resignation is always
    legal and not listed. Empty when the match is over or the seat has already confirmed.
    Use ``random_plan`` for whole random plans.
    """
    if state["phase"] == "over" or state["players"][player]["plan"] is not None:
        return []
    plans: list[dict] = [{"play": [], "actors": []}]
    mine = sorted(
        (a for a in state["actors"] if a["owner"] == player),
        key=lambda a: ORDER[a["square"]],
    )
    forward = []
    for actor in mine:
        for direction, longest in move_options(actor):
            for distance in range(1, longest + 1):
                entry = {
                    "square": actor["square"],
                    "do": "move",
                    "direction": direction,
                    "distance": distance,
                }
                plans.append({"play": [], "actors": [entry]})
                if direction == "F" and distance == longest:
                    forward.append(entry)
        for index in INFO[actor["card"]].actions:
            entry = {"square": actor["square"], "do": "action", "text": index}
            plans.append({"play": [], "actors": [entry]})
    if len(forward) > 1:
        plans.append({"play": [], "actors": forward})
    limit = state["options"]["level_limit"]
    room = len(mine) < state["options"]["max_actors"]
    for cid in sorted(set(state["players"][player]["hand"])):
        info = INFO[cid]
        if info.level > limit or (info.kind == "actor" and not room):
            continue
        for square in _play_squares(info, player, state["actors"]):
            plans.append({"play": [{"card": cid, "square": square}], "actors": []})
    return [{"type": "plan", "player": player, "plan": plan} for plan in plans]


def _play_squares(info: CardInfo, player: int, actors: Iterable[dict[str, Any]]) -> list[str]:
    actors = list(actors)
    if info.ex_kind == "counter":
        return counter_squares(info.counter[1]["where"], player, actors)
    taken = {a["square"] for a in actors}
    return [sq for sq in BASES[player] if sq not in taken]


def random_plan(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Return a random legal plan built only from ``player_view(state, seat)`` of that seat."""
    me = view["viewer"]
    seat = view["players"][me]
    limits = view["limits"]
    actors = view["actors"]
    mine = [a for a in actors if a["owner"] == me]
    budget = limits["level"]
    count = len(mine)
    used: set[str] = set()
    play = []
    hand = list(seat["hand"])
    rng.shuffle(hand)
    for cid in hand:
        info = INFO[cid]
        if info.level > budget or rng.random() < 0.4:
            continue
        if info.kind == "actor" and count >= limits["actors"]:
            continue
        options = [sq for sq in _play_squares(info, me, actors) if sq not in used]
        if not options:
            continue
        square = rng.choice(options)
        used.add(square)
        budget -= info.level
        count += info.kind == "actor"
        play.append({"card": cid, "square": square})
    entries = []
    for actor in mine:
        roll = rng.random()
        actions = list(INFO[actor["card"]].actions)
        moves = move_options(actor)
        if roll < 0.15 or (not moves and not actions):
            entries.append({"square": actor["square"], "do": "wait"})
        elif actions and (roll < 0.4 or not moves):
            text = rng.choice(actions)
            entries.append({"square": actor["square"], "do": "action", "text": text})
        else:
            direction, longest = rng.choice(moves)
            distance = rng.randint(1, longest)
            entries.append(
                {
                    "square": actor["square"],
                    "do": "move",
                    "direction": direction,
                    "distance": distance,
                }
            )
    rng.shuffle(entries)
    return {"play": play, "actors": entries}
