"""The one path every picture takes: checked, re-encoded without metadata, stored unguessably."""

import io
import os
import time

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from PIL import Image

from sessions_app.services.images import (
    MAX_BYTES,
    MAX_REQUEST_PIXELS,
    PixelBudget,
    image_clean,
    image_saved,
)
from tests.pictures import BROKEN_EXIF_JPEG, picture_bytes


def _reopen(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize(
    ("fmt", "kept"), [("PNG", "PNG"), ("JPEG", "JPEG"), ("WEBP", "WEBP"), ("GIF", "PNG")]
)
def test_image_clean_accepts_and_reencodes(fmt, kept):
    original = picture_bytes(fmt)
    clean = image_clean(original)
    assert _reopen(clean.data).format == kept
    assert (clean.width, clean.height) == (8, 6)


def test_image_clean_drops_exif():
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    clean = image_clean(picture_bytes("JPEG", exif=exif.tobytes()))
    assert b"SecretCam" not in clean.data
    assert not _reopen(clean.data).getexif()


def test_image_clean_drops_png_text_chunks():
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "home address")
    clean = image_clean(picture_bytes("PNG", pnginfo=info))
    assert b"home address" not in clean.data


def test_image_clean_turns_by_exif_orientation_before_dropping_it():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° clockwise to display
    clean = image_clean(picture_bytes("JPEG", size=(8, 4), exif=exif.tobytes()))
    assert (clean.width, clean.height) == (4, 8)


@pytest.mark.parametrize(
    "data",
    [
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        b"just some text, not a picture",
        picture_bytes("PNG")[:40],
        b"",
        picture_bytes("BMP"),
    ],
    ids=["svg", "text", "corrupt", "empty", "bmp"],
)
def test_image_clean_refuses_what_is_not_an_accepted_picture(data):
    with pytest.raises(ValidationError, match="PNG, JPEG, WebP or GIF"):
        image_clean(data)


def test_image_clean_refuses_too_many_pixels_before_decoding():
    # A PNG whose header claims 5000×5000 pixels: refused from the header alone.
    with pytest.raises(ValidationError, match="5000×5000 pixels; at most 4096×4096"):
        image_clean(picture_bytes("PNG", size=(5000, 5000), color=(0, 0, 0, 0)))


def test_image_clean_refuses_a_small_file_of_too_many_pixels_before_decoding():
    # 4000×4000 flat pixels pack into a few dozen KB and took seconds to decode and re-encode.
    data = picture_bytes("PNG", size=(4000, 4000), color=(0, 0, 0), optimize=True)
    assert len(data) < 100_000
    started = time.perf_counter()

    with pytest.raises(ValidationError, match="16.0 megapixels; at most 12.6 megapixels"):
        image_clean(data)
    assert time.perf_counter() - started < 0.5


def test_image_clean_accepts_a_phone_photo_size():
    assert image_clean(picture_bytes("JPEG", size=(4032, 3024))).width == 4032


def test_image_clean_refuses_a_picture_past_the_requests_pixel_budget():
    budget = PixelBudget()
    budget.spend(MAX_REQUEST_PIXELS - 100)

    with pytest.raises(ValidationError, match="megapixels in all"):
        image_clean(picture_bytes("PNG", size=(20, 20)), budget)


def test_image_clean_refuses_too_large_a_file():
    with pytest.raises(ValidationError, match="larger than 5 MB"):
        image_clean(b"\x89PNG" + b"0" * MAX_BYTES)


def test_image_saved_stores_under_an_unguessable_name():
    with image_saved(data=picture_bytes("PNG"), folder="faces") as name:
        pass
    assert name.startswith("faces/") and name.endswith(".png")
    assert len(os.path.basename(name)) > 30
    assert default_storage.exists(name)


def test_image_saved_deletes_the_file_when_the_work_after_it_fails():
    data = picture_bytes("PNG")
    with pytest.raises(RuntimeError), image_saved(data=data, folder="faces") as name:
        raise RuntimeError("the database said no")
    assert not default_storage.exists(name)


def test_image_saved_stores_nothing_for_a_refused_file(settings):
    with pytest.raises(ValidationError), image_saved(data=b"not a picture", folder="faces"):
        pass
    assert not os.path.exists(settings.MEDIA_ROOT) or not any(os.scandir(settings.MEDIA_ROOT))


def test_image_clean_drops_the_icc_profile():
    clean = image_clean(picture_bytes("PNG", icc_profile=b"a colour profile"))
    assert b"iCCP" not in clean.data
    assert "icc_profile" not in _reopen(clean.data).info


def test_pictures_prune_deletes_only_old_files_nothing_names(db, player, session):
    import datetime

    from sessions_app.services.faces import face_add
    from sessions_app.services.images import pictures_prune
    from tests.factories import cast_member

    aki = cast_member(session, player, name="Aki")
    kept = face_add(character=aki, by=player, data=picture_bytes("PNG"), label="calm")
    with image_saved(data=picture_bytes("PNG"), folder="faces") as orphan:
        pass
    assert pictures_prune(older_than=datetime.timedelta(hours=1)) == []
    assert pictures_prune(older_than=datetime.timedelta(0)) == [orphan]
    assert default_storage.exists(kept.image.name)


def test_image_clean_refuses_a_jpeg_with_a_damaged_exif_block():
    with pytest.raises(ValidationError) as refused:
        image_clean(BROKEN_EXIF_JPEG)

    assert refused.value.code == "image_format"


def test_image_clean_keeps_a_phones_mpo_photo_as_a_jpeg():
    first, second = Image.new("RGB", (20, 10), "red"), Image.new("RGB", (20, 10), "blue")
    buffer = io.BytesIO()
    first.save(buffer, "MPO", save_all=True, append_images=[second])

    clean = image_clean(buffer.getvalue())

    assert (clean.extension, clean.width, clean.height) == ("jpg", 20, 10)
