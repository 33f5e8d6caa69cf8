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
a ``kind``, data for animation and a public ``text`` {"en", "ja"}.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from minigames.acticsx import cards as card_data
from minigames.acticsx import effects
from minigames.game import IllegalAction, InvalidState

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

_DIR_WORDS = {
    "F": ("forward", "前方"),
    "FR": ("forward-right", "右前方"),
    "R": ("right", "右"),
    "BR": ("back-right", "右後方"),
    "B": ("back", "後方"),
    "BL": ("back-left", "左後方"),
    "L": ("left", "左"),
    "FL": ("forward-left", "左前方"),
}
_ATTR_JA = {"water": "水", "fire": "火", "wood": "木", "none": "無"}
_BEATS = {"water": "fire", "fire": "wood", "wood": "water"}

DEFAULT_OPTIONS: dict[str, Any] = {
    "life": 3,
    "hand_size": 5,
    "hand_limit": 8,
    "level_limit": 3,
    "max_actors": 4,
    "turn_limit": 20,
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
    "turn_limit": (1, 200),
    "deck_size": (1, 60),
    "max_copies": (1, 60),
}

_MASK = (1 << 64) - 1


def _square_name(x: int, y: int) -> str:
    if y < 3:
        return f"A{(2 - y) * 4 + x + 1}"
    return f"B{(y - 3) * 4 + (3 - x) + 1}"


XY = {_square_name(x, y): (x, y) for x in range(COLS) for y in range(ROWS)}
NAME = {xy: name for name, xy in XY.items()}
SQUARES = tuple(sorted(XY, key=lambda n: (n[0], int(n[1:]))))
_ORDER = {name: i for i, name in enumerate(SQUARES)}
# The squares where an actor of each seat scores: the other seat's base.
_GOAL = (
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


class _Rng:
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


def _rng_text(rng: _Rng) -> str:
    return f"{rng.state:016x}"


# -- card facts, precomputed ---------------------------------------------------------------


class _Info:
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
        "name",
        "ja",
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
        self.name = card["name"]["en"]
        self.ja = card["name"]["ja"]
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
            elif kind == "deploy":
                self.deploy.append((eff, params, text))
            elif kind == "trigger":
                self.trigger.append((eff, params, text))
            elif kind == "action":
                self.actions[index] = (eff, params, text["speed"], text)
            elif kind == "normal":
                self.normal.append((eff, params, text))
            elif kind == "counter":
                self.counter = (eff, params, text)


INFO: dict[str, _Info] = {cid: _Info(card) for cid, card in card_data.CARDS.items()}


def actor_range(card_id: str, awake: bool) -> dict[str, int]:
    """Return how far an actor of this card may move in each direction."""
    info = INFO[card_id]
    return info.awake_range if awake else info.range


def _label(player: int) -> str:
    return LABELS[player]


# -- options and set-up --------------------------------------------------------------------


def _options(options: dict[str, Any] | None) -> dict[str, Any]:
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
            raise InvalidState(f"Deck of {_label(seat)}: " + " ".join(reasons))
        lists.append(ids)
    merged["deck_names"] = [d if isinstance(d, str) else None for d in decks]
    merged["decks"] = lists
    return merged


def initial_state(options: dict[str, Any] | None, seed: int) -> dict[str, Any]:
    """Return a new match: shuffled decks, opening hands, turn 1's draw, planning phase."""
    opts = _options(options)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidState("The seed must be a whole number.")
    rng = _Rng(seed)
    players = []
    for seat in (0, 1):
        deck = list(opts["decks"][seat])
        rng.shuffle(deck)
        players.append(
            {"life": opts["life"], "deck": deck, "hand": [], "discard": [], "plan": None}
        )
    state = {
        "game": GAME,
        "version": VERSION,
        "options": opts,
        "seed": seed,
        "rng": _rng_text(rng),
        "turn": 1,
        "phase": "planning",
        "players": players,
        "actors": [],
        "next_uid": 1,
        "last_resolution": None,
        "result": None,
    }
    table = _Table(state, narrate=False)
    for seat in (0, 1):
        table.draw(seat, opts["hand_size"])
    for seat in (0, 1):
        table.draw(seat, 1)
    table.close()
    return state


# -- copying -------------------------------------------------------------------------------


def _copy_plan(plan: dict | None) -> dict | None:
    if plan is None:
        return None
    return {"play": [dict(p) for p in plan["play"]], "actors": [dict(e) for e in plan["actors"]]}


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def _copy_log(log: dict[str, Any] | None) -> dict[str, Any] | None:
    """Copy a resolution log; steps hold scalars and at most one level of lists or dicts."""
    if log is None:
        return None
    return {
        "turn": log["turn"],
        "steps": [
            {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in step.items()}
            for step in log["steps"]
        ],
    }


def _copy_state(state: dict[str, Any], *, log: bool = True) -> dict[str, Any]:
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
            "plan": _copy_plan(p["plan"]),
        }
        for p in state["players"]
    ]
    new["actors"] = [dict(a) for a in state["actors"]]
    new["last_resolution"] = _copy_log(state["last_resolution"]) if log else None
    new["result"] = _deep(state["result"])
    return new


# -- the table: a working copy being resolved, and the context effects read ------------------


class _Mover:
    __slots__ = ("a", "owner", "dx", "dy", "left", "jump", "pos", "air", "ground", "active", "nxt")

    def __init__(self, actor: dict, pos: tuple[int, int], d: str, distance: int) -> None:
        self.a = actor
        self.owner = actor["owner"]
        self.dx, self.dy = VECTORS[self.owner][d]
        self.left = distance
        self.jump = INFO[actor["card"]].jump
        self.pos = pos
        self.air = False
        self.ground = [pos]
        self.active = True
        self.nxt = pos

    def hopping(self) -> bool:
        """Whether the coming step is a Jump over whatever is there (not the last step)."""
        return self.jump and self.left > 1


class _Table:
    """A mutable working copy of a state while the engine changes it."""

    def __init__(self, state: dict[str, Any], *, narrate: bool) -> None:
        self.s = state
        self.opts = state["options"]
        self.rng = _Rng(int(state["rng"], 16))
        self.grid: dict[tuple[int, int], dict] = {}
        self.xys: dict[int, tuple[int, int]] = {}
        for actor in state["actors"]:
            xy = XY[actor["square"]]
            self.grid[xy] = actor
            self.xys[actor["uid"]] = xy
        self.steps: list[dict] | None = [] if narrate else None
        self.counters: list[dict] = []
        self.cancelled: set[int] = set()

    def close(self) -> None:
        self.s["rng"] = _rng_text(self.rng)

    # context interface for effects.py
    def vector(self, owner: int, direction: str) -> tuple[int, int]:
        return VECTORS[owner][direction]

    def at(self, xy: tuple[int, int]) -> dict | None:
        return self.grid.get(xy)

    def on_board(self, xy: tuple[int, int]) -> bool:
        return 0 <= xy[0] < COLS and 0 <= xy[1] < ROWS

    def side(self, xy: tuple[int, int]) -> int:
        return 0 if xy[1] < 3 else 1

    def xy(self, actor: dict) -> tuple[int, int]:
        return self.xys[actor["uid"]]

    def level(self, actor: dict) -> int:
        return INFO[actor["card"]].level

    def attribute(self, actor: dict) -> str:
        return INFO[actor["card"]].attribute

    def actors_of(self, owner: int) -> list[dict]:
        return [a for a in self.s["actors"] if a["owner"] == owner]

    def power(self, actor: dict) -> int:
        info = INFO[actor["card"]]
        value = info.power + actor["buff"]
        if actor["awake"]:
            value += info.awake_power
        for fn, params in info.power_traits:
            value += fn(self, actor, params)
        for other in self.s["actors"]:
            for fn, params in INFO[other["card"]].aura_traits:
                if other["uid"] in self.xys and actor["uid"] in self.xys:
                    value += fn(self, other, actor, params)
        return max(0, value)

    # narration
    def say(self, kind: str, en: str, ja: str, **data: Any) -> None:
        if self.steps is not None:
            self.steps.append({"kind": kind, **data, "text": {"en": en, "ja": ja}})

    def who(self, actor: dict) -> tuple[str, str]:
        info = INFO[actor["card"]]
        label = _label(actor["owner"])
        return f"{label}'s {info.name}", f"{label}の{info.ja}"

    # zones
    def alive(self, actor: dict) -> bool:
        return actor["uid"] in self.xys

    def remove(self, actor: dict) -> None:
        """Take an actor off the board and put its card on its owner's discard pile."""
        xy = self.xys.pop(actor["uid"], None)
        if xy is not None and self.grid.get(xy) is actor:
            del self.grid[xy]
        actors = self.s["actors"]
        for i, other in enumerate(actors):
            if other is actor:
                del actors[i]
                break
        self.s["players"][actor["owner"]]["discard"].append(actor["card"])

    def place(self, actor: dict, xy: tuple[int, int]) -> None:
        self.grid[xy] = actor
        self.xys[actor["uid"]] = xy
        actor["square"] = NAME[xy]

    def draw(self, player: int, count: int) -> None:
        """Draw ``count`` cards; past the hand limit, discard that many at random (seed rule)."""
        seat = self.s["players"][player]
        drawn = 0
        for _ in range(count):
            if not seat["deck"]:
                break
            seat["hand"].append(seat["deck"].pop())
            drawn += 1
        label = _label(player)
        if drawn:
            self.say(
                "draw",
                f"{label} draws {drawn} card{'s' if drawn > 1 else ''}.",
                f"{label}がカードを{drawn}枚引く。",
                player=player,
                count=drawn,
            )
        if drawn < count:
            self.say(
                "deck_empty",
                f"{label}'s deck is empty: nothing more to draw.",
                f"{label}の山札が尽きていて、引けない。",
                player=player,
            )
        self.trim_hand(player)

    def trim_hand(self, player: int) -> None:
        hand = self.s["players"][player]["hand"]
        limit = self.opts["hand_limit"]
        label = _label(player)
        while len(hand) > limit:
            card = hand.pop(self.rng.below(len(hand)))
            self.s["players"][player]["discard"].append(card)
            info = INFO[card]
            self.say(
                "hand_limit",
                f"{label}'s hand is over {limit}: {info.name} is discarded at random.",
                f"{label}の手札が{limit}枚を超えたため、{info.ja}がランダムに捨てられる。",
                player=player,
                card=card,
            )

    # operations answered by effects
    def apply_ops(self, ops: Iterable[tuple]) -> None:
        for op in ops:
            kind = op[0]
            if kind == "draw":
                self.draw(op[1], op[2])
                continue
            if kind == "recover":
                self.recover(op[1], op[2])
                continue
            actor = self.find(op[1])
            if actor is None:
                continue
            en, ja = self.who(actor)
            square = actor["square"]
            if kind == "discard":
                self.remove(actor)
                self.say(
                    "discard",
                    f"{en} on {square} is sent to the discard pile.",
                    f"{square}の{ja}が捨札に送られる。",
                    uid=actor["uid"],
                    square=square,
                )
            elif kind == "buff":
                actor["buff"] += op[2]
                sign = f"{op[2]:+d}"
                now = self.power(actor)
                self.say(
                    "power",
                    f"{en} on {square} gets power {sign} this turn (now {now}).",
                    f"{square}の{ja}はこのターン、パワー{sign}（現在{now}）。",
                    uid=actor["uid"],
                    square=square,
                    amount=op[2],
                    power=now,
                )
            elif kind == "cancel":
                self.cancelled.add(actor["uid"])
                actor["rest"] = True
                self.say(
                    "cancel",
                    f"{en} on {square} loses its plan and rests.",
                    f"{square}の{ja}は計画を失いRestになる。",
                    uid=actor["uid"],
                    square=square,
                )
            elif kind == "push":
                dest = op[2]
                if not self.on_board(dest) or dest in self.grid:
                    continue
                del self.grid[self.xys[actor["uid"]]]
                self.place(actor, dest)
                self.say(
                    "push",
                    f"{en} is pushed from {square} to {NAME[dest]}.",
                    f"{ja}が{square}から{NAME[dest]}へ押し戻される。",
                    uid=actor["uid"],
                    square=square,
                    to=NAME[dest],
                )
                self.update_awakening(actor)

    def find(self, uid: Any) -> dict | None:
        if uid not in self.xys:
            return None
        actor = self.grid.get(self.xys[uid])
        if actor is not None and actor["uid"] == uid:
            return actor
        for actor in self.s["actors"]:
            if actor["uid"] == uid:
                return actor
        return None

    def recover(self, player: int, card: str) -> None:
        pile = self.s["players"][player]["discard"]
        for i in range(len(pile) - 1, -1, -1):
            if pile[i] == card:
                del pile[i]
                self.s["players"][player]["hand"].append(card)
                info = INFO[card]
                label = _label(player)
                self.say(
                    "recover",
                    f"{label}'s {info.name} returns to {label}'s hand.",
                    f"{label}の{info.ja}が手札に戻る。",
                    player=player,
                    card=card,
                )
                self.trim_hand(player)
                return

    def update_awakening(self, actor: dict) -> None:
        """Awaken on landing on the enemy side; lose it on the own side (digest decision)."""
        xy = self.xys.get(actor["uid"])
        if xy is None:
            return
        awake = self.side(xy) != actor["owner"]
        if awake == actor["awake"]:
            return
        actor["awake"] = awake
        en, ja = self.who(actor)
        square = actor["square"]
        if awake:
            self.say(
                "awaken",
                f"{en} lands on the enemy side at {square} and awakens.",
                f"{ja}が敵陣の{square}に着地し、覚醒する。",
                uid=actor["uid"],
                square=square,
            )
        else:
            self.say(
                "sleep",
                f"{en} is back on its own side at {square} and loses its awakening.",
                f"{ja}が自陣の{square}に戻り、覚醒が解ける。",
                uid=actor["uid"],
                square=square,
            )

    # battles
    def battle_power(self, actor: dict, foe: dict, defending: bool) -> tuple[int, int, str, str]:
        """Return (power, power in this battle, English note, Japanese note)."""
        base = self.power(actor)
        info = INFO[actor["card"]]
        bonus = sum(fn(self, actor, foe, defending, params) for fn, params in info.battle_traits)
        total = max(0, base + bonus)
        en = ja = ""
        if bonus:
            en += f", trait {bonus:+d}"
            ja += f"、特性{bonus:+d}"
        foe_attr = INFO[foe["card"]].attribute
        if _BEATS.get(info.attribute) == foe_attr:
            total *= 2
            en += f", {info.attribute} vs {foe_attr}: {total}"
            ja += f"、{_ATTR_JA[info.attribute]}対{_ATTR_JA[foe_attr]}：{total}"
        elif bonus:
            en += f": {total}"
            ja += f"：{total}"
        return base, total, en, ja

    def battle(
        self, a: dict, b: dict, *, a_defends: bool, b_defends: bool, where: str
    ) -> dict | None:
        """Fight a battle; send the loser (both on equal power) to the discard pile.

        Return the winner if it is still on the board afterwards, else None.
        """
        pa, ta, na_en, na_ja = self.battle_power(a, b, a_defends)
        pb, tb, nb_en, nb_ja = self.battle_power(b, a, b_defends)
        (a_en, a_ja), (b_en, b_ja) = self.who(a), self.who(b)
        desc_a = (f"{a_en} (power {pa}{na_en})", f"{a_ja}（パワー{pa}{na_ja}）")
        desc_b = (f"{b_en} (power {pb}{nb_en})", f"{b_ja}（パワー{pb}{nb_ja}）")
        data = {"a": a["uid"], "b": b["uid"], "square": where, "power": [ta, tb]}
        if ta == tb:
            self.say(
                "battle",
                f"{desc_a[0]} and {desc_b[0]} are equal on {where}: both go to the discard pile.",
                f"{where}で{desc_a[1]}と{desc_b[1]}が相打ち。両方とも捨札へ。",
                winner=None,
                **data,
            )
            losers, winner = [a, b], None
        else:
            (w, dw), (lo, dl) = (
                ((a, desc_a), (b, desc_b)) if ta > tb else ((b, desc_b), (a, desc_a))
            )
            self.say(
                "battle",
                f"{dw[0]} beats {dl[0]} on {where}.",
                f"{where}で{dw[1]}が{dl[1]}に勝利。",
                winner=w["uid"],
                **data,
            )
            losers, winner = [lo], w
        spots = {lo["uid"]: self.xys[lo["uid"]] for lo in losers}
        for lo in losers:
            self.remove(lo)
        for lo in losers:
            self.fire_triggers(lo, spots[lo["uid"]], winner)
        if winner is not None and winner["uid"] in self.xys:
            return winner
        return None

    def fire_triggers(self, actor: dict, xy: tuple[int, int], winner: dict | None) -> None:
        info = INFO[actor["card"]]
        for eff, params, text in info.trigger:
            src = {
                "owner": actor["owner"],
                "xy": xy,
                "card": actor["card"],
                "uid": actor["uid"],
                "winner": winner["uid"] if winner is not None else None,
            }
            en, ja = self.who(actor)
            self.say(
                "trigger",
                f"{en}'s trigger: {text['text']['en']}",
                f"{ja}のトリガー：{text['text']['ja']}",
                uid=actor["uid"],
                card=actor["card"],
            )
            self.apply_ops(eff.run(self, src, params))

    # life
    def lost(self) -> bool:
        players = self.s["players"]
        return players[0]["life"] <= 0 or players[1]["life"] <= 0

    def base_entry(self, mover: _Mover) -> None:
        """An actor reaching the enemy base costs that player 1 life and is discarded (seed)."""
        actor = mover.a
        enemy = 1 - actor["owner"]
        seat = self.s["players"][enemy]
        seat["life"] = max(0, seat["life"] - 1)
        en, ja = self.who(actor)
        square = actor["square"]
        self.say(
            "base",
            f"{en} enters {_label(enemy)}'s base on {square}: {_label(enemy)} loses 1 life "
            f"({seat['life']} left), and {en} goes to the discard pile.",
            f"{ja}が{_label(enemy)}の拠点{square}に侵入：{_label(enemy)}のライフ-1"
            f"（残り{seat['life']}）。{ja}は捨札へ。",
            uid=actor["uid"],
            square=square,
            player=enemy,
            life=seat["life"],
        )
        self.remove(actor)
        mover.active = False

    # counters
    def react(self, mover: _Mover, xy: tuple[int, int]) -> bool:
        """Let an armed enemy counter on ``xy`` react to the mover; return whether it survives."""
        actor = mover.a
        for counter in self.counters:
            if counter["used"] or counter["xy"] != xy or counter["owner"] == actor["owner"]:
                continue
            eff, params, text = INFO[counter["card"]].counter
            if eff.enter is None:
                continue
            counter["used"] = True
            info = INFO[counter["card"]]
            en, ja = self.who(actor)
            self.say(
                "counter",
                f"{_label(counter['owner'])}'s {info.name} on {NAME[xy]} springs on {en}.",
                f"{NAME[xy]}の{_label(counter['owner'])}の{info.ja}が{ja}に発動。",
                card=counter["card"],
                square=NAME[xy],
                uid=actor["uid"],
            )
            src = {"owner": counter["owner"], "xy": xy, "card": counter["card"], "uid": None}
            self.apply_ops(eff.enter(self, src, actor, params))
            if not self.alive(actor):
                mover.active = False
                return False
        return True

    # movement
    def run_moves(self, entries: list[tuple[dict, dict]]) -> None:
        """Move up to two actors (one per side) at the same time, one square per step."""
        movers = []
        for actor, entry in entries:
            direction = entry["direction"]
            reach = actor_range(actor["card"], actor["awake"]).get(direction, 0)
            distance = min(entry["distance"], reach)
            en, ja = self.who(actor)
            word_en, word_ja = _DIR_WORDS[direction]
            if distance <= 0:
                self.say(
                    "stay",
                    f"{en} on {actor['square']} can no longer move {word_en} and stays.",
                    f"{actor['square']}の{ja}は{word_ja}へ移動できず、留まる。",
                    uid=actor["uid"],
                    square=actor["square"],
                )
                continue
            self.say(
                "move_start",
                f"{en} on {actor['square']} moves {distance} {word_en}.",
                f"{actor['square']}の{ja}が{word_ja}へ{distance}マス移動。",
                uid=actor["uid"],
                square=actor["square"],
                direction=direction,
                distance=distance,
            )
            movers.append(_Mover(actor, self.xys[actor["uid"]], direction, distance))
        while any(m.active for m in movers):
            self.move_step(movers)
            if self.lost():
                for m in movers:
                    if m.active and self.alive(m.a):
                        self.land(m)
                break

    def move_step(self, movers: list[_Mover]) -> None:
        for m in movers:
            if not m.active:
                continue
            if not self.alive(m.a):
                m.active = False
                continue
            nxt = (m.pos[0] + m.dx, m.pos[1] + m.dy)
            if m.left <= 0 or not self.on_board(nxt):
                self.land(m)
                continue
            m.nxt = nxt
        going = [m for m in movers if m.active]
        # Moving into an own actor stops one square short (digest decision); Jump passes over.
        for m in going:
            occupant = self.grid.get(m.nxt)
            if occupant is not None and occupant["owner"] == m.owner and not m.hopping():
                if m.air:
                    self.land(m)
                    continue
                en, ja = self.who(m.a)
                o_en, o_ja = self.who(occupant)
                self.say(
                    "blocked",
                    f"{en} stops on {NAME[m.pos]}, short of {o_en} on {NAME[m.nxt]}.",
                    f"{ja}は{NAME[m.nxt]}の{o_ja}の手前、{NAME[m.pos]}で止まる。",
                    uid=m.a["uid"],
                    square=NAME[m.pos],
                )
                self.land(m)
        going = [m for m in going if m.active]
        for m in going:
            if not m.air and self.grid.get(m.pos) is m.a:
                del self.grid[m.pos]
        if len(going) == 2:
            m, n = going
            if not (m.hopping() or n.hopping()):
                if m.nxt == n.pos and n.nxt == m.pos and not m.air and not n.air:
                    self.swap_battle(m, n)
                    return
                if m.nxt == n.nxt and m.nxt not in self.grid:
                    self.collide(m, n)
                    return
        # Walkers before jumpers: a jumper only passes over what is already there.
        going.sort(key=lambda mv: mv.hopping())
        for m in going:
            if not m.active or not self.alive(m.a):
                m.active = False
                continue
            occupant = self.grid.get(m.nxt)
            m.left -= 1
            if occupant is None:
                self.enter(m)
            elif m.jump and m.left > 0:
                m.pos, m.air = m.nxt, True
                self.xys[m.a["uid"]] = m.pos
                en, ja = self.who(m.a)
                self.say(
                    "jump",
                    f"{en} jumps over {NAME[m.pos]}.",
                    f"{ja}が{NAME[m.pos]}を飛び越える。",
                    uid=m.a["uid"],
                    square=NAME[m.pos],
                )
            elif occupant["owner"] == m.owner:
                self.put_back(m)
                self.land(m)
            else:
                self.attack(m, occupant, m.nxt)

    def put_back(self, m: _Mover) -> None:
        if not m.air and m.pos not in self.grid:
            self.place(m.a, m.pos)

    def step_to(self, m: _Mover, xy: tuple[int, int]) -> None:
        m.pos, m.air = xy, False
        self.place(m.a, xy)
        m.ground.append(xy)
        en, ja = self.who(m.a)
        self.say(
            "step",
            f"{en} moves to {NAME[xy]}.",
            f"{ja}が{NAME[xy]}へ移動。",
            uid=m.a["uid"],
            square=NAME[xy],
        )

    def enter(self, m: _Mover) -> None:
        """Step onto the empty next square: counters there react, the enemy base scores."""
        self.step_to(m, m.nxt)
        if not self.react(m, m.pos):
            return
        if m.pos in _GOAL[m.owner]:
            self.base_entry(m)

    def attack(self, m: _Mover, defender: dict, xy: tuple[int, int]) -> None:
        """Move onto an enemy actor: a battle there, and the move ends (digest decision)."""
        if not self.react(m, xy):
            return
        winner = self.battle(m.a, defender, a_defends=False, b_defends=True, where=NAME[xy])
        if winner is m.a:
            self.step_to(m, xy)
            self.after_win(m)
        else:
            m.active = False
            if self.alive(m.a):
                # The attacker lost the battle but survived it (cannot happen with the
                # starter set); leave it where it started the step.
                self.put_back(m)

    def after_win(self, m: _Mover) -> None:
        if m.pos in _GOAL[m.owner]:
            self.base_entry(m)
        else:
            self.land(m)

    def swap_battle(self, m: _Mover, n: _Mover) -> None:
        """Two actors trying to pass through each other: a battle (digest decision)."""
        m.left -= 1
        n.left -= 1
        where = f"{NAME[m.pos]}/{NAME[n.pos]}"
        winner = self.battle(m.a, n.a, a_defends=False, b_defends=False, where=where)
        for mover in (m, n):
            if winner is mover.a:
                # Seed over digest: the digest has the winner "end on the contested square",
                # the seed has it "move to its target square" (目的のマスに移動), which in a
                # head-on swap is the loser's square, so the winner goes on into it.
                self.step_to(mover, mover.nxt)
                if self.react(mover, mover.pos):
                    self.after_win(mover)
            else:
                mover.active = False

    def collide(self, m: _Mover, n: _Mover) -> None:
        """Two actors entering the same empty square in the same step: a battle there."""
        m.left -= 1
        n.left -= 1
        xy = m.nxt
        survivors = [mv for mv in (m, n) if self.react(mv, xy)]
        if len(survivors) == 1:
            self.enter_after_counter(survivors[0])
            return
        if not survivors:
            return
        winner = self.battle(m.a, n.a, a_defends=False, b_defends=False, where=NAME[xy])
        for mover in (m, n):
            if winner is mover.a:
                self.step_to(mover, xy)
                self.after_win(mover)
            else:
                mover.active = False

    def enter_after_counter(self, m: _Mover) -> None:
        self.step_to(m, m.nxt)
        if m.pos in _GOAL[m.owner]:
            self.base_entry(m)

    def land(self, m: _Mover) -> None:
        """End a move; a jumper still in the air comes down on the last free square it crossed."""
        m.active = False
        if not self.alive(m.a):
            return
        if m.air:
            for xy in reversed(m.ground):
                occupant = self.grid.get(xy)
                if occupant is None:
                    m.pos, m.air = xy, False
                    self.place(m.a, xy)
                    en, ja = self.who(m.a)
                    self.say(
                        "land",
                        f"{en} comes down on {NAME[xy]}.",
                        f"{ja}が{NAME[xy]}に着地。",
                        uid=m.a["uid"],
                        square=NAME[xy],
                    )
                    break
                if occupant["owner"] != m.owner:
                    m.air = False
                    self.xys[m.a["uid"]] = xy
                    winner = self.battle(
                        m.a, occupant, a_defends=False, b_defends=True, where=NAME[xy]
                    )
                    if winner is m.a:
                        self.place(m.a, xy)
                    break
            else:
                # Every square it crossed is taken by its own side: it has nowhere to come
                # down (no starter card can get here), so it leaves the board.
                self.remove(m.a)
            if not self.alive(m.a):
                return
        self.update_awakening(m.a)

    # actions
    def run_actions(self, entries: list[tuple[dict, dict]]) -> None:
        """Run actions of the same speed together: all read the board before any applies."""
        answers = []
        for actor, entry in entries:
            eff, params, _speed, text = INFO[actor["card"]].actions[entry["text"]]
            en, ja = self.who(actor)
            self.say(
                "action",
                f"{en} on {actor['square']} acts: {text['text']['en']}",
                f"{actor['square']}の{ja}のアクション：{text['text']['ja']}",
                uid=actor["uid"],
                square=actor["square"],
                text=entry["text"],
            )
            src = {
                "owner": actor["owner"],
                "xy": self.xys[actor["uid"]],
                "card": actor["card"],
                "uid": actor["uid"],
            }
            answers.append(eff.run(self, src, params))
        for ops in answers:
            self.apply_ops(ops)


# -- plans ----------------------------------------------------------------------------------


def _name_list(cards: list[_Info]) -> str:
    names = [info.name for info in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _name_list_ja(cards: list[_Info]) -> str:
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
    deployed: list[_Info] = []
    played: list[_Info] = []
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
            word, word_ja = _DIR_WORDS[direction]
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


# -- the action phase ------------------------------------------------------------------------


def _resolve(state: dict[str, Any], *, narrate: bool = True) -> None:
    """Run the action phase of the turn in place, both plans being in the state."""
    table = _Table(state, narrate=narrate)
    turn = state["turn"]
    plans = [seat["plan"] for seat in state["players"]]
    table.say(
        "phase", f"Turn {turn}: the action phase begins.", f"ターン{turn}：行動フェーズ開始。"
    )
    # Cards played this turn leave the hand now, before any draw could discard them at random.
    for seat, plan in zip(state["players"], plans, strict=True):
        for play in plan["play"]:
            seat["hand"].remove(play["card"])
    # Step 1: actors planned to wait (or given no plan) rest.
    acting: list[list[tuple[dict, dict]]] = [[], []]
    for player in (0, 1):
        planned = {e["square"]: e for e in plans[player]["actors"]}
        order = {e["square"]: i for i, e in enumerate(plans[player]["actors"])}
        for actor in sorted(table.actors_of(player), key=lambda a: _ORDER[a["square"]]):
            entry = planned.get(actor["square"])
            if entry is None or entry["do"] == "wait":
                actor["rest"] = True
                en, ja = table.who(actor)
                table.say(
                    "rest",
                    f"{en} on {actor['square']} waits and rests.",
                    f"{actor['square']}の{ja}は待機し、Restになる。",
                    uid=actor["uid"],
                    square=actor["square"],
                )
            else:
                acting[player].append((actor, entry))
        acting[player].sort(key=lambda pair: order[pair[0]["square"]])
    # Step 2: EX counters are revealed together; reveal texts read the same board.
    answers = []
    for player in (0, 1):
        for play in plans[player]["play"]:
            info = INFO[play["card"]]
            if info.ex_kind != "counter":
                continue
            xy = XY[play["square"]]
            counter = {"owner": player, "card": play["card"], "xy": xy, "used": False}
            table.counters.append(counter)
            wording = info.counter[2]["text"]
            table.say(
                "reveal",
                f"{_label(player)} reveals {info.name} on {play['square']}: {wording['en']}",
                f"{_label(player)}が{play['square']}の{info.ja}を公開：{wording['ja']}",
                player=player,
                card=play["card"],
                square=play["square"],
            )
            eff, params, _text = info.counter
            if eff.run is not None:
                src = {"owner": player, "xy": xy, "card": play["card"], "uid": None}
                answers.append(eff.run(table, src, params))
    for ops in answers:
        table.apply_ops(ops)
    # Step 3: deployments and EX normal cards, base square 9 → 12, both sides' number together.
    for number in BASE_NUMBERS:
        placed = []
        for player in (0, 1):
            for play in plans[player]["play"]:
                info = INFO[play["card"]]
                if info.ex_kind == "counter" or square_number(play["square"]) != number:
                    continue
                xy = XY[play["square"]]
                if info.kind == "actor":
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
                        f"{_label(player)} deploys {info.name} on {play['square']}.",
                        f"{_label(player)}が{play['square']}に{info.ja}を出陣。",
                        player=player,
                        card=play["card"],
                        square=play["square"],
                        uid=actor["uid"],
                    )
                    placed.append((player, xy, play["card"], actor["uid"], info.deploy))
                else:
                    table.say(
                        "ex",
                        f"{_label(player)} plays {info.name} on {play['square']}.",
                        f"{_label(player)}が{play['square']}で{info.ja}を使用。",
                        player=player,
                        card=play["card"],
                        square=play["square"],
                    )
                    placed.append((player, xy, play["card"], None, info.normal))
        answers = []
        for player, xy, cid, uid, texts in placed:
            for eff, params, text in texts:
                if uid is not None:
                    actor = table.find(uid)
                    en, ja = table.who(actor)
                    table.say(
                        "deploy_text",
                        f"{en}'s deploy text: {text['text']['en']}",
                        f"{ja}の出陣テキスト：{text['text']['ja']}",
                        uid=uid,
                    )
                src = {"owner": player, "xy": xy, "card": cid, "uid": uid}
                answers.append(eff.run(table, src, params))
        for ops in answers:
            table.apply_ops(ops)
        for player, _xy, cid, uid, _texts in placed:
            if uid is None:
                state["players"][player]["discard"].append(cid)
    # Step 4: actors by action order, the same number on both sides together.
    for index in range(max(len(acting[0]), len(acting[1]))):
        pair = [acting[p][index] for p in (0, 1) if index < len(acting[p])]
        _run_pair(table, pair)
        if table.lost():
            break
    # Counters are discarded when the turn ends (digest decision).
    for counter in table.counters:
        state["players"][counter["owner"]]["discard"].append(counter["card"])
    for seat in state["players"]:
        seat["plan"] = None
    if table.lost():
        lives = [p["life"] for p in state["players"]]
        if lives[0] <= 0 and lives[1] <= 0:
            _finish(table, None, "both_zero")
        else:
            _finish(table, 0 if lives[1] <= 0 else 1, "life")
    else:
        _end_turn(table)
    table.close()
    state["last_resolution"] = {"turn": turn, "steps": table.steps or []}


def _run_pair(table: _Table, pair: list[tuple[dict, dict]]) -> None:
    """One action number: speed-2 actions, then moves, then speed-1 actions."""

    def ready(actor: dict, entry: dict, do: str, speed: int | None = None) -> bool:
        if not table.alive(actor) or actor["uid"] in table.cancelled or entry["do"] != do:
            return False
        return speed is None or INFO[actor["card"]].actions[entry["text"]][2] == speed

    fast = [(a, e) for a, e in pair if ready(a, e, "action", 2)]
    if fast:
        table.run_actions(fast)
    moves = [(a, e) for a, e in pair if ready(a, e, "move")]
    if moves and not table.lost():
        table.run_moves(moves)
    slow = [(a, e) for a, e in pair if ready(a, e, "action", 1)]
    if slow and not table.lost():
        table.run_actions(slow)
    for actor, _entry in pair:
        actor["rest"] = True


def _finish(table: _Table, winner: int | None, reason: str) -> None:
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
        en, ja = "The match is a draw.", "引き分け。"
    else:
        en, ja = f"{_label(winner)} wins.", f"{_label(winner)}の勝利。"
    table.say("result", en, ja, winner=winner, reason=reason)


def _end_turn(table: _Table) -> None:
    state = table.s
    for actor in state["actors"]:
        actor["buff"] = 0
        actor["rest"] = False
    if state["turn"] >= state["options"]["turn_limit"]:
        lives = [p["life"] for p in state["players"]]
        winner = None if lives[0] == lives[1] else (0 if lives[0] > lives[1] else 1)
        _finish(table, winner, "turn_limit")
        return
    state["turn"] += 1
    turn = state["turn"]
    table.say("turn", f"Turn {turn}: planning phase.", f"ターン{turn}：計画フェーズ。", turn=turn)
    for player in (0, 1):
        table.draw(player, 1)


# -- the shared interface ----------------------------------------------------------------------


def _check_player(player: Any) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise IllegalAction(
            "The player must be 0 (A) or 1 (B).", ja="プレイヤーは 0（A）か 1（B）です。"
        )
    return player


def apply(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """Return the state after ``action``; the input is never changed. Raise IllegalAction."""
    if not isinstance(action, dict):
        raise IllegalAction(
            "An action must be an object with a 'type'.",
            ja="行動は 'type' を持つオブジェクトです。",
        )
    kind = action.get("type")
    if kind not in ("plan", "resign"):
        raise IllegalAction(
            f"Unknown action type {kind!r}; use 'plan' or 'resign'.",
            ja=f"行動の種類 {kind!r} はありません。'plan' か 'resign' です。",
        )
    player = _check_player(action.get("player"))
    if state["phase"] == "over":
        raise IllegalAction("The match is over.", ja="対戦は終わっています。")
    if kind == "resign":
        if set(action) != {"type", "player"}:
            raise IllegalAction(
                "A resignation takes only 'type' and 'player'.",
                ja="投了に指定するのは 'type' と 'player' だけです。",
            )
        new = _copy_state(state)
        table = _Table(new, narrate=True)
        table.say(
            "resign",
            f"{_label(player)} resigns.",
            f"{_label(player)}が投了。",
            player=player,
        )
        _finish(table, 1 - player, "resign")
        table.close()
        new["last_resolution"] = {"turn": new["turn"], "steps": table.steps or []}
        return new
    if set(action) != {"type", "player", "plan"}:
        raise IllegalAction(
            "A plan action takes only 'type', 'player' and 'plan'.",
            ja="プランの行動に指定するのは 'type'、'player'、'plan' だけです。",
        )
    if state["players"][player]["plan"] is not None:
        raise IllegalAction(
            f"{_label(player)} has already confirmed a plan for this turn.",
            ja=f"{_label(player)}はこのターンのプランをすでに確定しています。",
        )
    plan = validate_plan(state, player, action["plan"])
    other = state["players"][1 - player]["plan"]
    new = _copy_state(state, log=other is None)
    new["players"][player]["plan"] = plan
    if other is not None:
        _resolve(new)
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
        raise IllegalAction("The match is over.", ja="対戦は終わっています。")
    for player in (0, 1):
        if state["players"][player]["plan"] is not None:
            raise IllegalAction(
                f"{_label(player)} has already confirmed a plan for this turn.",
                ja=f"{_label(player)}はこのターンのプランをすでに確定しています。",
            )
    if not checked:
        plans = [validate_plan(state, p, plans[p]) for p in (0, 1)]
    new = _copy_state(state, log=False)
    for player in (0, 1):
        new["players"][player]["plan"] = plans[player]
    _resolve(new, narrate=narrate)
    return new


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
        key=lambda a: _ORDER[a["square"]],
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


def _play_squares(info: _Info, player: int, actors: Iterable[dict[str, Any]]) -> list[str]:
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
    return _deep(state["result"]) if state["phase"] == "over" else None


def _view_actor(table: _Table, actor: dict) -> dict[str, Any]:
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
    table = _Table(state, narrate=False)
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
            entry["plan"] = _copy_plan(seat["plan"])
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
        "options": {k: _deep(v) for k, v in opts.items() if k != "decks"},
        "players": players,
        "board": board,
        "actors": actors,
        "last_resolution": _copy_log(state["last_resolution"]),
        "result": _deep(state["result"]),
    }


def to_dict(state: dict[str, Any]) -> dict[str, Any]:
    """Return the whole state as plain JSON types (RNG state included)."""
    return _copy_state(state)


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


def from_dict(data: dict[str, Any]) -> dict[str, Any]:
    """Check stored data and return it as a state; raise InvalidState when it is not one."""
    try:
        return _load(data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise InvalidState(f"Not an Actics X state: {exc!r}") from exc


def _load(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != _STATE_KEYS:
        raise InvalidState("An Actics X state needs exactly: " + ", ".join(sorted(_STATE_KEYS)))
    if data["game"] != GAME or data["version"] != VERSION:
        raise InvalidState(f"Not an Actics X state of version {VERSION}.")
    opts = data["options"]
    if not isinstance(opts, dict) or set(opts) != set(DEFAULT_OPTIONS) | {"deck_names"}:
        raise InvalidState("The options are incomplete or have unknown keys.")
    checked = _options({k: v for k, v in opts.items() if k != "deck_names"})
    names = opts["deck_names"]
    if not isinstance(names, list) or len(names) != 2:
        raise InvalidState("deck_names must list two entries.")
    for name, ids in zip(names, checked["decks"], strict=True):
        if name is not None and (
            name not in card_data.DECKS or card_data.deck_list(name) != sorted(ids)
        ):
            raise InvalidState(f"deck_names says {name!r} but the deck differs.")
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
    players = data["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidState("players must list two seats.")
    for seat in players:
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
    actors = data["actors"]
    if not isinstance(actors, list):
        raise InvalidState("actors must be a list.")
    squares: set[str] = set()
    uids: set[int] = set()
    counts = [0, 0]
    for actor in actors:
        if not isinstance(actor, dict) or set(actor) != _ACTOR_KEYS:
            raise InvalidState("Each actor needs exactly: " + ", ".join(sorted(_ACTOR_KEYS)))
        if actor["owner"] not in (0, 1) or isinstance(actor["owner"], bool):
            raise InvalidState("An actor's owner must be 0 or 1.")
        if actor["card"] not in INFO or INFO[actor["card"]].kind != "actor":
            raise InvalidState(f"{actor['card']!r} is not an actor card.")
        if actor["square"] not in XY or actor["square"] in squares:
            raise InvalidState(f"Actor square {actor['square']!r} is not a free square.")
        if not _whole(actor["uid"], 1, data["next_uid"] - 1) or actor["uid"] in uids:
            raise InvalidState("Actor ids must be unique and below next_uid.")
        if not isinstance(actor["awake"], bool) or not isinstance(actor["rest"], bool):
            raise InvalidState("awake and rest must be true or false.")
        if not _whole(actor["buff"], -99, 99):
            raise InvalidState("buff must be a whole number.")
        if square_number(actor["square"]) >= 9 and square_side(actor["square"]) != actor["owner"]:
            raise InvalidState("An actor cannot stand in the enemy base.")
        squares.add(actor["square"])
        uids.add(actor["uid"])
        counts[actor["owner"]] += 1
    if max(counts) > opts["max_actors"]:
        raise InvalidState("A side has more actors than allowed.")
    for seat_no, seat in enumerate(players):
        held = seat["deck"] + seat["hand"] + seat["discard"]
        held += [a["card"] for a in actors if a["owner"] == seat_no]
        if Counter(held) != Counter(checked["decks"][seat_no]):
            raise InvalidState(f"{_label(seat_no)}'s cards do not add up to the deck.")
    result_ = data["result"]
    if data["phase"] == "over":
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
    log = data["last_resolution"]
    if log is not None and (
        not isinstance(log, dict)
        or set(log) != {"turn", "steps"}
        or not isinstance(log["steps"], list)
        or not all(isinstance(s, dict) and "kind" in s and "text" in s for s in log["steps"])
    ):
        raise InvalidState("last_resolution must be {turn, steps}.")
    state = _deep(data)
    state["options"]["decks"] = checked["decks"]
    if all(seat["plan"] is not None for seat in players):
        raise InvalidState("Both plans are confirmed but the turn was not resolved.")
    for seat_no, seat in enumerate(players):
        if seat["plan"] is not None:
            try:
                normal = validate_plan(state, seat_no, seat["plan"])
            except IllegalAction as exc:
                raise InvalidState(f"{_label(seat_no)}'s stored plan is illegal: {exc}") from exc
            if normal != seat["plan"]:
                raise InvalidState(f"{_label(seat_no)}'s stored plan is not in normal form.")
    return state
