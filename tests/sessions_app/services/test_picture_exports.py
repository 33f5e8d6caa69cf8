"""Pictures carried by the exports: the session log's faces and the character JSON's."""

import base64
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from sessions_app import log_export
from sessions_app.models import Character, ImportedLog
from sessions_app.services.ccfolia import character_ccfolia_export, character_ccfolia_import
from sessions_app.services.chat import chat_post
from sessions_app.services.faces import face_add
from sessions_app.services.logs import log_import
from sessions_app.services.scenes import scene_start
from tests.factories import cast_member, main_play_start
from tests.pictures import picture_bytes


@pytest.fixture
def said_with_a_smile(session, gm, player):
    aki = cast_member(session, player, name="Aki", slot=1)
    smile = face_add(character=aki, by=player, data=picture_bytes("PNG"), label="smile")
    main_play_start(session, gm)
    scene_start(
        session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
    )
    chat_post(session=session, by=player, text="Found it!", mode="ic", character=aki)
    return smile


def _export(session, user) -> dict:
    return log_export.export_json(viewer=log_export.log_viewer(session=session, user=user))


def test_log_export_carries_the_faces_of_its_lines(session, gm, said_with_a_smile):
    document = _export(session, gm)
    picture = document["pictures"][f"face:{said_with_a_smile.pk}"]
    assert picture["format"] == "png"
    assert base64.b64decode(picture["base64"]).startswith(b"\x89PNG")


def test_log_import_shows_the_lines_with_their_faces(
    client, session, gm, outsider, said_with_a_smile
):
    imported = log_import(data=json.dumps(_export(session, gm)), by=outsider)
    client.force_login(outsider)
    response = client.get(reverse("line_face", args=[imported.pk, said_with_a_smile.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"


def test_log_import_round_trip_keeps_the_pictures(session, gm, outsider, said_with_a_smile):
    imported = log_import(data=json.dumps(_export(session, gm)), by=outsider)
    again = _export(imported, outsider)
    assert set(again["pictures"]) == {f"face:{said_with_a_smile.pk}"}


def test_log_import_refuses_a_picture_that_is_not_one(session, gm, outsider, said_with_a_smile):
    document = _export(session, gm)
    document["pictures"][f"face:{said_with_a_smile.pk}"] = {
        "format": "svg",
        "base64": base64.b64encode(b"<svg><script>alert(1)</script></svg>").decode(),
    }
    with pytest.raises(ValidationError, match="PNG, JPEG, WebP or GIF"):
        log_import(data=json.dumps(document), by=outsider)
    assert not ImportedLog.objects.exists()


def test_character_json_carries_portrait_and_expressions(session, player):
    aki = cast_member(session, player, name="Aki")
    face_add(character=aki, by=player, data=picture_bytes("PNG"), label="calm")
    face_add(character=aki, by=player, data=picture_bytes("JPEG"), label="smile")
    data = character_ccfolia_export(aki, pictures=True)["data"]
    assert data["iconUrl"].startswith("data:image/png;base64,")
    assert [face["label"] for face in data["faces"]] == ["smile"]


def test_character_json_import_brings_the_pictures(session, player):
    aki = cast_member(session, player, name="Aki")
    face_add(character=aki, by=player, data=picture_bytes("PNG"), label="calm")
    face_add(character=aki, by=player, data=picture_bytes("WEBP"), label="smile")
    text = json.dumps(character_ccfolia_export(aki, pictures=True))
    copy = character_ccfolia_import(table=session.table, by=player, text=text)
    assert [(face.label, face.is_portrait) for face in copy.faces.all()] == [
        ("calm", True),
        ("smile", False),
    ]


def test_character_json_import_refuses_a_bad_picture_and_creates_nothing(session, player):
    document = {
        "kind": "character",
        "data": {"name": "Mallory", "iconUrl": "data:image/png;base64,aGVsbG8="},
    }
    with pytest.raises(ValidationError, match="PNG, JPEG, WebP or GIF"):
        character_ccfolia_import(table=session.table, by=player, text=json.dumps(document))
    assert not Character.objects.filter(name="Mallory").exists()


def _large_flat_png() -> dict:
    # 12.6 megapixels each, the most one picture may have: three pass the 32 in all.
    data = picture_bytes("PNG", size=(4096, 3072), color=(0, 0, 0), optimize=True)
    return {"format": "png", "base64": base64.b64encode(data).decode()}


def test_log_import_bounds_the_pixels_of_all_its_pictures(session, gm, outsider, said_with_a_smile):
    document = _export(session, gm)
    picture = _large_flat_png()
    document["pictures"].update({f"face:{number}": picture for number in (901, 902, 903)})

    with pytest.raises(ValidationError, match="megapixels in all"):
        log_import(data=json.dumps(document), by=outsider)
    assert not ImportedLog.objects.exists()


def test_character_json_import_bounds_the_pixels_of_all_its_pictures(session, player):
    url = "data:image/png;base64," + _large_flat_png()["base64"]
    document = {
        "kind": "character",
        "data": {"name": "Mallory", "iconUrl": url, "faces": [{"iconUrl": url}] * 2},
    }

    with pytest.raises(ValidationError, match="megapixels in all"):
        character_ccfolia_import(table=session.table, by=player, text=json.dumps(document))
    assert not Character.objects.filter(name="Mallory").exists()
