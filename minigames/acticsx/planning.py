"""Actics X: the planning phase. What a plan may hold, and plans to choose from.

A plan is checked as a whole against the board and hand it was made for; the reason for
refusing one names the card, square or limit it breaks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from minigames.acticsx.state import (
    BASES,
    COLS,
    DIR_WORDS,
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
from minigames.game import IllegalAction


def _name_list(cards: list[CardInfo]) -> str:
    names = [info.name for info in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _name_list_ja(cards: list[CardInfo]) -> str:
    return "、".join(info.ja for info in cards)


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
    "own_normal": ("one of your squares 1–8", "自分の1–8のマス"),
    "any_normal": ("a square 1–8 of either side", "どちらかの側の1–8のマス"),
    "own_actor": ("a square with one of your actors", "自分のアクターがいるマス"),
    "enemy_actor": ("a square with an enemy actor", "敵のアクターがいるマス"),
}


def validate_plan(state: dict[str, Any], player: int, plan: Any) -> dict[str, Any]:
    """Check a whole plan for ``player``; return it normalised or raise IllegalAction."""
    opts = state["options"]
    label = LABELS[player]
    if not isinstance(plan, dict):
        raise IllegalAction(
            "A plan must be an object with 'play' and 'actors' lists.",
            ja="プランは 'play' と 'actors' のリストを持つオブジェクトです。",
        )
    extra = set(plan) - {"play", "actors"}
    if extra:
        raise IllegalAction(
            f"A plan has only 'play' and 'actors'; not {', '.join(sorted(extra))}.",
            ja=f"プランにあるのは 'play' と 'actors' だけです"
            f"（{', '.join(sorted(extra))} は不可）。",
        )
    plays = plan.get("play", [])
    entries = plan.get("actors", [])
    if not isinstance(plays, list) or not isinstance(entries, list):
        raise IllegalAction(
            "A plan's 'play' and 'actors' must be lists.",
            ja="プランの 'play' と 'actors' はリストです。",
        )
    seat = state["players"][player]
    board = {a["square"]: a for a in state["actors"]}
    mine = [a for a in state["actors"] if a["owner"] == player]
    hand = Counter(seat["hand"])
    used: Counter[str] = Counter()
    squares: set[str] = set()
    level = 0
    deployed: list[CardInfo] = []
    played: list[CardInfo] = []
    out_plays = []
    for play in plays:
        if not isinstance(play, dict) or set(play) != {"card", "square"}:
            raise IllegalAction(
                "Each card played needs exactly 'card' and 'square'.",
                ja="出すカードには 'card' と 'square' だけを指定します。",
            )
        cid, square = play["card"], play["square"]
        if not isinstance(cid, str) or cid not in INFO:
            raise IllegalAction(f"There is no card {cid!r}.", ja=f"カード {cid!r} はありません。")
        info = INFO[cid]
        used[cid] += 1
        if used[cid] > hand[cid]:
            if hand[cid]:
                raise IllegalAction(
                    f"You have only {hand[cid]} {info.name} in hand.",
                    ja=f"手札の{info.ja}は{hand[cid]}枚だけです。",
                )
            raise IllegalAction(
                f"{info.name} is not in your hand.", ja=f"{info.ja}は手札にありません。"
            )
        if not isinstance(square, str) or square not in XY:
            raise IllegalAction(
                f"{square!r} is not a square; squares are A1–A12 and B1–B12.",
                ja=f"{square!r} はマスではありません（マスは A1–A12 と B1–B12）。",
            )
        if square in squares:
            raise IllegalAction(
                f"Two cards are planned for {square}; a square holds one card.",
                ja=f"{square}に2枚のカードが予定されています。1マスに置けるのは1枚です。",
            )
        squares.add(square)
        if info.kind == "actor" or info.ex_kind == "normal":
            # The seed once writes A9–A11 for deployment, but its own definition of the base
            # (拠点) and its step ③ (9 → 12) cover four squares, so any of 9–12 is allowed.
            if square not in BASES[player]:
                what = "Actors are deployed" if info.kind == "actor" else "EX normal cards go"
                what_ja = "アクター" if info.kind == "actor" else "EXノーマルカード"
                raise IllegalAction(
                    f"{what} on your own base squares ({label}9–{label}12); not {square}.",
                    ja=f"{what_ja}は自分の拠点（{label}9–{label}12）に出します。{square}は不可。",
                )
            if square in board:
                raise IllegalAction(
                    f"{square} already holds an actor; {info.name} needs an empty square.",
                    ja=f"{square}にはすでにアクターがいます。{info.ja}は空きマスに出します。",
                )
            if info.kind == "actor":
                deployed.append(info)
        else:
            where = info.counter[1]["where"]
            if square not in counter_squares(where, player, state["actors"]):
                where_en, where_ja = _WHERE_WORDS[where]
                raise IllegalAction(
                    f"{info.name} must be played on {where_en}; {square} is not one.",
                    ja=f"{info.ja}は{where_ja}に出します。{square}は不可。",
                )
        level += info.level
        played.append(info)
        out_plays.append({"card": cid, "square": square})
    if level > opts["level_limit"]:
        verb = "Deploying" if len(deployed) == len(played) else "Playing"
        raise IllegalAction(
            f"{verb} {_name_list(played)} costs level {level}; the limit is {opts['level_limit']}.",
            ja=f"{_name_list_ja(played)}のレベルは合計{level}です。上限は{opts['level_limit']}。",
        )
    if deployed and len(mine) + len(deployed) > opts["max_actors"]:
        raise IllegalAction(
            f"Deploying {_name_list(deployed)} would put {len(mine) + len(deployed)} of your "
            f"actors on the board; the limit is {opts['max_actors']}.",
            ja=f"{_name_list_ja(deployed)}を出すと場の自分のアクターが"
            f"{len(mine) + len(deployed)}体になります。上限は{opts['max_actors']}体。",
        )
    out_entries = []
    planned: set[str] = set()
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalAction(
                "Each actor's plan must be an object.",
                ja="アクターごとのプランはオブジェクトです。",
            )
        square = entry.get("square")
        actor = board.get(square) if isinstance(square, str) else None
        if actor is None or actor["owner"] != player:
            raise IllegalAction(
                f"There is no actor of yours on {square}.",
                ja=f"{square}に自分のアクターはいません。",
            )
        if square in planned:
            raise IllegalAction(
                f"The actor on {square} is planned twice.",
                ja=f"{square}のアクターのプランが2つあります。",
            )
        planned.add(square)
        info = INFO[actor["card"]]
        do = entry.get("do")
        if do == "wait":
            if set(entry) != {"square", "do"}:
                raise IllegalAction(
                    "A wait takes only 'square' and 'do'.",
                    ja="待機に指定するのは 'square' と 'do' だけです。",
                )
            out_entries.append({"square": square, "do": "wait"})
        elif do == "move":
            if set(entry) != {"square", "do", "direction", "distance"}:
                raise IllegalAction(
                    "A move needs 'square', 'do', 'direction' and 'distance'.",
                    ja="移動には 'square'、'do'、'direction'、'distance' を指定します。",
                )
            direction, distance = entry["direction"], entry["distance"]
            if direction not in DIRECTIONS:
                raise IllegalAction(
                    f"Unknown direction {direction!r}; use one of {', '.join(DIRECTIONS)}.",
                    ja=f"方向 {direction!r} はありません。{', '.join(DIRECTIONS)} のどれかです。",
                )
            if isinstance(distance, bool) or not isinstance(distance, int) or distance < 1:
                raise IllegalAction(
                    "A move's distance must be a whole number of at least 1.",
                    ja="移動距離は1以上の整数です。",
                )
            reach = actor_range(actor["card"], actor["awake"])[direction]
            word, word_ja = DIR_WORDS[direction]
            if distance > reach:
                raise IllegalAction(
                    f"{info.name} on {square} can move at most {reach} {word} ({direction}), "
                    f"not {distance}.",
                    ja=f"{square}の{info.ja}が{word_ja}（{direction}）へ動けるのは{reach}マスまで"
                    f"です（{distance}マスは不可）。",
                )
            if not _path_ok(XY[square], player, direction, distance):
                raise IllegalAction(
                    f"{info.name} on {square} moving {distance} {word} ({direction}) would "
                    "leave the board.",
                    ja=f"{square}の{info.ja}が{word_ja}（{direction}）へ{distance}マス動くと"
                    "盤の外に出ます。",
                )
            out_entries.append(
                {"square": square, "do": "move", "direction": direction, "distance": distance}
            )
        elif do == "action":
            if not info.actions:
                raise IllegalAction(
                    f"{info.name} has no action text.",
                    ja=f"{info.ja}にはアクションのテキストがありません。",
                )
            extra_keys = set(entry) - {"square", "do", "text"}
            if extra_keys:
                raise IllegalAction(
                    "An action takes only 'square', 'do' and 'text'.",
                    ja="アクションに指定するのは 'square'、'do'、'text' だけです。",
                )
            index = entry.get("text", next(iter(info.actions)))
            if isinstance(index, bool) or index not in info.actions:
                raise IllegalAction(
                    f"Text {index!r} of {info.name} is not an action.",
                    ja=f"{info.ja}のテキスト {index!r} はアクションではありません。",
                )
            out_entries.append({"square": square, "do": "action", "text": index})
        else:
            raise IllegalAction(
                f"Plan 'move', 'action' or 'wait' for the actor on {square}.",
                ja=f"{square}のアクターには 'move'、'action'、'wait' のどれかを予定します。",
            )
    return {"play": out_plays, "actors": out_entries}


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
