"""The GM's chat tabs, managed from the room: open, rename, move, archive."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..services.chat_tabs import chat_tab_add, chat_tab_archive, chat_tab_move, chat_tab_rename
from .access import member_view

TEMPLATE = "sessions_app/session_room.html"


# Said to the table's players, whom the services refuse too.
_GM_ONLY = gettext_lazy("Only the GM manages chat tabs.")


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


@member_view("POST", gm=True, refusal=_GM_ONLY)
def chat_tab_create(request, session, _membership):
    try:
        tab = chat_tab_add(session=session, by=request.user, name=request.POST.get("name", ""))
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab “%(name)s” opened.") % {"name": tab.name})


@member_view("POST", gm=True, refusal=_GM_ONLY)
def chat_tab_update(request, session, _membership, tab_id: int):
    try:
        tab = chat_tab_rename(
            session=session, by=request.user, tab_id=tab_id, name=request.POST.get("name", "")
        )
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab renamed “%(name)s”.") % {"name": tab.name})


@member_view("POST", gm=True, refusal=_GM_ONLY)
def chat_tab_reorder(request, session, _membership, tab_id: int):
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


@member_view("POST", gm=True, refusal=_GM_ONLY)
def chat_tab_remove(request, session, _membership, tab_id: int):
    try:
        tab = chat_tab_archive(session=session, by=request.user, tab_id=tab_id)
    except ValidationError as error:
        return _answer(request, session, error=error)
    return _answer(request, session, done=_("Tab “%(name)s” archived.") % {"name": tab.name})
