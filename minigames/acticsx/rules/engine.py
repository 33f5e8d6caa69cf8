"""Actics X (アクティクス・クロス): the rules engine, pure Python.

Implements the interface of ``minigames.game`` over a plain JSON-serialisable dict. The rules
are those of ``shared/rules/actics-x.md`` (digest of seed 002); where this code follows a
reading of its own the comment says so.

Board. 4 columns × 6 rows; ``(x, y)`` with x = 0..3 from A's left and y = 0..5 from A's back
row. Each half has squares 1–12 numbered from the centre line outward, left to right as its
owner sees them, so A9–A12 (y = 0) and B9–B12 (y = 5) are the bases; A9 is at x = 0 and
B9 at x = 3 (the board is the same seen from either chair). Seat 0 is A, seat 1 is B.
Directions are relative to the actor's owner: F (toward the enemy), FR, R, BR, B, BL, L, FL.

Actions (``apply``):

- ``{"type": "plan", "player": p, "plan": PLAN}`` — a whole turn's plan, secret until both
  seats have confirmed; the second plan makes the action phase run at once.
- ``{"type": "resign", "player": p}`` — allowed any time before the end.

``PLAN = {"play": [{"card": ID, "square": "A9"}, ...], "actors": [ENTRY, ...]}`` where the
``actors`` list is the action order (1, 2, … skipping waits) and an ENTRY is
``{"square": "A6", "do": "move", "direction": "F", "distance": 2}``,
``{"square": "A6", "do": "action", "text": INDEX}`` (index into the card's ``texts``) or
``{"square": "A6", "do": "wait"}``. Own actors left out wait. A plan is accepted or refused
as a whole, with the reason in the ``IllegalAction`` message.

After a resolution ``state["last_resolution"] = {"turn": n, "steps": [...]}``: each step has
a ``kind``, data for animation and a public ``text``, a message (see ``minigames.game``).

The rules are spread along their own seams: ``state`` (board, card facts, options, the
stored form), ``planning`` (what a plan may hold), ``table`` (the working copy the action
phase changes), ``action_phase`` (its steps), ``movement`` and ``battles``. This module is
the interface of ``minigames.game`` and the names callers use.
"""

from __future__ import annotations

from typing import Any

from minigames.acticsx.rules.action_phase import finish, resolve
from minigames.acticsx.rules.planning import (
    counter_squares,
    legal_actions,
    move_options,
    random_plan,
    validate_plan,
)
from minigames.acticsx.rules.state import (
    BASE_NUMBERS,
    BASES,
    COLS,
    DEFAULT_OPTIONS,
    DIRECTIONS,
    GAME,
    INFO,
    LABELS,
    NAME,
    ROWS,
    SQUARES,
    VECTORS,
    VERSION,
    XY,
    actor_range,
    copy_log,
    copy_plan,
    copy_state,
    deep_copy,
    load,
    merged_options,
    new_state,
    side_label,
    square_number,
    square_side,
)
from minigames.acticsx.rules.table import Table
from minigames.game import IllegalAction, InvalidState, message

__all__ = [
    "BASE_NUMBERS",
    "BASES",
    "COLS",
    "DEFAULT_OPTIONS",
    "DIRECTIONS",
    "GAME",
    "INFO",
    "LABELS",
    "NAME",
    "ROWS",
    "SQUARES",
    "VECTORS",
    "VERSION",
    "XY",
    "actor_range",
    "apply",
    "counter_squares",
    "from_dict",
    "has_started",
    "initial_state",
    "is_terminal",
    "legal_actions",
    "move_options",
    "player_view",
    "random_plan",
    "resolve_turn",
    "result",
    "square_number",
    "square_side",
    "to_dict",
    "validate_plan",
    "winner",
]


def initial_state(options: dict[str, Any] | None, seed: int) -> dict[str, Any]:
    """Return a new match: shuffled decks, opening hands, turn 1's draw, planning phase."""
    opts = merged_options(options)
    state = new_state(opts, seed)
    table = Table(state, narrate=False)
    for seat in (0, 1):
        table.draw(seat, opts["hand_size"])
    for seat in (0, 1):
        table.draw(seat, 1)
    table.close()
    return state


def _check_player(player: Any) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise IllegalAction("The player must be 0 (A) or 1 (B).")
    return player


def apply(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """Return the state after ``action``; the input is never changed. Raise IllegalAction."""
    if not isinstance(action, dict):
        raise IllegalAction(
            "An action must be an object with a 'type'.",
        )
    kind = action.get("type")
    if kind not in ("plan", "resign"):
        raise IllegalAction(
            "Unknown action type %(type)s; use 'plan' or 'resign'.", type=repr(kind)
        )
    player = _check_player(action.get("player"))
    if state["phase"] == "over":
        raise IllegalAction("The match is over.")
    if kind == "resign":
        if set(action) != {"type", "player"}:
            raise IllegalAction(
                "A resignation takes only 'type' and 'player'.",
            )
        new = copy_state(state)
        table = Table(new, narrate=True)
        table.say(
            "resign",
            message("%(side)s resigns.", side=side_label(player)),
            player=player,
        )
        finish(table, 1 - player, "resign")
        table.close()
        new["last_resolution"] = {"turn": new["turn"], "steps": table.steps or []}
        return new
    if set(action) != {"type", "player", "plan"}:
        raise IllegalAction(
            "A plan action takes only 'type', 'player' and 'plan'.",
        )
    if state["players"][player]["plan"] is not None:
        raise IllegalAction(
            "%(side)s has already confirmed a plan for this turn.", side=side_label(player)
        )
    plan = validate_plan(state, player, action["plan"])
    other = state["players"][1 - player]["plan"]
    new = copy_state(state, log=other is None)
    new["players"][player]["plan"] = plan
    if other is not None:
        resolve(new)
    return new


def resolve_turn(
    state: dict[str, Any], plans: list[Any], *, narrate: bool = True, checked: bool = False
) -> dict[str, Any]:
    """Return the state after both seats' ``plans`` for this turn (a shortcut for bots).

    Equivalent to applying the two plan actions. ``narrate=False`` skips writing the steps,
    which is all a search needs; ``checked=True`` trusts that both plans came out of
    ``validate_plan`` for this very board and hand (a search re-using its checked plans).
    """
    if state["phase"] == "over":
        raise IllegalAction("The match is over.")
    for player in (0, 1):
        if state["players"][player]["plan"] is not None:
            raise IllegalAction(
                "%(side)s has already confirmed a plan for this turn.", side=side_label(player)
            )
    if not checked:
        plans = [validate_plan(state, p, plans[p]) for p in (0, 1)]
    new = copy_state(state, log=False)
    for player in (0, 1):
        new["players"][player]["plan"] = plans[player]
    resolve(new, narrate=narrate)
    return new


def has_started(state: dict[str, Any]) -> bool:
    """Return whether play is under way: always, as a match begins with turn 1's planning."""
    return True


def is_terminal(state: dict[str, Any]) -> bool:
    """Return whether the match is over."""
    return state["phase"] == "over"


def winner(state: dict[str, Any]) -> int | None:
    """Return the winning seat, or None for a draw or a match still going."""
    return state["result"]["winner"] if state["phase"] == "over" else None


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """Return {"winner", "reason", "lives"} once the match is over, else None.

    Reasons: "life" (a player reached 0), "both_zero" (both together: a draw),
    "turn_limit" (more life wins, equal is a draw) and "resign".
    """
    return deep_copy(state["result"]) if state["phase"] == "over" else None


def _view_actor(table: Table, actor: dict) -> dict[str, Any]:
    return {
        "uid": actor["uid"],
        "owner": actor["owner"],
        "card": actor["card"],
        "square": actor["square"],
        "power": table.power(actor),
        "base_power": INFO[actor["card"]].power,
        "awake": actor["awake"],
        "rest": actor["rest"],
        "buff": actor["buff"],
        "range": dict(actor_range(actor["card"], actor["awake"])),
    }


def player_view(state: dict[str, Any], player: int | None) -> dict[str, Any]:
    """Return what seat ``player`` (or a spectator, None) may see, JSON-serialisable.

    Own hand, own plan and own deck list: yes. The other seat's hand: its size only; its
    plan: only whether it is confirmed (face-down counters are inside it). Deck order:
    nobody. Discard piles, lives, the board and the last resolution's steps: everyone.
    """
    if player not in (0, 1, None) or isinstance(player, bool):
        raise ValueError("player must be 0, 1 or None")
    table = Table(state, narrate=False)
    actors = [_view_actor(table, a) for a in state["actors"]]
    by_square = {a["square"]: a for a in actors}
    opts = state["options"]
    players = []
    for seat_no, seat in enumerate(state["players"]):
        entry: dict[str, Any] = {
            "seat": seat_no,
            "label": LABELS[seat_no],
            "life": seat["life"],
            "hand_count": len(seat["hand"]),
            "deck_count": len(seat["deck"]),
            "discard": list(seat["discard"]),
            "confirmed": seat["plan"] is not None,
            "deck_name": opts["deck_names"][seat_no],
        }
        if seat_no == player:
            entry["hand"] = list(seat["hand"])
            entry["plan"] = copy_plan(seat["plan"])
            entry["deck_list"] = sorted(opts["decks"][seat_no])
        players.append(entry)
    board = []
    for name in SQUARES:
        x, y = XY[name]
        board.append(
            {
                "square": name,
                "x": x,
                "y": y,
                "side": square_side(name),
                "number": square_number(name),
                "base": square_number(name) >= 9,
                "actor": by_square.get(name),
            }
        )
    return {
        "game": GAME,
        "viewer": player,
        "turn": state["turn"],
        "turn_limit": opts["turn_limit"],
        "phase": state["phase"],
        "limits": {
            "level": opts["level_limit"],
            "actors": opts["max_actors"],
            "hand": opts["hand_limit"],
        },
        "options": {k: deep_copy(v) for k, v in opts.items() if k != "decks"},
        "players": players,
        "board": board,
        "actors": actors,
        "last_resolution": copy_log(state["last_resolution"]),
        "result": deep_copy(state["result"]),
    }


def to_dict(state: dict[str, Any]) -> dict[str, Any]:
    """Return the whole state as plain JSON types (RNG state included)."""
    return copy_state(state)


def from_dict(data: dict[str, Any]) -> dict[str, Any]:
    """Check stored data and return it as a state; raise InvalidState when it is not one."""
    try:
        state = load(data)
        _check_stored_plans(state)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise InvalidState(f"Not an Actics X state: {exc!r}") from exc
    return state


def _check_stored_plans(state: dict[str, Any]) -> None:
    for seat_no, seat in enumerate(state["players"]):
        if seat["plan"] is not None:
            try:
                normal = validate_plan(state, seat_no, seat["plan"])
            except IllegalAction as exc:
                raise InvalidState(
                    f"{side_label(seat_no)}'s stored plan is illegal: {exc}"
                ) from exc
            if normal != seat["plan"]:
                raise InvalidState(f"{side_label(seat_no)}'s stored plan is not in normal form.")
