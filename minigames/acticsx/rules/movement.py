"""Actics X: moving actors, one square per step for both sides at once.

A step may meet an armed counter, an own actor (the move stops short), an enemy (a battle),
another mover (a battle where they meet or pass through each other) or the enemy base.
"""

from __future__ import annotations

from minigames.acticsx.rules.battles import battle
from minigames.acticsx.rules.cards import card_term
from minigames.acticsx.rules.state import (
    DIRECTION_WORDS,
    GOAL,
    INFO,
    NAME,
    VECTORS,
    actor_range,
    side_label,
)
from minigames.acticsx.rules.table import Table
from minigames.game import message


class Mover:
    """One actor's move under way: where it is, what is left, whether it is in the air."""

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


def run_moves(table: Table, entries: list[tuple[dict, dict]]) -> None:
    """Move up to two actors (one per side) at the same time, one square per step."""
    movers = []
    for actor, entry in entries:
        direction = entry["direction"]
        reach = actor_range(actor["card"], actor["awake"]).get(direction, 0)
        distance = min(entry["distance"], reach)
        who = table.who(actor)
        word = DIRECTION_WORDS[direction]
        if distance <= 0:
            table.say(
                "stay",
                message(
                    "%(actor)s on %(square)s can no longer move %(direction)s and stays.",
                    actor=who,
                    square=actor["square"],
                    direction=word,
                ),
                uid=actor["uid"],
                square=actor["square"],
            )
            continue
        table.say(
            "move_start",
            message(
                "%(actor)s on %(square)s moves %(distance)d %(direction)s.",
                actor=who,
                square=actor["square"],
                distance=distance,
                direction=word,
            ),
            uid=actor["uid"],
            square=actor["square"],
            direction=direction,
            distance=distance,
        )
        movers.append(Mover(actor, table.xys[actor["uid"]], direction, distance))
    while any(m.active for m in movers):
        _move_step(table, movers)
        if table.lost():
            for m in movers:
                if m.active and table.alive(m.a):
                    _land(table, m)
            break


def _move_step(table: Table, movers: list[Mover]) -> None:
    """Advance every active mover one square, both sides at once.

    The phases run in this order because each decides what the next one sees: movers whose
    move is over come to rest first, then those blocked by their own side stop short, then
    the rest lift off their squares so that two movers meeting (head-on or on the same
    square) are settled together before anyone steps in turn.
    """
    _aim(table, movers)
    going = [m for m in movers if m.active]
    _stop_short_of_own_side(table, going)
    going = [m for m in going if m.active]
    _lift(table, going)
    if _meet(table, going):
        return
    # Walkers before jumpers: a jumper only passes over what is already there.
    going.sort(key=lambda mv: mv.hopping())
    for m in going:
        _advance(table, m)


def _aim(table: Table, movers: list[Mover]) -> None:
    """Point each mover at its next square, or end its move if it has none to go to."""
    for m in movers:
        if not m.active:
            continue
        if not table.alive(m.a):
            m.active = False
            continue
        nxt = (m.pos[0] + m.dx, m.pos[1] + m.dy)
        if m.left <= 0 or not table.on_board(nxt):
            _land(table, m)
            continue
        m.nxt = nxt


def _stop_short_of_own_side(table: Table, going: list[Mover]) -> None:
    """End the moves of those about to walk into an actor of their own side."""
    # Moving into an own actor stops one square short (digest decision); Jump passes over.
    for m in going:
        occupant = table.grid.get(m.nxt)
        if occupant is not None and occupant["owner"] == m.owner and not m.hopping():
            if m.air:
                _land(table, m)
                continue
            table.say(
                "blocked",
                message(
                    "%(actor)s stops on %(square)s, short of %(other)s on %(next)s.",
                    actor=table.who(m.a),
                    square=NAME[m.pos],
                    other=table.who(occupant),
                    next=NAME[m.nxt],
                ),
                uid=m.a["uid"],
                square=NAME[m.pos],
            )
            _land(table, m)


def _lift(table: Table, going: list[Mover]) -> None:
    """Take the movers off their squares: a square being left this step blocks no one."""
    for m in going:
        if not m.air and table.grid.get(m.pos) is m.a:
            del table.grid[m.pos]


def _meet(table: Table, going: list[Mover]) -> bool:
    """Settle two walkers that meet this step; return whether they did (the step is over).

    They meet by swapping squares head-on or by entering the same empty square; a mover
    jumping over its next square meets no one there.
    """
    if len(going) != 2:
        return False
    m, n = going
    if m.hopping() or n.hopping():
        return False
    if m.nxt == n.pos and n.nxt == m.pos and not m.air and not n.air:
        _swap_battle(table, m, n)
        return True
    if m.nxt == n.nxt and m.nxt not in table.grid:
        _collide(table, m, n)
        return True
    return False


def _advance(table: Table, m: Mover) -> None:
    """One mover's step onto its next square: enter it, jump over it, stop, or attack."""
    if not m.active or not table.alive(m.a):
        m.active = False
        return
    occupant = table.grid.get(m.nxt)
    m.left -= 1
    if occupant is None:
        _enter(table, m)
    elif m.jump and m.left > 0:
        _jump_over(table, m)
    elif occupant["owner"] == m.owner:
        _put_back(table, m)
        _land(table, m)
    else:
        _attack(table, m, occupant, m.nxt)


def _jump_over(table: Table, m: Mover) -> None:
    """Pass over the occupied next square in the air; the mover lands later (``_land``)."""
    m.pos, m.air = m.nxt, True
    table.xys[m.a["uid"]] = m.pos
    table.say(
        "jump",
        message("%(actor)s jumps over %(square)s.", actor=table.who(m.a), square=NAME[m.pos]),
        uid=m.a["uid"],
        square=NAME[m.pos],
    )


def _step_to(table: Table, m: Mover, xy: tuple[int, int]) -> None:
    m.pos, m.air = xy, False
    table.place(m.a, xy)
    m.ground.append(xy)
    table.say(
        "step",
        message("%(actor)s moves to %(square)s.", actor=table.who(m.a), square=NAME[xy]),
        uid=m.a["uid"],
        square=NAME[xy],
    )


def _enter(table: Table, m: Mover) -> None:
    """Step onto the empty next square: counters there react, the enemy base scores."""
    _step_to(table, m, m.nxt)
    if not _react(table, m, m.pos):
        return
    if m.pos in GOAL[m.owner]:
        _base_entry(table, m)


def _attack(table: Table, m: Mover, defender: dict, xy: tuple[int, int]) -> None:
    """Move onto an enemy actor: a battle there, and the move ends (digest decision)."""
    if not _react(table, m, xy):
        return
    winner = battle(table, m.a, defender, a_defends=False, b_defends=True, where=NAME[xy])
    if winner is m.a:
        _step_to(table, m, xy)
        _after_win(table, m)
    else:
        m.active = False
        if table.alive(m.a):
            # The attacker lost the battle but survived it (cannot happen with the
            # starter set); leave it where it started the step.
            _put_back(table, m)


def _after_win(table: Table, m: Mover) -> None:
    if m.pos in GOAL[m.owner]:
        _base_entry(table, m)
    else:
        _land(table, m)


def _swap_battle(table: Table, m: Mover, n: Mover) -> None:
    """Two actors trying to pass through each other: a battle (digest decision)."""
    m.left -= 1
    n.left -= 1
    where = f"{NAME[m.pos]}/{NAME[n.pos]}"
    winner = battle(table, m.a, n.a, a_defends=False, b_defends=False, where=where)
    for mover in (m, n):
        if winner is mover.a:
            # Seed over digest: the digest has the winner "end on the contested square",
            # the seed has it "move to its target square" (目的のマスに移動), which in a
            # head-on swap is the loser's square, so the winner goes on into it.
            _step_to(table, mover, mover.nxt)
            if _react(table, mover, mover.pos):
                _after_win(table, mover)
        else:
            mover.active = False


def _collide(table: Table, m: Mover, n: Mover) -> None:
    """Two actors entering the same empty square in the same step: a battle there."""
    m.left -= 1
    n.left -= 1
    xy = m.nxt
    survivors = [mv for mv in (m, n) if _react(table, mv, xy)]
    if len(survivors) == 1:
        _enter_after_counter(table, survivors[0])
        return
    if not survivors:
        return
    winner = battle(table, m.a, n.a, a_defends=False, b_defends=False, where=NAME[xy])
    for mover in (m, n):
        if winner is mover.a:
            _step_to(table, mover, xy)
            _after_win(table, mover)
        else:
            mover.active = False


def _enter_after_counter(table: Table, m: Mover) -> None:
    _step_to(table, m, m.nxt)
    if m.pos in GOAL[m.owner]:
        _base_entry(table, m)


def _put_back(table: Table, m: Mover) -> None:
    if not m.air and m.pos not in table.grid:
        table.place(m.a, m.pos)


def _land(table: Table, m: Mover) -> None:
    """End a move; a jumper still in the air comes down on the last free square it crossed."""
    m.active = False
    if not table.alive(m.a):
        return
    if m.air:
        for xy in reversed(m.ground):
            occupant = table.grid.get(xy)
            if occupant is None:
                m.pos, m.air = xy, False
                table.place(m.a, xy)
                table.say(
                    "land",
                    message(
                        "%(actor)s comes down on %(square)s.", actor=table.who(m.a), square=NAME[xy]
                    ),
                    uid=m.a["uid"],
                    square=NAME[xy],
                )
                break
            if occupant["owner"] != m.owner:
                m.air = False
                table.xys[m.a["uid"]] = xy
                winner = battle(
                    table, m.a, occupant, a_defends=False, b_defends=True, where=NAME[xy]
                )
                if winner is m.a:
                    table.place(m.a, xy)
                break
        else:
            # Every square it crossed is taken by its own side: it has nowhere to come
            # down (no starter card can get here), so it leaves the board.
            table.remove(m.a)
        if not table.alive(m.a):
            return
    table.update_awakening(m.a)


def _react(table: Table, mover: Mover, xy: tuple[int, int]) -> bool:
    """Let an armed enemy counter on ``xy`` react to the mover; return whether it survives."""
    actor = mover.a
    for counter in table.counters:
        if counter["used"] or counter["xy"] != xy or counter["owner"] == actor["owner"]:
            continue
        eff, params, _index = INFO[counter["card"]].counter
        if eff.enter is None:
            continue
        counter["used"] = True
        table.say(
            "counter",
            message(
                "%(side)s's %(card)s on %(square)s springs on %(actor)s.",
                side=side_label(counter["owner"]),
                card=card_term(counter["card"]),
                square=NAME[xy],
                actor=table.who(actor),
            ),
            card=counter["card"],
            square=NAME[xy],
            uid=actor["uid"],
        )
        src = {"owner": counter["owner"], "xy": xy, "card": counter["card"], "uid": None}
        table.apply_ops(eff.enter(table, src, actor, params))
        if not table.alive(actor):
            mover.active = False
            return False
    return True


def _base_entry(table: Table, mover: Mover) -> None:
    """An actor reaching the enemy base costs that player 1 life and is discarded (seed)."""
    actor = mover.a
    enemy = 1 - actor["owner"]
    seat = table.s["players"][enemy]
    seat["life"] = max(0, seat["life"] - 1)
    who = table.who(actor)
    square = actor["square"]
    table.say(
        "base",
        message(
            "%(actor)s enters %(side)s's base on %(square)s: %(side)s loses 1 life "
            "(%(life)d left), and %(actor)s goes to the discard pile.",
            actor=who,
            side=side_label(enemy),
            square=square,
            life=seat["life"],
        ),
        uid=actor["uid"],
        square=square,
        player=enemy,
        life=seat["life"],
    )
    table.remove(actor)
    mover.active = False
