"""Importing a Ccfolia room export: characters, scenes and pictures in; hostile zips refused
whole with a message and nothing written."""

import json
import os
import zipfile

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sessions_app.models import (
    Character,
    CharacterFace,
    Handout,
    PlannedScene,
    Scenario,
    TableAudio,
)
from sessions_app.services import ccfolia_room
from sessions_app.services.ccfolia_room import ccfolia_room_import
from tests.ccfolia_exports import (
    character,
    resource,
    room_data,
    room_export,
    sample_room,
    scene,
    zip_of,
)
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory
from tests.pictures import picture_bytes
from tests.sounds import wav_bytes


def _import(table, gm, data, name="月曜卓"):
    return ccfolia_room_import(table=table, by=gm, data=data, room_name=name)


def _stored_files() -> list[str]:
    found = []
    for folder in ("faces", "backgrounds", "handouts", "audio"):
        if default_storage.exists(folder):
            found += default_storage.listdir(folder)[1]
    return found


def _nothing_written():
    return (
        Character.objects.count() == 0
        and Scenario.objects.count() == 0
        and CharacterFace.objects.count() == 0
        and TableAudio.objects.count() == 0
        and _stored_files() == []
    )


def test_sample_room_imports_characters_with_status_params_palette_and_faces(table, gm):
    data, _names = sample_room()

    report = _import(table, gm, data)

    aki = Character.objects.get(name="天城 アキ")
    assert aki.kind == Character.Kind.NPC and aki.owner == gm and aki.table == table
    assert aki.resources == {"HP": {"current": 20, "max": 24}, "MP": {"current": 8, "max": 8}}
    assert aki.judgement_values["Strength"] == 4
    assert aki.sheet_entries == [{"label": "武器", "value": "ナイフ"}]
    assert aki.palette == "2D6+{筋力}>= 筋力判定\n:HP-1\n{武器}で斬りかかる"
    assert aki.initiative == 9 and aki.notes == "図書館の司書。"
    faces = list(aki.faces.all())
    assert [(face.label, face.is_portrait) for face in faces] == [
        ("Portrait", True),
        ("笑顔", False),
    ]
    assert all(default_storage.exists(face.image.name) for face in faces)
    assert [row["name"] for row in report["characters"]] == ["天城 アキ", "黒衣の男"]
    assert report["characters"][0]["pictures"] == 2
    assert report["characters"][0]["palette_lines"] == 3


def test_sample_room_scenes_become_a_scenario_with_pictures_and_a_foreground_handout(table, gm):
    data, _names = sample_room()

    report = _import(table, gm, data)

    scenario = Scenario.objects.get(owner=gm)
    assert scenario.title == "Ccfolia: 月曜卓"
    library, battle = PlannedScene.objects.filter(scenario=scenario)
    assert (library.title, library.gm_notes) == ("図書館", "書架の迷路。")
    assert library.background.name.startswith("backgrounds/")
    assert default_storage.exists(library.background.name)
    assert battle.title == "決戦" and not battle.background
    handout = Handout.objects.get(scenario=scenario)
    assert handout.title == "図書館 (foreground)" and default_storage.exists(handout.image.name)
    assert report["scenario"] == {"id": scenario.pk, "title": scenario.title}
    assert report["scenes"][0]["handout"] == handout.title


def test_report_says_what_was_left_out_and_why(table, gm):
    data, _names = sample_room()

    left_out = {row["what"]: row["why"] for row in _import(table, gm, data)["left_out"]}

    assert "never fetched" in left_out["Portrait of 黒衣の男"]
    assert "Screen panels (1)" in left_out


def test_pictures_are_re_encoded_as_uploads_are(table, gm):
    exif = picture_bytes("JPEG", size=(30, 20), exif=b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x00")
    portrait = resource(exif, "jpg")
    data = room_export(characters=[character(iconUrl=portrait[0])], files=[portrait])

    _import(table, gm, data)

    face = CharacterFace.objects.get()
    with default_storage.open(face.image.name) as stored:
        assert b"Exif" not in stored.read()


def test_arrays_and_room_prefixed_names_are_read_too(table, gm):
    document = room_data()
    document["entities"] = {"roomCharacters": [character("Ren")], "roomScenes": [scene("Gate")]}
    data = zip_of([("__data.json", json.dumps(document).encode())])

    _import(table, gm, data)

    assert Character.objects.get().name == "Ren"
    assert PlannedScene.objects.get().title == "Gate"


def test_export_zipped_inside_a_folder_is_read(table, gm):
    portrait = resource(picture_bytes())
    document = json.dumps(room_data(characters=[character(iconUrl=portrait[0])])).encode()
    data = zip_of([("room/__data.json", document), (f"room/{portrait[0]}", portrait[1])])

    _import(table, gm, data)

    assert CharacterFace.objects.count() == 1


def test_character_already_at_the_table_is_left_out_not_doubled(table, gm):
    CharacterFactory(table=table, owner=gm, name="天城 アキ")
    data, _names = sample_room()

    report = _import(table, gm, data)

    assert Character.objects.filter(name="天城 アキ").count() == 1
    assert any("already at this table" in row["why"] for row in report["left_out"])


def test_character_with_broken_fields_is_left_out_with_the_reason(table, gm):
    data = room_export(
        characters=[character("Good"), character("Bad", status=[{"label": "HP", "value": "x"}])]
    )

    report = _import(table, gm, data)

    assert list(Character.objects.values_list("name", flat=True)) == ["Good"]
    assert report["left_out"] == [
        {"what": "Character “Bad”", "why": "Status HP must be a whole number."}
    ]


def test_too_large_picture_is_left_out_the_rest_imported(table, gm, settings):
    big = resource(picture_bytes(size=(4097, 2)))
    data = room_export(characters=[character(iconUrl=big[0])], files=[big])

    report = _import(table, gm, data)

    assert Character.objects.count() == 1 and CharacterFace.objects.count() == 0
    assert "4097×2" in report["left_out"][0]["why"]


def test_pictures_beyond_the_limit_are_left_out_and_a_named_file_decoded_once(
    table, gm, monkeypatch
):
    monkeypatch.setattr(ccfolia_room, "MAX_PICTURES", 3)
    decoded = []
    real_clean = ccfolia_room.image_clean
    monkeypatch.setattr(
        ccfolia_room,
        "image_clean",
        lambda data, budget: decoded.append(1) or real_clean(data, budget),
    )
    face = resource(picture_bytes())
    faces = [{"label": f"f{number}", "iconUrl": face[0]} for number in range(4)]
    data = room_export(characters=[character(faces=faces)], files=[face])

    report = _import(table, gm, data)

    assert CharacterFace.objects.count() == 3
    assert len(decoded) == 1
    assert report["left_out"][0]["why"] == "An import keeps at most 3 pictures."
    assert len(set(CharacterFace.objects.values_list("image", flat=True))) == 3


def test_zip_unpacking_beyond_the_total_limit_refused(table, gm, monkeypatch):
    monkeypatch.setattr(ccfolia_room, "MAX_UNPACKED_BYTES", 100_000)
    # Random bytes barely compress: no entry grows much, only their sum is too large.
    data = zip_of([("__data.json", b"{}"), *[(f"{n}.png", os.urandom(40_000)) for n in range(3)]])

    with pytest.raises(ValidationError, match="zip bomb"):
        _import(table, gm, data)
    assert _nothing_written()


def test_only_the_gm_may_import(table, gm, player, player_membership):
    data, _names = sample_room()

    with pytest.raises(PermissionDenied):
        _import(table, player, data)
    assert _nothing_written()


def _bomb() -> bytes:
    # A megabyte of zeros per entry squeezes a thousandfold.
    return zip_of([("__data.json", b"{}"), *[(f"{n}.png", bytes(1 << 20)) for n in range(3)]])


def _many_entries() -> bytes:
    return zip_of([(f"{n}.png", b"") for n in range(ccfolia_room.MAX_ENTRIES + 1)])


def _traversal(name: str) -> bytes:
    return zip_of([("__data.json", json.dumps(room_data()).encode()), (name, b"x")])


def _lying_header() -> bytes:
    """__data.json whose header claims fewer bytes than it unpacks to."""
    data = bytearray(
        zip_of([("__data.json", json.dumps(room_data(characters=[character()])).encode())])
    )
    real = len(json.dumps(room_data(characters=[character()])).encode())
    # The uncompressed size sits at offset 22 in the local header and 24 in the central one.
    central = data.rfind(b"PK\x01\x02")
    data[22:26] = (10).to_bytes(4, "little")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    assert real > 10
    return bytes(data)


def _not_a_picture() -> bytes:
    fake = resource(b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>")
    return room_export(characters=[character(iconUrl=fake[0])], files=[fake])


HOSTILE = [
    (b"just some text", "not a zip"),
    (b"PK\x03\x04broken", "damaged"),
    (_bomb(), "zip bomb"),
    (_many_entries(), "more than 1000 files"),
    (_traversal("../../etc/cron.d/evil"), "points outside"),
    (_traversal("/etc/passwd"), "points outside"),
    (_traversal("..\\evil.png"), "points outside"),
    (zip_of([("readme.txt", b"hi")]), "no __data.json"),
    (zip_of([("__data.json", b"{not json")]), "not readable JSON"),
    (
        zip_of([("__data.json", b"[" * 200_000 + b"]" * 200_000)], zipfile.ZIP_STORED),
        "not readable JSON",
    ),
    (zip_of([("__data.json", b'{"entities": 3}')]), "no entities"),
    (zip_of([("__data.json", b" " * (5 * 1024 * 1024 + 1))], zipfile.ZIP_STORED), "larger than 5"),
    (_lying_header(), "export the room again"),
    (_not_a_picture(), "not a picture"),
    (room_export(), "no character, no scene and no sound"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
def test_hostile_export_refused_whole_with_a_message(table, gm, data, message):
    with pytest.raises(ValidationError) as refused:
        _import(table, gm, data)

    assert message in " ".join(refused.value.messages)
    assert _nothing_written()


def test_refusal_after_pictures_were_checked_leaves_no_file_behind(table, gm):
    portrait = resource(picture_bytes())
    fake = resource(b"GIF89a but not really", "gif")
    data = room_export(
        characters=[character("A", iconUrl=portrait[0]), character("B", iconUrl=fake[0])],
        files=[portrait, fake],
    )

    with pytest.raises(ValidationError):
        _import(table, gm, data)

    assert _nothing_written()


def _upload(data: bytes, name="月曜卓.zip"):
    return SimpleUploadedFile(name, data, content_type="application/zip")


def test_upload_page_imports_then_shows_the_report(table, gm):
    data, _names = sample_room()
    client = _client(gm)

    response = client.post(reverse("ccfolia_room_import", args=[table.pk]), {"file": _upload(data)})

    assert response.status_code == 302
    assert response.url == reverse("ccfolia_room_report", args=[table.pk])
    page = client.get(response.url).content.decode()
    assert "天城 アキ" in page and "battle" in page and "played in Scene “決戦”" in page
    assert reverse("scenario_detail", args=[Scenario.objects.get().pk]) in page


def test_upload_page_shows_the_refusal_and_changes_nothing(table, gm):
    response = _client(gm).post(
        reverse("ccfolia_room_import", args=[table.pk]), {"file": _upload(_bomb())}
    )

    assert response.status_code == 400
    assert "zip bomb" in response.content.decode()
    assert _nothing_written()


def test_upload_larger_than_the_limit_refused(table, gm, monkeypatch):
    monkeypatch.setattr(ccfolia_room, "MAX_ZIP_BYTES", 100)
    data, _names = sample_room()

    response = _client(gm).post(
        reverse("ccfolia_room_import", args=[table.pk]), {"file": _upload(data)}
    )

    assert response.status_code == 400
    assert _nothing_written()


def test_players_and_outsiders_cannot_reach_the_import(
    table, gm, player, player_membership, outsider
):
    data, _names = sample_room()
    url = reverse("ccfolia_room_import", args=[table.pk])

    assert _client(player).post(url, {"file": _upload(data)}).status_code == 403
    assert _client(outsider).post(url, {"file": _upload(data)}).status_code == 404
    assert _client(player).get(reverse("ccfolia_room_report", args=[table.pk])).status_code == 403
    assert _nothing_written()


def test_table_page_offers_the_import_to_the_gm_only(table, gm, player, player_membership):
    url = reverse("ccfolia_room_import", args=[table.pk])

    assert url in _client(gm).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert url not in _client(player).get(reverse("table_detail", args=[table.pk])).content.decode()


def test_report_page_without_an_import_leads_to_the_upload(table, gm):
    response = _client(gm).get(reverse("ccfolia_room_report", args=[table.pk]))

    assert response.status_code == 302
    assert response.url == reverse("ccfolia_room_import", args=[table.pk])


def test_report_in_japanese_names_what_was_left_out_in_japanese(table, gm):
    data, _names = sample_room()
    client = _client(gm)
    client.cookies["django_language"] = "ja"

    client.post(reverse("ccfolia_room_import", args=[table.pk]), {"file": _upload(data)})
    page = client.get(reverse("ccfolia_room_report", args=[table.pk])).content.decode()

    assert "黒衣の男の立ち絵" in page
    assert "他のサイトのアドレスにあり、取りに行くことはしません" in page
    assert "音声（BGM）" in page and "シーン「決戦」で再生" in page
    assert CharacterFace.objects.filter(label="立ち絵").count() == 1


def test_bgm_becomes_a_sound_of_the_table(table, gm):
    data, _names = sample_room()

    report = _import(table, gm, data)

    sound = TableAudio.objects.get(table=table)
    assert (sound.title, sound.content_type, sound.heard) == ("battle", "audio/wav", False)
    assert default_storage.exists(sound.file.name)
    assert report["sounds"] == [{"id": sound.pk, "title": "battle", "played_in": ["Scene “決戦”"]}]


def test_bgm_named_by_several_scenes_is_kept_once(table, gm):
    bgm = resource(wav_bytes(), "wav")
    data = room_export(
        scenes=[
            scene("一", mediaUrl=bgm[0], mediaName="theme.wav"),
            scene("二", order=1, mediaUrl=bgm[0], mediaName="theme.wav"),
        ],
        files=[bgm],
    )

    report = _import(table, gm, data)

    assert TableAudio.objects.filter(table=table).count() == 1
    assert report["sounds"][0]["played_in"] == ["Scene “一”", "Scene “二”"]


def test_a_file_that_is_no_sound_is_left_out_with_the_upload_s_reason(table, gm):
    fake = resource(b"ID3\x03\x00fake mp3 frames", "mp3")
    png_as_sound = resource(picture_bytes(), "ogg")
    data = room_export(
        scenes=[
            scene("一", mediaUrl=fake[0], mediaName="fake.mp3"),
            scene("二", order=1, mediaUrl=png_as_sound[0]),
            scene("三", order=2, mediaUrl="https://example.org/theme.mp3"),
        ],
        files=[fake, png_as_sound],
    )

    left_out = {row["what"]: row["why"] for row in _import(table, gm, data)["left_out"]}

    assert not TableAudio.objects.exists()
    assert "not a sound this app accepts" in left_out["Sound of Scene “一” (fake.mp3)"]
    assert "not a sound this app accepts" in left_out["Sound of Scene “二”"]
    assert "never fetched" in left_out["Sound of Scene “三”"]


def test_a_failure_after_the_sounds_are_stored_leaves_none_behind(table, gm, monkeypatch):
    data, _names = sample_room()

    def fail(*args, **kwargs):
        raise ValidationError("A scene could not be written.")

    # The scenes are written after the sounds: a failure there must take the sounds back.
    monkeypatch.setattr(ccfolia_room, "_scene_write", fail)
    with pytest.raises(ValidationError):
        _import(table, gm, data)

    assert _nothing_written()
