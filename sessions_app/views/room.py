"""The session room: the page, chat, checks, contests, NPC rolls and the roll box."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from sessions_app.selectors.access import LARGEST_ID, is_gm
from sessions_app.selectors.chat_tabs import chat_tabs_open
from sessions_app.selectors.pictures import faces_by_character
from sessions_app.selectors.play import main_play_running
from sessions_app.selectors.scenes import (
    running_scene,
    stage_appearances,
    voice_get,
)
from sessions_app.selectors.tables import table_characters, table_members
from sessions_app.selectors.timeline import dice_roots, present_users, recent_events
from sessions_app.services import checks as check_services
from sessions_app.services.action_keys import Repeated, once
from sessions_app.services.characters import session_character_set
from sessions_app.services.checks import (
    ContestSide,
    can_roll,
    check_request,
    clean_declared_modifiers,
    contest_open,
    gm_roll,
)
from sessions_app.services.palette import box_send, chat_send, palette_send
from sessions_app.services.resources import resource_change, resource_command

from .. import rooms
from ..forms import (
    ChatForm,
    PaletteSendForm,
    ResourceAdjustForm,
    RollBoxForm,
    gm_room_form,
    say_as_parse,
)
from ..presenters.characters import characters_context, session_characters
from ..presenters.checks import check_chances_context, contest_chance_context, roll_summary
from ..presenters.room import (
    rollable_characters,
    room_panels_context,
    table_npcs,
    voice_offered,
    voices,
)
from ..presenters.stage import speakers
from .access import member_view
from .common import apply_errors

TEMPLATE = "sessions_app/session_room.html"


def room_context(request, session, membership, *, full: bool = True, **overrides) -> dict:
    """The room page's context; `full=False` is its panels only (a form's answer that
    re-renders a panel)."""
    context = room_panels_context(session, request.user, is_gm(membership))
    if full:
        events, has_earlier = recent_events(
            session_id=session.pk, user=request.user, is_gm=context["viewer_is_gm"]
        )
        context.update(
            {
                "match_boards": rooms.render_all(session.pk, request.user, request=request)[1],
                **rooms.boards().page_context(request, session),
                "events": events,
                "has_earlier": has_earlier,
                "present": present_users(session_id=session.pk),
                "members": table_members(table=session.table),
                "dice_roots": dice_roots(session_id=session.pk),
            }
        )
    context.update(overrides)
    return context


@member_view()
def earlier_events(request, session, membership):
    """The lines before the oldest one the page shows, put in front of it."""
    try:
        before = int(request.GET.get("before", ""))
    except ValueError:
        return HttpResponse(_("Say before which line."), status=400)
    events, has_earlier = recent_events(
        session_id=session.pk, user=request.user, is_gm=is_gm(membership), before_seq=before
    )
    # Without script the link opens a page of its own: these lines, and a link to those
    # before them; the room keeps its live lines.
    template = f"{TEMPLATE}#earlier-events" if request.htmx else "sessions_app/earlier_events.html"
    return render(
        request,
        template,
        {
            "session": session,
            "events": events,
            "has_earlier": has_earlier,
            "viewer": request.user,
            "viewer_is_gm": is_gm(membership),
            "oob": True,
        },
    )


@member_view()
def session_room(request, session, membership):
    return render(request, TEMPLATE, room_context(request, session, membership))


def _respond(request, session, membership, partial: str, status: int = 200, **context):
    """Answer an htmx form post with its partial; plain posts go back to the room.

    The answer is the form alone, with what it needs: the room's other panels reach every
    page, this one included, through the socket once the action has committed.
    """
    if not request.htmx:
        return redirect("session_room", session_id=session.pk)
    return render(
        request,
        f"{TEMPLATE}#{partial}",
        {
            "session": session,
            "viewer": request.user,
            "viewer_is_gm": is_gm(membership),
            **context,
        },
        # htmx swaps only 2xx answers by default; refusals are shown inside the form.
        status=200 if status < 500 else status,
    )


def _action_ok(request, session):
    """Answer a chat line or a roll that went through: with no content and X-Action-Ok, for
    the page keeps its form (the voice and channel chosen, what was typed since) and clears
    the text sent itself; the line reaches every page, this one included, through the
    socket. A page without script goes back to the room."""
    if not request.htmx:
        return redirect("session_room", session_id=session.pk)
    response = HttpResponse(status=204)
    response["X-Action-Ok"] = "1"
    return response


def _run(form, action):
    """Call a service for a valid form; turn its refusals into form errors."""
    if not form.is_valid():
        return False
    try:
        action(form.cleaned_data)
    except (PermissionDenied, ValidationError) as error:
        if isinstance(error, PermissionDenied):
            form.add_error(None, str(error))
        else:
            apply_errors(form, error)
        return False
    return True


def _named_voice(session, character_id, face_id=None):
    """The one character a chat line or a roll names, as selectors.scenes.voice_get reads
    it; None when it names none (or nothing that can exist)."""
    if character_id is None or not 0 < character_id <= LARGEST_ID:
        return None
    if face_id is not None and not 0 < face_id <= LARGEST_ID:
        face_id = None
    return voice_get(session=session, character_id=character_id, face_id=face_id)


def _posted_id(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isdecimal() else None


@member_view("POST")
def chat_post(request, session, membership):
    say_as = say_as_parse(request.POST.get("say_as")) or {}
    voice = _named_voice(session, say_as.get("character_id"), _posted_id(request.POST.get("face")))
    form = ChatForm(request.POST, voice=voice)
    key = request.POST.get("action_key")
    ok = _run(
        form,
        lambda data: once(
            session_id=session.pk,
            user=request.user,
            key=key,
            action=lambda: _chat(request, session, membership, voice, data),
        ),
    )
    if not request.htmx and not ok:
        return HttpResponse(" ".join(str(e) for e in form.errors.values()), status=400)
    if not ok:
        # Refused: the form again with what was typed and why, and the viewer's every voice.
        own = _own_voices(request, session, membership)
        form.offer(
            speakers(session, request.user, is_gm(membership), own),
            faces_by_character(characters=own),
            chat_tabs_open(session_id=session.pk),
        )
        return _respond(request, session, membership, "chat-form", chat_form=form)
    return _action_ok(request, session)


def _chat(request, session, membership, voice, data):
    say_as = data["say_as"]
    to = None
    if say_as.get("to_id"):
        to = get_user_model().objects.filter(pk=say_as["to_id"]).first()
    return chat_send(
        session=session,
        by=request.user,
        text=data["text"],
        gm_only=data["gm_only"],
        mode=say_as["mode"],
        character=voice.character if voice is not None else None,
        to=to,
        face_id=data.get("face") if voice is not None else None,
        channel=data["channel"],
        membership=membership,
        voice=voice,
    )


def _own_voices(request, session, membership) -> list:
    scene = running_scene(session_id=session.pk)
    on_stage = (
        [appearance.character for appearance in stage_appearances(scene=scene)] if scene else []
    )
    controlled = [
        character
        for character in session_characters(session, is_gm(membership))
        if character.owner_id == request.user.pk
    ]
    return voices(controlled, main_play_running(session), on_stage)


@member_view("POST")
def roll_box(request, session, membership):
    voice = _named_voice(session, _posted_id(request.POST.get("roll_as")))
    offered = (
        [voice.character]
        if voice is not None
        and voice_offered(voice, request.user, is_gm(membership), main_play_running(session))
        else []
    )
    form = RollBoxForm(request.POST, characters=offered, user=request.user)
    key = request.POST.get("action_key")
    ok = _run(
        form,
        lambda data: once(
            session_id=session.pk,
            user=request.user,
            key=key,
            action=lambda: box_send(
                session=session,
                by=request.user,
                text=data["text"],
                character=offered[0] if data["roll_as"] else None,
                membership=membership,
                voice=voice,
                **_dice_choice(request),
            ),
        ),
    )
    if not ok:
        # Refused: the form again with why, and every character the viewer may roll as.
        own = _own_voices(request, session, membership)
        form.offer(own, request.user)
        return _respond(request, session, membership, "roll-box", roll_box_form=form)
    return _action_ok(request, session)


@member_view("POST")
def palette_line_send(request, session, membership):
    """Send one line of a character's chat palette straight to the room."""
    form = PaletteSendForm(request.POST)
    message, error = "", False
    if not form.is_valid():
        message, error = _("Choose a line of the palette to send."), True
    else:
        character = get_object_or_404(
            table_characters(table=session.table), pk=form.cleaned_data["character"]
        )
        try:
            palette_send(
                session=session,
                by=request.user,
                character=character,
                text=form.cleaned_data["text"],
                membership=membership,
            )
        except (PermissionDenied, ValidationError) as refusal:
            message, error = " ".join(_messages(refusal)), True
        else:
            message = _("Sent: %(line)s") % {"line": form.cleaned_data["text"]}
    return _palette_status(request, message, error)


@member_view("POST")
def resource_adjust(request, session, membership):
    """The character panel's ± buttons: one step up or down of a resource."""
    form = ResourceAdjustForm(request.POST)
    if not form.is_valid():
        return _palette_status(
            request, " ".join(form.non_field_errors()) or _("Choose a character."), True
        )
    character = get_object_or_404(
        table_characters(table=session.table), pk=form.cleaned_data["character"]
    )
    change = form.cleaned_data["change"]
    try:
        if form.cleaned_data["command"]:
            resource_command(
                session=session,
                by=request.user,
                character=character,
                text=form.cleaned_data["command"],
                **_dice_choice(request),
            )
        else:
            resource_change(
                session=session,
                by=request.user,
                character=character,
                name=form.cleaned_data["resource"],
                op="+" if change > 0 else "-",
                amount=str(abs(change)),
            )
    except (PermissionDenied, ValidationError) as refusal:
        return _palette_status(request, " ".join(_messages(refusal)), True)
    if not request.htmx:
        return redirect("session_room", session_id=session.pk)
    context = {
        **characters_context(session, request.user, is_gm(membership)),
        "session": session,
        "viewer": request.user,
        "viewer_is_gm": is_gm(membership),
        "oob": True,
    }
    # The panel comes back at once for the one who pressed; everyone else's follows the
    # timeline event.
    return HttpResponse(
        render_to_string(
            f"{TEMPLATE}#palette-status", {"palette_status": _("Changed.")}, request=request
        )
        + render_to_string(f"{TEMPLATE}#characters", context, request=request)
    )


def _messages(refusal) -> list[str]:
    return [str(refusal)] if isinstance(refusal, PermissionDenied) else refusal.messages


def _palette_status(request, message: str, error: bool):
    if not request.htmx:
        return HttpResponse(
            message, status=400 if error else 200, content_type="text/plain; charset=utf-8"
        )
    return render(
        request,
        f"{TEMPLATE}#palette-status",
        {"palette_status": message, "palette_status_error": error},
    )


# The partial each of the GM's room forms answers with (see forms.GM_ROOM_FORMS).
GM_FORM_PARTIALS = {
    "check_form": "check-request-form",
    "contest_form": "contest-form",
    "npc_form": "npc-roll-form",
}


def _gm_form_answer(request, session, membership, name, *, characters, act, done=""):
    """How the GM's room forms answer: the service called with the valid form's data, then
    the form again, with why when refused, emptied (and `done` said) when it went through."""
    form = gm_room_form(name, session=session, characters=characters, data=request.POST)
    ok = _run(form, act)
    if ok:
        form = gm_room_form(name, session=session, characters=characters)
    return _respond(
        request,
        session,
        membership,
        GM_FORM_PARTIALS[name],
        **{name: form},
        form_status=done if ok else "",
    )


@member_view("POST", gm=True)
def check_request_create(request, session, membership):
    return _gm_form_answer(
        request,
        session,
        membership,
        "check_form",
        characters=rollable_characters(session),
        # The form's fields are the service's arguments, name for name.
        act=lambda data: check_request(session=session, by=request.user, **data),
        done=_("Check requested."),
    )


def _contest_sides(data) -> dict:
    return {
        side: ContestSide(
            character=data[f"{side}_character"],
            value_name=data[f"{side}_value_name"],
            value=data[f"{side}_value"],
            gm_modifier=data[f"{side}_modifier"],
            critical=data[f"{side}_critical"],
            fumble=data[f"{side}_fumble"],
        )
        for side in ("action", "reaction")
    }


@member_view("POST", gm=True)
def contest_create(request, session, membership):
    return _gm_form_answer(
        request,
        session,
        membership,
        "contest_form",
        characters=rollable_characters(session),
        act=lambda data: contest_open(
            session=session,
            by=request.user,
            label=data["label"],
            **_contest_sides(data),
            reaction_can_roll=not data["reaction_cannot_roll"],
        ),
        done=_("Contest opened."),
    )


@member_view("POST", gm=True)
def npc_roll(request, session, membership):
    return _gm_form_answer(
        request,
        session,
        membership,
        "npc_form",
        characters=table_npcs(session),
        act=lambda data: gm_roll(session=session, by=request.user, **_dice_choice(request), **data),
    )


def _dice_choice(request) -> dict:
    """The roller's random value and the key reserved for it, put in the form by
    static/js/dice-value.js at submit; a page without script sends neither and the server
    makes the value and takes the next key (the roll records which)."""
    return {
        "dice_value": request.POST.get("dice_value") or None,
        "dice_reservation": request.POST.get("dice_reservation") or None,
    }


def _declared_rows(post) -> list[tuple[str, str]]:
    return list(zip(post.getlist("mod_label"), post.getlist("mod_amount"), strict=False))


@login_required
@require_POST
def check_roll(request, session_id: int, request_id: int):
    # The service checks membership, ownership and that the check is in this session: the
    # hottest endpoint of a session does not look those up twice.
    message, status = "", 200
    # The widget of a reaction side that cannot roll sends "answer": no dice, modifiers only.
    answer = bool(request.POST.get("answer"))
    act = check_services.contest_answer if answer else check_services.check_roll
    try:
        done = once(
            session_id=session_id,
            user=request.user,
            key=request.POST.get("action_key"),
            action=lambda: act(
                request_id=request_id,
                session_id=session_id,
                by=request.user,
                declared_modifiers=_declared_rows(request.POST),
                **({} if answer else _dice_choice(request)),
            ),
        )
    except PermissionDenied as error:
        message, status = str(error), 403
    except ValidationError as error:
        message, status = " ".join(error.messages), 400
    else:
        if isinstance(done, Repeated):
            done = done.roll
        message = roll_summary(done)
    return _status(request, message, error=status != 200, status=status)


def _status(request, message: str, *, error: bool = False, status: int | None = None):
    """Answer with the status line the room announces to screen readers."""
    if status is None:
        status = 400 if error else 200
    if not request.htmx:
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return render(
        request,
        f"{TEMPLATE}#check-status",
        {"check_status": message, "check_status_error": error},
    )


@member_view("POST")
def check_chances(request, session, membership, request_id: int):
    """Exact odds for a pending check as its roller edits their own modifiers."""
    check = get_object_or_404(session.check_requests, pk=request_id)
    if not can_roll(request.user, check.character) and not is_gm(membership):
        raise Http404
    try:
        declared = clean_declared_modifiers(_declared_rows(request.POST))
    except ValidationError as error:
        return HttpResponse(" ".join(error.messages), status=200)
    return render(
        request,
        f"{TEMPLATE}#chances",
        check_chances_context(check, declared=declared, viewer_is_gm=is_gm(membership)),
    )


@member_view("POST", gm=True)
def contest_preview(request, session, _membership):
    """The exact chance of each side while the GM fills in the contest form."""
    form = gm_room_form(
        "contest_form", session=session, characters=rollable_characters(session), data=request.POST
    )
    form.is_valid()
    return render(
        request,
        f"{TEMPLATE}#contest-chance",
        contest_chance_context(form.cleaned_data, session.rules_profile),
    )


def _object_action(rows, act, done: Promise):
    """Return the view through which the GM acts on one of `rows(session)`: the service
    `act(request, target)` checks who may and does it; the answer is the room's status
    line, `done` or why the service refused."""

    @member_view("POST")
    def view(request, session, _membership, **url_ids):
        (object_id,) = url_ids.values()  # the one id the URL names: request_id, roll_id
        target = get_object_or_404(rows(session), pk=object_id)
        try:
            act(request, target)
        except ValidationError as error:
            return _status(request, " ".join(error.messages), error=True)
        return _status(request, str(done))

    return view


check_cancel = _object_action(
    lambda session: session.check_requests,
    lambda request, check: check_services.check_cancel(request=check, by=request.user),
    gettext_lazy("Check cancelled."),
)
roll_reveal = _object_action(
    lambda session: session.rolls,
    lambda request, roll: check_services.roll_reveal(roll=roll, by=request.user),
    gettext_lazy("The roll is revealed to everyone."),
)
roll_void = _object_action(
    lambda session: session.rolls,
    lambda request, roll: check_services.roll_void(
        roll=roll, by=request.user, reason=request.POST.get("reason", "")
    ),
    gettext_lazy("The roll is voided."),
)


@member_view("POST")
def cast_update(request, session, membership):
    """Add or remove a character from the session's cast."""
    try:
        character_id = int(request.POST.get("character", ""))
    except ValueError:
        return HttpResponse(_("Choose a character."), status=400)
    character = get_object_or_404(table_characters(table=session.table), pk=character_id)
    taking_part = request.POST.get("taking_part") == "1"
    confirm = request.POST.get("confirm")
    if confirm == "0":
        # "Keep" on the question: nothing changes.
        if not request.htmx:
            return redirect("session_room", session_id=session.pk)
        return render(
            request,
            "sessions_app/_cast_panel.html",
            room_context(request, session, membership, full=False),
        )
    if not taking_part and character.owner_id == request.user.pk and confirm != "1":
        # A player taking their own PC out of the session is asked first: a second submit,
        # with confirm=1, from the panel (or, without script, from the whole room page).
        context = room_context(
            request, session, membership, full=not request.htmx, cast_confirm=character
        )
        if not request.htmx:
            return render(request, TEMPLATE, context)
        return render(request, "sessions_app/_cast_panel.html", context)
    message = ""
    try:
        session_character_set(
            session=session, character=character, by=request.user, taking_part=taking_part
        )
    except ValidationError as error:
        message = " ".join(error.messages)
    if not request.htmx:
        return redirect("session_room", session_id=session.pk)
    context = room_context(request, session, membership, full=False, cast_message=message)
    # The stage (which lists the cast too) follows through the live push of the cast change,
    # to this page as to every other. Sent along here as well, it raced that push: the push
    # replaced this panel first, and htmx then looked for #stage in the detached old one.
    return render(request, "sessions_app/_cast_panel.html", context)
