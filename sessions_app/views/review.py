"""The session review page, the log exports (HTML, Markdown, JSON) and the log import."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.http import content_disposition_header, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from sessions_app.services import logs as log_services

from .. import log_export
from ..forms import LogImportForm
from ..presenters.stats import session_histogram
from ..services.logs import MAX_BYTES
from .access import member_view
from .common import apply_errors


def _viewer(request, session, membership) -> log_export.LogViewer:
    return log_export.log_viewer(session=session, user=request.user, membership=membership)


@member_view()
def session_review(request, session, membership):
    viewer = _viewer(request, session, membership)
    show = request.GET.get("show", "all")
    if show not in log_export.FILTERS:
        show = "all"
    character = request.GET.get("character", "")
    try:
        number = int(request.GET.get("page", "1"))
    except ValueError:
        number = 1
    page, characters = log_export.review_page(
        viewer=viewer, show=show, character=character, page=number
    )
    names = [row["name"] for row in characters]
    character = character if character in names else ""
    # Each page link keeps the filters.
    filters = urlencode(
        {
            key: value
            for key, value in (("show", show), ("character", character))
            if value and value != "all"
        }
    )
    return render(
        request,
        "sessions_app/session_review.html",
        {
            "session": viewer.session,
            "profile": viewer.session.rules_profile,
            "phases": page.phases,
            "page": page,
            "page_query": f"?{filters}&page=" if filters else "?page=",
            "viewer": request.user,
            "viewer_is_gm": viewer.is_gm,
            "static_log": True,
            "imported": viewer.imported,
            "complete": viewer.complete,
            "show": show,
            "character": character,
            "character_names": names,
            "filtering": show != "all" or character in names,
            "dice_chart": session_histogram(viewer.session, request.user, is_gm=viewer.is_gm),
        },
    )


def _as_the_reader_reads(chunks: Iterable[str]) -> Iterator[str]:
    """The chunks, each made in the language and time zone of the request: a streamed file
    is made after the view has returned, maybe on another thread."""
    language, zone = translation.get_language(), timezone.get_current_timezone()
    chunks = iter(chunks)
    while True:
        with translation.override(language), timezone.override(zone):
            chunk = next(chunks, None)
        if chunk is None:
            return
        yield chunk


def _download(session, chunks: Iterable[str], extension: str, content_type: str):
    """Stream the file: a long log is read and rendered a chunk at a time as it is sent."""
    response = StreamingHttpResponse(
        _as_the_reader_reads(chunks), content_type=f"{content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, log_export.export_filename(session, extension)
    )
    # Each user's file holds what that user may see: never share it through a cache.
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@member_view()
def session_export_html(request, session, membership):
    viewer = _viewer(request, session, membership)
    chart = session_histogram(viewer.session, request.user, is_gm=viewer.is_gm)
    chunks = log_export.export_html_chunks(viewer=viewer, dice_chart=chart)
    return _download(viewer.session, chunks, "html", "text/html")


@member_view()
def session_export_markdown(request, session, membership):
    viewer = _viewer(request, session, membership)
    chunks = log_export.export_markdown_chunks(viewer=viewer)
    return _download(viewer.session, chunks, "md", "text/markdown")


@member_view()
def session_export_json(request, session, membership):
    viewer = _viewer(request, session, membership)
    chunks = log_export.export_json_chunks(viewer=viewer)
    return _download(viewer.session, chunks, "json", "application/json")


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
