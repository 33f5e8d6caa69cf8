"""Actics X: the board, the cards' facts, the options and the state as stored.

Everything here describes a state or copies and checks one; nothing changes a game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from minigames.acticsx.rules import cards as card_data
from minigames.acticsx.rules import effects
from minigames.game import InvalidState, message

GAME = "acticsx"
VERSION = 1
COLS, ROWS = 4, 6
LABELS = ("A", "B")
DIRECTIONS = card_data.DIRECTIONS
BASE_NUMBERS = (9, 10, 11, 12)

_VEC_A = {
    "F": (0, 1),
    "FR": (1, 1),
    "R": (1, 0),
    "BR": (1, -1),
    "B": (0, -1),
    "BL": (-1, -1),
    "L": (-1, 0),
    "FL": (-1, 1),
}
# B sits across the table, so every direction of B is A's turned half a circle.
VECTORS = (_VEC_A, {d: (-dx, -dy) for d, (dx, dy) in _VEC_A.items()})

# How narration and refusals name a direction and an attribute (message ids, see game.py).
DIRECTION_WORDS = {
    "F": message("forward"),
    "FR": message("forward-right"),
    "R": message("right"),
    "BR": message("back-right"),
    "B": message("back"),
    "BL": message("back-left"),
    "L": message("left"),
    "FL": message("forward-left"),
}
ATTRIBUTE_WORDS = {"water": message("water"), "fire": message("fire"), "wood": message("wood")}
BEATS = {"water": "fire", "fire": "wood", "wood": "water"}

DEFAULT_OPTIONS: dict[str, Any] = {
    "life": 3,
    "hand_size": 5,
    "hand_limit": 8,
    "level_limit": 3,
    "max_actors": 4,
    # Seed 002 ends a match only when a life reaches 0: a turn limit is the match's option.
    "turn_limit": None,
    "deck_size": card_data.DECK_SIZE,
    "max_copies": card_data.MAX_COPIES,
    "decks": ["tide_grove", "ember_steel"],
}
_INT_OPTIONS = {
    "life": (1, 20),
    "hand_size": (0, 20),
    "hand_limit": (1, 30),
    "level_limit": (1, 12),
    "max_actors": (1, 12),
    "turn_limit": (1, 500),
    "deck_size": (1, 60),
    "max_copies": (1, 60),
}

# Options that may be None: no limit at all.
_NONE_MEANS_NO_LIMIT = frozenset({"turn_limit"})

_MASK = (1 << 64) - 1


def _square_name(x: int, y: int) -> str:
    if y < 3:
        return f"A{(2 - y) * 4 + x + 1}"
    return f"B{(y - 3) * 4 + (3 - x) + 1}"


XY = {_square_name(x, y): (x, y) for x in range(COLS) for y in range(ROWS)}
NAME = {xy: name for name, xy in XY.items()}
SQUARES = tuple(sorted(XY, key=lambda n: (n[0], int(n[1:]))))
ORDER = {name: i for i, name in enumerate(SQUARES)}
# The squares where an actor of each seat scores: the other seat's base.
GOAL = (
    frozenset(XY[f"B{n}"] for n in BASE_NUMBERS),
    frozenset(XY[f"A{n}"] for n in BASE_NUMBERS),
)
BASES = tuple(tuple(f"{LABELS[p]}{n}" for n in BASE_NUMBERS) for p in (0, 1))


def square_number(name: str) -> int:
    """Return the 1–12 number of a square name such as "B10"."""
    return int(name[1:])


def square_side(name: str) -> int:
    """Return the seat (0 for A, 1 for B) whose half holds the square."""
    return 0 if name[0] == "A" else 1


# -- random numbers -------------------------------------------------------------------------


class Rng:
    """SplitMix64: tiny, fast, and its whole state is one integer that fits in the JSON."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next64() % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def rng_text(rng: Rng) -> str:
    return f"{rng.state:016x}"


# -- card facts, precomputed ---------------------------------------------------------------


class CardInfo:
    """What the engine needs of one card, looked up once instead of on every power check."""

    __slots__ = (
        "id",
        "kind",
        "ex_kind",
        "level",
        "attribute",
        "power",
        "range",
        "awake_power",
        "awake_range",
        "jump",
        "power_traits",
        "battle_traits",
        "aura_traits",
        "deploy",
        "trigger",
        "actions",
        "normal",
        "counter",
    )

    def __init__(self, card: dict[str, Any]) -> None:
        self.id = card["id"]
        self.kind = card["kind"]
        self.ex_kind = card["ex_kind"]
        self.level = card["level"]
        self.attribute = card["attribute"]
        self.power = card["power"] or 0
        self.range = dict(card["range"] or {})
        awakening = card["awakening"] or {"power": 0, "range": {}}
        self.awake_power = awakening["power"]
        self.awake_range = {
            d: self.range.get(d, 0) + awakening["range"].get(d, 0) for d in DIRECTIONS
        }
        self.jump = False
        self.power_traits: list = []
        self.battle_traits: list = []
        self.aura_traits: list = []
        self.deploy: list = []
        self.trigger: list = []
        self.actions: dict[int, tuple] = {}
        self.normal: list = []
        self.counter: tuple | None = None
        for index, text in enumerate(card["texts"]):
            eff = effects.get(text["effect"])
            params = text["params"]
            kind = text["kind"]
            if kind == "jump":
                self.jump = self.jump or eff.jump
            elif kind == "trait":
                if eff.power:
                    self.power_traits.append((eff.power, params))
                if eff.battle:
                    self.battle_traits.append((eff.battle, params))
                if eff.aura:
                    self.aura_traits.append((eff.aura, params))
            # Texts that run keep their index: narration names a text by card and index.
            elif kind == "deploy":
                self.deploy.append((eff, params, index))
            elif kind == "trigger":
                self.trigger.append((eff, params, index))
            elif kind == "action":
                self.actions[index] = (eff, params, text["speed"], index)
            elif kind == "normal":
                self.normal.append((eff, params, index))
            elif kind == "counter":
                self.counter = (eff, params, index)


INFO: dict[str, CardInfo] = {cid: CardInfo(card) for cid, card in card_data.CARDS.items()}


def actor_range(card_id: str, awake: bool) -> dict[str, int]:
    """Return how far an actor of this card may move in each direction."""
    info = INFO[card_id]
    return info.awake_range if awake else info.range


def side_label(player: int) -> str:
    return LABELS[player]


# -- options and set-up --------------------------------------------------------------------


def merged_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Merge match options over the defaults and check them; return the full option set."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidState("Match options must be an object.")
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise InvalidState(f"Unknown match options: {', '.join(sorted(unknown))}.")
    merged = {**DEFAULT_OPTIONS, **options}
    for key, (low, high) in _INT_OPTIONS.items():
        value = merged[key]
        if value is None and key in _NONE_MEANS_NO_LIMIT:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidState(f"Option {key} must be a whole number from {low} to {high}.")
    decks = merged["decks"]
    if not isinstance(decks, list) or len(decks) != 2:
        raise InvalidState("Option decks must name or list two decks, one for each seat.")
    lists = []
    for seat, deck in enumerate(decks):
        if isinstance(deck, str):
            if deck not in card_data.DECKS:
                known = ", ".join(card_data.DECKS)
                raise InvalidState(f"There is no ready-made deck {deck!r}; try {known}.")
            ids = card_data.deck_list(deck)
        elif isinstance(deck, list):
            ids = list(deck)
        else:
            raise InvalidState("Each deck must be a deck name or a list of card ids.")
        reasons = card_data.validate_deck(
            ids, size=merged["deck_size"], max_copies=merged["max_copies"]
        )
        if reasons:
            raise InvalidState(f"Deck of {side_label(seat)}: " + " ".join(reasons))
        lists.append(ids)
    merged["deck_names"] = [d if isinstance(d, str) else None for d in decks]
    merged["decks"] = lists
    return merged


def new_state(opts: dict[str, Any], seed: int) -> dict[str, Any]:
    """Return turn 1 before anyone draws: shuffled decks, full lives, an empty board."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidState("The seed must be a whole number.")
    rng = Rng(seed)
    players = []
    for seat in (0, 1):
        deck = list(opts["decks"][seat])
        rng.shuffle(deck)
        players.append(
            {"life": opts["life"], "deck": deck, "hand": [], "discard": [], "plan": None}
        )
    return {
        "game": GAME,
        "version": VERSION,
        "options": opts,
        "seed": seed,
        "rng": rng_text(rng),
        "turn": 1,
        "phase": "planning",
        "players": players,
        "actors": [],
        "next_uid": 1,
        "last_resolution": None,
        "result": None,
    }


# -- copying -------------------------------------------------------------------------------


def copy_plan(plan: dict | None) -> dict | None:
    if plan is None:
        return None
    return {"play": [dict(p) for p in plan["play"]], "actors": [dict(e) for e in plan["actors"]]}


def deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [deep_copy(v) for v in value]
    return value


def copy_log(log: dict[str, Any] | None) -> dict[str, Any] | None:
    """Copy a resolution log; steps hold scalars and at most one level of lists or dicts.

    A step's message is nested deeper, but nothing ever changes a message once it is made,
    so the copies share what lies below its first level.
    """
    if log is None:
        return None
    return {
        "turn": log["turn"],
        "steps": [
            {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in step.items()}
            for step in log["steps"]
        ],
    }


def copy_state(state: dict[str, Any], *, log: bool = True) -> dict[str, Any]:
    """Copy a state; ``log=False`` leaves the old resolution log out (about to be replaced)."""
    new = dict(state)
    opts = state["options"]
    new["options"] = {
        **opts,
        "decks": [list(d) for d in opts["decks"]],
        "deck_names": list(opts["deck_names"]),
    }
    new["players"] = [
        {
            "life": p["life"],
            "deck": list(p["deck"]),
            "hand": list(p["hand"]),
            "discard": list(p["discard"]),
            "plan": copy_plan(p["plan"]),
        }
        for p in state["players"]
    ]
    new["actors"] = [dict(a) for a in state["actors"]]
    new["last_resolution"] = copy_log(state["last_resolution"]) if log else None
    new["result"] = deep_copy(state["result"])
    return new


_STATE_KEYS = {
    "game",
    "version",
    "options",
    "seed",
    "rng",
    "turn",
    "phase",
    "players",
    "actors",
    "next_uid",
    "last_resolution",
    "result",
}
_ACTOR_KEYS = {"uid", "owner", "card", "square", "awake", "rest", "buff"}


def _whole(value: Any, low: int | None = None, high: int | None = None) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def load(data: Any) -> dict[str, Any]:
    """Check stored data's shape and contents; return a copy, or raise InvalidState.

    The checks run section by section, each trusting what the ones before it established
    (the options before the limits they set, the seats before the cards they hold), so the
    first thing wrong is the one reported.
    """
    _check_header(data)
    opts = data["options"]
    checked = _checked_options(opts)
    _check_counters(data, opts)
    players = data["players"]
    _check_seats(players, opts)
    actors = data["actors"]
    _check_actors(actors, opts, data["next_uid"])
    _check_cards_add_up(players, actors, checked["decks"])
    _check_result(data["phase"], data["result"], players)
    _check_log(data["last_resolution"])
    state = deep_copy(data)
    state["options"]["decks"] = checked["decks"]
    if all(seat["plan"] is not None for seat in players):
        raise InvalidState("Both plans are confirmed but the turn was not resolved.")
    # Whether a stored plan is legal is the planning rules' question: engine.from_dict asks.
    return state


def _check_header(data: Any) -> None:
    """The top-level keys, and that the data is an Actics X state this code can read."""
    if not isinstance(data, dict) or set(data) != _STATE_KEYS:
        raise InvalidState("An Actics X state needs exactly: " + ", ".join(sorted(_STATE_KEYS)))
    if data["game"] != GAME or data["version"] != VERSION:
        raise InvalidState(f"Not an Actics X state of version {VERSION}.")


def _checked_options(opts: Any) -> dict[str, Any]:
    """Check the stored options as new match options would be; return them with deck lists.

    ``deck_names`` is what the decks were made from, so it has to agree with the lists.
    """
    if not isinstance(opts, dict) or set(opts) != set(DEFAULT_OPTIONS) | {"deck_names"}:
        raise InvalidState("The options are incomplete or have unknown keys.")
    checked = merged_options({k: v for k, v in opts.items() if k != "deck_names"})
    names = opts["deck_names"]
    if not isinstance(names, list) or len(names) != 2:
        raise InvalidState("deck_names must list two entries.")
    for name, ids in zip(names, checked["decks"], strict=True):
        if name is not None and (
            name not in card_data.DECKS or card_data.deck_list(name) != sorted(ids)
        ):
            raise InvalidState(f"deck_names says {name!r} but the deck differs.")
    return checked


def _check_counters(data: dict[str, Any], opts: dict[str, Any]) -> None:
    """The match's scalars: seed, random state, turn, phase and the next actor id."""
    if not _whole(data["seed"]):
        raise InvalidState("seed must be a whole number.")
    rng = data["rng"]
    if not isinstance(rng, str) or len(rng) != 16 or any(c not in "0123456789abcdef" for c in rng):
        raise InvalidState("rng must be 16 lower-case hex digits.")
    if not _whole(data["turn"], 1, opts["turn_limit"]):
        raise InvalidState("turn is out of range.")
    if data["phase"] not in ("planning", "over"):
        raise InvalidState("phase must be 'planning' or 'over'.")
    if not _whole(data["next_uid"], 1):
        raise InvalidState("next_uid must be a positive whole number.")


def _check_seats(players: Any, opts: dict[str, Any]) -> None:
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidState("players must list two seats.")
    for seat in players:
        _check_seat(seat, opts)


def _check_seat(seat: Any, opts: dict[str, Any]) -> None:
    """One seat's life and card zones; its plan is left to the planning rules."""
    if not isinstance(seat, dict) or set(seat) != {"life", "deck", "hand", "discard", "plan"}:
        raise InvalidState("Each seat needs exactly life, deck, hand, discard and plan.")
    if not _whole(seat["life"], 0, opts["life"]):
        raise InvalidState("A life total is out of range.")
    for zone in ("deck", "hand", "discard"):
        if not isinstance(seat[zone], list) or not all(
            isinstance(c, str) and c in INFO for c in seat[zone]
        ):
            raise InvalidState(f"A {zone} holds something that is not a card id.")
    if len(seat["hand"]) > opts["hand_limit"]:
        raise InvalidState("A hand is over the hand limit.")


def _check_actors(actors: Any, opts: dict[str, Any], next_uid: int) -> None:
    """Each actor on its own, then what they must respect together: squares, ids, counts."""
    if not isinstance(actors, list):
        raise InvalidState("actors must be a list.")
    squares: set[str] = set()
    uids: set[int] = set()
    counts = [0, 0]
    for actor in actors:
        _check_actor(actor, squares, uids, next_uid)
        squares.add(actor["square"])
        uids.add(actor["uid"])
        counts[actor["owner"]] += 1
    if max(counts) > opts["max_actors"]:
        raise InvalidState("A side has more actors than allowed.")


def _check_actor(actor: Any, squares: set[str], uids: set[int], next_uid: int) -> None:
    """One actor; ``squares`` and ``uids`` are those of the actors checked before it."""
    if not isinstance(actor, dict) or set(actor) != _ACTOR_KEYS:
        raise InvalidState("Each actor needs exactly: " + ", ".join(sorted(_ACTOR_KEYS)))
    if actor["owner"] not in (0, 1) or isinstance(actor["owner"], bool):
        raise InvalidState("An actor's owner must be 0 or 1.")
    if actor["card"] not in INFO or INFO[actor["card"]].kind != "actor":
        raise InvalidState(f"{actor['card']!r} is not an actor card.")
    if actor["square"] not in XY or actor["square"] in squares:
        raise InvalidState(f"Actor square {actor['square']!r} is not a free square.")
    if not _whole(actor["uid"], 1, next_uid - 1) or actor["uid"] in uids:
        raise InvalidState("Actor ids must be unique and below next_uid.")
    if not isinstance(actor["awake"], bool) or not isinstance(actor["rest"], bool):
        raise InvalidState("awake and rest must be true or false.")
    if not _whole(actor["buff"], -99, 99):
        raise InvalidState("buff must be a whole number.")
    if square_number(actor["square"]) >= 9 and square_side(actor["square"]) != actor["owner"]:
        raise InvalidState("An actor cannot stand in the enemy base.")


def _check_cards_add_up(players: list, actors: list, decks: list[list[str]]) -> None:
    """No card appears or vanishes: each seat's zones and actors are exactly its deck."""
    for seat_no, seat in enumerate(players):
        held = seat["deck"] + seat["hand"] + seat["discard"]
        held += [a["card"] for a in actors if a["owner"] == seat_no]
        if Counter(held) != Counter(decks[seat_no]):
            raise InvalidState(f"{side_label(seat_no)}'s cards do not add up to the deck.")


def _check_result(phase: str, result_: Any, players: list) -> None:
    """A result exactly when the match is over, and then no plan still waiting."""
    if phase == "over":
        if not isinstance(result_, dict) or set(result_) != {"winner", "reason", "lives"}:
            raise InvalidState("A finished match needs a result with winner, reason and lives.")
        if result_["winner"] not in (0, 1, None) or result_["reason"] not in (
            "life",
            "both_zero",
            "turn_limit",
            "resign",
        ):
            raise InvalidState("The result is malformed.")
        if any(seat["plan"] is not None for seat in players):
            raise InvalidState("A finished match has no pending plans.")
    elif result_ is not None:
        raise InvalidState("A match in progress has no result.")


def _check_log(log: Any) -> None:
    """Only its shape: the log is the last turn's narration, shown to the players, and no
    rule reads it back."""
    if log is not None and (
        not isinstance(log, dict)
        or set(log) != {"turn", "steps"}
        or not isinstance(log["steps"], list)
        or not all(isinstance(s, dict) and "kind" in s and "text" in s for s in log["steps"])
    ):
        raise InvalidState("last_resolution must be {turn, steps}.")
