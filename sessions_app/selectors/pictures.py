"""Who may see an uploaded picture: the same people who may see what it belongs to.

Each function returns the object whose picture is asked for, or None for anyone who may not
see it (the view answers 404 then, as for anything an outsider looks up by id).
"""

from __future__ import annotations

from django.db.models import Q

from ..models import (
    Appearance,
    CharacterFace,
    Handout,
    HandoutReveal,
    ImportedLog,
    Membership,
    PlannedScene,
    Scene,
)
from .tables import membership_get


def face_visible(*, user, face_id: int, watched=frozenset()) -> CharacterFace | None:
    """A face is seen by the table's members: a PC's always (its lines and the stage show
    it), an NPC's by the GM, and by players once the NPC has been on stage. Spectators of
    the table (`watched`: the table ids their links open) see what the players see."""
    face = CharacterFace.objects.select_related("character").filter(pk=face_id).first()
    if face is None:
        return None
    character = face.character
    membership = membership_get(user=user, table_id=character.table_id)
    if membership is None:
        # A spectator (or a member's own spectator link) sees no more than the players do.
        if character.table_id not in watched:
            return None
        public = (
            character.kind == character.Kind.PC
            or Appearance.objects.filter(character_id=character.pk).exists()
        )
        return face if public else None
    if (
        character.kind == character.Kind.PC
        or membership.role == Membership.Role.GM
        or character.owner_id == user.pk
        or Appearance.objects.filter(character_id=character.pk).exists()
    ):
        return face
    return None


def line_face_name(*, user, session, face_id: int, watched=frozenset()) -> str:
    """The stored picture a chat line of this session was said with, for a member of its
    table: an imported log's own picture, else the face as `face_visible` allows it."""
    imported = ImportedLog.objects.filter(session_id=session.pk).only("pictures").first()
    if imported is not None:
        return (imported.pictures or {}).get(f"face:{face_id}", "")
    face = face_visible(user=user, face_id=face_id, watched=watched)
    if face is None or face.character.table_id != session.table_id:
        return ""
    return face.image.name


def scene_background_visible(*, user, scene_id: int, watched=frozenset()) -> Scene | None:
    """A scene's background is seen by the members of its session's table, and by its
    spectators (`watched`: the table ids their links open)."""
    scene = Scene.objects.select_related("session").filter(pk=scene_id).first()
    if scene is None:
        return None
    if scene.session.table_id in watched:
        return scene
    if membership_get(user=user, table_id=scene.session.table_id) is None:
        return None
    return scene


def planned_background_visible(*, user, planned_id: int) -> PlannedScene | None:
    """A planned scene is the GM's preparation: its writer alone sees its background (the
    scene started from it carries a copy the table sees)."""
    return (
        PlannedScene.objects.filter(pk=planned_id, scenario__owner_id=getattr(user, "pk", None))
        .exclude(background="")
        .first()
    )


def handout_image_visible(*, user, handout_id: int) -> Handout | None:
    """A handout's image is seen by the scenario's writer, and by the readers of a session
    where it was revealed: everyone of that table, or the listed readers."""
    handout = Handout.objects.select_related("scenario").filter(pk=handout_id).first()
    if handout is None or not user.is_authenticated:
        return None
    if handout.scenario.owner_id == user.pk:
        return handout
    readable = HandoutReveal.objects.filter(
        Q(readers__isnull=True) | Q(readers=user),
        handout_id=handout.pk,
        session__table__memberships__user=user,
    )
    return handout if readable.exists() else None


def faces_by_character(*, characters) -> list[tuple]:
    """(character, its faces, portrait first) for each character, in one query."""
    ids = [character.pk for character in characters]
    faces: dict[int, list[CharacterFace]] = {pk: [] for pk in ids}
    for face in CharacterFace.objects.filter(character_id__in=ids):
        faces[face.character_id].append(face)
    return [(character, faces[character.pk]) for character in characters]


def portraits_of(*, characters) -> dict[int, CharacterFace]:
    """Character id → its portrait, for those that have one, in one query."""
    ids = [character.pk for character in characters]
    return {
        face.character_id: face
        for face in CharacterFace.objects.filter(character_id__in=ids, is_portrait=True)
    }


def picture_in_use(*, name: str) -> bool:
    """Whether any face, background or handout still shows this stored file."""
    return (
        CharacterFace.objects.filter(image=name).exists()
        or PlannedScene.objects.filter(background=name).exists()
        or Scene.objects.filter(background=name).exists()
        or Handout.objects.filter(image=name).exists()
    )


def pictures_in_use() -> set[str]:
    """Every stored file a row names: faces, backgrounds, handouts, imported logs' faces."""
    names = set(CharacterFace.objects.values_list("image", flat=True))
    names |= set(PlannedScene.objects.exclude(background="").values_list("background", flat=True))
    names |= set(Scene.objects.exclude(background="").values_list("background", flat=True))
    names |= set(Handout.objects.exclude(image="").values_list("image", flat=True))
    for pictures in ImportedLog.objects.exclude(pictures={}).values_list("pictures", flat=True):
        names |= set((pictures or {}).values())
    return names
