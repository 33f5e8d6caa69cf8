"""Reads of a session's cast, players, scenes, stage and handouts."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from ..models import (
    MAIN_PLAY_PHASES,
    Appearance,
    Character,
    CharacterFace,
    GameSession,
    HandoutReveal,
    Membership,
    Participation,
    Phase,
    Scene,
    SceneRequest,
    SheetChange,
    StageRequest,
    TimelineEvent,
)


def _player_rank(session: GameSession):
    """Sort key: the player order the GM set, then everyone else by name."""
    order = {user_id: index for index, user_id in enumerate(session.player_order or [])}
    return lambda user: (order.get(user.pk, len(order)), user.get_username().lower())


def appeared_character_ids():
    """Every character that has been on stage in some scene, as a subquery: until then an
    NPC's name and faces are the GM's alone."""
    return Appearance.objects.values("character_id")


def session_cast(*, session: GameSession) -> list[Character]:
    """Return the PCs taking part, in player order, then by name."""
    characters = list(session.characters.select_related("owner"))
    rank = _player_rank(session)
    return sorted(characters, key=lambda character: (rank(character.owner), character.name))


def session_participations(*, session: GameSession) -> list[Participation]:
    """Return each taking-part character's pre-play state, in player order."""
    participations = list(session.participations.select_related("character__owner"))
    rank = _player_rank(session)
    return sorted(
        participations,
        key=lambda row: (rank(row.character.owner), row.character.name),
    )


def session_players(*, session: GameSession) -> list:
    """Return the table's players (not the GM) in player order."""
    members = Membership.objects.filter(
        table_id=session.table_id, role=Membership.Role.PLAYER
    ).select_related("user")
    return sorted((member.user for member in members), key=_player_rank(session))


def running_scene(*, session_id: int) -> Scene | None:
    return (
        Scene.objects.filter(session_id=session_id, status=Scene.Status.RUNNING)
        .select_related("scene_player__owner")
        .first()
    )


@dataclass(frozen=True)
class Voice:
    """A character someone names to speak or roll as, with what the rules ask of it: whether
    it takes part in the session, whether a scene runs and it is on stage there, and the
    face a line of it shows (the one asked for, `face_asked`, else its portrait)."""

    character: Character
    taking_part: bool
    scene_running: bool
    on_stage: bool
    face: CharacterFace | None
    face_asked: int | None


def voice_get(*, session: GameSession, character_id: int, face_id: int | None = None):
    """The character of the session's table with this id as a Voice, in one query; None if
    the table has no such character. An action names one character: it is checked alone,
    not by building every choice the form offers.

    Every chat line in character and every roll as a character runs this read. Written with
    the ORM (three Exists and two Subquery annotations) it cost more CPU to build and compile
    than any other step of a chat line, about 15 times what the database took to answer it;
    the statement is written out here, with the tables' names taken from the models."""
    character_table, face_table, scene_table, participation_table, appearance_table = (
        connection.ops.quote_name(model._meta.db_table)
        for model in (Character, CharacterFace, Scene, Participation, Appearance)
    )
    # The portrait unless a face is asked for; a character has one portrait at most.
    face_condition = "f.id = %s" if face_id else "f.is_portrait = %s"
    sql = f"""SELECT c.*,
            EXISTS(
                SELECT 1 FROM {participation_table} p
                WHERE p.character_id = c.id AND p.session_id = %s
            ) AS taking_part,
            EXISTS(
                SELECT 1 FROM {scene_table} s WHERE s.session_id = %s AND s.status = %s
            ) AS scene_running,
            EXISTS(
                SELECT 1 FROM {appearance_table} a
                JOIN {scene_table} s ON s.id = a.scene_id
                WHERE a.character_id = c.id AND a.exited_at IS NULL
                    AND s.session_id = %s AND s.status = %s
            ) AS on_stage,
            f.id AS face_pk,
            f.label AS face_label
        FROM {character_table} c
        LEFT JOIN {face_table} f ON f.character_id = c.id AND {face_condition}
        WHERE c.id = %s AND c.table_id = %s
    """  # noqa: S608 (only the models' own table names are formatted in; values are params)
    running = Scene.Status.RUNNING
    params = [
        session.pk,
        session.pk,
        running,
        session.pk,
        running,
        face_id if face_id else True,
        character_id,
        session.table_id,
    ]
    character = next(iter(Character.objects.raw(sql, params)), None)
    if character is None:
        return None
    face = None
    if character.face_pk is not None:
        face = CharacterFace(pk=character.face_pk, character=character, label=character.face_label)
    return Voice(
        character=character,
        taking_part=bool(character.taking_part),
        scene_running=bool(character.scene_running),
        on_stage=bool(character.on_stage),
        face=face,
        face_asked=face_id,
    )


def on_stage_ids(*, scene: Scene) -> set[int]:
    return set(
        Appearance.objects.filter(scene=scene, exited_at__isnull=True).values_list(
            "character_id", flat=True
        )
    )


def stage_appearances(*, scene: Scene) -> list[Appearance]:
    return list(
        Appearance.objects.filter(scene=scene, exited_at__isnull=True)
        .select_related("character__owner")
        .order_by("entered_at", "id")
    )


def scene_last_lines(*, scene: Scene, character_ids) -> dict[int, tuple[int, dict]]:
    """Character id → (seq, payload) of its last line said in character in this scene, on the
    main channel and for everyone to see: the line a stage shows it with. One read per
    character, each stopping at its newest line."""
    lines = TimelineEvent.objects.filter(
        session_id=scene.session_id,
        kind="chat",
        visibility=TimelineEvent.Visibility.EVERYONE,
        created_at__gte=scene.started_at,
        payload__mode="ic",
    ).filter(~Q(payload__has_key="channel") | Q(payload__channel="main"))
    if scene.ended_at is not None:
        lines = lines.filter(created_at__lte=scene.ended_at)
    found = {}
    for character_id in character_ids:
        last = (
            lines.filter(payload__character_id=character_id)
            .order_by("-seq")
            .values_list("seq", "payload")
            .first()
        )
        if last is not None:
            found[character_id] = last
    return found


def open_stage_requests(*, scene: Scene) -> list[StageRequest]:
    return list(
        StageRequest.objects.filter(scene=scene, status__in=StageRequest.OPEN_STATUSES)
        .select_related("character__owner", "requested_by")
        .order_by("created_at", "id")
    )


def open_scene_requests(*, session_id: int) -> list[SceneRequest]:
    """The scene requests waiting for the GM, new ones first, then those kept for later."""
    requests = SceneRequest.objects.filter(
        session_id=session_id, status__in=SceneRequest.OPEN_STATUSES
    ).select_related("requested_by", "scene_player")
    return sorted(requests, key=lambda request: (request.status != "pending", request.created_at))


def sheet_changes_unchecked(*, session: GameSession) -> list[tuple[Participation, list]]:
    """The sheets whose check a change withdrew, each with the changes made since the GM
    last checked it (who changed what, when)."""
    changes = (
        SheetChange.objects.filter(
            participation__session=session,
            participation__sheet_status=Participation.SheetStatus.UNCHECKED,
        )
        .select_related("participation__character__owner", "changed_by")
        .order_by("changed_at", "id")
    )
    found: dict[int, tuple[Participation, list]] = {}
    for change in changes:
        row = change.participation
        if row.checked_at is not None and change.changed_at <= row.checked_at:
            continue
        found.setdefault(row.pk, (row, []))[1].append(change)
    return sorted(
        (entry for entry in found.values() if any(c.withdrew_check for c in entry[1])),
        key=lambda entry: entry[0].character.name,
    )


def sheet_checked_in(*, character: Character) -> list[GameSession]:
    """The sessions before after-play in which the GM has checked this sheet."""
    return list(
        GameSession.objects.filter(
            participations__character=character,
            participations__sheet_status=Participation.SheetStatus.CHECKED,
            phase__in=[Phase.PRE_PLAY, *MAIN_PLAY_PHASES],
        ).order_by("scheduled_for", "id")
    )


def session_scenes(*, session_id: int) -> list[Scene]:
    return list(
        Scene.objects.filter(session_id=session_id)
        .select_related("scene_player")
        .order_by("number")
    )


def handouts_for_everyone(*, session: GameSession) -> list[HandoutReveal]:
    """Return the handouts revealed in the session to everyone (none given to one PC slot):
    part of what everyone at the table sees, spectators included."""
    reveals = HandoutReveal.objects.filter(session=session, readers__isnull=True)
    return list(reveals.select_related("handout").order_by("revealed_at", "id"))


def handouts_for(*, session: GameSession, user, is_gm: bool) -> list[HandoutReveal]:
    """Return the handouts revealed in the session that this user may read."""
    reveals = HandoutReveal.objects.filter(session=session).select_related("handout")
    if not is_gm:
        reveals = reveals.filter(Q(readers__isnull=True) | Q(readers=user)).distinct()
    return list(reveals.order_by("revealed_at", "id"))
