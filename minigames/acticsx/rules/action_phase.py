"""Actics X: the action phase, once both plans are in.

Step 1 rests the actors that wait; step 2 reveals the EX counters; step 3 deploys actors and
plays EX normal cards base square by base square; step 4 runs the actors' plans in action
order, both sides' same number together (fast actions, then moves, then slow actions).
The turn then ends, or the match does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from minigames.acticsx.rules.cards import card_term, card_text_term
from minigames.acticsx.rules.movement import run_moves
from minigames.acticsx.rules.state import BASE_NUMBERS, INFO, ORDER, XY, side_label, square_number
from minigames.acticsx.rules.table import Table
from minigames.game import message


class _Placed(NamedTuple):
    """A card put down in step 3, with the texts it runs: an actor deployed or an EX normal."""

    player: int
    xy: tuple[int, int]
    card: str
    uid: int | None  # the deployed actor's; None for an EX normal card
    texts: list


def resolve(state: dict[str, Any], *, narrate: bool = True) -> None:
    """Run the action phase of the turn in place, both plans being in the state."""
    table = Table(state, narrate=narrate)
    turn = state["turn"]
    plans = [seat["plan"] for seat in state["players"]]
    table.say("phase", message("Turn %(turn)d: the action phase begins.", turn=turn))
    # Cards played this turn leave the hand now, before any draw could discard them at random.
    for seat, plan in zip(state["players"], plans, strict=True):
        for play in plan["play"]:
            seat["hand"].remove(play["card"])
    acting = [_rest_waiting_actors(table, player, plans[player]) for player in (0, 1)]
    _reveal_counters(table, plans)
    for number in BASE_NUMBERS:
        _place_base_number(table, plans, number)
    _run_actors(table, acting)
    _close_turn(table)
    table.close()
    state["last_resolution"] = {"turn": turn, "steps": table.steps or []}


def _rest_waiting_actors(table: Table, player: int, plan: dict) -> list[tuple[dict, dict]]:
    """Step 1 for one side: rest the actors planned to wait (or given no plan).

    Return the other actors with their plan entries, in the order the plan gives them.
    """
    planned = {e["square"]: e for e in plan["actors"]}
    order = {e["square"]: i for i, e in enumerate(plan["actors"])}
    acting = []
    for actor in sorted(table.actors_of(player), key=lambda a: ORDER[a["square"]]):
        entry = planned.get(actor["square"])
        if entry is None or entry["do"] == "wait":
            actor["rest"] = True
            table.say(
                "rest",
                message(
                    "%(actor)s on %(square)s waits and rests.",
                    actor=table.who(actor),
                    square=actor["square"],
                ),
                uid=actor["uid"],
                square=actor["square"],
            )
        else:
            acting.append((actor, entry))
    acting.sort(key=lambda pair: order[pair[0]["square"]])
    return acting


def _reveal_counters(table: Table, plans: list[dict]) -> None:
    """Step 2: both sides' EX counters are revealed together."""
    # Reveal texts all read the same board: none applies before every one has run.
    answers = []
    for player in (0, 1):
        for play in plans[player]["play"]:
            if INFO[play["card"]].ex_kind == "counter":
                answers.extend(_reveal_counter(table, player, play))
    for ops in answers:
        table.apply_ops(ops)


def _reveal_counter(table: Table, player: int, play: dict) -> list:
    """Set one EX counter on the board; return its reveal text's ops (none without one)."""
    xy = XY[play["square"]]
    table.counters.append({"owner": player, "card": play["card"], "xy": xy, "used": False})
    eff, params, index = INFO[play["card"]].counter
    table.say(
        "reveal",
        message(
            "%(side)s reveals %(card)s on %(square)s: %(text)s",
            side=side_label(player),
            card=card_term(play["card"]),
            square=play["square"],
            text=card_text_term(play["card"], index),
        ),
        player=player,
        card=play["card"],
        square=play["square"],
    )
    if eff.run is None:
        return []
    src = {"owner": player, "xy": xy, "card": play["card"], "uid": None}
    return [eff.run(table, src, params)]


def _place_base_number(table: Table, plans: list[dict], number: int) -> None:
    """Step 3 for one base square number: both sides' deployments and EX normal cards."""
    placed = []
    for player in (0, 1):
        for play in plans[player]["play"]:
            info = INFO[play["card"]]
            if info.ex_kind == "counter" or square_number(play["square"]) != number:
                continue
            if info.kind == "actor":
                placed.append(_deploy(table, player, play))
            else:
                placed.append(_play_normal(table, player, play))
    _run_placed_texts(table, placed)
    # An EX normal card is spent once its texts have run.
    for card in placed:
        if card.uid is None:
            table.s["players"][card.player]["discard"].append(card.card)


def _deploy(table: Table, player: int, play: dict) -> _Placed:
    """Put a new actor on the board for an actor card played."""
    state = table.s
    xy = XY[play["square"]]
    actor = {
        "uid": state["next_uid"],
        "owner": player,
        "card": play["card"],
        "square": play["square"],
        "awake": False,
        # Deployed this turn: at Rest until the next (digest decision).
        "rest": True,
        "buff": 0,
    }
    state["next_uid"] += 1
    state["actors"].append(actor)
    table.place(actor, xy)
    table.say(
        "deploy",
        message(
            "%(side)s deploys %(card)s on %(square)s.",
            side=side_label(player),
            card=card_term(play["card"]),
            square=play["square"],
        ),
        player=player,
        card=play["card"],
        square=play["square"],
        uid=actor["uid"],
    )
    return _Placed(player, xy, play["card"], actor["uid"], INFO[play["card"]].deploy)


def _play_normal(table: Table, player: int, play: dict) -> _Placed:
    """Announce an EX normal card played; its texts run with the deployments of its number."""
    xy = XY[play["square"]]
    table.say(
        "ex",
        message(
            "%(side)s plays %(card)s on %(square)s.",
            side=side_label(player),
            card=card_term(play["card"]),
            square=play["square"],
        ),
        player=player,
        card=play["card"],
        square=play["square"],
    )
    return _Placed(player, xy, play["card"], None, INFO[play["card"]].normal)


def _run_placed_texts(table: Table, placed: list[_Placed]) -> None:
    """Run the deploy and EX normal texts of the cards put down on one base number."""
    # Both sides' texts read the same board: none applies before every one has run.
    answers = []
    for card in placed:
        for eff, params, index in card.texts:
            if card.uid is not None:
                table.say(
                    "deploy_text",
                    message(
                        "%(actor)s's deploy text: %(text)s",
                        actor=table.who(table.find(card.uid)),
                        text=card_text_term(card.card, index),
                    ),
                    uid=card.uid,
                )
            src = {"owner": card.player, "xy": card.xy, "card": card.card, "uid": card.uid}
            answers.append(eff.run(table, src, params))
    for ops in answers:
        table.apply_ops(ops)


def _run_actors(table: Table, acting: list[list[tuple[dict, dict]]]) -> None:
    """Step 4: actors by action order, the same number on both sides together."""
    for index in range(max(len(acting[0]), len(acting[1]))):
        pair = [acting[p][index] for p in (0, 1) if index < len(acting[p])]
        _run_pair(table, pair)
        # A side out of life ends the match: no later action runs.
        if table.lost():
            break


def _close_turn(table: Table) -> None:
    """Clear the turn's counters and plans; then end the match on life, or end the turn."""
    state = table.s
    # Counters are discarded when the turn ends (digest decision).
    for counter in table.counters:
        state["players"][counter["owner"]]["discard"].append(counter["card"])
    for seat in state["players"]:
        seat["plan"] = None
    if table.lost():
        lives = [p["life"] for p in state["players"]]
        if lives[0] <= 0 and lives[1] <= 0:
            finish(table, None, "both_zero")
        else:
            finish(table, 0 if lives[1] <= 0 else 1, "life")
    else:
        _end_turn(table)


def _run_pair(table: Table, pair: list[tuple[dict, dict]]) -> None:
    """One action number: speed-2 actions, then moves, then speed-1 actions."""

    def ready(actor: dict, entry: dict, do: str, speed: int | None = None) -> bool:
        if not table.alive(actor) or actor["uid"] in table.cancelled or entry["do"] != do:
            return False
        return speed is None or INFO[actor["card"]].actions[entry["text"]][2] == speed

    fast = [(a, e) for a, e in pair if ready(a, e, "action", 2)]
    if fast:
        _run_actions(table, fast)
    moves = [(a, e) for a, e in pair if ready(a, e, "move")]
    if moves and not table.lost():
        run_moves(table, moves)
    slow = [(a, e) for a, e in pair if ready(a, e, "action", 1)]
    if slow and not table.lost():
        _run_actions(table, slow)
    for actor, _entry in pair:
        actor["rest"] = True


def finish(table: Table, winner: int | None, reason: str) -> None:
    state = table.s
    state["phase"] = "over"
    state["result"] = {
        "winner": winner,
        "reason": reason,
        "lives": [p["life"] for p in state["players"]],
    }
    for seat in state["players"]:
        seat["plan"] = None
    if winner is None:
        text = message("The match is a draw.")
    else:
        text = message("%(side)s wins.", side=side_label(winner))
    table.say("result", text, winner=winner, reason=reason)


def _end_turn(table: Table) -> None:
    state = table.s
    for actor in state["actors"]:
        actor["buff"] = 0
        actor["rest"] = False
    limit = state["options"]["turn_limit"]
    if limit is not None and state["turn"] >= limit:
        lives = [p["life"] for p in state["players"]]
        winner = None if lives[0] == lives[1] else (0 if lives[0] > lives[1] else 1)
        finish(table, winner, "turn_limit")
        return
    state["turn"] += 1
    turn = state["turn"]
    table.say("turn", message("Turn %(turn)d: planning phase.", turn=turn), turn=turn)
    for player in (0, 1):
        table.draw(player, 1)


def _run_actions(table: Table, entries: list[tuple[dict, dict]]) -> None:
    """Run actions of the same speed together: all read the board before any applies."""
    answers = []
    for actor, entry in entries:
        eff, params, _speed, index = INFO[actor["card"]].actions[entry["text"]]
        table.say(
            "action",
            message(
                "%(actor)s on %(square)s acts: %(text)s",
                actor=table.who(actor),
                square=actor["square"],
                text=card_text_term(actor["card"], index),
            ),
            uid=actor["uid"],
            square=actor["square"],
        )
        src = {
            "owner": actor["owner"],
            "xy": table.xys[actor["uid"]],
            "card": actor["card"],
            "uid": actor["uid"],
        }
        answers.append(eff.run(table, src, params))
    for ops in answers:
        table.apply_ops(ops)
