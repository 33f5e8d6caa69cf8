"""The session room's board list: the session's matches, each rendered for one viewer.

Registered with ``sessions_app.rooms`` when the app is ready, so the room shows matches
without importing this app.
"""

from __future__ import annotations

from typing import Any

from sessions_app.rooms import Boards

from .board import render_board, session_matches
from .forms import MatchForm
from .views import match_characters


def page_context(request, session) -> dict[str, Any]:
    """The form that seats two characters at a match, for the full room page."""
    return {
        "match_form": MatchForm(characters=match_characters(session), user=request.user),
        "board_form_template": "minigames/_match_form.html",
    }


BOARDS = Boards(on_show=session_matches, render=render_board, page_context=page_context)
