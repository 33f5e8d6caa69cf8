"""Uploaded pictures, served only to those who may see what they belong to."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from django.views.decorators.http import require_GET

from sessions_app.selectors.pictures import (
    face_visible,
    handout_image_visible,
    planned_background_visible,
    scene_background_visible,
)
from sessions_app.services.images import image_content_type


def _picture(name: str) -> FileResponse:
    if not name:
        raise Http404
    try:
        handle = default_storage.open(name, "rb")
    except OSError:
        raise Http404 from None
    response = FileResponse(handle, content_type=image_content_type(name))
    # The names are ours and the bytes re-encoded by us; still, no browser may guess
    # another type, and no shared cache may keep what only some people may see.
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=86400"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Content-Disposition"] = "inline"
    return response


@login_required
@require_GET
def face_image(request, face_id: int):
    face = face_visible(user=request.user, face_id=face_id)
    if face is None:
        raise Http404
    return _picture(face.image.name)


@login_required
@require_GET
def scene_background(request, scene_id: int):
    scene = scene_background_visible(user=request.user, scene_id=scene_id)
    if scene is None:
        raise Http404
    return _picture(scene.background.name)


@login_required
@require_GET
def planned_scene_background(request, planned_id: int):
    planned = planned_background_visible(user=request.user, planned_id=planned_id)
    if planned is None:
        raise Http404
    return _picture(planned.background.name)


@login_required
@require_GET
def handout_image(request, handout_id: int):
    handout = handout_image_visible(user=request.user, handout_id=handout_id)
    if handout is None:
        raise Http404
    return _picture(handout.image.name)
