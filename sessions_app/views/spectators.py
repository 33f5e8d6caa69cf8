"""Spectator pages (観戦): the table's sessions and each room, read-only, through the link.

Nothing here is a form: every method but GET is refused, and a link that is not (or no
longer) the table's, or a table that stopped allowing spectators, is a 404.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..presenters.spectators import spectator_panels_context
from ..selectors.spectators import (
    SPECTATING_LINKS_KEPT,
    SPECTATING_SESSION_KEY,
    public_events,
    spectator_session,
    spectator_table,
)

WATCH_EVENT_LIMIT = 60


def _remember_link(request, token: str) -> None:
    kept = [t for t in request.session.get(SPECTATING_SESSION_KEY, []) if t != token]
    request.session[SPECTATING_SESSION_KEY] = [token, *kept][:SPECTATING_LINKS_KEPT]


@require_safe
def watch_index(request, token: str):
    table = spectator_table(token=token)
    if table is None:
        raise Http404
    return render(
        request,
        "sessions_app/watch_index.html",
        {"table": table, "token": token, "sessions": table.sessions.all()},
    )


@require_safe
def watch_session(request, token: str, session_id: int):
    session = spectator_session(token=token, session_id=session_id)
    if session is None:
        raise Http404
    _remember_link(request, token)
    events = list(public_events(session_id=session.pk).order_by("-seq")[:WATCH_EVENT_LIMIT])
    events.reverse()
    return render(
        request,
        "sessions_app/watch_session.html",
        {
            **spectator_panels_context(session),
            "token": token,
            "events": events,
            "has_earlier": len(events) == WATCH_EVENT_LIMIT,
            "last_seq": session.last_seq,
        },
    )
