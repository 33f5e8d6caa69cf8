"""Ccfolia room exports built in memory, in the published shape (see
sessions_app/services/ccfolia_room.py): ``__data.json`` with ``meta``, ``entities`` and
``resources``, the files beside it named by the SHA-256 of their content, and ``.token``."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

from tests.pictures import picture_bytes
from tests.sounds import wav_bytes


def resource(data: bytes, extension: str = "png") -> tuple[str, bytes]:
    """A file as Ccfolia stores it in an export: named by its hash."""
    return f"{hashlib.sha256(data).hexdigest()}.{extension}", data


def character(name: str = "天城 アキ", **fields) -> dict:
    """A room character with what Ccfolia keeps on a piece."""
    return {
        "name": name,
        "memo": "図書館の司書。",
        "initiative": 9,
        "externalUrl": "",
        "status": [{"label": "HP", "value": 20, "max": 24}, {"label": "MP", "value": 8, "max": 8}],
        "params": [{"label": "筋力", "value": "4"}, {"label": "武器", "value": "ナイフ"}],
        "commands": "2D6+{筋力}>= 筋力判定\n:HP-1\n{武器}で斬りかかる",
        "iconUrl": None,
        "faces": [],
        "active": True,
        "secret": False,
        "invisible": False,
        "hideStatus": False,
        "color": "#888888",
        "x": 0,
        "y": 0,
        "z": 0,
        "width": 4,
        "height": 4,
        "angle": 0,
        "owner": "uid-of-the-gm",
        **fields,
    }


def copied_character(name: str = "天城 アキ", **fields) -> dict:
    """A character as Ccfolia's clipboard format carries it: what a sheet site's "copy for
    Ccfolia" button puts on the clipboard."""
    return {"kind": "character", "data": character(name, **fields)}


def scene(name: str = "図書館", **fields) -> dict:
    return {
        "name": name,
        "text": "",
        "backgroundUrl": None,
        "foregroundUrl": None,
        "mediaUrl": None,
        "mediaName": "",
        "mediaVolume": 0.5,
        "order": 0,
        **fields,
    }


def room_data(
    *, characters=(), scenes=(), files=(), entities: dict | None = None, room: dict | None = None
) -> dict:
    """``__data.json`` as a dict: entities keyed by id, as Ccfolia writes them."""
    return {
        "meta": {"version": "1.1.0"},
        "entities": {
            "room": {
                "backgroundUrl": None,
                "foregroundUrl": None,
                "mediaUrl": None,
                "fieldWidth": 0,
                "fieldHeight": 0,
                **(room or {}),
            },
            "items": {},
            "decks": {},
            "notes": {},
            "characters": {f"char{number:02d}": item for number, item in enumerate(characters)},
            "effects": {},
            "scenes": {f"scene{number:02d}": item for number, item in enumerate(scenes)},
            "savedatas": {},
            "snapshots": {},
            **(entities or {}),
        },
        "resources": {
            name: {"type": "audio/mpeg" if name.endswith(".mp3") else "image/png"}
            for name, _data in files
        },
    }


def zip_of(entries: list[tuple[str, bytes]], compression=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return out.getvalue()


def room_export(*, characters=(), scenes=(), files=(), entities=None, room=None) -> bytes:
    """The zip Ccfolia's room menu writes."""
    document = json.dumps(
        room_data(characters=characters, scenes=scenes, files=files, entities=entities, room=room),
        ensure_ascii=False,
    ).encode()
    token = f"0.{hashlib.sha256(document).hexdigest()}".encode()
    return zip_of([("__data.json", document), (".token", token), *files])


def sample_room() -> tuple[bytes, dict[str, str]]:
    """A room with two characters (one with a portrait and a face), a scene with a background
    and a foreground, a scene with BGM (a WAV), and an address picture: what most tests
    import."""
    portrait = resource(picture_bytes(size=(40, 40), color=(10, 120, 200)))
    smile = resource(picture_bytes(size=(40, 40), color=(240, 200, 0)))
    background = resource(picture_bytes("JPEG", size=(64, 36), color=(20, 20, 60)), "jpg")
    foreground = resource(picture_bytes(size=(32, 32), color=(90, 10, 10)))
    bgm = resource(wav_bytes(seconds=1.0), "wav")
    names = {
        "portrait": portrait[0],
        "smile": smile[0],
        "background": background[0],
        "foreground": foreground[0],
        "bgm": bgm[0],
    }
    data = room_export(
        characters=[
            character(iconUrl=portrait[0], faces=[{"label": "笑顔", "iconUrl": smile[0]}]),
            character(
                "黒衣の男",
                memo="",
                status=[{"label": "HP", "value": 30, "max": 30}],
                params=[],
                commands="",
                iconUrl="https://storage.ccfolia-cdn.net/users/x/files/y.png",
            ),
        ],
        scenes=[
            scene(
                "図書館",
                text="書架の迷路。",
                backgroundUrl=background[0],
                foregroundUrl=foreground[0],
            ),
            scene("決戦", order=1, mediaUrl=bgm[0], mediaName="battle.wav"),
        ],
        files=[portrait, smile, background, foreground, bgm],
        entities={"items": {"item1": {"imageUrl": None, "memo": "地図"}}},
    )
    return data, names
