"""Who may see an uploaded picture: the same people who may see what it belongs to.

Each function returns the object whose picture is asked for, or None for anyone who may not
see it (the view answers 404 then, as for anything an outsider looks up by id).
"""

from __future__ import annotations

from django.db.models import Q

from ..models import (
    Appearance,
    CharacterFace,
    CutIn,
    GameSession,
    Handout,
    HandoutReveal,
    ImportedLog,
    Membership,
    PlannedScene,
    Scene,
    TableAudio,
    TimelineEvent,
)
from .tables import membership_get
from .timeline import visible_events


def face_visible(*, user, face_id: int, watched=frozenset()) -> CharacterFace | None:
    """A face is seen by those who may see a page that shows it: the GM and the character's
    player (its sheet), and, for a portrait, whoever sees the stage it stands on: a PC's
    always, an NPC's once it has been on stage. Spectators of the table (`watched`: the
    table ids their links open) see what the players see. A face beside a line is served
    through `line_face_name`, to those who may see the line."""
    face = CharacterFace.objects.select_related("character").filter(pk=face_id).first()
    if face is None:
        return None
    character = face.character
    membership = membership_get(user=user, table_id=character.table_id)
    if membership is None:
        # A spectator (or a member's own spectator link) sees no more than the players do.
        if character.table_id not in watched:
            return None
    elif membership.role == Membership.Role.GM or character.owner_id == user.pk:
        return face
    if face.is_portrait and (
        character.kind == character.Kind.PC
        or Appearance.objects.filter(character_id=character.pk).exists()
    ):
        return face
    return None


def line_face_name(*, user, session, face_id: int, watched=frozenset()) -> str:
    """The stored picture a chat line of this session was said with (an imported log's own
    picture, or the character's face), for someone who may see a line said with it: a
    face used only on GM-only lines stays the GM's."""
    membership = membership_get(user=user, table_id=session.table_id)
    if membership is not None:
        lines = visible_events(
            session_id=session.pk, user=user, is_gm=membership.role == Membership.Role.GM
        )
    elif session.table_id in watched:
        lines = TimelineEvent.objects.filter(
            session_id=session.pk, visibility=TimelineEvent.Visibility.EVERYONE
        )
    else:
        return ""
    if not lines.filter(kind="chat", payload__face_id=face_id).exists():
        return ""
    imported = ImportedLog.objects.filter(session_id=session.pk).only("pictures").first()
    if imported is not None:
        return (imported.pictures or {}).get(f"face:{face_id}", "")
    face = CharacterFace.objects.filter(pk=face_id, character__table_id=session.table_id).first()
    return "" if face is None else face.image.name


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


def handout_image_visible(*, user, handout_id: int, watched=frozenset()) -> Handout | None:
    """A handout's image is seen by the scenario's writer, and by the readers of a session
    where it was revealed: everyone of that table, or the listed readers; a handout revealed
    to everyone, by the table's spectators too (`watched`: the table ids their links open)."""
    handout = Handout.objects.select_related("scenario").filter(pk=handout_id).first()
    if handout is None:
        return None
    if user.is_authenticated:
        if handout.scenario.owner_id == user.pk:
            return handout
        readable = HandoutReveal.objects.filter(
            Q(readers__isnull=True) | Q(readers=user),
            handout_id=handout.pk,
            session__table__memberships__user=user,
        )
        if readable.exists():
            return handout
    shown_to_spectators = HandoutReveal.objects.filter(
        handout_id=handout.pk, readers__isnull=True, session__table_id__in=list(watched)
    )
    return handout if watched and shown_to_spectators.exists() else None


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
        or CutIn.objects.filter(image=name).exists()
    )


def pictures_in_use() -> set[str]:
    """Every stored file a row names: faces, backgrounds, handouts, imported logs' faces."""
    names = set(CharacterFace.objects.values_list("image", flat=True))
    names |= set(PlannedScene.objects.exclude(background="").values_list("background", flat=True))
    names |= set(Scene.objects.exclude(background="").values_list("background", flat=True))
    names |= set(Handout.objects.exclude(image="").values_list("image", flat=True))
    names |= set(CutIn.objects.exclude(image="").values_list("image", flat=True))
    for pictures in ImportedLog.objects.exclude(pictures={}).values_list("pictures", flat=True):
        names |= set((pictures or {}).values())
    return names


def cut_in_visible(*, user, cut_in_id: int, watched=frozenset()) -> CutIn | None:
    """A cut-in is shown to the whole room: the table's members, and its spectators."""
    cut_in = CutIn.objects.filter(pk=cut_in_id).first()
    if cut_in is None:
        return None
    if cut_in.table_id in watched or membership_get(user=user, table_id=cut_in.table_id):
        return cut_in
    return None


def audio_audible(*, user, audio_id: int, watched=frozenset()) -> TableAudio | None:
    """The GM hears every sound of the table; players and spectators those played already."""
    audio = TableAudio.objects.filter(pk=audio_id).first()
    if audio is None:
        return None
    membership = membership_get(user=user, table_id=audio.table_id)
    if membership is not None and membership.role == Membership.Role.GM:
        return audio
    if audio.heard and (membership is not None or audio.table_id in watched):
        return audio
    return None


def table_audio_get(*, table_id: int, audio_id: int) -> TableAudio | None:
    """One of the table's sounds, or None."""
    return TableAudio.objects.filter(pk=audio_id, table_id=table_id).first()


def watched_session(*, session_id: int, watched) -> GameSession | None:
    """The session, if it belongs to one of the `watched` tables (a spectator's), else None."""
    return GameSession.objects.filter(pk=session_id, table_id__in=watched).first()
