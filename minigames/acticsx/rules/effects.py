"""The named effects a card text can use, with their parameters.

A card text in ``cards.json`` says ``{"kind": ..., "effect": NAME, "params": {...}}``; this
module maps NAME to what the effect does, which text kinds may use it and which parameters it
takes, so a new card is a data entry and a new kind of effect is one ``register`` call.

Effects never touch the game state themselves. The engine hands them a *context* (reading
the board) and a *source* (the card the text is on) and they answer with a list of
**operations**, tuples the engine applies and narrates:

- ``("discard", uid)``: an actor goes to its owner's discard pile (not a battle: no trigger);
- ``("buff", uid, amount)``: power change until the end of the turn;
- ``("cancel", uid)``: the actor loses its plan for this turn and rests;
- ``("push", uid, (x, y))``: the actor is moved to that empty square;
- ``("draw", player, count)``: the player draws;
- ``("recover", player, card_id)``: one copy of the card goes from the discard pile to the hand.

Answering with operations instead of acting lets two texts that happen at the same time
(dual actions, both players' deployments on the same base number) read the same board.

Context interface the engine provides: ``vector(owner, direction)``, ``at(xy)``,
``on_board(xy)``, ``power(actor)``, ``level(actor)``, ``attribute(actor)``,
``actors_of(owner)``, ``side(xy)``, ``xy(actor)``.
A source is a dict: ``owner``, ``xy``, ``card``, ``uid`` (the actor, if the text is on one)
and, for triggers, ``winner`` (uid of the actor that won the battle, if any).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

TEXT_KINDS = ("deploy", "trigger", "trait", "action", "jump", "normal", "counter")
ATTRIBUTES = ("water", "fire", "wood", "none")
COUNTER_PLACES = ("own_normal", "any_normal", "own_actor", "enemy_actor")

# Which text kinds are "run" once when their moment comes (the others are passive).
RUN_KINDS = frozenset({"deploy", "trigger", "action", "normal", "counter"})

_KIND_LABEL = {
    "deploy": ("[Deploy] ", "【出陣】"),
    "trigger": ("[Trigger] ", "【トリガー】"),
    "trait": ("[Trait] ", "【特性】"),
    "jump": ("", ""),
    "normal": ("〈Normal〉 ", "〈通常〉"),
    "counter": ("〈Counter〉 ", "〈カウンター〉"),
}

_ATTRIBUTE_JA = {"water": "水", "fire": "火", "wood": "木", "none": "無"}

_PLACE_TEXT = {
    "own_normal": (
        "Play face down on one of your squares 1–8.",
        "自陣の1〜8番マスに裏向きで出す。",
    ),
    "any_normal": (
        "Play face down on any square 1–8 of either side.",
        "どちらかの陣の1〜8番マスに裏向きで出す。",
    ),
    "own_actor": (
        "Play face down on a square with one of your actors.",
        "自分のアクターがいるマスに裏向きで出す。",
    ),
    "enemy_actor": (
        "Play face down on a square with an enemy actor.",
        "相手のアクターがいるマスに裏向きで出す。",
    ),
}


@dataclass(frozen=True)
class Param:
    """One parameter of an effect: an int within bounds, or a string from a set."""

    type: type
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] | None = None

    def problem(self, value: Any) -> str | None:
        """Return why ``value`` does not fit, or None when it does."""
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return "must be a whole number"
            if self.low is not None and value < self.low:
                return f"must be at least {self.low}"
            if self.high is not None and value > self.high:
                return f"must be at most {self.high}"
            return None
        if not isinstance(value, str):
            return "must be a string"
        if self.choices is not None and value not in self.choices:
            return "must be one of " + ", ".join(self.choices)
        return None


Ops = list[tuple]


@dataclass(frozen=True)
class Effect:
    """A named effect: the text kinds allowed to use it, its parameters and its hooks."""

    name: str
    kinds: frozenset[str]
    params: Mapping[str, Param]
    describe: Callable[[dict[str, Any]], tuple[str, str]]
    run: Callable[[Any, dict[str, Any], dict[str, Any]], Ops] | None = None
    enter: Callable[[Any, dict[str, Any], dict[str, Any], dict[str, Any]], Ops] | None = None
    power: Callable[[Any, dict[str, Any], dict[str, Any]], int] | None = None
    battle: Callable[[Any, dict[str, Any], dict[str, Any], bool, dict[str, Any]], int] | None = None
    aura: Callable[[Any, dict[str, Any], dict[str, Any], dict[str, Any]], int] | None = None
    jump: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)


REGISTRY: dict[str, Effect] = {}


def register(effect: Effect) -> Effect:
    """Add ``effect`` to the registry under its name (names are unique)."""
    if effect.name in REGISTRY:
        raise ValueError(f"effect {effect.name!r} is registered twice")
    REGISTRY[effect.name] = effect
    return effect


def get(name: str) -> Effect:
    """Return the effect called ``name``; KeyError when there is none."""
    return REGISTRY[name]


def text_problems(text: Mapping[str, Any]) -> list[str]:
    """Return what is wrong with one card text entry (empty when it is usable)."""
    problems: list[str] = []
    kind = text.get("kind")
    if kind not in TEXT_KINDS:
        return [f"text kind {kind!r} is not one of {', '.join(TEXT_KINDS)}"]
    name = text.get("effect")
    effect = REGISTRY.get(name) if isinstance(name, str) else None
    if effect is None:
        return [f"effect {name!r} is not in the registry"]
    if kind not in effect.kinds:
        problems.append(f"effect {name!r} cannot be used by a {kind} text")
    params = text.get("params")
    if not isinstance(params, dict):
        return [*problems, "params must be an object"]
    for key in params:
        if key not in effect.params:
            problems.append(f"effect {name!r} takes no parameter {key!r}")
    for key, spec in effect.params.items():
        if key not in params:
            problems.append(f"effect {name!r} needs parameter {key!r}")
            continue
        why = spec.problem(params[key])
        if why:
            problems.append(f"parameter {key!r} of {name!r} {why}")
    if kind == "action":
        if text.get("speed") not in (1, 2):
            problems.append("an action text needs speed 1 or 2")
    elif "speed" in text:
        problems.append("only action texts have a speed")
    return problems


def describe(text: Mapping[str, Any]) -> dict[str, str]:
    """Return the standard English and Japanese wording of a card text entry."""
    effect = REGISTRY[text["effect"]]
    en, ja = effect.describe(text["params"])
    kind = text["kind"]
    if kind == "action":
        speed = text["speed"]
        en_label, ja_label = f"[Action · speed {speed}] ", f"【アクション】[実行速度 {speed}] "
    else:
        en_label, ja_label = _KIND_LABEL[kind]
    if kind == "counter":
        place_en, place_ja = _PLACE_TEXT[text["params"]["where"]]
        en, ja = f"{place_en} {en}", f"{place_ja}{ja}"
    return {"en": en_label + en, "ja": ja_label + ja}


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


# -- helpers shared by the effects ---------------------------------------------------------


def _first_enemy(ctx: Any, src: dict[str, Any], reach: int) -> dict[str, Any] | None:
    """Return the first enemy actor straight ahead within ``reach`` (own actors are seen past)."""
    dx, dy = ctx.vector(src["owner"], "F")
    x, y = src["xy"]
    for _ in range(reach):
        x, y = x + dx, y + dy
        if not ctx.on_board((x, y)):
            return None
        actor = ctx.at((x, y))
        if actor is not None and actor["owner"] != src["owner"]:
            return actor
    return None


# -- the effects ---------------------------------------------------------------------------

register(
    Effect(
        name="jump",
        kinds=frozenset({"jump"}),
        params={},
        describe=lambda p: (
            "[Jump] May pass over other actors while moving.",
            "[飛び越え] 移動中、他のアクターを飛び越えられる。",
        ),
        jump=True,
    )
)

register(
    Effect(
        name="draw",
        kinds=frozenset({"deploy", "trigger", "action", "normal"}),
        params={"count": Param(int, 1, 3)},
        describe=lambda p: (f"Draw {_cards(p['count'])}.", f"カードを{p['count']}枚引く。"),
        run=lambda ctx, src, p: [("draw", src["owner"], p["count"])],
    )
)

register(
    Effect(
        name="rally",
        kinds=frozenset({"deploy", "action", "normal"}),
        params={"amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"Your actors get power +{p['amount']} this turn.",
            f"このターン、自分のアクター全てのパワー+{p['amount']}。",
        ),
        run=lambda ctx, src, p: [
            ("buff", a["uid"], p["amount"]) for a in ctx.actors_of(src["owner"])
        ],
    )
)

register(
    Effect(
        name="power_up",
        kinds=frozenset({"deploy", "action"}),
        params={"amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"This actor gets power +{p['amount']} this turn.",
            f"このターン、このアクターのパワー+{p['amount']}。",
        ),
        run=lambda ctx, src, p: [("buff", src["uid"], p["amount"])],
    )
)


def _snipe(ctx: Any, src: dict[str, Any], p: dict[str, Any]) -> Ops:
    target = _first_enemy(ctx, src, p["reach"])
    if target is not None and ctx.power(target) <= p["max_power"]:
        return [("discard", target["uid"])]
    return []


register(
    Effect(
        name="snipe",
        kinds=frozenset({"deploy", "action", "normal"}),
        params={"reach": Param(int, 1, 5), "max_power": Param(int, 0, 20)},
        describe=lambda p: (
            f"If the first enemy actor within {p['reach']} squares forward has power "
            f"{p['max_power']} or less, discard it.",
            f"前方{p['reach']}マス以内の最初の相手アクターのパワーが{p['max_power']}以下なら、"
            "捨札に送る。",
        ),
        run=_snipe,
    )
)


def _bind(ctx: Any, src: dict[str, Any], p: dict[str, Any]) -> Ops:
    target = _first_enemy(ctx, src, p["reach"])
    return [("cancel", target["uid"])] if target is not None else []


register(
    Effect(
        name="bind",
        kinds=frozenset({"action"}),
        params={"reach": Param(int, 1, 5)},
        describe=lambda p: (
            f"The first enemy actor within {p['reach']} squares forward loses its plan and "
            "rests this turn.",
            f"前方{p['reach']}マス以内の最初の相手アクターは、このターンの計画を失い休息状態になる。",
        ),
        run=_bind,
    )
)


def _push(ctx: Any, src: dict[str, Any], p: dict[str, Any]) -> Ops:
    dx, dy = ctx.vector(src["owner"], "F")
    x, y = src["xy"]
    target = ctx.at((x + dx, y + dy))
    if target is None or target["owner"] == src["owner"]:
        return []
    dest = (x + 2 * dx, y + 2 * dy)
    if ctx.on_board(dest) and ctx.at(dest) is None:
        return [("push", target["uid"], dest)]
    return []


register(
    Effect(
        name="push",
        kinds=frozenset({"action"}),
        params={},
        describe=lambda p: (
            "Push the enemy actor directly in front of this one 1 square back, if that "
            "square is empty.",
            "正面の相手アクターを1マス押し戻す（押し戻す先が空いている時）。",
        ),
        run=_push,
    )
)

register(
    Effect(
        name="bolster",
        kinds=frozenset({"normal"}),
        params={"amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"Your actors in this square's column get power +{p['amount']} this turn.",
            f"このターン、このマスと同じ列の自分のアクターのパワー+{p['amount']}。",
        ),
        run=lambda ctx, src, p: [
            ("buff", a["uid"], p["amount"])
            for a in ctx.actors_of(src["owner"])
            if ctx.xy(a)[0] == src["xy"][0]
        ],
    )
)

register(
    Effect(
        name="guard",
        kinds=frozenset({"trait"}),
        params={"amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"Power +{p['amount']} in battles where an enemy moves onto this actor.",
            f"相手アクターに移動して来られた戦闘では、パワー+{p['amount']}。",
        ),
        battle=lambda ctx, actor, foe, defending, p: p["amount"] if defending else 0,
    )
)

register(
    Effect(
        name="hunter",
        kinds=frozenset({"trait"}),
        params={"attribute": Param(str, choices=ATTRIBUTES), "amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"Power +{p['amount']} in battles against {p['attribute']} actors.",
            f"{_ATTRIBUTE_JA[p['attribute']]}属性のアクターとの戦闘では、パワー+{p['amount']}。",
        ),
        battle=lambda ctx, actor, foe, defending, p: (
            p["amount"] if ctx.attribute(foe) == p["attribute"] else 0
        ),
    )
)


def _aura(ctx: Any, source: dict[str, Any], target: dict[str, Any], p: dict[str, Any]) -> int:
    if target is source or target["owner"] != source["owner"]:
        return 0
    (sx, sy), (tx, ty) = ctx.xy(source), ctx.xy(target)
    return p["amount"] if max(abs(sx - tx), abs(sy - ty)) == 1 else 0


register(
    Effect(
        name="aura",
        kinds=frozenset({"trait"}),
        params={"amount": Param(int, 1, 3)},
        describe=lambda p: (
            f"Your other actors next to this one get power +{p['amount']}.",
            f"隣接する自分の他のアクターのパワー+{p['amount']}。",
        ),
        aura=_aura,
    )
)

register(
    Effect(
        name="home_guard",
        kinds=frozenset({"trait"}),
        params={"amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"Power +{p['amount']} while on your own side.",
            f"自陣にいる間、パワー+{p['amount']}。",
        ),
        power=lambda ctx, actor, p: p["amount"] if ctx.side(ctx.xy(actor)) == actor["owner"] else 0,
    )
)

register(
    Effect(
        name="avenge",
        kinds=frozenset({"trigger"}),
        params={},
        describe=lambda p: (
            "The actor that beat this one goes to the discard pile too.",
            "この戦闘に勝ったアクターも捨札に送る。",
        ),
        run=lambda ctx, src, p: [("discard", src["winner"])] if src.get("winner") else [],
    )
)

register(
    Effect(
        name="return_to_hand",
        kinds=frozenset({"trigger"}),
        params={},
        describe=lambda p: ("Return this card to your hand.", "このカードを手札に戻す。"),
        run=lambda ctx, src, p: [("recover", src["owner"], src["card"])],
    )
)


def _pitfall(ctx: Any, src: dict[str, Any], actor: dict[str, Any], p: dict[str, Any]) -> Ops:
    return [("discard", actor["uid"])] if ctx.level(actor) <= p["max_level"] else []


register(
    Effect(
        name="pitfall",
        kinds=frozenset({"counter"}),
        params={"where": Param(str, choices=COUNTER_PLACES), "max_level": Param(int, 1, 3)},
        describe=lambda p: (
            f"The first enemy actor that enters this square this turn is discarded if its "
            f"level is {p['max_level']} or less.",
            f"このターン、このマスに最初に入った相手アクターのレベルが{p['max_level']}以下なら、"
            "捨札に送る。",
        ),
        enter=_pitfall,
    )
)

register(
    Effect(
        name="ambush",
        kinds=frozenset({"counter"}),
        params={"where": Param(str, choices=COUNTER_PLACES), "amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"The first enemy actor that enters this square this turn gets power "
            f"-{p['amount']} this turn.",
            f"このターン、このマスに最初に入った相手アクターのパワー-{p['amount']}。",
        ),
        enter=lambda ctx, src, actor, p: [("buff", actor["uid"], -p["amount"])],
    )
)


def _own_actor_here(ctx: Any, src: dict[str, Any]) -> dict[str, Any] | None:
    actor = ctx.at(src["xy"])
    return actor if actor is not None and actor["owner"] == src["owner"] else None


def _enemy_actor_here(ctx: Any, src: dict[str, Any]) -> dict[str, Any] | None:
    actor = ctx.at(src["xy"])
    return actor if actor is not None and actor["owner"] != src["owner"] else None


register(
    Effect(
        name="shield",
        kinds=frozenset({"counter"}),
        params={"where": Param(str, choices=COUNTER_PLACES), "amount": Param(int, 1, 5)},
        describe=lambda p: (
            f"When revealed, your actor on this square gets power +{p['amount']} this turn.",
            f"公開時、このマスの自分のアクターはこのターン、パワー+{p['amount']}。",
        ),
        run=lambda ctx, src, p: (
            [("buff", a["uid"], p["amount"])] if (a := _own_actor_here(ctx, src)) else []
        ),
    )
)

register(
    Effect(
        name="seal",
        kinds=frozenset({"counter"}),
        params={"where": Param(str, choices=COUNTER_PLACES)},
        describe=lambda p: (
            "When revealed, the enemy actor on this square loses its plan and rests this turn.",
            "公開時、このマスの相手アクターはこのターンの計画を失い休息状態になる。",
        ),
        run=lambda ctx, src, p: (
            [("cancel", a["uid"])] if (a := _enemy_actor_here(ctx, src)) else []
        ),
    )
)
