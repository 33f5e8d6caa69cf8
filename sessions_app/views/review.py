"""The session review page, the log exports (HTML, Markdown, JSON) and the log import."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from sessions_app.services import logs as log_services
from sessions_app.services.access import member_session_or_404

from .. import log_export
from ..forms import LogImportForm
from ..services.logs import MAX_BYTES
from .common import apply_errors
from .stats import session_histogram


def _viewer(request, session_id: int) -> log_export.LogViewer:
    session, membership = member_session_or_404(user=request.user, session_id=session_id)
    return log_export.log_viewer(session=session, user=request.user, membership=membership)


@login_required
def session_review(request, session_id: int):
    viewer = _viewer(request, session_id)
    show = request.GET.get("show", "all")
    if show not in log_export.FILTERS:
        show = "all"
    character = request.GET.get("character", "")
    phases, characters = log_export.session_review(viewer=viewer, show=show, character=character)
    names = [row["name"] for row in characters]
    return render(
        request,
        "sessions_app/session_review.html",
        {
            "session": viewer.session,
            "profile": viewer.session.rules_profile,
            "phases": phases,
            "viewer": request.user,
            "viewer_is_gm": viewer.is_gm,
            "static_log": True,
            "imported": viewer.imported,
            "complete": viewer.complete,
            "show": show,
            "character": character if character in names else "",
            "character_names": names,
            "filtering": show != "all" or character in names,
            "dice_chart": session_histogram(viewer.session, request.user, is_gm=viewer.is_gm),
        },
    )


def _download(session, text: str, extension: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, log_export.export_filename(session, extension)
    )
    # Each user's file holds what that user may see: never share it through a cache.
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
def session_export_html(request, session_id: int):
    viewer = _viewer(request, session_id)
    chart = session_histogram(viewer.session, request.user, is_gm=viewer.is_gm)
    html = log_export.export_html(viewer=viewer, dice_chart=chart)
    return _download(viewer.session, html, "html", "text/html")


@login_required
def session_export_markdown(request, session_id: int):
    viewer = _viewer(request, session_id)
    text = log_export.export_markdown(viewer=viewer)
    return _download(viewer.session, text, "md", "text/markdown")


@login_required
def session_export_json(request, session_id: int):
    viewer = _viewer(request, session_id)
    text = log_export.export_json_text(viewer=viewer)
    return _download(viewer.session, text, "json", "application/json")


@login_required
@require_http_methods(["GET", "POST"])
def log_import(request):
    form = LogImportForm()
    if request.method == "POST":
        form = LogImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            if upload.size > MAX_BYTES:
                form.add_error(
                    "file",
                    _("The file is larger than %(limit)d MB.") % {"limit": MAX_BYTES // 2**20},
                )
            else:
                try:
                    session = log_services.log_import(data=upload.read(), by=request.user)
                except ValidationError as error:
                    apply_errors(form, ValidationError({"file": error.messages}))
                except PermissionDenied as error:
                    form.add_error(None, str(error))
                else:
                    messages.success(
                        request,
                        _("Imported “%(title)s” as a new table that you run.")
                        % {"title": session.title},
                    )
                    return redirect("session_review", session_id=session.pk)
    status = 400 if form.errors else 200
    return render(request, "sessions_app/import_log.html", {"form": form}, status=status)
