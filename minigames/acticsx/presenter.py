"""What the Actics X board shows one viewer, built from that seat's player view only, and
the plan its form sends."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from minigames.messages import reader_language, seat_name, translate
from minigames.models import Match

from .rules import cards as card_data
from .rules import engine
from .rules.state import NAME, VECTORS, XY

TEMPLATE = "minigames/acticsx_board.html"
DIRECTION_GRID = [["FL", "F", "FR"], ["L", None, "R"], ["BL", "B", "BR"]]
# A seat sees the board from its own side, so its actors' "forward" always points up.
ARROWS = {"F": "↑", "FR": "↗", "R": "→", "BR": "↘", "B": "↓", "BL": "↙", "L": "←", "FL": "↖"}
ACTION_MARK = "◆"


def rarity_name(rarity: str) -> str:
    """A rarity in the reader's language (the card data names it in English)."""
    names = {"Common": gettext("Common"), "Uncommon": gettext("Uncommon"), "Rare": gettext("Rare")}
    return names.get(rarity, rarity)


def card_info(card_id: str) -> dict[str, Any]:
    """A card's face in the current language: name, stats, range diagram and texts."""
    card = card_data.CARDS[card_id]
    language = reader_language()
    reach = card.get("range") or {}
    return {
        "id": card_id,
        "name": card["name"][language],
        "kind": card["kind"],
        "ex_kind": card.get("ex_kind"),
        "attribute": card["attribute"],
        "level": card["level"],
        "rarity": rarity_name(card["rarity"]),
        "power": card.get("power"),
        "type": (card.get("type") or {}).get(language, ""),
        "range_rows": [
            [
                {"direction": d, "reach": reach.get(d, 0) if d else None, "centre": d is None}
                for d in row
            ]
            for row in DIRECTION_GRID
        ]
        if reach
        else None,
        "texts": [text["text"][language] for text in card["texts"]],
        "awakening": ((card.get("awakening") or {}).get("text") or {}).get(language, ""),
    }


def _play_squares(card_id: str, seat: int, actors: list[dict]) -> list[str]:
    card = card_data.CARDS[card_id]
    label = engine.LABELS[seat]
    if card["kind"] == "ex" and card.get("ex_kind") == "counter":
        where = next(
            (t["params"].get("where") for t in card["texts"] if t["kind"] == "counter"), None
        )
        return engine.counter_squares(where, seat, actors) if where else []
    occupied = {a["square"] for a in actors}
    return [f"{label}{n}" for n in engine.BASE_NUMBERS if f"{label}{n}" not in occupied]


def move_target(square: str, owner: int, direction: str, distance: int) -> str:
    """The square an actor of ``owner`` on ``square`` aims at, moving ``distance`` that way."""
    (x, y), (dx, dy) = XY[square], VECTORS[owner][direction]
    return NAME.get((x + dx * distance, y + dy * distance), "")


def _actor_choices(actor: dict, language: str) -> list[dict[str, str]]:
    """The choices of an actor's plan; a move names the square it aims at, for the board."""
    choices = [{"value": "wait", "kind": "wait", "label": "", "target": "", "mark": ""}]
    for direction, longest in engine.move_options(actor):
        for distance in range(1, longest + 1):
            target = move_target(actor["square"], actor["owner"], direction, distance)
            choices.append(
                {
                    "value": f"move:{direction}:{distance}",
                    "kind": "move",
                    "label": f"{ARROWS[direction]}{distance} → {target}",
                    "target": target,
                    "mark": ARROWS[direction],
                }
            )
    for index, text in enumerate(card_data.CARDS[actor["card"]]["texts"]):
        if text["kind"] == "action":
            choices.append(
                {
                    "value": f"action:{index}",
                    "kind": "action",
                    "label": text["text"][language],
                    "target": "",
                    "mark": ACTION_MARK,
                }
            )
    return choices


def plan_marks(plan: dict[str, Any] | None, seat: int, language: str) -> dict[str, list]:
    """Where a seat's own plan shows on the board: per square, what happens there.

    Only ever given the viewer's own plan (the player view holds no other).
    """
    marks: dict[str, list[dict[str, Any]]] = {}
    if not plan:
        return marks
    for play in plan.get("play", []):
        marks.setdefault(play["square"], []).append(
            {"kind": "play", "text": card_data.CARDS[play["card"]]["name"][language]}
        )
    for order, entry in enumerate(plan.get("actors", []), start=1):
        square = entry["square"]
        if entry.get("do") == "move":
            target = move_target(square, seat, entry["direction"], entry.get("distance", 0))
            marks.setdefault(square, []).append(
                {
                    "kind": "from",
                    "order": order,
                    "text": ARROWS.get(entry["direction"], ""),
                    "to": target,
                }
            )
            marks.setdefault(target, []).append({"kind": "to", "order": order, "text": ""})
        else:
            marks.setdefault(square, []).append(
                {"kind": "action", "order": order, "text": ACTION_MARK}
            )
    return marks


def whole_number(text: Any, default: int) -> int:
    """A number typed in the form, or ``default`` for anything but plain digits.

    ``str.isdigit`` takes signs such as "²" that ``int`` refuses; a number too long to read
    is refused by ``int`` too.
    """
    text = str(text)
    if not (text.isascii() and text.isdecimal()):
        return default
    try:
        return int(text)
    except ValueError:
        return default


def _step_text(text: dict[str, Any], language: str) -> str:
    # Matches saved before narration became messages hold both languages' text.
    if "msg" not in text:
        return text[language]
    return translate(text)


def board_context(match: Match, user, *, params=None, refused=None) -> dict[str, Any]:
    """Return one viewer's Actics X board: never more than their view holds.

    ``refused`` is the planning form the engine just refused: its choices are shown again,
    so that the player mends the plan instead of making it over. A plan is chosen in one
    form, so ``params`` select nothing.
    """
    refused_plan = refused if refused is not None and refused.get("type") == "plan" else None
    seat = match.seat_of(user)
    state = engine.from_dict(match.state)
    view = engine.player_view(state, seat)
    language = reader_language()
    # An onlooker sees the board as seat A does.
    perspective = seat if seat is not None else 0
    players = view["players"]
    me = players[perspective]
    auto = bool(seat is not None and match.seats[seat].get("auto"))
    planning = _plans_now(view, seat, auto)
    # The seat's own confirmed plan, drawn while it waits; the view holds no one else's.
    marks = (
        plan_marks(me.get("plan"), seat, language)
        if seat is not None and view["phase"] == "planning"
        else {}
    )
    grid = _board_rows(view, perspective, marks, language)
    hand = [card_info(card_id) for card_id in (me.get("hand") or [])] if seat is not None else []
    actors = view.get("actors", [])
    kept = (refused_plan or {}) if planning else {}
    if planning:
        _offer_plays(hand, seat, actors, kept)
    own_actors = _own_actors(actors, seat, kept, language)
    resolution = view.get("last_resolution") or {}
    return {
        "match": match,
        "view": view,
        "seat": seat,
        "names": [seat_name(s) for s in match.seats],
        "grid": grid,
        "me": me,
        "opponent": players[1 - perspective],
        "my_name": seat_name(match.seats[perspective]),
        "opponent_name": seat_name(match.seats[1 - perspective]),
        "hand": hand,
        "planning": planning,
        "auto": auto,
        "own_actors": own_actors,
        "steps": [
            {"text": _step_text(step["text"], language), "square": step.get("square", "")}
            for step in resolution.get("steps", [])
        ],
        "resolution_turn": resolution.get("turn"),
        "discards": _discards(match, players),
        "result": view.get("result"),
    }


def _plans_now(view: dict[str, Any], seat: int | None, auto: bool) -> bool:
    """Whether the viewer fills in the planning form now."""
    # A seat on AUTO has handed its planning to the computer.
    return (
        seat is not None
        and view["phase"] == "planning"
        and not view["players"][seat]["confirmed"]
        and not auto
    )


def _board_rows(
    view: dict[str, Any], perspective: int, marks: dict[str, list], language: str
) -> list[list[dict[str, Any]]]:
    """The board's squares, top row first, as seen from ``perspective``'s side."""
    squares = {(sq["x"], sq["y"]): sq for sq in view["board"]}
    # Each seat has its own base row at the bottom: seat B sees the board turned round.
    ys = range(engine.ROWS - 1, -1, -1) if perspective == 0 else range(engine.ROWS)
    xs = range(engine.COLS) if perspective == 0 else range(engine.COLS - 1, -1, -1)
    return [[_board_square(squares[(x, y)], perspective, marks, language) for x in xs] for y in ys]


def _board_square(
    seen: dict[str, Any], perspective: int, marks: dict[str, list], language: str
) -> dict[str, Any]:
    """One square of the board: what the view shows there, the plan's marks, its actor."""
    square = dict(seen)
    square["marks"] = marks.get(square["square"], [])
    actor = square.get("actor")
    if actor:
        square["actor"] = {
            **actor,
            "name": card_data.CARDS[actor["card"]]["name"][language],
            "mine": actor["owner"] == perspective,
            "attribute": card_data.CARDS[actor["card"]]["attribute"],
        }
    return square


def _offer_plays(hand: list[dict], seat: int, actors: list[dict], kept: dict) -> None:
    """Give each card of a planning hand the squares it may be played on.

    A card the refused form played keeps the square it was played on.
    """
    for index, card in enumerate(hand):
        card["index"] = index
        card["squares"] = _play_squares(card["id"], seat, actors)
        if kept.get(f"card_{index}") == card["id"]:
            card["chosen_square"] = kept.get(f"play_{index}", "")


def _own_actors(
    actors: list[dict], seat: int | None, kept: dict, language: str
) -> list[dict[str, Any]]:
    """The viewing seat's actors with their plan choices, and what the refused form chose."""
    own = [
        {
            **a,
            "name": card_data.CARDS[a["card"]]["name"][language],
            "choices": _actor_choices(a, language),
            "chosen": kept.get(f"do_{a['square']}", ""),
            "order": kept.get(f"order_{a['square']}", ""),
        }
        for a in actors
        if seat is not None and a["owner"] == seat
    ]
    # A refused plan comes back in the order it was given.
    own.sort(key=lambda a: whole_number(a["order"], 99))
    return own


def _discards(match: Match, players: list[dict]) -> list[dict[str, Any]]:
    """Each seat's discard pile, face up, under the seat's name."""
    return [
        {
            "name": seat_name(match.seats[p["seat"]]),
            "cards": [card_info(c) for c in p["discard"]],
        }
        for p in players
    ]


def action_from_post(post) -> dict[str, Any]:
    """Read a move from the board's forms: a plan, or a move without choices (resign)."""
    kind = post.get("type", "")
    if kind == "plan":
        return {"type": "plan", "plan": plan_from_post(post)}
    return {"type": kind}


def plan_from_post(post) -> dict[str, Any]:
    """Turn the planning form into the engine's plan: cards to play, then actors in order."""
    play = []
    for key, square in post.items():
        if key.startswith("play_") and square:
            play.append({"card": post.get(f"card_{key[5:]}", ""), "square": square})
    entries = []
    for key, choice in post.items():
        if not key.startswith("do_") or not choice or choice == "wait":
            continue
        square = key[3:]
        order = whole_number(post.get(f"order_{square}", ""), 99)
        kind, _, rest = choice.partition(":")
        if kind == "move":
            direction, _, distance = rest.partition(":")
            entry = {"square": square, "do": "move", "direction": direction}
            entry["distance"] = whole_number(distance, 0)
        elif kind == "action":
            entry = {"square": square, "do": "action", "text": whole_number(rest, -1)}
        else:
            continue
        entries.append((order, square, entry))
    entries.sort(key=lambda item: (item[0], item[1]))
    return {"play": play, "actors": [entry for _order, _square, entry in entries]}
