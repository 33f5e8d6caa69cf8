"""Stored files (pictures, sounds) answered after the caller's permission check: by Django
with HTTP range requests, or, behind nginx (`SENDFILE_NGINX`), by nginx itself through
`X-Accel-Redirect` to its internal location for MEDIA_ROOT."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse, StreamingHttpResponse

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def _protect(response: HttpResponse, content_type: str) -> HttpResponse:
    # The names are ours; still, no browser may guess another type, and no shared cache
    # may keep what only some people may see.
    response["Content-Type"] = content_type
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=86400"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Content-Disposition"] = "inline"
    return response


def _byte_range(header: str, size: int) -> tuple[int, int] | None | bool:
    """The (first, last) bytes one `Range` header asks for; None when it asks for nothing we
    answer in part (absent, several ranges, another unit: the whole file then); False when
    its one range lies outside the file."""
    match = _RANGE.match(header.strip())
    if not match:
        return None
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:
        # The last N bytes.
        length = int(last)
        if length == 0:
            return False
        return max(size - length, 0), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or end < start:
        return False
    return start, end


def _chunks(handle, length: int, size: int = 64 * 1024):
    """`length` bytes of an open file, a piece at a time (a 20 MB sound is never held whole)."""
    try:
        while length > 0:
            piece = handle.read(min(size, length))
            if not piece:
                break
            length -= len(piece)
            yield piece
    finally:
        handle.close()


def stored_file_response(request, name: str, content_type: str) -> HttpResponse:
    """The stored file `name`, whole or the one byte range asked for (206)."""
    if not name:
        raise Http404
    if getattr(settings, "SENDFILE_NGINX", False):
        # nginx reads the file and answers ranges itself; only names of ours reach here.
        response = HttpResponse()
        response["X-Accel-Redirect"] = settings.SENDFILE_NGINX_LOCATION + name
        return _protect(response, content_type)
    try:
        size = default_storage.size(name)
        handle = default_storage.open(name, "rb")
    except OSError:
        raise Http404 from None
    wanted = _byte_range(request.headers.get("Range", ""), size)
    if wanted is False:
        handle.close()
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
        response["Accept-Ranges"] = "bytes"
        return _protect(response, content_type)
    if wanted is None:
        response = FileResponse(handle)
    else:
        start, end = wanted
        handle.seek(start)
        response = StreamingHttpResponse(_chunks(handle, end - start + 1), status=206)
        response["Content-Range"] = f"bytes {start}-{end}/{size}"
    response["Accept-Ranges"] = "bytes"
    response["Content-Length"] = str(size if wanted is None else wanted[1] - wanted[0] + 1)
    return _protect(response, content_type)
