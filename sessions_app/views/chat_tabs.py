"""The GM's chat tabs, managed from the room: open, rename, move, archive."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..services.access import is_gm
from ..services.chat_tabs import chat_tab_add, chat_tab_archive, chat_tab_move, chat_tab_rename
from .access import member_session_or_404

TEMPLATE = "sessions_app/session_room.html"


def _gm_session(request, session_id: int):
    """The session of a table the user runs: 404 for outsiders, 403 for its players (the
    service refuses them too)."""
    session, membership = member_session_or_404(user=request.user, session_id=session_id)
    if not is_gm(membership):
        raise PermissionDenied(_("Only the GM manages chat tabs."))
    return session


def _answer(request, session, *, done: str = "", error=None):
    """What happened, said on the status line beside the GM's list of tabs (the list itself
    reaches every page through the socket); a plain post goes back to the room."""
    message = " ".join(error.messages) if error is not None else done
    if not request.htmx:
        if error is not None:
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return redirect("session_room", session_id=session.pk)
    html = render_to_string(
        f"{TEMPLATE}#chat-tabs-status",
        {"tab_status": message, "tab_error": error is not None},
        request=request,
    )
    # A refusal is answered 200 so that htmx shows it; the room's script clears the new
    # tab's name only when the action went through.
    response = HttpResponse(html)
    if error is None:
        response["X-Action-Ok"] = "1"
    return response


@login_required
@require_POST
def chat_tab_create(request, session_id: int):
    session = _gm_session(request, session_id)
    try:
        tab = chat_tab_add(session=session, by=request.user, name=request.POST.get("name", ""))
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab “%(name)s” opened.") % {"name": tab.name})


@login_required
@require_POST
def chat_tab_update(request, session_id: int, tab_id: int):
    session = _gm_session(request, session_id)
    try:
        tab = chat_tab_rename(
            session=session, by=request.user, tab_id=tab_id, name=request.POST.get("name", "")
        )
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab renamed “%(name)s”.") % {"name": tab.name})


@login_required
@require_POST
def chat_tab_reorder(request, session_id: int, tab_id: int):
    session = _gm_session(request, session_id)
    try:
        tab = chat_tab_move(
            session=session,
            by=request.user,
            tab_id=tab_id,
            later=request.POST.get("towards") == "end",
        )
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab “%(name)s” moved.") % {"name": tab.name})


@login_required
@require_POST
def chat_tab_remove(request, session_id: int, tab_id: int):
    session = _gm_session(request, session_id)
    try:
        tab = chat_tab_archive(session=session, by=request.user, tab_id=tab_id)
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab “%(name)s” archived.") % {"name": tab.name})
