"""Sounds of a table: the GM uploads music and effects, sets a scene's music, plays an effect.

Every sound is read by mutagen before it is kept: only Ogg (Opus or Vorbis), MP3, M4A (AAC
or ALAC in MP4) and WAV, within MAX_BYTES and MAX_SECONDS, and the file's extension must
name the format its bytes hold. The bytes are kept as sent (a sound has no metadata that
locates anyone the way a photo's EXIF does) under a name nobody can guess, with the
extension of the format found, and served only by the app (views/media.py).
"""

from __future__ import annotations

import io
import secrets
import struct
from contextlib import contextmanager
from dataclasses import dataclass

import mutagen
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis
from mutagen.wave import WAVE

from ..models import GameSession, Scene, Table, TableAudio
from .access import require_gm
from .timeline import timeline_append

MAX_BYTES = 20 * 1024 * 1024
MAX_SECONDS = 15 * 60
MAX_TITLE = 120

# The parsers mutagen may try: no other format is ever read from an upload.
_PARSERS = [OggOpus, OggVorbis, MP3, MP4, WAVE]


@dataclass(frozen=True)
class AudioFormat:
    extension: str  # the stored file's
    content_type: str
    extensions: frozenset[str]  # an upload's names that may hold it


_FORMATS = {
    OggOpus: AudioFormat("opus", "audio/ogg", frozenset({"ogg", "opus", "oga"})),
    OggVorbis: AudioFormat("ogg", "audio/ogg", frozenset({"ogg", "oga"})),
    MP3: AudioFormat("mp3", "audio/mpeg", frozenset({"mp3"})),
    MP4: AudioFormat("m4a", "audio/mp4", frozenset({"m4a", "mp4", "aac"})),
    WAVE: AudioFormat("wav", "audio/wav", frozenset({"wav", "wave"})),
}
CONTENT_TYPES = {spec.extension: spec.content_type for spec in _FORMATS.values()}
ACCEPTED_EXTENSIONS = sorted({name for spec in _FORMATS.values() for name in spec.extensions})


@dataclass(frozen=True)
class CleanAudio:
    data: bytes
    extension: str
    content_type: str
    duration: float


def _refused() -> ValidationError:
    return ValidationError(
        _("That file is not a sound this app accepts: use Ogg (Opus or Vorbis), MP3, M4A or WAV."),
        code="audio_format",
    )


def _too_large() -> ValidationError:
    return ValidationError(
        _("The sound is larger than %(limit)d MB.") % {"limit": MAX_BYTES // (1024 * 1024)},
        code="audio_size",
    )


def _whole_wave(data: bytes) -> bool:
    """Whether a WAV file holds all the bytes its RIFF header says: mutagen takes the length
    from the header alone, so a cut-off download would pass for a whole one."""
    if len(data) < 12 or data[:4] != b"RIFF":
        return False
    (declared,) = struct.unpack("<I", data[4:8])
    return declared + 8 <= len(data)


def audio_clean(data: bytes, *, file_name: str) -> CleanAudio:
    """Check sound bytes with mutagen and say what they hold, or refuse with a message."""
    if len(data) > MAX_BYTES:
        raise _too_large()
    if not data:
        raise _refused()
    extension = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    if extension not in ACCEPTED_EXTENSIONS:
        raise _refused()
    try:
        # No file name: mutagen chooses its parser from the bytes alone, not from the name.
        parsed = mutagen.File(io.BytesIO(data), options=_PARSERS)
    except Exception:
        # A damaged file fails inside a parser with whatever error that code meets: each is
        # a file refused, not a 500.
        raise _refused() from None
    if parsed is None:
        raise _refused()
    spec = _FORMATS[type(parsed)]
    if extension not in spec.extensions:
        raise ValidationError(
            _("The file is named .%(named)s but holds %(format)s: rename it or export it again.")
            % {"named": extension, "format": spec.extension.upper()},
            code="audio_extension",
        )
    duration = float(getattr(parsed.info, "length", 0) or 0)
    # An MP3 "found" in bytes that only look like a frame here and there is what a picture
    # renamed .mp3 gives: mutagen says so.
    if getattr(parsed.info, "sketchy", False) or duration <= 0:
        raise _refused()
    if isinstance(parsed, WAVE) and not _whole_wave(data):
        raise ValidationError(
            _("The sound file is cut off: upload it again."), code="audio_truncated"
        )
    if duration > MAX_SECONDS:
        raise ValidationError(
            _("The sound lasts %(minutes)d min %(seconds)02d s; at most %(limit)d minutes.")
            % {
                "minutes": int(duration) // 60,
                "seconds": int(duration) % 60,
                "limit": MAX_SECONDS // 60,
            },
            code="audio_length",
        )
    return CleanAudio(
        data=data,
        extension=spec.extension,
        content_type=spec.content_type,
        duration=round(duration, 3),
    )


def audio_read_upload(upload) -> tuple[bytes, str]:
    """The bytes and name of an uploaded file, refusing a too-large one before reading it."""
    if upload is None:
        raise ValidationError(_("Choose a sound file to upload."), code="required")
    if upload.size is not None and upload.size > MAX_BYTES:
        raise _too_large()
    upload.seek(0)
    data = upload.read(MAX_BYTES + 1)
    return data, upload.name or ""


def _clean_title(title: str, file_name: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        title = file_name.rsplit(".", 1)[0].strip()[:MAX_TITLE] or _("Sound")
    if len(title) > MAX_TITLE:
        raise ValidationError(
            _("A title is at most %(limit)d characters.") % {"limit": MAX_TITLE},
            code="audio_title",
        )
    return title


@contextmanager
def audio_saved(*, table: Table, by, clean: CleanAudio, title: str):
    """Store a checked sound in the table's collection and give its TableAudio.

    Use inside the transaction that needs it (`with audio_saved(...) as audio:`): a refusal
    or failure inside the block deletes the stored file again, nothing is left behind."""
    name = default_storage.save(
        f"audio/{secrets.token_urlsafe(24)}.{clean.extension}", ContentFile(clean.data)
    )
    try:
        with transaction.atomic():
            audio = TableAudio.objects.create(
                table=table,
                title=title,
                file=name,
                content_type=clean.content_type,
                duration=clean.duration,
                size=len(clean.data),
                uploaded_by=by,
            )
        yield audio
    except BaseException:
        default_storage.delete(name)
        raise


def audio_upload(*, table: Table, by, data: bytes, file_name: str, title: str = "") -> TableAudio:
    """The GM adds a sound to the table's collection."""
    require_gm(user=by, table_id=table.pk, message=_("Only the GM can upload sounds."))
    title = _clean_title(title, file_name)
    clean = audio_clean(data, file_name=file_name)
    with audio_saved(table=table, by=by, clean=clean, title=title) as audio:
        return audio


def audio_delete(*, audio: TableAudio, by) -> None:
    """The GM removes a sound; a scene playing it falls silent."""
    require_gm(user=by, table_id=audio.table_id, message=_("Only the GM can remove sounds."))
    name = audio.file.name
    with transaction.atomic():
        playing = list(
            Scene.objects.select_for_update()
            .select_related("session")
            .filter(music_id=audio.pk, status=Scene.Status.RUNNING)
        )
        audio.delete()
        # Every browser still looping it stops now, as when the GM stops the music.
        for scene in playing:
            timeline_append(
                session=scene.session,
                kind="scene_music_changed",
                actor=by,
                payload={
                    "scene_id": scene.pk,
                    "number": scene.number,
                    "audio_id": None,
                    "title": "",
                },
            )
        transaction.on_commit(lambda: default_storage.delete(name))


def _table_audio(table_id: int, audio_id: int) -> TableAudio:
    audio = TableAudio.objects.filter(pk=audio_id, table_id=table_id).first()
    if audio is None:
        raise ValidationError(_("That sound is not one of this table's."), code="audio_unknown")
    return audio


def audio_mark_heard(audio: TableAudio) -> None:
    """From now on the table's players and spectators may fetch this sound."""
    if not audio.heard:
        audio.heard = True
        audio.save(update_fields=["heard"])


def scene_music_set(*, session: GameSession, by, audio_id: int | None) -> Scene:
    """The GM sets the running scene's music (looped in every browser), or stops it."""
    require_gm(user=by, table_id=session.table_id, message=_("Only the GM can set the music."))
    with transaction.atomic():
        scene = (
            Scene.objects.select_for_update()
            .filter(session_id=session.pk, status=Scene.Status.RUNNING)
            .first()
        )
        if scene is None:
            raise ValidationError(_("No scene is running."), code="no_scene")
        audio = None if audio_id is None else _table_audio(session.table_id, audio_id)
        if audio is not None:
            audio_mark_heard(audio)
        scene.music = audio
        scene.save(update_fields=["music"])
        timeline_append(
            session=session,
            kind="scene_music_changed",
            actor=by,
            payload={
                "scene_id": scene.pk,
                "number": scene.number,
                "audio_id": audio.pk if audio else None,
                "title": audio.title if audio else "",
            },
        )
    return scene


def sound_play(*, session: GameSession, by, audio_id: int) -> TableAudio:
    """The GM plays a sound effect once in every browser of the room."""
    require_gm(user=by, table_id=session.table_id, message=_("Only the GM can play sounds."))
    with transaction.atomic():
        audio = _table_audio(session.table_id, audio_id)
        audio_mark_heard(audio)
        timeline_append(
            session=session,
            kind="sound_played",
            actor=by,
            payload={"audio_id": audio.pk, "title": audio.title},
        )
    return audio
