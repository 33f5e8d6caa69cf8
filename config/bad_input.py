"""Requests no field can accept are answered 400 with a message, and change nothing.

A NUL character in a form or query (PostgreSQL's text columns refuse it, SQLite's keep it)
is turned away before any view runs. A number past what the database's integer columns
hold (an id of 2^63 in a URL or a form) reaches the database as an overflow: that, too, is
the request's fault, never a server error.
"""

from __future__ import annotations

from django.db import DataError
from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _


def _holds_nul(query_dict) -> bool:
    return any(
        "\x00" in key or any("\x00" in value for value in query_dict.getlist(key))
        for key in query_dict
    )


class BadInputMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            "\x00" in request.path
            or _holds_nul(request.GET)
            or (request.method == "POST" and _holds_nul(request.POST))
        ):
            return HttpResponseBadRequest(
                _("The request holds a NUL character, which no field accepts."),
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OverflowError | DataError):
            return HttpResponseBadRequest(
                _("A number or text in the request is out of range."),
                content_type="text/plain; charset=utf-8",
            )
        return None
