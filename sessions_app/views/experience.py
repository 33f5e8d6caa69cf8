"""After-play, the experience ledger, growth, and the record and session sheets."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from sessions_app.selectors import experience as experience_selectors
from sessions_app.selectors.access import is_gm, is_member
from sessions_app.selectors.experience import (
    award_recipients,
    growth_request_at,
    ledger_entries_at,
    table_game,
)
from sessions_app.selectors.play import after_play_reached
from sessions_app.selectors.timeline import session_last_seq
from sessions_app.services import experience as experience_services
from sessions_app.services.experience import (
    CLEANUP_ITEMS,
    experience_award_session,
    growth_confirm,
    growth_decline,
    growth_request,
    session_cleanup_save,
    session_close,
)

from ..forms import AwardForm, CleanupForm, CorrectionForm
from ..presenters.afterplay import (
    afterplay_context,
    growth_asked_message,
    growth_form_for,
    ledger_context,
)
from .access import member_view
from .common import apply_errors


def _refused(request, error) -> None:
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


@member_view("GET", "POST")
def afterplay(request, session, membership):
    """The after-play panel: the GM's award form; everyone sees the awards once confirmed."""
    if not after_play_reached(session):
        raise Http404
    form = None
    if request.method == "POST":
        if not is_gm(membership):
            raise PermissionDenied
        form = AwardForm(
            request.POST,
            people=award_recipients(session=session),
            lines=session.rules_profile.experience_lines or [],
        )
        if form.is_valid():
            try:
                experience_award_session(session=session, by=request.user, awards=form.awards())
            except ValidationError as error:
                apply_errors(form, error)
            else:
                messages.success(request, _("The experience awards are confirmed."))
                return redirect("afterplay", session_id=session.pk)
    return render(
        request,
        "sessions_app/afterplay.html",
        {
            **afterplay_context(session, request.user, is_gm(membership), award_form=form),
            "last_seq": session_last_seq(session_id=session.pk),
        },
        status=400 if form is not None and form.errors else 200,
    )


@member_view("POST", gm=True)
def afterplay_cleanup(request, session, _membership):
    """Save the cleanup checklist, or save it and close the session."""
    form = CleanupForm(request.POST, items=CLEANUP_ITEMS)
    form.is_valid()
    try:
        if request.POST.get("action") == "close":
            session_close(session=session, by=request.user, done=form.done())
            messages.success(request, _("The session is closed."))
        else:
            session_cleanup_save(session=session, by=request.user, done=form.done())
            messages.success(request, _("The checklist was saved."))
    except ValidationError as error:
        _refused(request, error)
    return redirect("afterplay", session_id=session.pk)


@member_view()
def session_sheet(request, session, membership):
    """The printable session sheet (セッションシート): every member may read it."""
    return render(
        request,
        "sessions_app/session_sheet.html",
        {
            "session": session,
            "viewer_is_gm": is_gm(membership),
            "sheet": experience_selectors.session_sheet(session=session),
        },
    )


@member_view("POST", gm=True)
def session_sheet_sign(request, session, _membership):
    try:
        experience_services.session_sheet_sign(session=session, by=request.user)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("The session sheet is signed."))
    return redirect("session_sheet", session_id=session.pk)


@member_view("GET", "POST")
def experience_ledger(request, table, membership):
    """My experience in this table's game: balance, every entry at any table, the growth
    form, my growth waiting for the GM, and for the GM the growth to confirm."""
    form = growth_form_for(table, request.user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            asked = growth_request(
                character=data["character"],
                by=request.user,
                item_label=data.get("item") or "",
                description=data.get("description") or "",
                cost=data.get("cost"),
                session=data.get("session"),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, growth_asked_message(asked))
            return redirect("experience_ledger", table_id=table.pk)
    return render(
        request,
        "sessions_app/experience_ledger.html",
        ledger_context(table, request.user, is_gm(membership), growth_form=form),
        status=400 if form.errors else 200,
    )


@member_view("POST", gm=True)
def growth_decide(request, table, _membership, request_id: int):
    """Confirm or decline a player's growth (the table's GM)."""
    asked = growth_request_at(table=table, request_id=request_id)
    if asked is None:
        raise Http404
    names = {"name": asked.character.name, "growth": asked.reason}
    try:
        if request.POST.get("action") == "confirm":
            growth_confirm(request=asked, by=request.user)
            answer = _("%(name)s: %(growth)s is confirmed.") % names
        else:
            growth_decline(request=asked, by=request.user)
            answer = _("%(name)s: %(growth)s is declined.") % names
    except ValidationError as error:
        if request.htmx:
            # The GM's inbox in the room: the answer goes under it, the item stays.
            return _inbox_status(request, " ".join(error.messages), error=True)
        _refused(request, error)
    else:
        if request.htmx:
            return _inbox_status(request, answer)
        messages.success(request, answer)
    return redirect("experience_ledger", table_id=table.pk)


def _inbox_status(request, message: str, *, error: bool = False):
    response = render(
        request,
        "sessions_app/session_room.html#inbox-status",
        {"inbox_status": message, "inbox_status_error": error},
        status=200,
    )
    response["X-Action-Ok"] = "0" if error else "1"
    return response


def _record_person(request, table, membership, user_id: int):
    """The person whose record sheet is asked for: themselves, or anyone for the GM."""
    if user_id != request.user.pk and not is_gm(membership):
        raise Http404
    person = get_object_or_404(get_user_model(), pk=user_id)
    if not is_member(user=person, table_id=table.pk):
        raise Http404
    return person


def _correction_form(table, person, data=None):
    return CorrectionForm(data, entries=ledger_entries_at(table=table, person=person))


@member_view()
def record_sheet(request, table, membership, user_id: int):
    """The printable record sheet (レコードシート) of one person at the table."""
    person = _record_person(request, table, membership, user_id)
    return _render_record(request, table, membership, person)


def _render_record(request, table, membership, person, *, correction_form=None, status=200):
    viewer_is_gm = is_gm(membership)
    return render(
        request,
        "sessions_app/record_sheet.html",
        {
            "table": table,
            "person": person,
            "viewer_is_gm": viewer_is_gm,
            "record": experience_selectors.record_sheet(
                user=person, game=table_game(table=table), viewer=request.user
            ),
            "correction_form": (correction_form or _correction_form(table, person))
            if viewer_is_gm
            else None,
        },
        status=status,
    )


@member_view("POST", gm=True)
def experience_correct(request, table, membership, user_id: int):
    """Append a correction to a person's ledger (the GM)."""
    person = _record_person(request, table, membership, user_id)
    form = _correction_form(table, person, request.POST)
    if form.is_valid():
        try:
            experience_services.experience_correct(
                table=table,
                by=request.user,
                person=person,
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                corrects=form.cleaned_data["corrects"],
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The correction was added."))
            return redirect("record_sheet", table_id=table.pk, user_id=person.pk)
    return _render_record(request, table, membership, person, correction_form=form, status=400)
