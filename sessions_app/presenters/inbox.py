"""The GM's inbox: every request of the session that waits for a GM's answer, oldest first,
pinned at the top of the GM's room so that none goes unseen. The room's page and its live
updates both render it from here; a player has no inbox."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db.models import Q

from .. import rooms
from ..models import (
    MAIN_PLAY_PHASES,
    GrowthRequest,
    Participation,
    Phase,
    Scene,
    SceneRequest,
    StageRequest,
)
from ..selectors.scenes import sheet_changes_unchecked

STAGE = "stage"
SCENE = "scene"
SHEET = "sheet"
GROWTH = "growth"
BOARD = "board"
# A sheet nobody changed since it joined waits from the start of the session.
_FROM_THE_START = datetime.min.replace(tzinfo=UTC)


@dataclass
class InboxItem:
    """One request waiting for the GM: what it is, where it links from, since when."""

    kind: str  # STAGE, SCENE, SHEET, GROWTH or BOARD
    anchor: str  # the element id the request's timeline line links to
    since: datetime
    # a StageRequest, SceneRequest, Participation, GrowthRequest or rooms.BoardQuestion
    request: object
    changes: list = field(default_factory=list)  # a sheet's changes since the GM's check


def inbox_anchor(kind: str, pk: int) -> str:
    """The id of an inbox item, as the timeline lines link to it."""
    return f"inbox-{kind}-{pk}"


def inbox_items(session) -> list[InboxItem]:
    """What waits for the session's GM: entry, exit and companion requests of the running
    scene, scene requests not yet answered, sheets to check (every unchecked sheet in
    pre-play, a sheet changed since its check later) and growth asked for on this session's
    sheet or on none."""
    items: list[InboxItem] = []
    stage_requests = StageRequest.objects.filter(
        scene__session_id=session.pk,
        scene__status=Scene.Status.RUNNING,
        status=StageRequest.Status.PENDING,
    ).select_related("character__owner", "requested_by")
    items += [
        InboxItem(STAGE, inbox_anchor(STAGE, request.pk), request.created_at, request)
        for request in stage_requests
    ]
    if session.rules_profile.scenes_enabled and session.phase in MAIN_PLAY_PHASES:
        wishes = SceneRequest.objects.filter(
            session_id=session.pk, status=SceneRequest.Status.PENDING
        ).select_related("requested_by", "scene_player")
        items += [
            InboxItem(SCENE, inbox_anchor(SCENE, wish.pk), wish.created_at, wish) for wish in wishes
        ]
    rechecks = {row.pk: (row, changes) for row, changes in sheet_changes_unchecked(session=session)}
    if session.phase == Phase.PRE_PLAY:
        unchecked = Participation.objects.filter(
            session=session, sheet_status=Participation.SheetStatus.UNCHECKED
        ).select_related("character__owner")
        for row in unchecked:
            rechecks.setdefault(row.pk, (row, []))
    for row, changes in rechecks.values():
        since = changes[-1].changed_at if changes else _FROM_THE_START
        items.append(InboxItem(SHEET, inbox_anchor(SHEET, row.character_id), since, row, changes))
    # Growth asked on no session's sheet (between sessions) waits in every room of the table.
    growth = (
        GrowthRequest.objects.filter(status=GrowthRequest.Status.PENDING)
        .filter(Q(session=session) | Q(session__isnull=True, character__table_id=session.table_id))
        .select_related("character", "person")
    )
    items += [
        InboxItem(GROWTH, inbox_anchor(GROWTH, asked.pk), asked.requested_at, asked)
        for asked in growth
    ]
    return sorted(items, key=lambda item: (item.since, item.anchor))


def board_items(session, user) -> list[InboxItem]:
    """The questions the session's boards put to this GM, in a seat they run (a Counter to
    show or not): the match waits on them as on any request."""
    return [
        InboxItem(BOARD, question.anchor, question.since, question)
        for question in rooms.boards().questions(session, user)
    ]


def inbox_context(session, user, viewer_is_gm: bool) -> dict:
    """The inbox partial's context: the GM's items; nothing for anyone else."""
    inbox = []
    if viewer_is_gm:
        inbox = sorted(
            inbox_items(session) + board_items(session, user),
            key=lambda item: (item.since, item.anchor),
        )
    return {
        "session": session,
        "viewer": user,
        "viewer_is_gm": viewer_is_gm,
        "inbox": inbox,
        "scene_running": Scene.objects.filter(
            session_id=session.pk, status=Scene.Status.RUNNING
        ).exists()
        if viewer_is_gm
        else False,
    }
