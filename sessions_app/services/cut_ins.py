"""Cut-ins: a picture, a short text and maybe a sound over everyone's room for a few seconds.

The GM starts one from the room; a table that turns it on gets one by itself when a check
comes up critical or fumbled where everyone sees the roll. Each is one timeline event: the
room's script shows it when it arrives live, and the log keeps its line.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import CharacterFace, CutIn, GameSession, Phase, Roll, Table, TableAudio
from ..rules import srs_checks
from .access import require_gm
from .audio import audio_mark_heard
from .images import image_saved
from .timeline import timeline_append

MAX_TEXT = 80


def _clean_text(text: str) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise ValidationError(_("Write the cut-in's text."), code="cut_in_text")
    if len(text) > MAX_TEXT:
        raise ValidationError(
            _("A cut-in's text is at most %(limit)d characters.") % {"limit": MAX_TEXT},
            code="cut_in_text",
        )
    return text


def _cut_in_payload(cut_in: CutIn, *, roll: Roll | None = None, outcome: str = "") -> dict:
    """The payload of a cut-in's line on the timeline (kind `cut_in`)."""
    payload = {
        "cut_in_id": cut_in.pk,
        "text": cut_in.text,
        "has_image": bool(cut_in.image),
        "sound_id": cut_in.sound_id,
    }
    if roll is not None:
        # The words are the template's, in each reader's language: "Critical!" and the name.
        payload["roll_id"] = roll.pk
        payload["outcome"] = outcome
    return payload


def cut_in_start(
    *, session: GameSession, by, text: str, image: bytes | None = None, sound_id: int | None = None
) -> CutIn:
    """The GM shows a cut-in over everyone's room."""
    require_gm(user=by, table_id=session.table_id, message=_("Only the GM can show cut-ins."))
    if session.phase == Phase.CLOSED:
        raise ValidationError(
            _("This session is closed: nothing more can be shown in it."), code="session_closed"
        )
    text = _clean_text(text)
    sound = None
    if sound_id is not None:
        sound = TableAudio.objects.filter(pk=sound_id, table_id=session.table_id).first()
        if sound is None:
            raise ValidationError(_("That sound is not one of this table's."), code="audio_unknown")
    if image is None:
        with transaction.atomic():
            return _create(session, by, text, "", sound)
    with image_saved(data=image, folder="cutins") as name, transaction.atomic():
        return _create(session, by, text, name, sound)


def _create(session, by, text, image_name, sound) -> CutIn:
    if sound is not None:
        audio_mark_heard(sound)
    cut_in = CutIn.objects.create(
        table_id=session.table_id, text=text, image=image_name, sound=sound, created_by=by
    )
    timeline_append(session=session, kind="cut_in", actor=by, payload=_cut_in_payload(cut_in))
    return cut_in


def cut_ins_on_rolls_set(*, table: Table, by, on: bool) -> Table:
    """The GM turns the cut-ins on criticals and fumbles on or off."""
    require_gm(user=by, table_id=table.pk)
    table.cut_ins_on_rolls = bool(on)
    table.save(update_fields=["cut_ins_on_rolls"])
    return table


def cut_in_for_roll(roll: Roll) -> dict | None:
    """A cut-in for a critical or fumbled roll everyone sees, when the table wants them:
    the cut-in is made, and its line's payload returned for the roll's caller to append
    right after the roll's own line (the roll's path passes the timeline once).

    Called inside the roll's transaction; a secret roll (or one of a secret difficulty,
    whose outcome the players learn another way) gets none."""
    outcome = (roll.result or {}).get("outcome")
    if outcome not in (srs_checks.OUTCOME_CRITICAL, srs_checks.OUTCOME_FUMBLE):
        return None
    if roll.secret or roll.difficulty_secret:
        return None
    session = roll.session
    if not Table.objects.filter(pk=session.table_id, cut_ins_on_rolls=True).exists():
        return None
    who = roll.character.name if roll.character_id else roll.roller.get_username()
    # The character's portrait, when it has one, stands behind the words.
    portrait = (
        CharacterFace.objects.filter(character_id=roll.character_id, is_portrait=True)
        .values_list("image", flat=True)
        .first()
        if roll.character_id
        else None
    )
    cut_in = CutIn.objects.create(
        table_id=session.table_id,
        text=who[:MAX_TEXT],
        image=portrait or "",
        created_by=roll.roller,
    )
    return _cut_in_payload(cut_in, roll=roll, outcome=outcome)
