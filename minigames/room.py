"""The session room's board list: the session's matches, each rendered for one viewer.

Registered with ``sessions_app.rooms`` when the app is ready, so the room shows matches
without importing this app.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string

from sessions_app.models import Character, Membership
from sessions_app.rooms import BoardQuestion, Boards
from sessions_app.selectors.scenes import appeared_character_ids
from sessions_app.selectors.tables import membership_get

from .forms import MatchForm
from .messages import seat_name
from .models import Match
from .registry import GAMES
from .services import match_stopped, match_undealt, match_waiting_for, match_waiting_names

# A match whose cards are not dealt yet has no board: whichever the game, it shows who has
# yet to shuffle in, and to them the button that does.
WAITING_TEMPLATE = "minigames/_match_waiting.html"
SHUFFLE_IN_TEMPLATE = "minigames/_shuffle_in_question.html"


def match_characters(session, user):
    """The characters who may sit down to a match: the session's PCs and the table's NPCs,
    of which a player knows only those that have been on stage."""
    npcs = Q(kind=Character.Kind.NPC)
    membership = membership_get(user=user, table_id=session.table_id)
    if membership is None or membership.role != Membership.Role.GM:
        npcs &= Q(pk__in=appeared_character_ids())
    return (
        Character.objects.filter(table=session.table)
        .filter(Q(sessions=session) | npcs)
        .select_related("owner")
        .distinct()
        .order_by("kind", "name")
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


def board_context(match: Match, user, *, params=None, refused=None) -> dict[str, Any]:
    """One viewer's board, whichever the game.

    A match stopped with its session's main play is shown to everyone as to a spectator:
    nothing is left to play, so no seat gets controls (nor its hidden cards).
    """
    stopped = match_stopped(match)
    viewer = None if stopped else user
    if match_undealt(match):
        context = _waiting_context(match, viewer)
    else:
        presenter = GAMES[match.game].presenter
        context = presenter.board_context(match, viewer, params=params, refused=refused)
    context["stopped"] = stopped
    return context


def _waiting_context(match: Match, user) -> dict[str, Any]:
    return {
        "match": match,
        "seat": match.seat_of(user),
        "names": [seat_name(seat) for seat in match.seats],
        "game_label": GAMES[match.game].label,
        "mine": match_waiting_for(match, user),
        "waiting_names": ", ".join(match_waiting_names(match)),
    }


def board_template(match: Match) -> str:
    """The template of a match's board: its game's, or the waiting one before the deal."""
    return WAITING_TEMPLATE if match_undealt(match) else GAMES[match.game].presenter.TEMPLATE


def render_board(match: Match, user, *, request=None) -> str:
    """Render one viewer's board (a seat's, or a spectator's) as HTML."""
    return render_to_string(board_template(match), board_context(match, user), request=request)


def page_context(request, session) -> dict[str, Any]:
    """The form that seats two characters at a match, for the full room page."""
    return {
        "match_form": MatchForm(
            characters=match_characters(session, request.user), user=request.user
        ),
        "board_form_template": "minigames/_match_form.html",
    }


def board_questions(session, user) -> list[BoardQuestion]:
    """The questions of the session's matches that wait for this user's answer in a seat
    they hold (a Counter to show or not), each with its answering form."""
    questions = []
    for match in session_matches(session.pk):
        if match.status == Match.Status.FINISHED or match_stopped(match):
            continue
        if match_undealt(match):
            # The deal waits on this seat's browser as a Counter waits on its answer.
            if match_waiting_for(match, user):
                questions.append(
                    BoardQuestion(
                        anchor=f"inbox-board-{match.pk}",
                        since=match.created_at,
                        html=render_to_string(SHUFFLE_IN_TEMPLATE, _waiting_context(match, user)),
                    )
                )
            continue
        template = getattr(GAMES[match.game].presenter, "QUESTION_TEMPLATE", None)
        if template is None or match.seat_of(user) is None:
            continue
        context = board_context(match, user)
        if not (context.get("question") or {}).get("mine"):
            continue
        last_move = match.moves.order_by("-number").values_list("created_at", flat=True).first()
        questions.append(
            BoardQuestion(
                anchor=f"inbox-board-{match.pk}",
                since=last_move or match.created_at,
                html=render_to_string(template, context),
            )
        )
    return questions


def board_audience(match: Match, user):
    """What a viewer sees of a board depends only on their seat (None: a spectator)."""
    # Before the deal, a seat's board shows its player's Shuffle in button while their
    # value is missing: a seat's player is the one whose value it is.
    return ("stopped",) if match_stopped(match) else ("seat", match.seat_of(user))


BOARDS = Boards(
    on_show=session_matches,
    render=render_board,
    page_context=page_context,
    audience=board_audience,
    questions=board_questions,
)
