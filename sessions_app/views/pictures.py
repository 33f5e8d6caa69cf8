"""Uploaded pictures, served only to those who may see what they belong to."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from sessions_app.selectors.pictures import (
    cut_in_visible,
    face_visible,
    handout_image_visible,
    line_face_name,
    planned_background_visible,
    scene_background_visible,
    watched_session,
)
from sessions_app.selectors.scenarios import handout_for_owner, planned_scene_for_owner
from sessions_app.selectors.scenes import running_scene
from sessions_app.selectors.spectators import SPECTATING_SESSION_KEY, spectator_table_ids
from sessions_app.services import scene_pictures
from sessions_app.services.images import image_content_type, image_read_upload

from .access import member_session_or_404, member_view
from .media import stored_file_response


def _picture(request, name: str):
    return stored_file_response(request, name, image_content_type(name))


def _watched(request) -> set[int]:
    """The tables whose spectator pages this browser opened, while their links still work."""
    return spectator_table_ids(tokens=request.session.get(SPECTATING_SESSION_KEY, []))


@require_GET
def face_image(request, face_id: int):
    face = face_visible(user=request.user, face_id=face_id, watched=_watched(request))
    if face is None:
        raise Http404
    return _picture(request, face.image.name)


@require_GET
def line_face(request, session_id: int, face_id: int):
    """The face beside a chat line: works for imported logs too, whose faces are theirs."""
    watched = _watched(request)
    session = watched_session(session_id=session_id, watched=watched)
    if session is None:
        if not request.user.is_authenticated:
            raise Http404
        session, _membership = member_session_or_404(user=request.user, session_id=session_id)
    name = line_face_name(user=request.user, session=session, face_id=face_id, watched=watched)
    if not name:
        raise Http404
    return _picture(request, name)


@require_GET
def scene_background(request, scene_id: int):
    scene = scene_background_visible(
        user=request.user, scene_id=scene_id, watched=_watched(request)
    )
    if scene is None:
        raise Http404
    return _picture(request, scene.background.name)


@login_required
@require_GET
def planned_scene_background(request, planned_id: int):
    planned = planned_background_visible(user=request.user, planned_id=planned_id)
    if planned is None:
        raise Http404
    return _picture(request, planned.background.name)


@require_GET
def handout_image(request, handout_id: int):
    handout = handout_image_visible(
        user=request.user, handout_id=handout_id, watched=_watched(request)
    )
    if handout is None:
        raise Http404
    return _picture(request, handout.image.name)


# Uploads of places and handouts ---------------------------------------------------------------


def _upload_or_none(request) -> bytes | None:
    """The posted picture's bytes; None when asked to take the picture away."""
    if request.POST.get("remove"):
        return None
    return image_read_upload(request.FILES.get("image"))


@member_view("POST")
def scene_background_set(request, session, _membership):
    """The GM shows a picture behind the running scene (or takes it away)."""
    scene = running_scene(session_id=session.pk)
    try:
        if scene is None:
            raise ValidationError(_("No scene is running."))
        scene.session = session
        scene_pictures.scene_background_set(
            scene=scene, by=request.user, data=_upload_or_none(request)
        )
    except (PermissionDenied, ValidationError) as error:
        message = " ".join(getattr(error, "messages", [str(error)]))
        status, error_shown = 400, True
    else:
        message = _("The scene's background was changed.")
        status, error_shown = 200, False
    if not request.htmx:
        if error_shown:
            return HttpResponse(message, status=status)
        return redirect("session_room", session_id=session.pk)
    return render(
        request,
        "sessions_app/session_room.html#stage-status",
        {"stage_status": message, "stage_status_error": error_shown},
    )


def _scenario_picture(request, scenario_id: int, item, setter, anchor: str):
    try:
        setter(item, _upload_or_none(request))
    except (PermissionDenied, ValidationError) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    else:
        messages.success(request, _("The picture was saved."))
    return redirect(reverse("scenario_detail", args=[scenario_id]) + f"#{anchor}")


@login_required
@require_POST
def planned_scene_background_post(request, scenario_id: int, scene_id: int):
    planned = planned_scene_for_owner(user=request.user, scenario_id=scenario_id, scene_id=scene_id)
    if planned is None:
        raise Http404
    return _scenario_picture(
        request,
        scenario_id,
        planned,
        lambda item, data: scene_pictures.planned_scene_background_set(
            planned_scene=item, by=request.user, data=data
        ),
        f"planned-scene-{planned.pk}",
    )


@login_required
@require_POST
def handout_image_post(request, scenario_id: int, handout_id: int):
    handout = handout_for_owner(user=request.user, scenario_id=scenario_id, handout_id=handout_id)
    if handout is None:
        raise Http404
    return _scenario_picture(
        request,
        scenario_id,
        handout,
        lambda item, data: scene_pictures.handout_image_set(
            handout=item, by=request.user, data=data
        ),
        f"handout-{handout.pk}",
    )


@require_GET
def cut_in_image(request, cut_in_id: int):
    cut_in = cut_in_visible(user=request.user, cut_in_id=cut_in_id, watched=_watched(request))
    if cut_in is None:
        raise Http404
    return _picture(request, cut_in.image.name)
