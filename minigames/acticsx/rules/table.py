"""Actics X: the table, a working copy of a state while the engine changes it.

It is also the context card effects read (``effects`` lists what they may ask), and it
holds what every step of the action phase shares: where each actor stands, the zones,
drawing, the operations effects answer with, awakening, and the narration.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from minigames.acticsx.rules.cards import card_term
from minigames.acticsx.rules.state import (
    COLS,
    INFO,
    NAME,
    ROWS,
    VECTORS,
    XY,
    Rng,
    rng_text,
    side_label,
)
from minigames.game import Message, message, message_plural


class Table:
    """A mutable working copy of a state while the engine changes it."""

    def __init__(self, state: dict[str, Any], *, narrate: bool) -> None:
        self.s = state
        self.opts = state["options"]
        self.rng = Rng(int(state["rng"], 16))
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
        self.s["rng"] = rng_text(self.rng)

    # the context interface effects.py reads
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
    def say(self, kind: str, text: Message, /, **data: Any) -> None:
        """Add a step to the narration: its kind, data for the board, and its message."""
        if self.steps is not None:
            self.steps.append({"kind": kind, **data, "text": text})

    def who(self, actor: dict) -> Message:
        """Name an actor in narration: its side and its card."""
        return message(
            "%(side)s's %(card)s", side=side_label(actor["owner"]), card=card_term(actor["card"])
        )

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
        label = side_label(player)
        if drawn:
            self.say(
                "draw",
                message_plural(
                    "%(side)s draws %(count)d card.",
                    "%(side)s draws %(count)d cards.",
                    drawn,
                    side=label,
                    count=drawn,
                ),
                player=player,
                count=drawn,
            )
        if drawn < count:
            self.say(
                "deck_empty",
                message("%(side)s's deck is empty: nothing more to draw.", side=label),
                player=player,
            )
        self.trim_hand(player)

    def trim_hand(self, player: int) -> None:
        hand = self.s["players"][player]["hand"]
        limit = self.opts["hand_limit"]
        label = side_label(player)
        while len(hand) > limit:
            card = hand.pop(self.rng.below(len(hand)))
            self.s["players"][player]["discard"].append(card)
            self.say(
                "hand_limit",
                message(
                    "%(side)s's hand is over %(limit)d: %(card)s is discarded at random.",
                    side=label,
                    limit=limit,
                    card=card_term(card),
                ),
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
            who = self.who(actor)
            square = actor["square"]
            if kind == "discard":
                self.remove(actor)
                self.say(
                    "discard",
                    message(
                        "%(actor)s on %(square)s is sent to the discard pile.",
                        actor=who,
                        square=square,
                    ),
                    uid=actor["uid"],
                    square=square,
                )
            elif kind == "buff":
                actor["buff"] += op[2]
                sign = f"{op[2]:+d}"
                now = self.power(actor)
                self.say(
                    "power",
                    message(
                        "%(actor)s on %(square)s gets power %(amount)s this turn (now %(power)d).",
                        actor=who,
                        square=square,
                        amount=sign,
                        power=now,
                    ),
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
                    message(
                        "%(actor)s on %(square)s loses its plan and rests.",
                        actor=who,
                        square=square,
                    ),
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
                    message(
                        "%(actor)s is pushed from %(square)s to %(to)s.",
                        actor=who,
                        square=square,
                        to=NAME[dest],
                    ),
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
                self.say(
                    "recover",
                    message(
                        "%(side)s's %(card)s returns to %(side)s's hand.",
                        side=side_label(player),
                        card=card_term(card),
                    ),
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
        who = self.who(actor)
        square = actor["square"]
        if awake:
            self.say(
                "awaken",
                message(
                    "%(actor)s lands on the enemy side at %(square)s and awakens.",
                    actor=who,
                    square=square,
                ),
                uid=actor["uid"],
                square=square,
            )
        else:
            self.say(
                "sleep",
                message(
                    "%(actor)s is back on its own side at %(square)s and loses its awakening.",
                    actor=who,
                    square=square,
                ),
                uid=actor["uid"],
                square=square,
            )

    # life
    def lost(self) -> bool:
        players = self.s["players"]
        return players[0]["life"] <= 0 or players[1]["life"] <= 0
