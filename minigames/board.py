"""What the Actual board shows one viewer: built from that seat's player view only."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from .actual import engine
from .messages import translate
from .models import Match

COLUMN_NAMES = "abcde"


def square_name(column: int, row: int) -> str:
    return f"{COLUMN_NAMES[column]}{row + 1}"


def board_context(
    match: Match, user, *, card: str | None = None, piece: int | None = None
) -> dict[str, Any]:
    """Return the template context of one viewer's board: never more than their view holds."""
    seat = match.seat_of(user)
    state = engine.from_dict(match.state)
    view = engine.player_view(state, seat)
    perspective = seat if seat is not None else 0
    my_turn = (
        seat is not None
        and view["phase"] == engine.PLAY
        and view["current_player"] == seat
        and view["pending"] is None
    )
    hand = (view["you"] or {}).get("hand", [])
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
    positions = {tuple(p["position"]): p for p in view["board"]["pieces"]}
    rows = range(engine.ROWS - 1, -1, -1) if perspective == 0 else range(engine.ROWS)
    columns = range(engine.COLUMNS) if perspective == 0 else range(engine.COLUMNS - 1, -1, -1)
    grid = []
    for row in rows:
        cells = []
        for column in columns:
            occupant = positions.get((column, row))
            cells.append(
                {
                    "column": column,
                    "row": row,
                    "name": square_name(column, row),
                    "piece": occupant,
                    "mine": occupant is not None and occupant["owner"] == perspective,
                    "owner_name": None
                    if occupant is None
                    else match.seats[occupant["owner"]].get("name", "?"),
                    "selectable": occupant is not None and occupant["id"] in pieces_for_card,
                    "selected": occupant is not None and occupant["id"] == piece,
                    "target": (column, row) in targets,
                    "start_row": row in engine.START_ROWS,
                }
            )
        grid.append(cells)
    players = view["players"]
    opponent = 1 - perspective
    names = [s.get("name", "?") for s in match.seats]
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
        "my_name": match.seats[perspective].get("name"),
        "opponent_name": match.seats[opponent].get("name"),
        "grid": grid,
        "hand": hand,
        "my_turn": my_turn,
        "selected_card": card,
        "selected_kind": selected_kind,
        "selected_piece": piece,
        "counter_card_only": selected_kind == engine.COUNTER,
        "you_may_counter": bool(
            view["pending"] and view["pending"].get("prompt") == "you_may_counter"
        ),
        "needs_setup": seat is not None
        and view["phase"] == engine.SETUP
        and not players[seat]["ready"],
        "suggested": engine.suggested_deck(),
        "setup_rows": range(engine.MAX_PIECES),
        "column_names": COLUMN_NAMES,
        "log": [translate(entry["text"], terms=seat_names) for entry in reversed(view["log"][-8:])],
    }


def render_board(match: Match, user, *, request=None, **selection) -> str:
    """Render one viewer's board (a seat's, or a spectator's) as HTML."""
    if match.game == Match.Game.ACTICSX:
        from . import acticsx_board

        return acticsx_board.render_board(match, user, request=request)
    return render_to_string(
        "minigames/actual_board.html", board_context(match, user, **selection), request=request
    )


def session_matches(session_id: int) -> list[Match]:
    """The session's matches still being played, plus the latest finished one."""
    matches = list(
        Match.objects.filter(session_id=session_id)
        .exclude(status=Match.Status.FINISHED)
        .order_by("created_at")
    )
    finished = (
        Match.objects.filter(session_id=session_id, status=Match.Status.FINISHED)
        .order_by("-finished_at")
        .first()
    )
    if finished is not None:
        matches.append(finished)
    return matches


def session_boards(session_id: int, user, *, request=None) -> list[str]:
    """One viewer's boards of the session's current matches."""
    return [render_board(match, user, request=request) for match in session_matches(session_id)]
