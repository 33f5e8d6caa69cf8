"""What other installed apps show in the session room, found through a registry.

The room lists live boards (the in-fiction games' matches) beside its timeline, but it imports no
app that provides them: such an app registers its boards here from its ``AppConfig.ready()``,
so the dependency runs from that app to ``sessions_app`` and never back. The room view and
the consumer ask :func:`boards` for what to show and how to render it for one viewer.

The same app is told when a session's main play is over (after-play begins, or the session
closes) through :func:`on_main_play_end`, so it can end what is still being played there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class BoardQuestion:
    """A question a board puts to one person that waits for their answer (a Counter to show
    or not, say): its own element id, since when it waits, and its form, ready to show in
    the GM's inbox."""

    anchor: str
    since: datetime
    html: str


def _no_questions(session, user) -> Sequence[BoardQuestion]:
    return ()


@dataclass(frozen=True)
class Boards:
    """The boards an app shows in the room, each rendered for one viewer.

    ``on_show(session_id)`` lists the boards on show now, in order; each has a ``pk``.
    ``render(board, user, request=None)`` is one viewer's HTML of one board, never more than
    that viewer may see. ``page_context(request, session)`` is what the full room page adds
    to its context, ``board_form_template`` (the form that starts a board) included.
    """

    on_show: Callable[[int], Sequence[Any]]
    render: Callable[..., str]
    page_context: Callable[[Any, Any], dict[str, Any]]
    # What a user sees of a board (a seat, or watching): users with the same answer get
    # the same HTML, so a change is rendered once for each.
    audience: Callable[[Any, Any], Hashable] = lambda board, user: ("user", user.pk)
    questions: Callable[[Any, Any], Sequence[BoardQuestion]] = _no_questions


def _nothing_on_show(session_id: int) -> list:
    return []


def _no_page_context(request, session) -> dict[str, Any]:
    return {}


def _render_nothing(board, user, request=None) -> str:
    return ""


# With no app registered the room shows an empty board list.
NO_BOARDS = Boards(on_show=_nothing_on_show, render=_render_nothing, page_context=_no_page_context)
_registered: list[Boards] = []


def register_boards(boards: Boards) -> None:
    """Make ``boards`` the room's live boards (from an AppConfig.ready())."""
    _registered[:] = [boards]


def boards() -> Boards:
    """Return the registered boards, or an empty set when no app provides any."""
    return _registered[0] if _registered else NO_BOARDS


def render_all(session_id: int, user, *, request=None) -> tuple[list[int], list[str]]:
    """Return the ids of the boards on show and each one's HTML for this viewer."""
    registered = boards()
    shown = list(registered.on_show(session_id))
    return (
        [board.pk for board in shown],
        [registered.render(board, user, request=request) for board in shown],
    )


_main_play_end: list[Callable[..., None]] = []


def on_main_play_end(callback: Callable[..., None]) -> None:
    """Call ``callback(session=, by=)`` whenever a session's main play is over (from ready())."""
    if callback not in _main_play_end:
        _main_play_end.append(callback)


def main_play_end(*, session, by) -> None:
    """Tell the registered apps that ``session`` leaves play, inside the caller's transaction.

    Called as after-play begins and again as the session closes, before the closing is
    recorded; a callback must therefore be safe to run twice.
    """
    for callback in _main_play_end:
        callback(session=session, by=by)
