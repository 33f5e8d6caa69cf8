"""Actics X: battles between two actors, and the triggers of the cards that lose them."""

from __future__ import annotations

from minigames.acticsx.state import ATTR_JA, BEATS, INFO
from minigames.acticsx.table import Table


def battle_power(
    table: Table, actor: dict, foe: dict, defending: bool
) -> tuple[int, int, str, str]:
    """Return (power, power in this battle, English note, Japanese note)."""
    base = table.power(actor)
    info = INFO[actor["card"]]
    bonus = sum(fn(table, actor, foe, defending, params) for fn, params in info.battle_traits)
    total = max(0, base + bonus)
    en = ja = ""
    if bonus:
        en += f", trait {bonus:+d}"
        ja += f"、特性{bonus:+d}"
    foe_attr = INFO[foe["card"]].attribute
    if BEATS.get(info.attribute) == foe_attr:
        total *= 2
        en += f", {info.attribute} vs {foe_attr}: {total}"
        ja += f"、{ATTR_JA[info.attribute]}対{ATTR_JA[foe_attr]}：{total}"
    elif bonus:
        en += f": {total}"
        ja += f"：{total}"
    return base, total, en, ja


def battle(
    table: Table, a: dict, b: dict, *, a_defends: bool, b_defends: bool, where: str
) -> dict | None:
    """Fight a battle; send the loser (both on equal power) to the discard pile.

    Return the winner if it is still on the board afterwards, else None.
    """
    pa, ta, na_en, na_ja = battle_power(table, a, b, a_defends)
    pb, tb, nb_en, nb_ja = battle_power(table, b, a, b_defends)
    (a_en, a_ja), (b_en, b_ja) = table.who(a), table.who(b)
    desc_a = (f"{a_en} (power {pa}{na_en})", f"{a_ja}（パワー{pa}{na_ja}）")
    desc_b = (f"{b_en} (power {pb}{nb_en})", f"{b_ja}（パワー{pb}{nb_ja}）")
    data = {"a": a["uid"], "b": b["uid"], "square": where, "power": [ta, tb]}
    if ta == tb:
        table.say(
            "battle",
            f"{desc_a[0]} and {desc_b[0]} are equal on {where}: both go to the discard pile.",
            f"{where}で{desc_a[1]}と{desc_b[1]}が相打ち。両方とも捨札へ。",
            winner=None,
            **data,
        )
        losers, winner = [a, b], None
    else:
        (w, dw), (lo, dl) = ((a, desc_a), (b, desc_b)) if ta > tb else ((b, desc_b), (a, desc_a))
        table.say(
            "battle",
            f"{dw[0]} beats {dl[0]} on {where}.",
            f"{where}で{dw[1]}が{dl[1]}に勝利。",
            winner=w["uid"],
            **data,
        )
        losers, winner = [lo], w
    spots = {lo["uid"]: table.xys[lo["uid"]] for lo in losers}
    for lo in losers:
        table.remove(lo)
    for lo in losers:
        fire_triggers(table, lo, spots[lo["uid"]], winner)
    if winner is not None and winner["uid"] in table.xys:
        return winner
    return None


def fire_triggers(table: Table, actor: dict, xy: tuple[int, int], winner: dict | None) -> None:
    info = INFO[actor["card"]]
    for eff, params, text in info.trigger:
        src = {
            "owner": actor["owner"],
            "xy": xy,
            "card": actor["card"],
            "uid": actor["uid"],
            "winner": winner["uid"] if winner is not None else None,
        }
        en, ja = table.who(actor)
        table.say(
            "trigger",
            f"{en}'s trigger: {text['text']['en']}",
            f"{ja}のトリガー：{text['text']['ja']}",
            uid=actor["uid"],
            card=actor["card"],
        )
        table.apply_ops(eff.run(table, src, params))
