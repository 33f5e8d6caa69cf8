"""Computer players for Actual.

A bot sees exactly what a person in its seat sees: ``choose(view, legal)`` takes
``engine.player_view(state, seat)`` and ``engine.legal_actions(state, seat)`` and returns one
of those legal actions, or None when the seat has nothing to do but resign. ``decide`` is the
one helper that touches a full state, and it hands the bot nothing but those two values, so
no bot can read the opponent's hand or anyone's deck order.

``RandomBot`` picks uniformly among the legal game actions (never resigning, never changing
its Counter mode: turns still end because every use spends a card), answering a Counter
question at random too.

``SearchBot`` is flat Monte-Carlo over whole-turn plans with determinised hidden
information: it lists the plans its own hand allows (a beam search over card uses, plus
passing and discarding), samples opponent hands and deck orders consistent with its view,
plays each plan out in those worlds with a greedy rollout policy for a few turns, and keeps
the best plan by successive halving. It then plays the plan one action per call without
searching again unless the board stops matching the plan (after a Counter, say). Asked
about a Counter, it shows one whenever it holds one. Either bot waits (returns None) while
the defender decides on a Counter during its own turn.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from typing import Any

from minigames.actual.rules import engine
from minigames.actual.rules.engine import (
    ATTACK,
    COLUMNS,
    COUNTER,
    DIAGONAL,
    MOVE,
    ORTHOGONAL,
    OVER,
    PLAY,
    ROWS,
)
from minigames.game import IllegalAction

NOT_GAME_MOVES = ("resign", "counter_mode")
Piece = tuple[int, int, int, int, int]
Step = tuple[str, int, int, int]


def _require_view(view: Any) -> None:
    # Structural guard: a bot works from a player's view, never from the full state.
    if not isinstance(view, dict) or view.get("game") != engine.GAME or "viewer" not in view:
        raise TypeError("A bot takes player_view(state, seat), not a game state.")
    if view["viewer"] not in (0, 1):
        raise TypeError("A bot plays a seat; a spectator view cannot choose actions.")


def _playable(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in legal if a["type"] not in NOT_GAME_MOVES]


def decide(bot: Any, state: engine.State, seat: int) -> dict[str, Any] | None:
    """Ask ``bot`` for ``seat``'s action, handing it only that seat's view and legal actions."""
    return bot.choose(engine.player_view(state, seat), engine.legal_actions(state, seat))


def computer_action(
    state: engine.State, seat: int, *, level: str, seed: int
) -> dict[str, Any] | None:
    """The computer's next action for ``seat`` at a table: "random", or a search (0.4 s)."""
    player = RandomBot(seed) if level == "random" else SearchBot(seed, time_budget=0.4)
    return decide(player, state, seat)


class RandomBot:
    """Choose uniformly among the legal game actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return a random legal action, or None when the seat has nothing to play."""
        _require_view(view)
        options = _playable(legal)
        return self.rng.choice(options) if options else None


# --- evaluation ------------------------------------------------------------------------


def _distance(a: Piece, b: Piece) -> int:
    return abs(a[3] - b[3]) + abs(a[4] - b[4])


def _score(pieces: list[Piece] | tuple[Piece, ...], seat: int) -> float:
    """Return a material-and-pressure score for ``seat``: positive is good."""
    mine = [pc for pc in pieces if pc[1] == seat]
    theirs = [pc for pc in pieces if pc[1] != seat]
    if not theirs:
        return 100.0
    if not mine:
        return -100.0
    lives = sum(pc[2] for pc in mine) - sum(pc[2] for pc in theirs)
    # Hunting every enemy piece is how the game is won, so reward closing in on each one.
    chase = sum(min(_distance(t, m) for m in mine) for t in theirs) / len(theirs)
    return lives + 0.25 * (len(mine) - len(theirs)) - 0.12 * chase


def evaluate(state: engine.State, seat: int) -> float:
    """Return how good ``state`` is for ``seat``, from 0 (lost) to 1 (won)."""
    if state.phase == OVER:
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == seat else 0.0
    score = _score(state.pieces, seat)
    for who, sign in ((seat, 0.4), (1 - seat, -0.4)):
        kinds = state.kinds[who]
        if any(kinds[c] == COUNTER for c in state.hands[who]):
            score += sign
    return 1.0 / (1.0 + math.exp(-0.7 * score))


# --- rollout policy --------------------------------------------------------------------


def _policy_turn(s: engine.State, rng: random.Random, eps: float) -> None:
    """Play the current seat's whole turn greedily (attack, else close in), in place."""
    seat = s.current
    assert seat is not None
    kinds = s.kinds[seat]
    attack_dirs = ORTHOGONAL + DIAGONAL if s.options["diagonal_attack"] else ORTHOGONAL
    while s.phase == PLAY and s.current == seat:
        action = _policy_card_use(s, seat, kinds, attack_dirs, rng, eps)
        if action is None:
            break
        engine.step(s, action)
    if s.phase != PLAY or s.current != seat:
        return
    engine.step(s, _policy_turn_end(s, seat, kinds))


def _policy_card_use(
    s: engine.State,
    seat: int,
    kinds: dict[str, str],
    attack_dirs: tuple[tuple[int, int], ...],
    rng: random.Random,
    eps: float,
) -> dict[str, Any] | None:
    # The next card the policy uses, or None when it would rather stop. Seeded searches
    # repeat only while the RNG draws keep their order: one per attack candidate, then,
    # when no attack is made, one per move candidate and one to decide whether to explore.
    move_card, attack_card = _first_move_and_attack(s.hands[seat], kinds)
    occupied = {(pc[3], pc[4]): pc for pc in s.pieces}
    own = [pc for pc in s.pieces if pc[1] == seat]
    if attack_card is not None:
        target = _weakest_target(own, occupied, attack_dirs, seat, rng)
        if target is not None:
            return engine.use_action(seat, attack_card, *target)
    if move_card is not None:
        move = _closing_move(s, own, occupied, seat, rng, eps)
        if move is not None:
            return engine.use_action(seat, move_card, *move)
    return None


def _first_move_and_attack(hand: list[str], kinds: dict[str, str]) -> tuple[str | None, str | None]:
    move_card = attack_card = None
    for cid in hand:
        kind = kinds[cid]
        if kind == MOVE and move_card is None:
            move_card = cid
        elif kind == ATTACK and attack_card is None:
            attack_card = cid
    return move_card, attack_card


def _weakest_target(
    own: list[Piece],
    occupied: dict[tuple[int, int], Piece],
    attack_dirs: tuple[tuple[int, int], ...],
    seat: int,
    rng: random.Random,
) -> tuple[int, int, int] | None:
    """Return (piece, column, row) of an attack on the enemy piece with the fewest lives."""
    best = None
    for pc in own:
        for dc, dr in attack_dirs:
            target = occupied.get((pc[3] + dc, pc[4] + dr))
            if target is not None and target[1] != seat:
                # The random draw breaks ties between equally weak targets.
                key = (target[2], rng.random())
                if best is None or key < best[0]:
                    best = (key, pc[0], target[3], target[4])
    return None if best is None else best[1:]


def _closing_move(
    s: engine.State,
    own: list[Piece],
    occupied: dict[tuple[int, int], Piece],
    seat: int,
    rng: random.Random,
    eps: float,
) -> tuple[int, int, int] | None:
    """Return (piece, column, row) of the move that best closes in on an enemy, or None.

    With probability ``eps`` any legal move is taken instead, so rollouts explore.
    """
    enemies = [pc for pc in s.pieces if pc[1] != seat]
    moves = []
    for pc in own:
        here = min(abs(pc[3] - e[3]) + abs(pc[4] - e[4]) for e in enemies)
        for dc, dr in ORTHOGONAL:
            c, r = pc[3] + dc, pc[4] + dr
            if 0 <= c < COLUMNS and 0 <= r < ROWS and (c, r) not in occupied:
                there = min(abs(c - e[3]) + abs(r - e[4]) for e in enemies)
                moves.append((there - here, there, rng.random(), pc[0], c, r))
    if not moves:
        return None
    if rng.random() < eps:
        return rng.choice(moves)[3:]
    choice = min(moves)
    # A move that gets no closer is not worth a card.
    return choice[3:] if choice[0] < 0 else None


def _policy_turn_end(s: engine.State, seat: int, kinds: dict[str, str]) -> dict[str, Any]:
    hand = s.hands[seat]
    if not s.cards_used and hand and (not s.decks[seat] or all(kinds[c] == ATTACK for c in hand)):
        # A hand that cannot act, or a dead deck, is worth more cycled than held.
        cards = [c for c in hand if kinds[c] != COUNTER] if s.decks[seat] else list(hand)
        if cards:
            return {"type": "discard", "player": seat, "cards": cards}
    return {"type": "end_turn", "player": seat}


# --- planning on a light model ---------------------------------------------------------


def _successors(
    pieces: tuple[Piece, ...], hand: tuple[int, int], seat: int, diagonal: bool
) -> Iterator[tuple[Step, tuple[Piece, ...], tuple[int, int]]]:
    moves, attacks = hand
    occupied = {(pc[3], pc[4]): i for i, pc in enumerate(pieces)}
    for i, pc in enumerate(pieces):
        if pc[1] != seat:
            continue
        if moves:
            for dc, dr in ORTHOGONAL:
                c, r = pc[3] + dc, pc[4] + dr
                if 0 <= c < COLUMNS and 0 <= r < ROWS and (c, r) not in occupied:
                    after = pieces[:i] + ((pc[0], seat, pc[2], c, r),) + pieces[i + 1 :]
                    yield (MOVE, pc[0], c, r), after, (moves - 1, attacks)
        if attacks:
            for dc, dr in ORTHOGONAL + DIAGONAL if diagonal else ORTHOGONAL:
                c, r = pc[3] + dc, pc[4] + dr
                j = occupied.get((c, r))
                if j is not None and pieces[j][1] != seat:
                    t = pieces[j]
                    hit = () if t[2] == 1 else ((t[0], t[1], t[2] - 1, c, r),)
                    after = pieces[:j] + hit + pieces[j + 1 :]
                    yield (ATTACK, pc[0], c, r), after, (moves, attacks - 1)


class Plan:
    """A whole turn: card uses in order, then end the turn (or one discard instead)."""

    __slots__ = ("steps", "boards", "discard", "wins")

    def __init__(
        self,
        steps: tuple[Step, ...] = (),
        boards: tuple[tuple[Piece, ...], ...] = (),
        discard: dict[str, Any] | None = None,
        wins: bool = False,
    ) -> None:
        self.steps = steps
        # boards[i] is the board expected just before steps[i] and, last, after them all.
        self.boards = boards
        self.discard = discard
        self.wins = wins


def _view_pieces(view: dict[str, Any]) -> tuple[Piece, ...]:
    return tuple(
        sorted(
            (p["id"], p["owner"], p["life"], p["position"][0], p["position"][1])
            for p in view["board"]["pieces"]
        )
    )


# --- determinisation -------------------------------------------------------------------


def sample_world(
    view: dict[str, Any], rng: random.Random, prior: tuple[int, int] = (10, 9)
) -> engine.State:
    """Build one full state consistent with ``view``, guessing what it hides.

    The opponent's unknown cards follow ``prior`` (Move, Attack) less the faces it has shown
    since its last reshuffle, plus its Counter unless that is shown, anywhere among them (an
    attack that landed says nothing: the Counter may have been held back); own deck order
    is shuffled. Both seats show a Counter at once ("always"), so simulations never pause.
    """
    seat = view["viewer"]
    opp = 1 - seat
    you, players = view["you"], view["players"]
    s = engine.State()
    s.options = dict(view["options"])
    s.seed = rng.getrandbits(48)
    s.phase = PLAY
    s.counter_mode = [engine.ALWAYS, engine.ALWAYS]
    s.log = None
    kinds: list[dict[str, str]] = [{}, {}]
    serial = 0

    def make(who: int, counts: dict[str, int]) -> list[str]:
        nonlocal serial
        ids = []
        for kind, n in counts.items():
            for _ in range(n):
                serial += 1
                cid = f"w{serial}"
                kinds[who][cid] = kind
                ids.append(cid)
        return ids

    hand = []
    for card in you["hand"]:
        kinds[seat][card["id"]] = card["kind"]
        hand.append(card["id"])
    deck = make(seat, you["deck_kinds"])
    rng.shuffle(deck)
    s.hands[seat], s.decks[seat] = hand, deck
    s.used_shown[seat] = make(seat, players[seat]["used_shown"])
    s.used_hidden[seat] = make(seat, you["used_face_down_kinds"])

    theirs = players[opp]
    shown = theirs["used_shown"]
    n_hand, n_down, n_deck = theirs["hand_count"], theirs["used_face_down"], theirs["deck_count"]
    unknown = n_hand + n_down + n_deck
    has_counter = shown[COUNTER] == 0 and unknown > 0
    pool = [MOVE] * max(0, prior[0] - shown[MOVE]) + [ATTACK] * max(0, prior[1] - shown[ATTACK])
    rng.shuffle(pool)
    rest = unknown - int(has_counter)
    pool = pool[:rest]
    while len(pool) < rest:
        pool.append(rng.choice((MOVE, ATTACK)))
    rng.shuffle(pool)
    if has_counter:
        pool.insert(rng.randrange(unknown), COUNTER)
    ids = [make(opp, {kind: 1})[0] for kind in pool]
    s.hands[opp] = ids[:n_hand]
    s.used_hidden[opp] = ids[n_hand : n_hand + n_down]
    s.decks[opp] = ids[n_hand + n_down :]
    s.used_shown[opp] = make(opp, shown)
    s.kinds = kinds
    s.pieces = list(_view_pieces(view))
    s.current = view["current_player"]
    s.turn = view["turn"]
    s.cards_used = view["cards_used_this_turn"]
    return s


# --- the searching player --------------------------------------------------------------


class SearchBot:
    """Flat Monte-Carlo over whole-turn plans with determinised hidden information.

    ``time_budget`` caps each search in seconds; ``max_playouts`` caps it in playouts (use it
    for reproducible tests); ``horizon`` is how many turns a playout runs after the plan.
    """

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = 0.5,
        max_playouts: int | None = None,
        horizon: int = 4,
        candidates: int = 10,
        first_round: int = 8,
        beam: int = 24,
        rollout_eps: float = 0.15,
        lives: tuple[int, ...] = (3, 2),
        deck: dict[str, int] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.max_playouts = max_playouts
        self.horizon = horizon
        self.candidates = candidates
        self.first_round = first_round
        self.beam = beam
        self.rollout_eps = rollout_eps
        self.lives = lives
        self.deck = deck or engine.suggested_deck()
        engine.validate_setup(self.deck, self._setup_pieces())
        self._plan: Plan | None = None
        self._plan_at: tuple[int, int] = (-1, 0)
        self.searches = 0
        self.playouts = 0

    def _setup_pieces(self) -> list[dict[str, int]]:
        columns = engine.CENTRED_COLUMNS[len(self.lives)]
        return [{"column": c, "life": life} for c, life in zip(columns, self.lives, strict=True)]

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return this seat's next action, searching when a new turn plan is needed."""
        _require_view(view)
        options = _playable(legal)
        if not options:
            return None
        seat = view["viewer"]
        types = {a["type"] for a in options}
        if "setup" in types:
            return {
                "type": "setup",
                "player": seat,
                "deck": dict(self.deck),
                "pieces": self._setup_pieces(),
            }
        if "counter" in types:
            # Countering cancels a life lost and costs the attacker one: it never hurts.
            return max(options, key=lambda a: a.get("use") is True)
        if len(options) == 1:
            return options[0]
        action = self._follow_plan(view, options)
        if action is None:
            self._plan = self._search(view, options)
            self._plan_at = (view["turn"], 0)
            action = self._follow_plan(view, options)
        if action is None:  # the plan could not be mapped onto the legal list
            action = next(a for a in options if a["type"] == "end_turn")
        return action

    # -- following a plan --

    def _follow_plan(
        self, view: dict[str, Any], options: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        plan = self._plan
        turn, index = self._plan_at
        if plan is None or turn != view["turn"]:
            return None
        if plan.discard is not None:
            if index != 0:
                return None
            self._plan_at = (turn, 1)
            return plan.discard if plan.discard in options else None
        if plan.boards[index] != _view_pieces(view):
            return None
        if index == len(plan.steps):
            return next((a for a in options if a["type"] == "end_turn"), None)
        kind, piece, column, row = plan.steps[index]
        hand = {card["id"]: card["kind"] for card in view["you"]["hand"]}
        for a in options:
            if (
                a["type"] == "use"
                and hand.get(a["card"]) == kind
                and a.get("piece") == piece
                and a.get("target") == [column, row]
            ):
                self._plan_at = (turn, index + 1)
                return a
        return None

    # -- searching --

    def _candidate_plans(self, view: dict[str, Any], options: list[dict[str, Any]]) -> list[Plan]:
        seat = view["viewer"]
        root = _view_pieces(view)
        hand_kinds = [card["kind"] for card in view["you"]["hand"]]
        hand = (hand_kinds.count(MOVE), hand_kinds.count(ATTACK))
        diagonal = view["options"]["diagonal_attack"]
        found: list[tuple[float, Plan]] = []
        frontier = [(root, hand, (), (root,))]
        seen = {(root, hand)}
        for _ in range(sum(hand)):
            layer = []
            for pieces, cards, steps, boards in frontier:
                for step, after, left in _successors(pieces, cards, seat, diagonal):
                    if (after, left) in seen:
                        continue
                    seen.add((after, left))
                    plan = Plan(steps + (step,), boards + (after,))
                    if all(pc[1] == seat for pc in after):
                        plan.wins = True
                        return [plan]
                    layer.append((_score(after, seat), after, left, plan))
            if not layer:
                break
            layer.sort(key=lambda item: item[0], reverse=True)
            layer = layer[: self.beam]
            found.extend((score, plan) for score, _, _, plan in layer)
            frontier = [(after, left, plan.steps, plan.boards) for _, after, left, plan in layer]
        found.sort(key=lambda item: item[0], reverse=True)
        plans = [Plan((), (root,))]
        plans.extend(plan for _, plan in found[: self.candidates])
        plans.extend(Plan(discard=a) for a in options if a["type"] == "discard")
        return plans

    def _playout(self, world: engine.State, plan: Plan, seat: int) -> float:
        s = world.copy()
        kinds = s.kinds[seat]
        for kind, piece, column, row in plan.steps:
            if s.phase != PLAY or s.current != seat:
                break
            card = next((c for c in s.hands[seat] if kinds[c] == kind), None)
            if card is None:
                break
            try:
                engine.step(s, engine.use_action(seat, card, piece, column, row))
            except IllegalAction:
                # A Counter killed the piece this step needed: the rest of the plan lapses.
                break
        if s.phase == PLAY and s.current == seat:
            engine.step(s, plan.discard or {"type": "end_turn", "player": seat})
        for _ in range(self.horizon):
            if s.phase != PLAY:
                break
            _policy_turn(s, self.rng, self.rollout_eps)
        self.playouts += 1
        return evaluate(s, seat)

    def _search(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Plan:
        start = time.perf_counter()
        self.searches += 1
        plans = self._candidate_plans(view, options)
        if len(plans) == 1:
            return plans[0]
        seat = view["viewer"]
        deadline = start + self.time_budget
        cap = self.max_playouts if self.max_playouts is not None else math.inf
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        alive = list(range(len(plans)))
        per_round = self.first_round
        done = 0
        out_of_budget = False
        while len(alive) > 1 and not out_of_budget:
            for _ in range(per_round):
                world = sample_world(view, self.rng)
                for i in alive:
                    totals[i] += self._playout(world, plans[i], seat)
                    counts[i] += 1
                    done += 1
                    if done >= cap or time.perf_counter() >= deadline:
                        out_of_budget = True
                        break
                if out_of_budget:
                    break
            alive.sort(key=lambda i: totals[i] / max(1, counts[i]), reverse=True)
            if not out_of_budget:
                alive = alive[: (len(alive) + 1) // 2]
            per_round *= 2
        return plans[alive[0]]
