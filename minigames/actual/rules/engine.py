"""Rules engine for Actual (アクチュアル), the card-and-board skirmish game.

Pure Python: nothing here imports Django. The module implements the shared interface of
``minigames.game`` (initial_state, legal_actions, apply, is_terminal, winner, player_view,
to_dict, from_dict) plus ``result``, ``suggested_deck``, ``validate_setup``, and for
simulations ``step`` (apply in place), ``use_action`` and ``seat_to_act``.

Rules follow the Actual rules digest and its Japanese seed (the seed would win where they
disagree; no disagreement was found). Comments marked "Seed:" cite the seed where it settles
a point.

Board and seats
    5 columns (0-4) x 7 rows (0-6). Seat 0's start row is row 0, seat 1's is row 6.
    Squares are written ``[column, row]``. Piece ids are integers: seat 0 owns 0-4, seat 1
    owns 5-9 (in the order its setup listed them). Card ids are 8-character hex tokens drawn
    from the game's seeded RNG when the game starts; they are stable for the whole game and
    unique across both seats.

Actions (JSON dicts; every action carries ``"player"``, the seat 0 or 1 that plays it)
    {"type": "setup", "player": 0,
     "deck": {"move": 10, "attack": 9, "counter": 1},
     "pieces": [{"column": 1, "life": 3}, {"column": 3, "life": 2}]}
        Secret, simultaneous setup. Columns are board columns on the seat's start row. A seat
        may send it again to replace its setup until both seats are ready; the game starts as
        soon as both are.
    {"type": "use", "player": 0, "card": "1f2e3d4c", "piece": 2, "target": [2, 1]}
        Use one card with one own piece. Move: target is an empty orthogonal neighbour.
        Attack: target holds an enemy piece on an adjacent square (orthogonal; diagonal too
        with the ``diagonal_attack`` option). Counter on your own turn does nothing: it takes
        no "piece" nor "target" (both are ignored if given) and goes to the used pile.
    {"type": "discard", "player": 0, "cards": ["1f2e3d4c", ...]}
        Discard one or more cards face down. Only before any card was used this turn, and it
        ends the turn (the player draws back up to 5 and play passes), since nothing else
        may follow a discard.
    {"type": "end_turn", "player": 0}
        Draw back up to 5 and pass the turn. Ending without using a card is a pass.
    {"type": "counter", "player": 1, "use": true}
        Answer the open Counter question (only the defender, only while one is open): show
        the Counter (refused without one in hand) or let the attack land.
    {"type": "counter_mode", "player": 1, "value": "ask" | "always" | "never"}
        Set the seat's Counter mode (private; "ask" by default; allowed at any time, on
        either seat's turn, until the game ends). It is no move of the game: it logs nothing
        and changes nothing anyone else sees.
    {"type": "resign", "player": 0}
        Either seat, any time before the game ends (setup included).

The Counter is decided at the attack
    Seed: 「自分の駒が敵から「隣接する1マスを攻撃」を受けたとき、表にして相手に見せることで」:
    the defender decides when the attack comes, knowing which piece attacks which, and each
    attack of a turn is its own decision. A seat in "ask" mode is asked on **every** attack
    on its pieces, whatever its hand holds, so the pause tells the attacker nothing; the
    attacker cannot act until the defender answers, and a declined Counter leaves no public
    trace (the attack lands exactly as it does on a hand without one). "always" reveals a
    held Counter at once and "never" keeps it; neither pauses.

legal_actions lists
    * setup: seven variants with the suggested deck, one per way of splitting 5 lives, on
      centred columns (``apply`` accepts any valid setup);
    * use: every card kind in hand x own piece x target, naming the first card of that kind
      in hand (``apply`` accepts any card of the kind); a Counter appears once, without
      piece;
    * discard: one card of each kind, the whole hand, and the whole hand but the Counter
      (``apply`` accepts any non-empty set of held cards);
    * end_turn, then resign and counter_mode (each other mode) for every seat whenever the
      game is not over;
    * while a Counter question is open: the defender's answers (``use: true`` only with a
      Counter in hand) and the extras; the attacker has the extras only.

Views (``player_view(state, seat or None)``, JSON types only)
    "board": pieces with id, owner, life, position (empty before the start); "players": per
    seat public counts (hand, deck, used pile, faces shown in the used pile by kind,
    face-down count, pieces and lives left; the last two None before the start, when only
    "ready" is public); "you" (None for a spectator): own hand with ids and kinds, own deck
    and face-down discards by kind (never in order), own setup and "counter_mode";
    "pending": None, or the open Counter question (attacker, defender, attacking and target
    piece) with "prompt" "you_may_counter" for the defender and "waiting_for_defender" for
    everyone else; "log": the last moves in public form (kinds, pieces and squares, never
    card ids), each with its "text", a message of ``minigames.game`` (``narration``);
    "result" once the game is over. Only the seat itself sees its Counter mode.

Match options (``initial_state(options, seed)``)
    diagonal_attack: bool = False; turn_limit: int | None = None (counts the turns of both
    seats; after turn ``turn_limit`` ends the game is a draw); first_player: 0 | 1 | None
    (None: the seeded RNG picks); counter_mode: a mode or one per seat (default "ask").

Storage
    ``to_dict`` writes version 3. Older saved states load: version 2 kept a standing
    "always counter" choice (on becomes "always", off "never"); version 1 asked a defender
    who held a Counter and had "always counter" off (off becomes "ask", on "always", and
    its open question stays open), and logged a declined Counter in public, a trace that
    is dropped on load.
"""

from __future__ import annotations

import random
from typing import Any

from minigames.game import IllegalAction, InvalidState, Message, message, message_plural

GAME = "actual"
VERSION = 3
# Saved states of these versions are upgraded on load (see "Storage" above): the standing
# choice of each, on and off, read as a Counter mode.
OLD_VERSIONS = {1: ("always", "ask"), 2: ("always", "never")}
COLUMNS = 5
ROWS = 7
START_ROWS = (0, ROWS - 1)
HAND_SIZE = 5
DECK_SIZE = 20
TOTAL_LIFE = 5
MAX_PIECES = 5
MOVE, ATTACK, COUNTER = "move", "attack", "counter"
KINDS = (MOVE, ATTACK, COUNTER)
SETUP, PLAY, OVER = "setup", "play", "over"
ASK, ALWAYS, NEVER = "ask", "always", "never"
COUNTER_MODES = (ASK, ALWAYS, NEVER)
REASONS = ("pieces", "resign", "turn_limit")
# The view shows "the last moves"; storing only these keeps saved games small.
LOG_LIMIT = 40
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
OPTION_KEYS = ("diagonal_attack", "turn_limit", "first_player")
# Columns used by the setup variants legal_actions offers, by number of pieces.
CENTRED_COLUMNS = {1: (2,), 2: (1, 3), 3: (1, 2, 3), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4)}
LIFE_SPLITS = ((5,), (4, 1), (3, 2), (3, 1, 1), (2, 2, 1), (2, 1, 1, 1), (1, 1, 1, 1, 1))
# A piece on the board: (id, owner, life, column, row).
Piece = tuple[int, int, int, int, int]


class State:
    """A whole game, hidden information included; never shown to a player as is.

    Pieces are tuples ``(id, owner, life, column, row)``; ``pending`` is None or the open
    Counter question ``(attacker_seat, attacking_piece_id, target_piece_id)``. ``options``,
    ``setups`` entries and ``kinds`` are never mutated once built, so copies share them.
    """

    __slots__ = (
        "options",
        "seed",
        "rng_draws",
        "phase",
        "setups",
        "counter_mode",
        "kinds",
        "hands",
        "decks",
        "used_shown",
        "used_hidden",
        "pieces",
        "current",
        "turn",
        "cards_used",
        "pending",
        "winner",
        "reason",
        "log",
    )

    def __init__(self) -> None:
        self.options: dict[str, Any] = {
            "diagonal_attack": False,
            "turn_limit": None,
            "first_player": None,
        }
        self.seed = 0
        self.rng_draws = 0
        self.phase = SETUP
        self.setups: list[dict[str, Any] | None] = [None, None]
        self.counter_mode = [ASK, ASK]
        self.kinds: list[dict[str, str]] = [{}, {}]
        self.hands: list[list[str]] = [[], []]
        self.decks: list[list[str]] = [[], []]
        self.used_shown: list[list[str]] = [[], []]
        self.used_hidden: list[list[str]] = [[], []]
        self.pieces: list[tuple[int, int, int, int, int]] = []
        self.current: int | None = None
        self.turn = 0
        self.cards_used = 0
        self.pending: tuple[int, int, int] | None = None
        self.winner: int | None = None
        self.reason: str | None = None
        # None switches logging off, which simulations use for speed.
        self.log: list[dict[str, Any]] | None = []

    def copy(self) -> State:
        """Return an independent copy (shared parts are never mutated)."""
        s = State.__new__(State)
        s.options = self.options
        s.seed = self.seed
        s.rng_draws = self.rng_draws
        s.phase = self.phase
        s.setups = list(self.setups)
        s.counter_mode = list(self.counter_mode)
        s.kinds = self.kinds
        h, d, u, x = self.hands, self.decks, self.used_shown, self.used_hidden
        s.hands = [h[0][:], h[1][:]]
        s.decks = [d[0][:], d[1][:]]
        s.used_shown = [u[0][:], u[1][:]]
        s.used_hidden = [x[0][:], x[1][:]]
        s.pieces = self.pieces[:]
        s.current = self.current
        s.turn = self.turn
        s.cards_used = self.cards_used
        s.pending = self.pending
        s.winner = self.winner
        s.reason = self.reason
        s.log = None if self.log is None else self.log[:]
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<actual State phase={self.phase} turn={self.turn} current={self.current} "
            f"pieces={self.pieces}>"
        )


# --- setup -----------------------------------------------------------------------------


def suggested_deck() -> dict[str, int]:
    """Return the deck the app suggests: 10 Move, 9 Attack, 1 Counter."""
    return {MOVE: 10, ATTACK: 9, COUNTER: 1}


def _is_int(value: Any) -> bool:
    return type(value) is int


def validate_setup(deck: Any, pieces: Any) -> tuple[dict[str, int], list[dict[str, int]]]:
    """Check a deck composition and piece list; return normalised copies or raise IllegalAction."""
    if not isinstance(deck, dict):
        raise IllegalAction("Give the deck as card counts.")
    for kind in deck:
        if kind not in KINDS:
            raise IllegalAction("Unknown card kind: %(kind)s.", kind=kind)
    counts = {kind: deck.get(kind, 0) for kind in KINDS}
    if not all(_is_int(n) and n >= 0 for n in counts.values()):
        raise IllegalAction("Card counts must be whole numbers of at least 0.")
    if counts[COUNTER] > 1:
        raise IllegalAction("A deck may hold at most one Counter.")
    if sum(counts.values()) != DECK_SIZE:
        raise IllegalAction("A deck holds exactly 20 cards.")
    if not isinstance(pieces, list) or not 1 <= len(pieces) <= MAX_PIECES:
        raise IllegalAction("Prepare between 1 and 5 pieces.")
    normal = []
    for piece in pieces:
        if not isinstance(piece, dict):
            raise IllegalAction("Give each piece a column and a life.")
        column, life = piece.get("column"), piece.get("life")
        if not _is_int(column) or not 0 <= column < COLUMNS:
            raise IllegalAction("Columns run from 0 to 4.")
        if not _is_int(life) or life < 1:
            raise IllegalAction("Each piece needs a life of at least 1.")
        normal.append({"column": column, "life": life})
    if sum(p["life"] for p in normal) != TOTAL_LIFE:
        raise IllegalAction("Lives must add up to 5.")
    if len({p["column"] for p in normal}) != len(normal):
        raise IllegalAction("Two pieces cannot share a square.")
    return counts, normal


def _setup_variants(player: int) -> list[dict[str, Any]]:
    return [
        {
            "type": "setup",
            "player": player,
            "deck": suggested_deck(),
            "pieces": [
                {"column": c, "life": life}
                for c, life in zip(CENTRED_COLUMNS[len(split)], split, strict=True)
            ],
        }
        for split in LIFE_SPLITS
    ]


# --- creation --------------------------------------------------------------------------


def _normalise_options(options: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(options, dict):
        raise IllegalAction("Match options must be a mapping.")
    for key in options:
        if key not in (*OPTION_KEYS, "counter_mode"):
            raise IllegalAction("Unknown match option: %(option)s.", option=key)
    diagonal = options.get("diagonal_attack", False)
    if not isinstance(diagonal, bool):
        raise IllegalAction("diagonal_attack must be true or false.")
    limit = options.get("turn_limit")
    if limit is not None and (not _is_int(limit) or limit < 1):
        raise IllegalAction("The turn limit must be a positive whole number or none.")
    first = options.get("first_player")
    if first is not None and (not _is_int(first) or first not in (0, 1)):
        raise IllegalAction("The first player must be seat 0, seat 1 or none.")
    modes = options.get("counter_mode", ASK)
    if isinstance(modes, str):
        modes = [modes, modes]
    if not isinstance(modes, list) or len(modes) != 2 or not all(m in COUNTER_MODES for m in modes):
        raise IllegalAction("Choose when to show your Counter: ask, always or never.")
    return {"diagonal_attack": diagonal, "turn_limit": limit, "first_player": first}, list(modes)


def initial_state(options: dict[str, Any] | None = None, seed: int = 0) -> State:
    """Create a game in its setup stage, with the match options and the RNG seed."""
    if not _is_int(seed):
        raise IllegalAction("The seed must be a whole number.")
    s = State()
    s.options, s.counter_mode = _normalise_options(options if options is not None else {})
    s.seed = seed
    return s


def _rng(s: State) -> random.Random:
    # One fresh generator per random event, seeded from (seed, event number): the state
    # stays two integers and replaying the same actions replays the same randomness.
    r = random.Random(f"{GAME}:{s.seed}:{s.rng_draws}")
    s.rng_draws += 1
    return r


def _log(s: State, entry: dict[str, Any]) -> None:
    if s.log is not None:
        entry["turn"] = s.turn
        s.log.append(entry)
        if len(s.log) > LOG_LIMIT:
            del s.log[0]


def _start(s: State) -> None:
    rng = _rng(s)
    taken: set[str] = set()
    kinds: list[dict[str, str]] = []
    for seat in (0, 1):
        deck = s.setups[seat]["deck"]  # type: ignore[index]
        mapping: dict[str, str] = {}
        for kind in KINDS:
            for _ in range(deck[kind]):
                cid = f"{rng.getrandbits(32):08x}"
                while cid in taken:
                    cid = f"{rng.getrandbits(32):08x}"
                taken.add(cid)
                mapping[cid] = kind
        ids = list(mapping)
        rng.shuffle(ids)
        kinds.append(mapping)
        s.decks[seat] = ids
        s.hands[seat] = [ids.pop() for _ in range(HAND_SIZE)]
        for index, piece in enumerate(s.setups[seat]["pieces"]):  # type: ignore[index]
            s.pieces.append(
                (seat * MAX_PIECES + index, seat, piece["life"], piece["column"], START_ROWS[seat])
            )
    s.kinds = kinds
    first = s.options["first_player"]
    # Seed: the players draw their five cards first and only then decide who starts.
    s.current = rng.randrange(2) if first is None else first
    s.phase = PLAY
    s.turn = 1
    _log(s, {"type": "start", "first_player": s.current})


# --- play primitives -------------------------------------------------------------------


def _piece_index(s: State, piece_id: Any) -> int:
    for i, pc in enumerate(s.pieces):
        if pc[0] == piece_id:
            return i
    return -1


def _occupant(s: State, column: int, row: int) -> tuple[int, int, int, int, int] | None:
    for pc in s.pieces:
        if pc[3] == column and pc[4] == row:
            return pc
    return None


def _finish(s: State, winner: int | None, reason: str) -> None:
    s.phase = OVER
    s.winner = winner
    s.reason = reason
    s.pending = None
    _log(s, {"type": "end", "winner": winner, "reason": reason})


def _hit(s: State, index: int) -> None:
    pid, owner, life, col, row = s.pieces[index]
    life -= 1
    if life > 0:
        s.pieces[index] = (pid, owner, life, col, row)
        _log(s, {"type": "damage", "piece": pid, "life": life, "removed": False})
        return
    del s.pieces[index]
    _log(s, {"type": "damage", "piece": pid, "life": 0, "removed": True})
    # Seed: a player loses the moment their last piece falls, even in the middle of a turn.
    for pc in s.pieces:
        if pc[1] == owner:
            return
    _finish(s, 1 - owner, "pieces")


def _counter_in_hand(s: State, seat: int) -> str | None:
    kinds = s.kinds[seat]
    for cid in s.hands[seat]:
        if kinds[cid] == COUNTER:
            return cid
    return None


def _do_counter(s: State, defender: int, card: str, attacking_piece: int) -> None:
    s.hands[defender].remove(card)
    s.used_shown[defender].append(card)
    _log(s, {"type": "counter", "player": defender, "piece": attacking_piece})
    # The counter's damage is not an attack, so it can never be countered in turn.
    _hit(s, _piece_index(s, attacking_piece))


def _resolve_attack(s: State, attacker: int, attacking_piece: int, target_piece: int) -> None:
    defender = 1 - attacker
    mode = s.counter_mode[defender]
    if mode == ASK:
        # Asked whatever the hand holds: a pause that only a Counter caused would show it.
        s.pending = (attacker, attacking_piece, target_piece)
        return
    card = _counter_in_hand(s, defender) if mode == ALWAYS else None
    if card is None:
        _hit(s, _piece_index(s, target_piece))
    else:
        _do_counter(s, defender, card, attacking_piece)


def _answer_counter(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.pending is not None
    attacker, attacking_piece, target_piece = s.pending
    if seat == attacker:
        raise IllegalAction("Waiting for the defender to decide on a Counter.")
    use = action.get("use")
    if not isinstance(use, bool):
        raise IllegalAction("Answer the Counter question with yes or no.")
    card = _counter_in_hand(s, seat)
    if use and card is None:
        raise IllegalAction("You hold no Counter to show.")
    s.pending = None
    if use:
        _do_counter(s, seat, card, attacking_piece)  # type: ignore[arg-type]
    else:
        # Logged exactly as an attack on a hand without a Counter: no trace of a decline.
        _hit(s, _piece_index(s, target_piece))


def _end_turn(s: State) -> None:
    seat = s.current
    assert seat is not None
    hand, deck = s.hands[seat], s.decks[seat]
    reshuffled = False
    # Seed: with an empty deck nothing is drawn until the hand is used up or discarded;
    # then, at the end of that turn, the used pile becomes the new deck and 5 are drawn.
    if not deck and not hand:
        deck.extend(s.used_shown[seat])
        deck.extend(s.used_hidden[seat])
        s.used_shown[seat] = []
        s.used_hidden[seat] = []
        _rng(s).shuffle(deck)
        reshuffled = True
    drew = 0
    while len(hand) < HAND_SIZE and deck:
        hand.append(deck.pop())
        drew += 1
    _log(s, {"type": "end_turn", "player": seat, "drew": drew, "reshuffled": reshuffled})
    s.cards_used = 0
    limit = s.options["turn_limit"]
    if limit is not None and s.turn >= limit:
        _finish(s, None, "turn_limit")
        return
    s.turn += 1
    s.current = 1 - seat


# --- actions ---------------------------------------------------------------------------


def _square(value: Any) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise IllegalAction("Give the target square as [column, row].")
    return value[0], value[1]


def _use(s: State, seat: int, action: dict[str, Any]) -> None:
    card = action.get("card")
    hand = s.hands[seat]
    if not isinstance(card, str) or card not in hand:
        raise IllegalAction("You do not hold that card.")
    kind = s.kinds[seat][card]
    if kind == COUNTER:
        hand.remove(card)
        s.used_shown[seat].append(card)
        s.cards_used += 1
        _log(s, {"type": "use", "player": seat, "kind": COUNTER})
        return
    index = _piece_index(s, action.get("piece"))
    if index < 0 or s.pieces[index][1] != seat:
        raise IllegalAction("Choose one of your own pieces on the board.")
    pid, _, life, col, row = s.pieces[index]
    tcol, trow = _square(action.get("target"))
    if not (0 <= tcol < COLUMNS and 0 <= trow < ROWS):
        raise IllegalAction("That square is off the board.")
    dc, dr = abs(tcol - col), abs(trow - row)
    occupant = _occupant(s, tcol, trow)
    if kind == MOVE:
        if dc + dr != 1:
            raise IllegalAction("A Move card moves a piece one square up, down, left or right.")
        if occupant is not None:
            raise IllegalAction("That square is occupied.")
        hand.remove(card)
        s.used_shown[seat].append(card)
        s.cards_used += 1
        s.pieces[index] = (pid, seat, life, tcol, trow)
        _log(
            s,
            {
                "type": "use",
                "player": seat,
                "kind": MOVE,
                "piece": pid,
                "from": [col, row],
                "to": [tcol, trow],
            },
        )
        return
    if dc == 1 and dr == 1:
        if not s.options["diagonal_attack"]:
            raise IllegalAction("Diagonal attacks are not allowed in this match.")
    elif dc + dr != 1:
        raise IllegalAction("You can only attack an adjacent square.")
    if occupant is None:
        raise IllegalAction("There is no piece on that square to attack.")
    if occupant[1] == seat:
        raise IllegalAction("You cannot attack your own piece.")
    hand.remove(card)
    s.used_shown[seat].append(card)
    s.cards_used += 1
    _log(
        s,
        {
            "type": "use",
            "player": seat,
            "kind": ATTACK,
            "piece": pid,
            "target": [tcol, trow],
            "target_piece": occupant[0],
        },
    )
    _resolve_attack(s, seat, pid, occupant[0])


def _discard(s: State, seat: int, action: dict[str, Any]) -> None:
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards:
        raise IllegalAction("Choose at least one card to discard.")
    if s.cards_used:
        raise IllegalAction("You have used cards this turn, so you cannot discard.")
    hand = s.hands[seat]
    if not all(isinstance(c, str) and c in hand for c in cards):
        raise IllegalAction("You do not hold that card.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("Each card can be discarded only once.")
    for card in cards:
        hand.remove(card)
        s.used_hidden[seat].append(card)
    _log(s, {"type": "discard", "player": seat, "count": len(cards)})
    _end_turn(s)


def step(state: State, action: dict[str, Any]) -> None:
    """Apply an action IN PLACE (for simulations); raise IllegalAction if it is not legal.

    On IllegalAction the state may be half-changed: use ``apply`` unless you own a copy.
    """
    s = state
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a mapping.")
    kind = action.get("type")
    seat = action.get("player")
    if not _is_int(seat) or seat not in (0, 1):
        raise IllegalAction("Unknown player.")
    if s.phase == OVER:
        raise IllegalAction("The game is over.")
    if kind == "resign":
        _log(s, {"type": "resign", "player": seat})
        _finish(s, 1 - seat, "resign")
        return
    if kind == "counter_mode":
        value = action.get("value")
        if value not in COUNTER_MODES:
            raise IllegalAction("Choose when to show your Counter: ask, always or never.")
        s.counter_mode[seat] = value
        return
    if kind == "setup":
        if s.phase != SETUP:
            raise IllegalAction("The game has already started.")
        deck, pieces = validate_setup(action.get("deck"), action.get("pieces"))
        s.setups[seat] = {"deck": deck, "pieces": pieces}
        _log(s, {"type": "ready", "player": seat})
        if s.setups[0] is not None and s.setups[1] is not None:
            _start(s)
        return
    if kind not in ("use", "discard", "end_turn", "counter"):
        raise IllegalAction("Unknown action.")
    if s.phase == SETUP:
        raise IllegalAction("The game has not started yet.")
    if s.pending is not None:
        if kind == "counter":
            _answer_counter(s, seat, action)
            return
        if seat == s.pending[0]:
            raise IllegalAction("Waiting for the defender to decide on a Counter.")
        raise IllegalAction("Decide whether to show your Counter first.")
    if kind == "counter":
        raise IllegalAction("There is no attack to counter.")
    if seat != s.current:
        raise IllegalAction("It is not your turn.")
    if kind == "use":
        _use(s, seat, action)
    elif kind == "discard":
        _discard(s, seat, action)
    else:
        _end_turn(s)


def apply(state: State, action: dict[str, Any]) -> State:
    """Return the state after ``action``; the input is never changed. Raise IllegalAction."""
    s = state.copy()
    step(s, action)
    return s


def use_action(player: int, card: str, piece: int, column: int, row: int) -> dict[str, Any]:
    """Build a "use" action for a Move or Attack card."""
    return {"type": "use", "player": player, "card": card, "piece": piece, "target": [column, row]}


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """List the legal actions of ``player`` now (see the module docstring for the subset)."""
    s = state
    if player not in (0, 1) or s.phase == OVER:
        return []
    extras = _extra_actions(s, player)
    if s.phase == SETUP:
        if s.setups[player] is None:
            return _setup_variants(player) + extras
        return extras
    if s.pending is not None:
        return _counter_answers(s, player) + extras
    if player != s.current:
        return extras
    return _turn_actions(s, player) + extras


def _extra_actions(s: State, player: int) -> list[dict[str, Any]]:
    # Not moves of the game: open to either seat at any time until the game ends.
    return [
        {"type": "resign", "player": player},
        *(
            {"type": "counter_mode", "player": player, "value": mode}
            for mode in COUNTER_MODES
            if mode != s.counter_mode[player]
        ),
    ]


def _counter_answers(s: State, player: int) -> list[dict[str, Any]]:
    assert s.pending is not None
    if player == s.pending[0]:
        # The attacker waits for the defender's answer.
        return []
    answers = [{"type": "counter", "player": player, "use": False}]
    if _counter_in_hand(s, player) is not None:
        answers.insert(0, {"type": "counter", "player": player, "use": True})
    return answers


def _turn_actions(s: State, player: int) -> list[dict[str, Any]]:
    # One card stands for its kind: apply accepts any card of the kind, so listing each
    # card would only repeat the same moves.
    first: dict[str, str] = {}
    kinds = s.kinds[player]
    for cid in s.hands[player]:
        first.setdefault(kinds[cid], cid)
    occupied = {(pc[3], pc[4]): pc[1] for pc in s.pieces}
    own = [pc for pc in s.pieces if pc[1] == player]
    actions: list[dict[str, Any]] = []
    if MOVE in first:
        actions.extend(_move_actions(player, first[MOVE], own, occupied))
    if ATTACK in first:
        dirs = ORTHOGONAL + DIAGONAL if s.options["diagonal_attack"] else ORTHOGONAL
        actions.extend(_attack_actions(player, first[ATTACK], own, occupied, dirs))
    if COUNTER in first:
        actions.append({"type": "use", "player": player, "card": first[COUNTER]})
    if s.hands[player] and not s.cards_used:
        actions.extend(_discard_actions(player, s.hands[player], first))
    actions.append({"type": "end_turn", "player": player})
    return actions


def _move_actions(
    player: int, card: str, own: list[Piece], occupied: dict[tuple[int, int], int]
) -> list[dict[str, Any]]:
    actions = []
    for pc in own:
        for dc, dr in ORTHOGONAL:
            c, r = pc[3] + dc, pc[4] + dr
            if 0 <= c < COLUMNS and 0 <= r < ROWS and (c, r) not in occupied:
                actions.append(use_action(player, card, pc[0], c, r))
    return actions


def _attack_actions(
    player: int,
    card: str,
    own: list[Piece],
    occupied: dict[tuple[int, int], int],
    dirs: tuple[tuple[int, int], ...],
) -> list[dict[str, Any]]:
    actions = []
    for pc in own:
        for dc, dr in dirs:
            c, r = pc[3] + dc, pc[4] + dr
            # Squares off the board are never occupied, so they fall out with empty ones.
            if occupied.get((c, r), player) != player:
                actions.append(use_action(player, card, pc[0], c, r))
    return actions


def _discard_actions(player: int, hand: list[str], first: dict[str, str]) -> list[dict[str, Any]]:
    options = [[cid] for cid in first.values()]
    options.append(list(hand))
    if COUNTER in first and len(hand) > 1:
        options.append([cid for cid in hand if cid != first[COUNTER]])
    # A small hand makes some of these the same set of cards: list each set once.
    actions = []
    seen: set[tuple[str, ...]] = set()
    for cards in options:
        key = tuple(sorted(cards))
        if key not in seen:
            seen.add(key)
            actions.append({"type": "discard", "player": player, "cards": cards})
    return actions


# --- outcome ---------------------------------------------------------------------------


def has_started(state: State) -> bool:
    """Tell whether play is under way (both seats have prepared in secret)."""
    return state.phase != SETUP


def seat_to_act(state: State) -> int | None:
    """Return the seat the game waits for: the one preparing, asked, or on turn (None: over)."""
    s = state
    if s.phase == OVER:
        return None
    if s.phase == SETUP:
        return 0 if s.setups[0] is None else 1
    if s.pending is not None:
        return 1 - s.pending[0]
    return s.current


def is_terminal(state: State) -> bool:
    """Tell whether the game is over."""
    return state.phase == OVER


def winner(state: State) -> int | None:
    """Return the winning seat, or None for a draw or a game still going."""
    return state.winner if state.phase == OVER else None


def _started(s: State) -> bool:
    # A game resigned during setup is over without ever having started.
    return s.turn >= 1


def _pieces_left(s: State) -> list[int]:
    counts = [0, 0]
    for pc in s.pieces:
        counts[pc[1]] += 1
    return counts


def result(state: State) -> dict[str, Any] | None:
    """Return {"winner", "reason", "pieces_left"} once the game is over, else None."""
    if state.phase != OVER:
        return None
    return {"winner": state.winner, "reason": state.reason, "pieces_left": _pieces_left(state)}


# --- views -----------------------------------------------------------------------------


def _kind_counts(s: State, seat: int, cards: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(KINDS, 0)
    kinds = s.kinds[seat]
    for cid in cards:
        counts[kinds[cid]] += 1
    return counts


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    # Entries are shared between states; callers get copies they may change freely.
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


def narration(entry: dict[str, Any]) -> Message:
    """Word one log entry as a message; ``{"seat": n}`` stands for that seat's name."""
    kind = entry["type"]
    name = {"seat": entry.get("player")}
    if kind == "use":
        if entry["kind"] == MOVE:
            return message("%(name)s moved a piece.", name=name)
        if entry["kind"] == ATTACK:
            return message("%(name)s attacked.", name=name)
        return message("%(name)s used a Counter on their own turn.", name=name)
    if kind == "counter":
        return message("%(name)s revealed a Counter: the attacker is hit instead.", name=name)
    if kind == "damage":
        if entry["removed"]:
            return message("A piece was removed.")
        return message("A piece was hit (life %(life)s).", life=entry["life"])
    if kind == "discard":
        return message_plural(
            "%(name)s discarded %(count)s card face down.",
            "%(name)s discarded %(count)s cards face down.",
            entry["count"],
            name=name,
            count=entry["count"],
        )
    if kind == "end_turn":
        return message("%(name)s ended the turn.", name=name)
    if kind == "resign":
        return message("%(name)s resigned.", name=name)
    if kind == "ready":
        return message("%(name)s is ready.", name=name)
    if kind == "start":
        return message("The game starts.")
    return message("The game is over.")


def player_view(state: State, player: int | None) -> dict[str, Any]:
    """Return what ``player`` (0, 1 or None for a spectator) may see, as JSON types."""
    s = state
    if player not in (0, 1, None):
        raise ValueError("player must be 0, 1 or None")
    started = _started(s)
    lives = [0, 0]
    for pc in s.pieces:
        lives[pc[1]] += pc[2]
    left = _pieces_left(s)
    players = []
    for seat in (0, 1):
        players.append(
            {
                "seat": seat,
                "ready": s.setups[seat] is not None,
                "hand_count": len(s.hands[seat]),
                "deck_count": len(s.decks[seat]),
                "used_count": len(s.used_shown[seat]) + len(s.used_hidden[seat]),
                "used_shown": _kind_counts(s, seat, s.used_shown[seat]),
                "used_face_down": len(s.used_hidden[seat]),
                # Seed: piece count and lives stay secret until the game starts.
                "pieces_left": left[seat] if started else None,
                "lives_left": lives[seat] if started else None,
            }
        )
    you = None
    if player is not None:
        setup = s.setups[player]
        you = {
            "seat": player,
            "counter_mode": s.counter_mode[player],
            "setup": None
            if setup is None
            else {"deck": dict(setup["deck"]), "pieces": [dict(p) for p in setup["pieces"]]},
            "hand": [{"id": cid, "kind": s.kinds[player][cid]} for cid in s.hands[player]],
            # Kinds only, never order: the owner knows what they built and what they saw.
            "deck_kinds": _kind_counts(s, player, s.decks[player]),
            "used_face_down_kinds": _kind_counts(s, player, s.used_hidden[player]),
        }
    return {
        "game": GAME,
        "viewer": player,
        "phase": s.phase,
        "options": dict(s.options),
        "turn": s.turn,
        "current_player": s.current,
        "cards_used_this_turn": s.cards_used,
        "can_discard": s.phase == PLAY and not s.cards_used and s.pending is None,
        "board": {
            "columns": COLUMNS,
            "rows": ROWS,
            "pieces": [
                {"id": pc[0], "owner": pc[1], "life": pc[2], "position": [pc[3], pc[4]]}
                for pc in s.pieces
            ],
        },
        "players": players,
        "you": you,
        "pending": _pending_view(s, player),
        "log": [{**_copy_entry(e), "text": narration(e)} for e in s.log or ()],
        "result": result(s),
    }


def _pending_view(s: State, player: int | None) -> dict[str, Any] | None:
    # The same for the attacker and spectators whatever the defender holds.
    if s.pending is None:
        return None
    attacker, attacking_piece, target_piece = s.pending
    return {
        "attacker": attacker,
        "defender": 1 - attacker,
        "attacking_piece": attacking_piece,
        "target_piece": target_piece,
        "prompt": "you_may_counter" if player == 1 - attacker else "waiting_for_defender",
    }


# --- storage ---------------------------------------------------------------------------


def to_dict(state: State) -> dict[str, Any]:
    """Return the whole state (hidden parts and RNG position included) as JSON types."""
    s = state
    return {
        "game": GAME,
        "version": VERSION,
        "board": {"columns": COLUMNS, "rows": ROWS},
        "options": dict(s.options),
        "seed": s.seed,
        "rng_draws": s.rng_draws,
        "phase": s.phase,
        "setups": [
            None
            if setup is None
            else {"deck": dict(setup["deck"]), "pieces": [dict(p) for p in setup["pieces"]]}
            for setup in s.setups
        ],
        "counter_mode": list(s.counter_mode),
        "cards": [dict(k) for k in s.kinds],
        "hands": [list(h) for h in s.hands],
        "decks": [list(d) for d in s.decks],
        "used_shown": [list(u) for u in s.used_shown],
        "used_hidden": [list(u) for u in s.used_hidden],
        "pieces": [
            {"id": pc[0], "owner": pc[1], "life": pc[2], "column": pc[3], "row": pc[4]}
            for pc in s.pieces
        ],
        "current": s.current,
        "turn": s.turn,
        "cards_used": s.cards_used,
        "pending": None
        if s.pending is None
        else {
            "attacker": s.pending[0],
            "attacking_piece": s.pending[1],
            "target_piece": s.pending[2],
        },
        "winner": s.winner,
        "reason": s.reason,
        "log": None if s.log is None else [_copy_entry(e) for e in s.log],
    }


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidState(message)


def _pair_of_lists(data: dict[str, Any], key: str) -> list[list[str]]:
    value = data.get(key)
    _check(isinstance(value, list) and len(value) == 2, f"{key} must hold two lists")
    for part in value:
        _check(isinstance(part, list), f"{key} must hold two lists")
        _check(all(isinstance(c, str) for c in part), f"{key} must hold card ids")
    return [list(value[0]), list(value[1])]


def from_dict(data: dict[str, Any]) -> State:
    """Rebuild a state saved by ``to_dict``; raise InvalidState on anything inconsistent."""
    _check(isinstance(data, dict), "state must be a mapping")
    _check(data.get("game") == GAME, "not an Actual state")
    if data.get("version") in OLD_VERSIONS:
        return from_dict(_upgrade(data))
    _check(data.get("version") == VERSION, "not an Actual state")
    _check(data.get("board") == {"columns": COLUMNS, "rows": ROWS}, "the board must be 5 x 7")
    # Part by part, in this order: later checks lean on parts already loaded (the piles on
    # the setups, the Counter question on the pieces and the seat on turn).
    s = State()
    s.options = _load_options(data)
    s.seed, s.rng_draws = data.get("seed"), data.get("rng_draws")
    _check(_is_int(s.seed), "seed must be an integer")
    _check(_is_int(s.rng_draws) and s.rng_draws >= 0, "rng_draws must be a count")
    s.phase = data.get("phase")
    _check(s.phase in (SETUP, PLAY, OVER), "unknown phase")
    s.setups = _load_setups(data)
    s.counter_mode = _load_counter_modes(data)
    s.kinds = _load_card_kinds(data)
    s.hands = _pair_of_lists(data, "hands")
    s.decks = _pair_of_lists(data, "decks")
    s.used_shown = _pair_of_lists(data, "used_shown")
    s.used_hidden = _pair_of_lists(data, "used_hidden")
    s.turn = data.get("turn")
    _check(_is_int(s.turn) and s.turn >= 0, "turn must be a count")
    started = _started(s)
    _check(started or s.phase != PLAY, "play without a first turn")
    _check_cards(s, started)
    s.pieces = _load_pieces(data)
    _load_turn(s, data, started)
    s.pending = _load_pending(s, data)
    _load_outcome(s, data, started)
    s.log = _load_log(data)
    return s


def _load_options(data: dict[str, Any]) -> dict[str, Any]:
    try:
        options, _ = _normalise_options(data.get("options"))
    except IllegalAction as exc:
        raise InvalidState(str(exc)) from exc
    # Match creation fills in missing options; a saved state must spell every one out.
    _check(set(data["options"]) == set(OPTION_KEYS), "options must list every match option")
    return options


def _load_setups(data: dict[str, Any]) -> list[dict[str, Any] | None]:
    setups = data.get("setups")
    _check(isinstance(setups, list) and len(setups) == 2, "setups must hold two entries")
    loaded: list[dict[str, Any] | None] = []
    for setup in setups:
        if setup is None:
            loaded.append(None)
            continue
        _check(isinstance(setup, dict), "a setup must be a mapping")
        try:
            deck, pieces = validate_setup(setup.get("deck"), setup.get("pieces"))
        except IllegalAction as exc:
            raise InvalidState(str(exc)) from exc
        loaded.append({"deck": deck, "pieces": pieces})
    return loaded


def _load_counter_modes(data: dict[str, Any]) -> list[str]:
    modes = data.get("counter_mode")
    _check(
        isinstance(modes, list) and len(modes) == 2 and all(m in COUNTER_MODES for m in modes),
        "counter_mode must hold two Counter modes",
    )
    return list(modes)


def _load_card_kinds(data: dict[str, Any]) -> list[dict[str, str]]:
    cards = data.get("cards")
    _check(isinstance(cards, list) and len(cards) == 2, "cards must hold two mappings")
    for mapping in cards:
        _check(isinstance(mapping, dict), "cards must hold two mappings")
        _check(all(k in KINDS for k in mapping.values()), "unknown card kind")
    return [dict(cards[0]), dict(cards[1])]


def _check_cards(s: State, started: bool) -> None:
    # Every card of a seat is in exactly one pile, and the piles add up to the deck built.
    _check(not (set(s.kinds[0]) & set(s.kinds[1])), "card ids must be unique")
    for seat in (0, 1):
        held = s.hands[seat] + s.decks[seat] + s.used_shown[seat] + s.used_hidden[seat]
        _check(len(held) == len(set(held)), "a card is in two places")
        _check(set(held) == set(s.kinds[seat]), "cards and piles disagree")
        _check(len(s.hands[seat]) <= HAND_SIZE, "a hand holds at most 5 cards")
        if started:
            _check(s.setups[seat] is not None, "started without both setups")
            _check(
                _kind_counts(s, seat, held) == s.setups[seat]["deck"],
                "cards do not match the deck built",
            )
        else:
            _check(not held, "cards exist before the start")


def _load_pieces(data: dict[str, Any]) -> list[Piece]:
    raw_pieces = data.get("pieces")
    _check(isinstance(raw_pieces, list), "pieces must be a list")
    pieces: list[Piece] = []
    ids, squares = set(), set()
    for raw in raw_pieces:
        piece = _load_piece(raw)
        pid, _, _, col, row = piece
        _check(pid not in ids, "piece ids must be unique")
        _check((col, row) not in squares, "two pieces on one square")
        ids.add(pid)
        squares.add((col, row))
        pieces.append(piece)
    for seat in (0, 1):
        _check(sum(pc[2] for pc in pieces if pc[1] == seat) <= TOTAL_LIFE, "too many lives")
    return pieces


def _load_piece(raw: Any) -> Piece:
    _check(isinstance(raw, dict), "a piece must be a mapping")
    pid, owner, life = raw.get("id"), raw.get("owner"), raw.get("life")
    col, row = raw.get("column"), raw.get("row")
    _check(_is_int(owner) and owner in (0, 1), "piece owner must be 0 or 1")
    _check(_is_int(pid) and pid // MAX_PIECES == owner and pid >= 0, "bad piece id")
    _check(_is_int(life) and 1 <= life <= TOTAL_LIFE, "piece lives must be positive")
    _check(_is_int(col) and 0 <= col < COLUMNS, "piece column off the board")
    _check(_is_int(row) and 0 <= row < ROWS, "piece row off the board")
    return (pid, owner, life, col, row)


def _load_turn(s: State, data: dict[str, Any], started: bool) -> None:
    s.current, s.cards_used = data.get("current"), data.get("cards_used")
    _check(_is_int(s.cards_used) and 0 <= s.cards_used <= DECK_SIZE, "cards_used out of range")
    if started:
        _check(_is_int(s.current) and s.current in (0, 1), "current must be 0 or 1")
    else:
        _check(s.current is None and s.turn == 0 and not s.pieces, "setup stage with play data")


def _load_pending(s: State, data: dict[str, Any]) -> tuple[int, int, int] | None:
    pending = data.get("pending")
    if pending is None:
        return None
    _check(s.phase == PLAY and isinstance(pending, dict), "a Counter question only in play")
    attacker = pending.get("attacker")
    apiece, tpiece = pending.get("attacking_piece"), pending.get("target_piece")
    # Only the seat on turn attacks, and only with its own piece at an enemy one.
    _check(_is_int(attacker) and attacker == s.current, "pending attacker must be current")
    owners = {pc[0]: pc[1] for pc in s.pieces}
    _check(owners.get(apiece, -1) == attacker, "pending attacking piece unknown")
    _check(owners.get(tpiece, -1) == 1 - attacker, "pending target piece unknown")
    return (attacker, apiece, tpiece)


def _load_outcome(s: State, data: dict[str, Any], started: bool) -> None:
    s.winner, s.reason = data.get("winner"), data.get("reason")
    if s.phase == OVER:
        _check(s.reason in REASONS, "unknown end reason")
        _check(s.winner is None or (_is_int(s.winner) and s.winner in (0, 1)), "bad winner")
        # Only the turn limit ends a game without a winner.
        _check((s.winner is None) == (s.reason == "turn_limit"), "winner and reason disagree")
    else:
        _check(s.winner is None and s.reason is None, "winner before the end")
        if started:
            _check(all(_pieces_left(s)), "a seat without pieces is still playing")


def _load_log(data: dict[str, Any]) -> list[dict[str, Any]] | None:
    log = data.get("log")
    _check(log is None or isinstance(log, list), "log must be a list")
    if log is None:
        return None
    _check(all(isinstance(e, dict) for e in log), "log entries must be mappings")
    return [dict(e) for e in log]


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    # An older saved state, rewritten as version 3 data (see "Storage" in the docstring).
    data = dict(data)
    on, off = OLD_VERSIONS[data["version"]]
    always = data.pop("always_counter", None)
    _check(
        isinstance(always, list) and len(always) == 2 and all(isinstance(v, bool) for v in always),
        "always_counter must hold two booleans",
    )
    data["counter_mode"] = [on if value else off for value in always]
    data.setdefault("pending", None)
    if isinstance(data.get("log"), list):
        log = []
        for entry in data["log"]:
            if isinstance(entry, dict) and entry.get("type") == "counter":
                if not entry.get("used", True):
                    continue
                entry = {k: v for k, v in entry.items() if k not in ("used", "automatic")}
            log.append(entry)
        data["log"] = log
    data["version"] = VERSION
    return data
