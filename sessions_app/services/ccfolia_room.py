"""Ccfolia's room export (the zip its room menu writes), read into a table and a scenario.

The format this relies on (Ccfolia writes version 1.1.0 in ``meta.version``):

- ``__data.json`` at the root of the zip::

    {"meta": {"version": "1.1.0"},
     "entities": {
       "room": {"backgroundUrl", "foregroundUrl", "mediaUrl", ...},   # the room as it stands
       "characters": {id: {"name", "memo", "initiative", "externalUrl",
                           "status": [{"label", "value", "max"}],
                           "params": [{"label", "value"}],
                           "commands",                       # the chat palette, one per line
                           "iconUrl", "faces": [{"label", "iconUrl"}],
                           "active", "secret", "hideStatus", "x", "y", ...}},
       "scenes": {id: {"name", "text", "backgroundUrl", "foregroundUrl",
                       "mediaUrl"/"soundUrl" (BGM), "order", ...}},
       "items": {...},  "decks": {...},  "notes": {...},  "effects": {...},
       "savedatas": {...},  "snapshots": {...}},
     "resources": {file name: {"type": "image/png"}}}

  Some exports name the lists ``roomCharacters``, ``roomScenes``, ``roomItems``…, and some
  write them as arrays instead of objects by id: both are read.
- the files, beside ``__data.json``: pictures and sounds named by the SHA-256 of their
  content and an extension (``77970a…2d.png``); a URL field holds such a name, or an address
  on Ccfolia's storage or elsewhere, which is never fetched (the picture is left out).
- ``.token`` (``0.<hex>``), a checksum Ccfolia writes, not needed here.

Characters become NPCs of the GM (status → resources, params → judgement values and sheet
entries, commands → chat palette, icon and faces → pictures); each scene becomes a planned
scene of a new scenario, its background its picture, its foreground a handout with the
picture when it has both; the BGM scenes (or the room) play become sounds of the table, each
checked as an upload is (the GM sets a scene's music when it runs). What has no counterpart
here is left out and said why.

A zip that is not one, is damaged, or is built to hurt (bombs, path traversal, too many
entries, oversized or broken JSON, a "picture" that is not one) is refused whole with a
message and nothing is written.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from contextlib import ExitStack
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Character, Phase, Table
from ..selectors.tables import table_profile
from .access import require_gm
from .audio import MAX_BYTES as SOUND_MAX_BYTES
from .audio import MAX_TITLE as SOUND_TITLE_LIMIT
from .audio import CleanAudio, audio_clean, audio_saved
from .ccfolia import ccfolia_character_fields
from .characters import character_create
from .faces import MAX_FACES, faces_replace
from .images import MAX_BYTES as PICTURE_MAX_BYTES
from .images import CleanImage, PixelBudget, image_clean, image_saved
from .scenarios import handout_create, planned_scene_create, scenario_create

# The upload itself: what nginx lets through (deploy/nginx: client_max_body_size 10m).
MAX_ZIP_BYTES = 10 * 1024 * 1024
MAX_ENTRIES = 1000
# Bombs: what all the entries unpack to, and how much one entry may grow. Pictures barely
# compress; JSON does about tenfold, so a hundredfold entry is built, not exported.
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
MAX_RATIO = 100
_RATIO_FROM_BYTES = 64 * 1024
MAX_DATA_JSON_BYTES = 5 * 1024 * 1024
MAX_ROOM_CHARACTERS = 200
MAX_ROOM_SCENES = 200
# Each kept picture is decoded and stored: a room naming one tiny file ten thousand times
# would otherwise cost minutes. The same file is decoded once, however often it is named.
MAX_PICTURES = 400
MAX_SOUNDS = 100
TITLE_LIMIT = 160
NOTES_LIMIT = 20_000
DATA_JSON = "__data.json"

_SOUND_EXTENSIONS = (".mp3", ".ogg", ".oga", ".wav", ".m4a", ".aac", ".flac", ".opus", ".webm")
_SOUND_FIELDS = ("mediaUrl", "soundUrl", "bgmUrl")
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
_DRIVE = re.compile(r"^[A-Za-z]:")


def _refuse(message: str, **values) -> ValidationError:
    return ValidationError({"file": message % values if values else message})


@dataclass
class _SoundPlan:
    title: str
    clean: CleanAudio
    played_in: list[str]


@dataclass
class _Room:
    """What was read and checked, before anything is written."""

    base: str
    data: dict
    files: dict[str, zipfile.ZipInfo]
    archive: zipfile.ZipFile
    budget: PixelBudget = field(default_factory=PixelBudget)
    left_out: list[dict] = field(default_factory=list)
    cleaned: dict[str, CleanImage] = field(default_factory=dict)
    pictures_kept: int = 0
    # The sounds kept, by file name: one sound in the table's collection however many
    # scenes play it.
    sounds: dict[str, _SoundPlan] = field(default_factory=dict)

    def leave_out(self, what: str, why: str) -> None:
        self.left_out.append({"what": what, "why": why})


def _unsafe_name(name: str) -> bool:
    parts = name.split("/")
    return (
        not name
        or "\\" in name
        or "\x00" in name
        or name.startswith("/")
        or bool(_DRIVE.match(name))
        or any(part in ("..", ".") for part in parts)
    )


def _open(data: bytes) -> tuple[zipfile.ZipFile, dict[str, zipfile.ZipInfo]]:
    if len(data) > MAX_ZIP_BYTES:
        raise _refuse(
            _("The file is larger than %(limit)d MB."), limit=MAX_ZIP_BYTES // (1024 * 1024)
        )
    if not data.startswith(b"PK"):
        raise _refuse(_("This file is not a zip: upload the zip Ccfolia's room menu exports."))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise _refuse(
            _("This file is not a zip Ccfolia exports, or it is damaged: export the room again.")
        ) from None
    if len(infos) > MAX_ENTRIES:
        raise _refuse(
            _("The zip holds more than %(limit)d files: this is not a room export."),
            limit=MAX_ENTRIES,
        )
    files: dict[str, zipfile.ZipInfo] = {}
    unpacked = 0
    for info in infos:
        name = info.filename
        if _unsafe_name(name):
            raise _refuse(
                _("The zip holds a file named “%(name)s”, which points outside the export."),
                name=name[:80],
            )
        if info.flag_bits & 0x1:
            raise _refuse(_("The zip is encrypted: export the room again without a password."))
        if info.is_dir():
            continue
        if name in files:
            raise _refuse(_("The zip holds “%(name)s” twice."), name=name[:80])
        unpacked += info.file_size
        grows = info.file_size / max(info.compress_size, 1)
        if unpacked > MAX_UNPACKED_BYTES or (
            info.file_size > _RATIO_FROM_BYTES and grows > MAX_RATIO
        ):
            raise _refuse(
                _(
                    "The zip unpacks to far more than it weighs (a zip bomb): it is refused. "
                    "A room export unpacks to at most %(limit)d MB."
                ),
                limit=MAX_UNPACKED_BYTES // (1024 * 1024),
            )
        files[name] = info
    return archive, files


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """An entry's bytes, reading no more than `limit` whatever its header claims."""
    try:
        with archive.open(info) as entry:
            data = entry.read(limit + 1)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, zlib.error):
        raise _refuse(
            _("“%(name)s” in the zip is damaged: export the room again."), name=info.filename[:80]
        ) from None
    if len(data) > limit or len(data) != info.file_size:
        raise _refuse(
            _("“%(name)s” in the zip is not the size its header says: it is refused."),
            name=info.filename[:80],
        )
    return data


def _room_read(data: bytes) -> _Room:
    archive, files = _open(data)
    if DATA_JSON in files:
        base = ""
    else:
        found = [name for name in files if name.count("/") == 1 and name.endswith(DATA_JSON)]
        if len(found) != 1:
            raise _refuse(
                _("The zip has no __data.json: it is not a Ccfolia room export."),
            )
        base = found[0][: -len(DATA_JSON)]
    info = files[base + DATA_JSON]
    if info.file_size > MAX_DATA_JSON_BYTES:
        raise _refuse(
            _("The room's __data.json is larger than %(limit)d MB."),
            limit=MAX_DATA_JSON_BYTES // (1024 * 1024),
        )
    raw = _read(archive, info, MAX_DATA_JSON_BYTES)
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        raise _refuse(
            _("The room's __data.json is not readable JSON: export the room again.")
        ) from None
    if not isinstance(document, dict) or not isinstance(document.get("entities"), dict):
        raise _refuse(_("The room's __data.json has no entities: it is not a Ccfolia room."))
    return _Room(base=base, data=document, files=files, archive=archive)


def _entities(room: _Room, *keys: str, limit: int | None = None) -> list[dict]:
    """The objects of one kind, in Ccfolia's order (``order``, then as written)."""
    found: list[dict] = []
    for key in keys:
        value = room.data["entities"].get(key)
        if value is None:
            continue
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise _refuse(_("The room's “%(key)s” is not a list of objects."), key=key)
        found.extend(value)
    if limit is not None and len(found) > limit:
        raise _refuse(
            _("The room has more than %(limit)d %(key)s: it is refused."), limit=limit, key=keys[0]
        )

    def order(item: dict) -> float:
        number = item.get("order")
        is_number = isinstance(number, (int, float)) and not isinstance(number, bool)
        return number if is_number else 0

    return sorted(found, key=order)


def _text(value, limit: int) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _is_sound(room: _Room, name: str) -> bool:
    declared = room.data.get("resources")
    kind = declared.get(name.removeprefix(room.base)) if isinstance(declared, dict) else None
    if isinstance(kind, dict) and str(kind.get("type", "")).startswith("audio/"):
        return True
    return name.lower().endswith(_SOUND_EXTENSIONS)


def _picture(room: _Room, url, what: str) -> CleanImage | None:
    """The checked picture a URL field names, or None (and why, in the report).

    A file that is not a picture refuses the whole import: an export never holds one, so
    the zip was made by hand to look like one."""
    if url in (None, ""):
        return None
    if not isinstance(url, str):
        room.leave_out(what, _("Its picture address is not text."))
        return None
    if _ADDRESS.match(url):
        room.leave_out(
            what,
            _("Its picture is at an address on another site, which is never fetched: %(url)s")
            % {"url": url[:120]},
        )
        return None
    name = room.base + url
    info = room.files.get(name)
    if info is None:
        room.leave_out(what, _("Its picture “%(name)s” is not in the zip.") % {"name": url[:80]})
        return None
    if _is_sound(room, name):
        room.leave_out(what, _("Its picture “%(name)s” is a sound.") % {"name": url[:80]})
        return None
    if room.pictures_kept >= MAX_PICTURES:
        room.leave_out(
            what, _("An import keeps at most %(limit)d pictures.") % {"limit": MAX_PICTURES}
        )
        return None
    if name in room.cleaned:
        room.pictures_kept += 1
        return room.cleaned[name]
    if info.file_size > PICTURE_MAX_BYTES:
        room.leave_out(
            what,
            _("Its picture is larger than %(limit)d MB.")
            % {"limit": PICTURE_MAX_BYTES // (1024 * 1024)},
        )
        return None
    data = _read(room.archive, info, PICTURE_MAX_BYTES)
    try:
        picture = image_clean(data, room.budget)
    except ValidationError as error:
        if error.code == "image_format":
            raise _refuse(
                _("“%(name)s” (%(what)s) is not a picture this app accepts: it is refused."),
                name=url[:80],
                what=what,
            ) from None
        room.leave_out(what, " ".join(error.messages))
        return None
    room.cleaned[name] = picture
    room.pictures_kept += 1
    return picture


def _sounds(room: _Room, item: dict, what: str) -> None:
    """Check the BGM a scene (or the room) plays as an upload is checked; keep it for the
    table's sounds, or say in the report why not."""
    for key in _SOUND_FIELDS:
        url = item.get(key)
        if not url:
            continue
        name = _text(item.get(key.replace("Url", "Name")), SOUND_TITLE_LIMIT)
        sound_what = (
            _("Sound of %(what)s (%(name)s)") % {"what": what, "name": name}
            if name
            else _("Sound of %(what)s") % {"what": what}
        )
        if not isinstance(url, str):
            room.leave_out(sound_what, _("Its address is not text."))
            continue
        if _ADDRESS.match(url):
            room.leave_out(
                sound_what,
                _("It is at an address on another site, which is never fetched: %(url)s")
                % {"url": url[:120]},
            )
            continue
        path = room.base + url
        known = room.sounds.get(path)
        if known is not None:
            known.played_in.append(what)
            continue
        info = room.files.get(path)
        if info is None:
            room.leave_out(
                sound_what, _("Its file “%(name)s” is not in the zip.") % {"name": url[:80]}
            )
            continue
        if len(room.sounds) >= MAX_SOUNDS:
            room.leave_out(
                sound_what, _("An import keeps at most %(limit)d sounds.") % {"limit": MAX_SOUNDS}
            )
            continue
        if info.file_size > SOUND_MAX_BYTES:
            room.leave_out(
                sound_what,
                _("The sound is larger than %(limit)d MB.")
                % {"limit": SOUND_MAX_BYTES // (1024 * 1024)},
            )
            continue
        try:
            # Ccfolia names a file by its content's hash and the extension it came with; the
            # sound's own name (mediaName) is what the GM recognises.
            clean = audio_clean(_read(room.archive, info, SOUND_MAX_BYTES), file_name=url)
        except ValidationError as error:
            room.leave_out(sound_what, " ".join(error.messages))
            continue
        title = name.rsplit(".", 1)[0].strip() if "." in name else name
        room.sounds[path] = _SoundPlan(
            title=(title or _("Sound of %(what)s") % {"what": what})[:SOUND_TITLE_LIMIT],
            clean=clean,
            played_in=[what],
        )


@dataclass
class _CharacterPlan:
    fields: dict
    pictures: list[tuple[str, CleanImage]]


@dataclass
class _ScenePlan:
    title: str
    notes: str
    background: CleanImage | None
    foreground: CleanImage | None


def _characters(room: _Room, table: Table) -> list[_CharacterPlan]:
    value_names = list(table_profile(table=table).judgement_value_names or [])
    taken = {name.casefold() for name in table.characters.values_list("name", flat=True)}
    plans = []
    items = _entities(room, "characters", "roomCharacters", limit=MAX_ROOM_CHARACTERS)
    for number, item in enumerate(items, start=1):
        shown = _text(item.get("name"), 120) or _("Character %(number)d") % {"number": number}
        what = _("Character “%(name)s”") % {"name": shown}
        try:
            fields = ccfolia_character_fields(item, value_names=value_names)
        except ValidationError as error:
            room.leave_out(what, " ".join(error.messages))
            continue
        if fields["name"].casefold() in taken:
            room.leave_out(what, _("A character of that name is already at this table."))
            continue
        taken.add(fields["name"].casefold())
        pictures = []
        portrait = _picture(room, item.get("iconUrl"), _("Portrait of %(name)s") % {"name": shown})
        if portrait is not None:
            pictures.append((_("Portrait"), portrait))
        faces = item.get("faces")
        faces = faces if isinstance(faces, list) else []
        for face_number, face in enumerate(faces, start=1):
            if not isinstance(face, dict):
                continue
            label = _text(face.get("label"), 60) or _("Face %(number)d") % {"number": face_number}
            face_what = _("Face “%(label)s” of %(name)s") % {"label": label, "name": shown}
            if len(pictures) >= MAX_FACES:
                room.leave_out(
                    face_what,
                    _("A character has at most %(limit)d pictures.") % {"limit": MAX_FACES},
                )
                continue
            picture = _picture(room, face.get("iconUrl"), face_what)
            if picture is not None:
                pictures.append((label, picture))
        plans.append(_CharacterPlan(fields=fields, pictures=pictures))
    return plans


def _scenes(room: _Room) -> list[_ScenePlan]:
    plans = []
    for number, item in enumerate(
        _entities(room, "scenes", "roomScenes", limit=MAX_ROOM_SCENES), start=1
    ):
        title = _text(item.get("name"), TITLE_LIMIT) or _("Scene %(number)d") % {"number": number}
        what = _("Scene “%(title)s”") % {"title": title}
        plans.append(
            _ScenePlan(
                title=title,
                notes=_text(item.get("text"), NOTES_LIMIT),
                background=_picture(
                    room, item.get("backgroundUrl"), _("Background of %(what)s") % {"what": what}
                ),
                foreground=_picture(
                    room, item.get("foregroundUrl"), _("Foreground of %(what)s") % {"what": what}
                ),
            )
        )
        _sounds(room, item, what)
    state = room.data["entities"].get("room")
    if isinstance(state, dict):
        what = _("the room as exported")
        if not plans:
            background = _picture(
                room, state.get("backgroundUrl"), _("Background of %(what)s") % {"what": what}
            )
            foreground = _picture(
                room, state.get("foregroundUrl"), _("Foreground of %(what)s") % {"what": what}
            )
            if background or foreground:
                plans.append(
                    _ScenePlan(
                        title=_("The room as exported"),
                        notes="",
                        background=background,
                        foreground=foreground,
                    )
                )
        _sounds(room, state, what)
    return plans


# Parts of a room with no counterpart here, and why (a count of each is reported).
def _kinds_left_out() -> list[tuple[tuple[str, ...], str, str]]:
    return [
        (
            ("items", "roomItems"),
            _("Screen panels"),
            _("Pictures on the board have no counterpart here."),
        ),
        (("decks", "roomDecks"), _("Card decks"), _("Card decks have no counterpart here.")),
        (
            ("notes", "roomNotes"),
            _("Shared notes"),
            _("Copy them into the scenario's handouts by hand."),
        ),
        (("effects", "roomEffects"), _("Cut-ins"), _("Cut-ins are not imported yet.")),
        (
            ("savedatas", "snapshots"),
            _("Saved room states"),
            _("A saved state of a Ccfolia room has no counterpart here."),
        ),
    ]


def _count(room: _Room, keys: tuple[str, ...]) -> int:
    total = 0
    for key in keys:
        value = room.data["entities"].get(key)
        if isinstance(value, (dict, list)):
            total += len(value)
    return total


def ccfolia_room_import(*, table: Table, by, data: bytes, room_name: str = "") -> dict:
    """Import a Ccfolia room export into `table` (characters) and a new scenario of `by`
    (scenes), or raise ValidationError and write nothing. Return the report: what was
    imported and what was left out, and why."""
    require_gm(user=by, table_id=table.pk, message=_("Only the GM can import a Ccfolia room."))
    room = _room_read(data)
    with room.archive:
        characters = _characters(room, table)
        scenes = _scenes(room)
    for keys, what, why in _kinds_left_out():
        count = _count(room, keys)
        if count:
            room.leave_out(_("%(what)s (%(count)d)") % {"what": what, "count": count}, why)
    if not characters and not scenes and not room.sounds:
        raise _refuse(
            _("The room holds no character, no scene and no sound to import."),
        )
    report: dict = {
        "table_id": table.pk,
        "characters": [],
        "scenes": [],
        "scenario": None,
        "sounds": [],
        "left_out": room.left_out,
    }
    with ExitStack() as stored, transaction.atomic():
        # A refusal after the pictures are stored deletes them again.
        def save(picture: CleanImage, folder: str) -> str:
            return stored.enter_context(image_saved(data=picture, folder=folder))

        for plan in characters:
            character = character_create(table=table, by=by, kind=Character.Kind.NPC, **plan.fields)
            faces = [(label, save(picture, "faces")) for label, picture in plan.pictures]
            if faces:
                faces_replace(character=character, by=by, stored=faces)
            report["characters"].append(
                {
                    "id": character.pk,
                    "name": character.name,
                    "pictures": len(faces),
                    "resources": list(character.resources),
                    "palette_lines": len(character.palette.splitlines()),
                }
            )
        for sound in room.sounds.values():
            audio = stored.enter_context(
                audio_saved(table=table, by=by, clean=sound.clean, title=sound.title)
            )
            report["sounds"].append(
                {"id": audio.pk, "title": audio.title, "played_in": sound.played_in}
            )
        if scenes:
            title = room_name.strip() or _("Ccfolia room")
            scenario = scenario_create(
                by=by, title=(_("Ccfolia: %(name)s") % {"name": title})[:TITLE_LIMIT]
            )
            report["scenario"] = {"id": scenario.pk, "title": scenario.title}
            for plan in scenes:
                report["scenes"].append(_scene_write(scenario, by, plan, save))
    return report


def _scene_write(scenario, by, plan: _ScenePlan, save) -> dict:
    # Ccfolia's scenes carry no phase: they all go to the opening, in Ccfolia's order, for
    # the GM to move where they belong.
    planned = planned_scene_create(
        scenario=scenario, by=by, phase=Phase.OPENING, title=plan.title, gm_notes=plan.notes
    )
    # A scene has one picture here: the background, else the foreground; with both, the
    # foreground (often the map or the picture shown) becomes a handout to reveal.
    picture = plan.background or plan.foreground
    handout_title = ""
    if picture is not None:
        planned.background = save(picture, "backgrounds")
        planned.save(update_fields=["background"])
    if plan.background is not None and plan.foreground is not None:
        handout = handout_create(
            scenario=scenario,
            by=by,
            title=(_("%(title)s (foreground)") % {"title": plan.title})[:TITLE_LIMIT],
        )
        handout.image = save(plan.foreground, "handouts")
        handout.save(update_fields=["image"])
        handout_title = handout.title
    return {
        "id": planned.pk,
        "title": planned.title,
        "picture": picture is not None,
        "handout": handout_title,
    }
