"""The room's sounds and cut-ins: the GM's forms, and the sound files themselves."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from sessions_app.presenters.room import ROOM_TEMPLATE, room_panels_context
from sessions_app.selectors.pictures import audio_audible, table_audio_get
from sessions_app.services import audio as audio_services
from sessions_app.services import cut_ins
from sessions_app.services.images import image_read_upload

from .access import member_view
from .media import stored_file_response
from .pictures import _watched


def _audio_id(request, *, required: bool = True) -> int | None:
    raw = request.POST.get("audio") or request.POST.get("sound") or ""
    if not raw:
        if required:
            raise ValidationError(_("Choose a sound."))
        return None
    try:
        return int(raw)
    except ValueError:
        raise ValidationError(_("That sound is not one of this table's.")) from None


def _answer(request, session, act):
    """Run one GM action and answer with the GM's sound controls and what became of it."""
    try:
        message = act(session)
    except (PermissionDenied, ValidationError) as error:
        message = " ".join(getattr(error, "messages", [str(error)]))
        status, error_shown = 400, True
    else:
        status, error_shown = 200, False
    if not request.htmx:
        if error_shown:
            return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
        return redirect("session_room", session_id=session.pk)
    session.table.refresh_from_db()
    context = room_panels_context(session, request.user, True)
    context.update({"audio_status": message, "audio_status_error": error_shown, "audio_open": True})
    return render(request, f"{ROOM_TEMPLATE}#audio-controls", context)


@member_view("POST")
def audio_upload(request, session, _membership):
    def act(session):
        data, name = audio_services.audio_read_upload(request.FILES.get("file"))
        audio = audio_services.audio_upload(
            table=session.table,
            by=request.user,
            data=data,
            file_name=name,
            title=request.POST.get("title", ""),
        )
        return _("“%(title)s” was added.") % {"title": audio.title}

    return _answer(request, session, act)


@member_view("POST")
def audio_delete(request, session, _membership):
    def act(session):
        audio = table_audio_get(table_id=session.table_id, audio_id=_audio_id(request))
        if audio is None:
            raise ValidationError(_("That sound is not one of this table's."))
        audio_services.audio_delete(audio=audio, by=request.user)
        return _("“%(title)s” was removed.") % {"title": audio.title}

    return _answer(request, session, act)


@member_view("POST")
def scene_music_set(request, session, _membership):
    def act(session):
        audio_id = _audio_id(request, required=False)
        audio_services.scene_music_set(session=session, by=request.user, audio_id=audio_id)
        return _("The music was set.") if audio_id else _("The music stopped.")

    return _answer(request, session, act)


@member_view("POST")
def sound_play(request, session, _membership):
    def act(session):
        audio = audio_services.sound_play(
            session=session, by=request.user, audio_id=_audio_id(request)
        )
        return _("“%(title)s” is playing.") % {"title": audio.title}

    return _answer(request, session, act)


@member_view("POST")
def cut_in_start(request, session, _membership):
    def act(session):
        upload = request.FILES.get("image")
        cut_ins.cut_in_start(
            session=session,
            by=request.user,
            text=request.POST.get("text", ""),
            image=image_read_upload(upload) if upload else None,
            sound_id=_audio_id(request, required=False),
        )
        return _("The cut-in is showing.")

    return _answer(request, session, act)


@member_view("POST")
def cut_ins_on_rolls(request, session, _membership):
    def act(session):
        on = bool(request.POST.get("on"))
        cut_ins.cut_ins_on_rolls_set(table=session.table, by=request.user, on=on)
        if on:
            return _("Criticals and fumbles now show a cut-in.")
        return _("Criticals and fumbles no longer show a cut-in.")

    return _answer(request, session, act)


@require_GET
def audio_file(request, audio_id: int):
    audio = audio_audible(user=request.user, audio_id=audio_id, watched=_watched(request))
    if audio is None:
        raise Http404
    return stored_file_response(request, audio.file.name, audio.content_type)
