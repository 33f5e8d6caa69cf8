"""Pictures people upload: portraits and expressions, scene backgrounds, handout images.

Every picture, whether uploaded or read from an imported file, goes through `image_clean`:
only PNG, JPEG, WebP and GIF are read (never SVG or anything a browser might run), the size
is checked before any pixel is decoded, and what is kept is a fresh encoding of the pixels
alone, so no metadata (EXIF with its GPS position, ICC profiles, text chunks) survives.
Files are stored through Django's storage API under names nobody can guess.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import io
import secrets
import warnings
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageOps

from ..selectors.pictures import pictures_in_use

MAX_BYTES = 5 * 1024 * 1024
MAX_SIDE = 4096
# Decoding and re-encoding cost time in proportion to the pixels (about 0.15–0.6 µs each
# here), and a flat PNG of millions of pixels packs into a few KB: so the pixels are
# bounded, read from the header before any is decoded. One picture: a 12-megapixel phone
# photo (4096×3072). One request (an import carrying many pictures): 32 megapixels in all,
# e.g. a hundred 512×512 faces, a few seconds of work at most.
MAX_PIXELS = 4096 * 3072
MAX_REQUEST_PIXELS = 32_000_000

# What is read → how it is kept. A GIF keeps its first frame, as a PNG: one still picture.
# The formats Pillow may open: no other decoder is ever tried on an upload.
_OPENED = ["PNG", "JPEG", "WEBP", "GIF"]
# MPO is the JPEG flavour some phones save photos in (Pillow's JPEG reader opens it as such):
# its first picture is kept as a JPEG.
_KEPT = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG", "WEBP": "WEBP", "GIF": "PNG"}
_EXTENSIONS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"}


@dataclass(frozen=True)
class CleanImage:
    data: bytes
    extension: str
    width: int
    height: int


class PixelBudget:
    """The pixels one request may still decode, spent picture by picture."""

    def __init__(self, limit: int = MAX_REQUEST_PIXELS):
        self.limit = limit
        self.left = limit

    def spend(self, pixels: int) -> None:
        if pixels > self.left:
            raise ValidationError(
                _(
                    "The pictures hold more than %(limit)d megapixels in all; "
                    "send fewer or smaller ones."
                )
                % {"limit": self.limit // 1_000_000},
                code="image_pixels_in_all",
            )
        self.left -= pixels


def _refused() -> ValidationError:
    return ValidationError(
        _("That file is not a picture this app accepts: use a PNG, JPEG, WebP or GIF image."),
        code="image_format",
    )


def image_clean(data: bytes, budget: PixelBudget | None = None) -> CleanImage:
    """Check picture bytes and return them re-encoded without metadata, or refuse.

    `budget` is what the request may still decode when it carries several pictures."""
    if len(data) > MAX_BYTES:
        raise ValidationError(
            _("The picture is larger than %(limit)d MB.") % {"limit": MAX_BYTES // (1024 * 1024)},
            code="image_size",
        )
    if not data:
        raise _refused()
    try:
        # Pillow's own bomb check warns first; here a warning refuses as an error does.
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(data), formats=_OPENED)
            # `open` read the header alone: the size is known before any pixel is decoded.
            width, height = picture.size
            if width > MAX_SIDE or height > MAX_SIDE:
                raise ValidationError(
                    _("The picture is %(width)d×%(height)d pixels; at most %(side)d×%(side)d.")
                    % {"width": width, "height": height, "side": MAX_SIDE},
                    code="image_pixels",
                )
            if width * height > MAX_PIXELS:
                raise ValidationError(
                    _(
                        "The picture is %(width)d×%(height)d pixels, %(megapixels)s megapixels; "
                        "at most %(limit)s megapixels."
                    )
                    % {
                        "width": width,
                        "height": height,
                        "megapixels": f"{width * height / 1_000_000:.1f}",
                        "limit": f"{MAX_PIXELS / 1_000_000:.1f}",
                    },
                    code="image_pixels",
                )
            if budget is not None:
                budget.spend(width * height)
            kept = _KEPT[picture.format]
            picture.seek(0)
            picture.load()
            # A phone's photo is stored sideways with an EXIF note to turn it: turn it now,
            # since the note is dropped with the rest of the metadata.
            picture = ImageOps.exif_transpose(picture)
            fresh = _pixels_only(picture, kept)
            out = io.BytesIO()
            if kept == "JPEG":
                fresh.save(out, "JPEG", quality=88, optimize=True)
            elif kept == "WEBP":
                fresh.save(out, "WEBP", quality=85)
            else:
                fresh.save(out, "PNG", optimize=True)
    except (ValidationError, MemoryError):
        raise
    except Exception:
        # A damaged file fails deep inside a decoder or the EXIF reader with whatever error
        # that code meets (struct.error, IndexError, ...): each is a file refused, not a 500.
        raise _refused() from None
    return CleanImage(
        data=out.getvalue(), extension=_EXTENSIONS[kept], width=fresh.width, height=fresh.height
    )


def _pixels_only(picture: Image.Image, kept: str) -> Image.Image:
    """A new image from the pixels alone: nothing of the file's `info` (EXIF, ICC profile,
    text chunks, comments) comes along."""
    has_alpha = picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info
    mode = "RGBA" if has_alpha and kept != "JPEG" else "RGB"
    converted = picture.convert(mode)
    return Image.frombytes(mode, converted.size, converted.tobytes())


def image_read_upload(upload) -> bytes:
    """The bytes of an uploaded file, refusing a too-large one before reading it all."""
    if upload is None:
        raise ValidationError(_("Choose a picture to upload."), code="required")
    if upload.size is not None and upload.size > MAX_BYTES:
        raise ValidationError(
            _("The picture is larger than %(limit)d MB.") % {"limit": MAX_BYTES // (1024 * 1024)},
            code="image_size",
        )
    upload.seek(0)
    return upload.read(MAX_BYTES + 1)


@contextmanager
def image_saved(*, data: bytes | CleanImage, folder: str):
    """Clean picture bytes (unless already cleaned), store them under an unguessable name
    and give that name.

    Use as `with image_saved(...) as name, transaction.atomic():` so that a refusal or
    failure inside the transaction deletes the file again: nothing is left behind."""
    clean = data if isinstance(data, CleanImage) else image_clean(data)
    name = default_storage.save(
        f"{folder}/{secrets.token_urlsafe(24)}.{clean.extension}", ContentFile(clean.data)
    )
    try:
        yield name
    except BaseException:
        default_storage.delete(name)
        raise


def image_delete(name: str) -> None:
    """Delete a stored picture once the transaction that dropped it commits."""
    if name:
        transaction.on_commit(lambda: default_storage.delete(name))


def image_content_type(name: str) -> str:
    """The Content-Type a stored picture is served with (the names are ours)."""
    return CONTENT_TYPES.get(name.rsplit(".", 1)[-1], "application/octet-stream")


def image_to_text(name: str) -> dict | None:
    """A stored picture as JSON: its format and base64 bytes (None if it is missing)."""
    if not name:
        return None
    try:
        with default_storage.open(name, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return {"format": name.rsplit(".", 1)[-1], "base64": base64.b64encode(data).decode("ascii")}


def image_from_text(value, where: str, budget: PixelBudget | None = None) -> CleanImage:
    """A picture read from JSON, checked and re-encoded the same way as an upload (once:
    `image_saved` stores the result as it is)."""
    if not isinstance(value, dict) or not isinstance(value.get("base64"), str):
        raise ValidationError(
            _("%(where)s has a picture that is not {format, base64}.") % {"where": where}
        )
    if len(value["base64"]) > MAX_BYTES * 4 // 3 + 4:
        raise ValidationError(
            _("The picture is larger than %(limit)d MB.") % {"limit": MAX_BYTES // (1024 * 1024)}
        )
    try:
        data = base64.b64decode(value["base64"], validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError(
            _("%(where)s has a picture that is not valid base64.") % {"where": where}
        ) from None
    return image_clean(data, budget)


PICTURE_FOLDERS = ("faces", "backgrounds", "handouts", "cutins")


def pictures_prune(*, older_than: datetime.timedelta = datetime.timedelta(hours=1)) -> list[str]:
    """Delete stored pictures no row names any more (left by a deleted character, scenario or
    handout, or by a failed request); files newer than `older_than` may belong to an upload
    still being saved, and stay. Return the names deleted."""
    in_use = pictures_in_use()
    cutoff = timezone.now() - older_than
    deleted = []
    for folder in PICTURE_FOLDERS:
        try:
            _dirs, files = default_storage.listdir(folder)
        except (FileNotFoundError, NotImplementedError):
            continue
        for file_name in files:
            name = f"{folder}/{file_name}"
            if name in in_use:
                continue
            try:
                if default_storage.get_modified_time(name) > cutoff:
                    continue
            except (NotImplementedError, OSError):
                continue
            default_storage.delete(name)
            deleted.append(name)
    return deleted
