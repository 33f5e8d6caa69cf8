"""Bringing a room over from Ccfolia: the upload of its export and the report."""

from __future__ import annotations

from pathlib import PurePosixPath

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render

from sessions_app.services.ccfolia_room import MAX_ZIP_BYTES
from sessions_app.services.ccfolia_room import ccfolia_room_import as room_import

from ..forms import CcfoliaRoomForm
from .access import member_view
from .common import apply_errors

# The report is kept in the user's session so that reloading it never imports again.
_REPORT_KEY = "ccfolia_room_report"


@member_view("GET", "POST", gm=True)
def ccfolia_room_import(request, table, _membership):
    form = CcfoliaRoomForm()
    if request.method == "POST":
        form = CcfoliaRoomForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                if upload.size > MAX_ZIP_BYTES:
                    raise ValidationError({"file": form.fields["file"].help_text}, code="zip_size")
                report = room_import(
                    table=table,
                    by=request.user,
                    data=upload.read(MAX_ZIP_BYTES + 1),
                    room_name=PurePosixPath(upload.name or "").stem,
                )
            except ValidationError as error:
                apply_errors(form, error)
            else:
                request.session[_REPORT_KEY] = report
                return redirect("ccfolia_room_report", table_id=table.pk)
    return render(
        request,
        "sessions_app/ccfolia_room_import.html",
        {"table": table, "form": form},
        status=400 if form.errors else 200,
    )


@member_view("GET", gm=True)
def ccfolia_room_report(request, table, _membership):
    report = request.session.get(_REPORT_KEY)
    if not report or report.get("table_id") != table.pk:
        return redirect("ccfolia_room_import", table_id=table.pk)
    return render(
        request, "sessions_app/ccfolia_room_report.html", {"table": table, "report": report}
    )
