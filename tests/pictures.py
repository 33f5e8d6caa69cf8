"""Picture bytes for the tests, drawn at run time (no binary files in the repository)."""

import base64
import io

from PIL import Image


def picture_bytes(fmt: str = "PNG", size=(8, 6), color=(200, 40, 40), **save) -> bytes:
    """A small image in `fmt`, with whatever `save` options (exif=…, icc_profile=…)."""
    mode = "RGB" if fmt in ("JPEG", "GIF") else "RGBA"
    image = Image.new(mode, size, color)
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


# A small JPEG whose EXIF block is damaged: Pillow's EXIF reader fails on it with a
# struct.error, not with one of the errors a decoder usually raises.
BROKEN_EXIF_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4QAuRXhpZgAATU0AKgAAAAgAAgEiAAIAAAAEY2FtAAESAAMAAAABAAYAAAAA"
    "AAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgy"
    "PC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy"
    "MjIyMjIyMjL/wAARCAAeACgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA"
    "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0"
    "NTY3ODk6Q0RFRkdIi0pTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKz"
    "tLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgME"
    "BQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoW"
    "JDThJfEXGBkaJicoKSo1NjdKOTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWZh4iJipKTlJWW"
    "l5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQAC"
    "EQMRAD8A4KiiivDP1QKKKKBeiiigAooooAKKKKACiiigD//Z"
)
