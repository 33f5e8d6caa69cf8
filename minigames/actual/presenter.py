"""What the Actual board shows one viewer, built from that seat's player view only, and the
moves its forms send."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from minigames.messages import seat_name, translate
from minigames.models import Match

from .rules import engine

TEMPLATE = "minigames/actual_board.html"
# The open Counter question, asked in the GM's inbox when the defender is a seat they run.
QUESTION_TEMPLATE = "minigames/_actual_question.html"
# How a won match reads in the timeline: Actual names the pieces the winner had left.
WON_TEMPLATE = "minigames/kinds/actual_won.html"
COLUMN_NAMES = "abcde"


def square_name(column: int, row: int) -> str:
    return f"{COLUMN_NAMES[column]}{row + 1}"


class _Selection(NamedTuple):
    """The move the viewer is putting together: a card, then a piece, then a target."""

    card: str | None
    kind: str | None
    piece: int | None
    # The pieces the chosen card can be used with, and the chosen piece's targets.
    pieces: set[int]
    targets: set[tuple[int, int]]


def board_context(match: Match, user, *, params=None, refused=None) -> dict[str, Any]:
    """Return the template context of one viewer's board: never more than their view holds.

    ``params`` may hold the card (``card``) and the piece (``piece``) the viewer is choosing
    a move with; a refused move (``refused``) is not shown again: a move is one click.
    """
    card, piece = _requested_move(params or {})
    seat = match.seat_of(user)
    state = engine.from_dict(match.state)
    view = engine.player_view(state, seat)
    perspective = seat if seat is not None else 0
    my_turn = _is_my_turn(view, seat)
    hand = (view["you"] or {}).get("hand", [])
    selection = _select_move(state, seat, my_turn, hand, card, piece)
    question = _counter_question(view["pending"], view["board"]["pieces"])
    rows, columns = _orientation(perspective)
    players = view["players"]
    opponent = 1 - perspective
    names = [seat_name(s) for s in match.seats]
    # The log names a seat; the match knows who sits there.
    seat_names = {"seat": lambda seat, _language: names[seat]}
    return {
        "match": match,
        "view": view,
        "seat": seat,
        "perspective": perspective,
        "names": names,
        "me": players[perspective],
        "opponent": players[opponent],
        "my_name": names[perspective],
        "opponent_name": names[opponent],
        "grid": _grid(view, rows, columns, perspective, names, selection, question),
        "hand": hand,
        "my_turn": my_turn,
        "selected_card": selection.card,
        "selected_kind": selection.kind,
        "selected_piece": selection.piece,
        "counter_card_only": selection.kind == engine.COUNTER,
        # Private: only the seat's own view holds it (None for a spectator).
        "counter_mode": (view["you"] or {}).get("counter_mode"),
        "counter_modes": [
            (engine.ASK, gettext("Ask me at each attack")),
            (engine.ALWAYS, gettext("Always show it")),
            (engine.NEVER, gettext("Never show it")),
        ],
        "question": question,
        "holds_counter": any(item["kind"] == engine.COUNTER for item in hand),
        **_setup_context(view, seat),
        "column_names": COLUMN_NAMES,
        # The columns as the viewer sees them, left to right: the board's edge letters and
        # the setup's column buttons follow the board's orientation.
        "view_columns": [{"index": c, "letter": COLUMN_NAMES[c]} for c in columns],
        "log": [translate(entry["text"], terms=seat_names) for entry in reversed(view["log"][-8:])],
    }


def _requested_move(params) -> tuple[str | None, int | None]:
    # Read from the query string: anything malformed counts as not chosen yet.
    card = params.get("card") or None
    piece = params.get("piece")
    piece = int(piece) if isinstance(piece, str) and piece.isdecimal() else None
    return card, piece


def _is_my_turn(view: dict[str, Any], seat: int | None) -> bool:
    # While a Counter question is open the attacker waits: it is nobody's turn to play cards.
    return (
        seat is not None
        and view["phase"] == engine.PLAY
        and view["current_player"] == seat
        and view["pending"] is None
    )


def _select_move(
    state: engine.State,
    seat: int | None,
    my_turn: bool,
    hand: list[dict[str, Any]],
    card: str | None,
    piece: int | None,
) -> _Selection:
    # A choice that no longer fits (a card not in hand, a piece that cannot use the card,
    # the turn over) is dropped rather than refused: the board just shows the step before.
    kinds = {item["id"]: item["kind"] for item in hand}
    if card not in kinds or not my_turn:
        card, piece = None, None
    uses = []
    if my_turn:
        uses = [a for a in engine.legal_actions(state, seat) if a["type"] == "use"]
    selected_kind = kinds.get(card)
    choices = [a for a in uses if selected_kind and kinds.get(a["card"]) == selected_kind]
    pieces_for_card = {a.get("piece") for a in choices}
    if piece not in pieces_for_card:
        piece = None
    targets = {tuple(a["target"]) for a in choices if a.get("piece") == piece and a.get("target")}
    return _Selection(card, selected_kind, piece, pieces_for_card, targets)


def _counter_question(
    pending: dict[str, Any] | None, pieces: list[dict[str, Any]]
) -> dict[str, Any] | None:
    if pending is None:
        return None
    squares = {p["id"]: square_name(*p["position"]) for p in pieces}
    return {
        **pending,
        "attacking_square": squares.get(pending["attacking_piece"]),
        "target_square": squares.get(pending["target_piece"]),
        "target_life": next(p["life"] for p in pieces if p["id"] == pending["target_piece"]),
        "mine": pending["prompt"] == "you_may_counter",
    }


def _orientation(perspective: int) -> tuple[range, range]:
    # Each seat sees its own start row at the bottom, so seat 1 sees the board turned round.
    if perspective == 0:
        return range(engine.ROWS - 1, -1, -1), range(engine.COLUMNS)
    return range(engine.ROWS), range(engine.COLUMNS - 1, -1, -1)


def _grid(
    view: dict[str, Any],
    rows: range,
    columns: range,
    perspective: int,
    names: list[str],
    selection: _Selection,
    question: dict[str, Any] | None,
) -> list[list[dict[str, Any]]]:
    positions = {tuple(p["position"]): p for p in view["board"]["pieces"]}
    grid = []
    for row in rows:
        cells = []
        for column in columns:
            occupant = positions.get((column, row))
            cells.append(_cell(column, row, occupant, perspective, names, selection, question))
        grid.append(cells)
    return grid


def _cell(
    column: int,
    row: int,
    occupant: dict[str, Any] | None,
    perspective: int,
    names: list[str],
    selection: _Selection,
    question: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "column": column,
        "row": row,
        "name": square_name(column, row),
        "piece": occupant,
        "mine": occupant is not None and occupant["owner"] == perspective,
        "owner_name": None if occupant is None else names[occupant["owner"]],
        "selectable": occupant is not None and occupant["id"] in selection.pieces,
        "selected": occupant is not None and occupant["id"] == selection.piece,
        "target": (column, row) in selection.targets,
        "start_row": row in engine.START_ROWS,
        # The open Counter question's two pieces, highlighted for everyone.
        "attacking": question is not None
        and occupant is not None
        and occupant["id"] == question["attacking_piece"],
        "attacked": question is not None
        and occupant is not None
        and occupant["id"] == question["target_piece"],
    }


def _setup_context(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return {
        "needs_setup": seat is not None
        and view["phase"] == engine.SETUP
        and not view["players"][seat]["ready"],
        "suggested": engine.suggested_deck(),
        # A start the player may take as it is: two pieces, lives 3 and 2.
        "setup_rows": [
            {"index": i, "column": {0: 1, 1: 3}.get(i), "life": {0: 3, 1: 2}.get(i, 0)}
            for i in range(engine.MAX_PIECES)
        ],
    }


def action_from_post(post) -> dict[str, Any]:
    """Read a move from the board's forms (the seat is added by the service, not read)."""
    kind = post.get("type", "")
    if kind == "use":
        action = {"type": "use", "card": post.get("card", "")}
        if post.get("piece", "").isdecimal():
            action["piece"] = int(post["piece"])
        if post.get("target_column", "").isdecimal() and post.get("target_row", "").isdecimal():
            action["target"] = [int(post["target_column"]), int(post["target_row"])]
        return action
    if kind == "discard":
        return {"type": "discard", "cards": post.getlist("cards")}
    if kind == "counter":
        return {"type": "counter", "use": post.get("use") == "1"}
    if kind == "counter_mode":
        return {"type": "counter_mode", "value": post.get("value", "")}
    if kind == "setup":
        return _setup_from_post(post)
    return {"type": kind}


def _setup_from_post(post) -> dict[str, Any]:
    pieces = []
    lives = post.getlist("life")
    # The board sends one column choice per piece (column_0…); a bare list is read as well.
    if any(f"column_{index}" in post for index in range(len(lives))):
        columns = [post.get(f"column_{index}", "") for index in range(len(lives))]
    else:
        columns = post.getlist("column")
    for column, life in zip(columns, lives, strict=False):
        if column == "" and life in ("", "0"):
            continue
        try:
            pieces.append({"column": int(column), "life": int(life)})
        except ValueError:
            raise ValidationError(gettext("Give each piece a column and a life.")) from None
    try:
        deck = {k: int(post.get(k, "") or 0) for k in ("move", "attack", "counter")}
    except ValueError:
        raise ValidationError(gettext("Give each piece a column and a life.")) from None
    return {"type": "setup", "deck": deck, "pieces": pieces}
