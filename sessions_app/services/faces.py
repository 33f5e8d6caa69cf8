"""A character's faces: its portrait and its expressions, managed by whoever edits the sheet."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..kinds.registry import Panel
from ..models import Character, CharacterFace, GameSession, Phase
from .characters import can_edit_character
from .images import image_delete, image_saved
from .signals import room_panels_changed, send_on_commit

MAX_FACES = 40
# A line said in character with a face that is not one of its character's.
FACE_NOT_OF_CHARACTER = gettext_lazy("Choose one of this character's expressions.")
LABEL_MAX_LENGTH = 60


def _require_editor(by, character: Character) -> None:
    if not can_edit_character(by, character):
        raise PermissionDenied(_("Only who edits this sheet can change its pictures."))


# What shows a character's pictures in a room: the stage's faces, the standing pictures and
# the character panel.
PICTURE_PANELS = frozenset({Panel.STAGE, Panel.STANDING, Panel.CHARACTERS})


def _rooms_see_new_pictures(character_id: int, table_id: int) -> None:
    """The open rooms of the character's table show its pictures as they are now, without
    a reload (an NPC can be on any session's stage, a PC on those it plays in)."""
    sessions = GameSession.objects.filter(table_id=table_id).exclude(phase=Phase.CLOSED)
    for session_id in sessions.values_list("pk", flat=True):
        send_on_commit(room_panels_changed, session_id=session_id, panels=PICTURE_PANELS)


def _label_clean(label: str) -> str:
    label = (label or "").strip()
    if not label:
        raise ValidationError({"label": _("Give the picture a label, such as “smile”.")})
    if len(label) > LABEL_MAX_LENGTH:
        message = _("A label can be at most %(limit)d characters.")
        raise ValidationError({"label": message % {"limit": LABEL_MAX_LENGTH}})
    return label


def face_add(
    *, character: Character, by, data: bytes, label: str, portrait: bool = False
) -> CharacterFace:
    """Add a picture to a character; the first one, or one marked so, becomes the portrait."""
    _require_editor(by, character)
    label = _label_clean(label)
    if character.faces.count() >= MAX_FACES:
        raise ValidationError(
            _("A character can have at most %(limit)d pictures.") % {"limit": MAX_FACES}
        )
    with image_saved(data=data, folder="faces") as name, transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        has_portrait = locked.faces.filter(is_portrait=True).exists()
        if portrait and has_portrait:
            locked.faces.filter(is_portrait=True).update(is_portrait=False)
        face = CharacterFace(
            character=locked, label=label, image=name, is_portrait=portrait or not has_portrait
        )
        face.full_clean()
        face.save()
        _rooms_see_new_pictures(character.pk, character.table_id)
    return face


def face_relabel(*, face: CharacterFace, by, label: str) -> CharacterFace:
    """Rename a picture (its label is what the chat's expression picker shows)."""
    _require_editor(by, face.character)
    face.label = _label_clean(label)
    face.save(update_fields=["label"])
    _rooms_see_new_pictures(face.character_id, face.character.table_id)
    return face


def face_portrait_choose(*, face: CharacterFace, by) -> CharacterFace:
    """Make this picture the character's portrait: the stage shows it, lines default to it."""
    _require_editor(by, face.character)
    with transaction.atomic():
        Character.objects.select_for_update().get(pk=face.character_id)
        CharacterFace.objects.filter(character_id=face.character_id, is_portrait=True).update(
            is_portrait=False
        )
        face.is_portrait = True
        face.save(update_fields=["is_portrait"])
        _rooms_see_new_pictures(face.character_id, face.character.table_id)
    return face


def face_delete(*, face: CharacterFace, by) -> None:
    """Delete a picture; if it was the portrait, the oldest picture left takes its place.

    Lines already said with it keep naming it, and show no picture any more."""
    _require_editor(by, face.character)
    with transaction.atomic():
        Character.objects.select_for_update().get(pk=face.character_id)
        was_portrait = face.is_portrait
        name = face.image.name
        face.delete()
        if was_portrait:
            following = CharacterFace.objects.filter(character_id=face.character_id).first()
            if following is not None:
                following.is_portrait = True
                following.save(update_fields=["is_portrait"])
        image_delete(name)
        _rooms_see_new_pictures(face.character_id, face.character.table_id)


def faces_replace(*, character: Character, by, stored: list[tuple[str, str]]) -> None:
    """Replace the character's pictures with already stored ones ((label, name), the first
    the portrait): an imported sheet brings its own. Runs in the caller's transaction."""
    _require_editor(by, character)
    for face in CharacterFace.objects.filter(character_id=character.pk):
        image_delete(face.image.name)
    CharacterFace.objects.filter(character_id=character.pk).delete()
    for number, (label, name) in enumerate(stored[:MAX_FACES]):
        face = CharacterFace(
            character=character, label=_label_clean(label), image=name, is_portrait=number == 0
        )
        face.full_clean()
        face.save()
    _rooms_see_new_pictures(character.pk, character.table_id)
