"""The stage of the session room: pre-play, phases, scenes, who is on stage, requests.

Every control posts to one endpoint with an `action`; the answer is a status line (the
panel itself is refreshed for everyone over the room's websocket once the change commits).
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from sessions_app.selectors.scenarios import (
    scenario_for_owner,
    scenario_handouts,
    scenario_planned_scenes,
    scenario_prepared_checks,
)
from sessions_app.selectors.tables import table_characters
from sessions_app.services.play import (
    handout_reveal,
    intro_present,
    phase_advance,
    player_order_move,
    preparation_tick,
    session_scenario_set,
    sheet_review,
    slot_assign,
)
from sessions_app.services.scenes import (
    companion_answer,
    companion_propose,
    entry_request,
    exit_request,
    prepared_check_fire,
    scene_end,
    scene_request_create,
    scene_request_decide,
    scene_request_get,
    scene_start,
    stage_bring_in,
    stage_request_decide,
    stage_request_withdraw,
    stage_take_out,
)

from .access import member_view

TEMPLATE = "sessions_app/session_room.html"


def _int(post, name: str, *, required: bool = True) -> int | None:
    raw = (post.get(name) or "").strip()
    if not raw:
        if required:
            raise ValidationError(
                _("Something is missing from the form: %(name)s.") % {"name": name}
            )
        return None
    try:
        return int(raw)
    except ValueError:
        raise ValidationError(_("%(name)s must be a number.") % {"name": name}) from None


def _character(session, post, name: str = "character", *, required: bool = True):
    pk = _int(post, name, required=required)
    if pk is None:
        return None
    try:
        return table_characters(table=session.table).get(pk=pk)
    except ObjectDoesNotExist:
        raise ValidationError(_("That character is not at this table.")) from None


def _scenario_item(items, session, pk):
    """One of `items` of this session's scenario, or a refusal (never another GM's)."""
    try:
        return items(scenario=session.scenario_id).get(pk=pk)
    except ObjectDoesNotExist:
        raise ValidationError(_("That is not part of this session's scenario.")) from None


def _yes(post, name: str) -> bool:
    return post.get(name) in ("1", "true", "on", "yes")


def _scene_start(request, session):
    post = request.POST
    planned_pk = _int(post, "planned", required=False)
    planned = _scenario_item(scenario_planned_scenes, session, planned_pk) if planned_pk else None
    scene_start(
        session=session,
        by=request.user,
        scene_player=_character(session, post, "scene_player", required=False),
        master=_yes(post, "master"),
        title=post.get("title", ""),
        place=post.get("place", ""),
        purpose=post.get("purpose", ""),
        planned=planned,
        scene_request=_scene_request(session, post),
    )
    return _("The scene has started.")


def _scene_request(session, post):
    pk = _int(post, "scene_request", required=False)
    return None if pk is None else scene_request_get(session=session, request_id=pk)


def _scene_request_decide(request, session):
    keep = _yes(request.POST, "keep")
    scene_request_decide(
        session=session, by=request.user, request_id=_int(request.POST, "request"), keep=keep
    )
    return _("Kept for later.") if keep else _("Declined.")


def _scenario_set(request, session):
    pk = _int(request.POST, "scenario", required=False)
    scenario = None
    if pk is not None:
        scenario = scenario_for_owner(user=request.user, scenario_id=pk)
        if scenario is None:
            raise ValidationError(_("That scenario is not one of yours."))
    session_scenario_set(session=session, by=request.user, scenario=scenario)
    return _("Scenario chosen.")


def _order_move(request, session):
    user_id = _int(request.POST, "user")
    player_order_move(
        session=session, by=request.user, user_id=user_id, offset=_int(request.POST, "offset")
    )
    return _("Player order changed.")


def _decide(request, session):
    allow = _yes(request.POST, "allow")
    stage_request_decide(
        session=session, by=request.user, request_id=_int(request.POST, "request"), allow=allow
    )
    return _("Allowed.") if allow else _("Refused.")


def _answer(request, session):
    accept = _yes(request.POST, "accept")
    companion_answer(
        session=session, by=request.user, request_id=_int(request.POST, "request"), accept=accept
    )
    return _("You agreed to come along.") if accept else _("You declined.")


def _prepared_check(request, session):
    prepared = _int(request.POST, "prepared")
    item = _scenario_item(scenario_prepared_checks, session, prepared)
    prepared_check_fire(
        session=session, by=request.user, prepared=item, character=_character(session, request.POST)
    )
    return _("Check requested.")


def _handout(request, session):
    handout = _scenario_item(scenario_handouts, session, _int(request.POST, "handout"))
    handout_reveal(session=session, by=request.user, handout=handout)
    return _("Handout revealed.")


def _sheet(request, session):
    ok = _yes(request.POST, "ok")
    sheet_review(
        session=session,
        by=request.user,
        character=_character(session, request.POST),
        ok=ok,
        comment=request.POST.get("comment", ""),
    )
    return _("Sheet marked as checked.") if ok else _("Sheet sent back.")


class Awaiting(str):
    """A handler's answer that waits for the GM: the row of the stage panel it waits on,
    so that the notice goes away once that row no longer waits (static/js/room/stage.js)."""

    anchor: str


def _awaiting(row: str, request) -> Awaiting:
    answer = Awaiting("")
    answer.anchor = f"{row}-{request.pk}"
    return answer


# action → (what to say when it went through, or None when the handler says it; handler).
ACTIONS = {
    "phase_advance": (
        gettext_lazy("The session moved on."),
        lambda request, session: phase_advance(
            session=session, by=request.user, from_phase=request.POST.get("from_phase", "")
        ),
    ),
    "prep_tick": (
        gettext_lazy("Checklist updated."),
        lambda request, session: preparation_tick(
            session=session,
            by=request.user,
            item=request.POST.get("item", ""),
            done=_yes(request.POST, "done"),
        ),
    ),
    "sheet_review": (None, _sheet),
    "order_move": (None, _order_move),
    "intro": (
        gettext_lazy("Introduction presented."),
        lambda request, session: intro_present(
            session=session,
            by=request.user,
            character=_character(session, request.POST),
            text=request.POST.get("text", ""),
        ),
    ),
    "scenario_set": (None, _scenario_set),
    "slot_assign": (
        gettext_lazy("PC slot set."),
        lambda request, session: slot_assign(
            session=session,
            by=request.user,
            character=_character(session, request.POST),
            slot=_int(request.POST, "slot", required=False),
        ),
    ),
    "scene_start": (None, _scene_start),
    "scene_end": (
        gettext_lazy("The scene has ended."),
        lambda request, session: scene_end(
            session=session, by=request.user, backstage_notes=request.POST.get("notes", "")
        ),
    ),
    "bring_in": (
        gettext_lazy("Brought on stage."),
        lambda request, session: stage_bring_in(
            session=session, by=request.user, character=_character(session, request.POST)
        ),
    ),
    "take_out": (
        gettext_lazy("Taken off stage."),
        lambda request, session: stage_take_out(
            session=session, by=request.user, character=_character(session, request.POST)
        ),
    ),
    "companion_propose": (
        gettext_lazy("Companion proposed."),
        lambda request, session: _awaiting(
            "stage-request",
            companion_propose(
                session=session, by=request.user, character=_character(session, request.POST)
            ),
        ),
    ),
    "companion_answer": (None, _answer),
    "entry_request": (
        gettext_lazy("Entry requested: the GM decides."),
        lambda request, session: _awaiting(
            "stage-request",
            entry_request(
                session=session, by=request.user, character=_character(session, request.POST)
            ),
        ),
    ),
    "exit_request": (
        gettext_lazy("Exit requested: the GM decides."),
        lambda request, session: _awaiting(
            "stage-request",
            exit_request(
                session=session, by=request.user, character=_character(session, request.POST)
            ),
        ),
    ),
    "withdraw": (
        gettext_lazy("Request withdrawn."),
        lambda request, session: stage_request_withdraw(
            session=session, by=request.user, request_id=_int(request.POST, "request")
        ),
    ),
    "decide": (None, _decide),
    "scene_request": (
        gettext_lazy("Scene requested: the GM decides."),
        lambda request, session: _awaiting(
            "scene-request",
            scene_request_create(
                session=session,
                by=request.user,
                scene_player=_character(session, request.POST, "scene_player", required=False),
                place=request.POST.get("place", ""),
                purpose=request.POST.get("purpose", ""),
            ),
        ),
    ),
    "scene_request_decide": (None, _scene_request_decide),
    "prepared_check": (None, _prepared_check),
    "handout_reveal": (None, _handout),
}


@member_view("POST")
def stage_action(request, session, _membership):
    action = ACTIONS.get(request.POST.get("action", ""))
    error = False
    awaits = ""
    if action is None:
        message, error = _("Unknown action."), True
    else:
        fixed_message, call = action
        try:
            message = call(request, session)
            awaits = getattr(message, "anchor", "")
            if fixed_message is not None:
                message = str(fixed_message)
        except (PermissionDenied, ValidationError) as problem:
            messages = problem.messages if isinstance(problem, ValidationError) else [str(problem)]
            message, error = " ".join(messages) or _("You cannot do that."), True
    if not request.htmx:
        if error:
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return redirect("session_room", session_id=session.pk)
    # The GM's inbox answers in place, under the inbox.
    status = "inbox-status" if request.POST.get("reply") == "inbox" else "stage-status"
    response = render(
        request,
        f"{TEMPLATE}#{status}",
        {
            "stage_status": message,
            "stage_status_error": error,
            "stage_status_awaits": awaits,
            "inbox_status": message,
            "inbox_status_error": error,
        },
    )
    # Forms that typed text reset themselves only when the action went through.
    response["X-Action-Ok"] = "0" if error else "1"
    return response
