"""One log format for the whole server: UTC times, and the request's id on every line.

Each HTTP request gets an id (the one nginx made, `X-Request-ID`, when a trusted proxy sent
it, so nginx's access log and the app's lines can be matched; otherwise a new one). Every
line logged while the request is served carries it, the response names it, and one line per
request says who asked for what and how it went, with the client's address as
config/client_address.py reads it (daphne's own access log is off: it printed local times
and the proxy's address).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

from config.client_address import _is_trusted, client_ip

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
access_log = logging.getLogger("srs.request")


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (`-` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


class UTCFormatter(logging.Formatter):
    """Times in UTC with an explicit Z, whatever TIME_ZONE the process runs in."""

    converter = time.gmtime
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"


class JSONFormatter(UTCFormatter):
    """One JSON object per line, for log collectors (LOG_FORMAT=json)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def _request_id(request) -> str:
    offered = request.META.get("HTTP_X_REQUEST_ID", "")
    if offered and _REQUEST_ID.match(offered) and _is_trusted(request.META.get("REMOTE_ADDR", "")):
        return offered
    return secrets.token_hex(8)


class RequestLogMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    # The id is set and left: each request runs in a context of its own, and Django's
    # handler logs an error response ("django.request") after the middleware has returned.
    def __call__(self, request):
        if iscoroutinefunction(self):
            return self._acall(request)
        started = self._begin(request)
        return self._end(request, self.get_response(request), started)

    async def _acall(self, request):
        started = self._begin(request)
        return self._end(request, await self.get_response(request), started)

    def _begin(self, request):
        request.request_id = _request_id(request)
        request_id_var.set(request.request_id)
        return time.monotonic()

    def _end(self, request, response, started):
        response["X-Request-ID"] = request.request_id
        access_log.info(
            '%s "%s %s" %s %.1fms',
            client_ip(request),
            request.method,
            request.get_full_path(),
            response.status_code,
            (time.monotonic() - started) * 1000,
        )
        return response
