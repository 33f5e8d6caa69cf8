"""Picture bytes for the tests, drawn at run time (no binary files in the repository)."""

import io

from PIL import Image


def picture_bytes(fmt: str = "PNG", size=(8, 6), color=(200, 40, 40), **save) -> bytes:
    """A small image in `fmt`, with whatever `save` options (exif=…, icc_profile=…)."""
    mode = "RGB" if fmt in ("JPEG", "GIF") else "RGBA"
    image = Image.new(mode, size, color)
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()
