"""Actics X: battles between two actors, and the triggers of the cards that lose them."""

from __future__ import annotations

from minigames.acticsx.rules.cards import card_text_term
from minigames.acticsx.rules.state import ATTRIBUTE_WORDS, BEATS, INFO
from minigames.acticsx.rules.table import Table
from minigames.game import Message, message


def battle_power(table: Table, actor: dict, foe: dict, defending: bool) -> tuple[int, Message]:
    """Return the actor's power in this battle, and how narration accounts for it."""
    base = table.power(actor)
    info = INFO[actor["card"]]
    bonus = sum(fn(table, actor, foe, defending, params) for fn, params in info.battle_traits)
    total = max(0, base + bonus)
    foe_attr = INFO[foe["card"]].attribute
    doubled = BEATS.get(info.attribute) == foe_attr
    if doubled:
        total *= 2
    who = table.who(actor)
    if doubled and bonus:
        described = message(
            "%(actor)s (power %(power)d, trait %(bonus)s, %(attribute)s vs %(foe)s: %(total)d)",
            actor=who,
            power=base,
            bonus=f"{bonus:+d}",
            attribute=ATTRIBUTE_WORDS[info.attribute],
            foe=ATTRIBUTE_WORDS[foe_attr],
            total=total,
        )
    elif doubled:
        described = message(
            "%(actor)s (power %(power)d, %(attribute)s vs %(foe)s: %(total)d)",
            actor=who,
            power=base,
            attribute=ATTRIBUTE_WORDS[info.attribute],
            foe=ATTRIBUTE_WORDS[foe_attr],
            total=total,
        )
    elif bonus:
        described = message(
            "%(actor)s (power %(power)d, trait %(bonus)s: %(total)d)",
            actor=who,
            power=base,
            bonus=f"{bonus:+d}",
            total=total,
        )
    else:
        described = message("%(actor)s (power %(power)d)", actor=who, power=base)
    return total, described


def battle(
    table: Table, a: dict, b: dict, *, a_defends: bool, b_defends: bool, where: str
) -> dict | None:
    """Fight a battle; send the loser (both on equal power) to the discard pile.

    Return the winner if it is still on the board afterwards, else None.
    """
    ta, desc_a = battle_power(table, a, b, a_defends)
    tb, desc_b = battle_power(table, b, a, b_defends)
    data = {"a": a["uid"], "b": b["uid"], "square": where, "power": [ta, tb]}
    if ta == tb:
        table.say(
            "battle",
            message(
                "%(a)s and %(b)s are equal on %(square)s: both go to the discard pile.",
                a=desc_a,
                b=desc_b,
                square=where,
            ),
            winner=None,
            **data,
        )
        losers, winner = [a, b], None
    else:
        (w, dw), (lo, dl) = ((a, desc_a), (b, desc_b)) if ta > tb else ((b, desc_b), (a, desc_a))
        table.say(
            "battle",
            message("%(winner)s beats %(loser)s on %(square)s.", winner=dw, loser=dl, square=where),
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
    """Run the trigger texts of an actor that lost a battle, from the square it stood on."""
    info = INFO[actor["card"]]
    for eff, params, index in info.trigger:
        src = {
            "owner": actor["owner"],
            "xy": xy,
            "card": actor["card"],
            "uid": actor["uid"],
            "winner": winner["uid"] if winner is not None else None,
        }
        table.say(
            "trigger",
            message(
                "%(actor)s's trigger: %(text)s",
                actor=table.who(actor),
                text=card_text_term(actor["card"], index),
            ),
            uid=actor["uid"],
            card=actor["card"],
        )
        table.apply_ops(eff.run(table, src, params))
