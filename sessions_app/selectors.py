"""Selectors: every read of tables, memberships, sessions and what a user may see of them."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from .dice_stats import DiceRow
from .models import (
    Appearance,
    Character,
    CheckRequest,
    ExperienceEntry,
    GameSession,
    HandoutReveal,
    Membership,
    Participation,
    Phase,
    Presence,
    Roll,
    RulesProfile,
    Scene,
    SessionSignoff,
    StageRequest,
    Table,
    TimelineEvent,
)


def membership_get(*, user, table_id: int) -> Membership | None:
    """Return the user's membership of the table, or None (anonymous users have none)."""
    if user is None or not user.is_authenticated:
        return None
    # get() rather than first(): one row at most, and no ORDER BY to compile and run.
    try:
        return Membership.objects.get(user=user, table_id=table_id)
    except Membership.DoesNotExist:
        return None


def is_member(user, table: Table) -> bool:
    return membership_get(user=user, table_id=table.pk) is not None


def is_gm(user, table: Table) -> bool:
    membership = membership_get(user=user, table_id=table.pk)
    return membership is not None and membership.role == Membership.Role.GM


def tables_for_user(*, user) -> QuerySet[Table]:
    return Table.objects.filter(memberships__user=user).select_related("gm").distinct()


def table_members(*, table: Table) -> QuerySet[Membership]:
    return table.memberships.select_related("user").order_by("role", "joined_at", "id")


def rules_profiles_for_table(*, table: Table) -> QuerySet[RulesProfile]:
    return RulesProfile.objects.filter(Q(table__isnull=True) | Q(table=table))


def session_for_member(*, user, session_id: int) -> tuple[GameSession, Membership] | None:
    """Return the session and the user's membership of its table, or None if not a member."""
    try:
        session = GameSession.objects.select_related("table", "rules_profile").get(pk=session_id)
    except GameSession.DoesNotExist:
        return None
    membership = membership_get(user=user, table_id=session.table_id)
    if membership is None:
        return None
    return session, membership


def session_last_seq(*, session_id: int) -> int:
    return GameSession.objects.filter(pk=session_id).values_list("last_seq", flat=True).first() or 0


def visible_events(*, session_id: int, user, is_gm: bool) -> QuerySet[TimelineEvent]:
    """Return the session's events this user may see, in order.

    The filter runs in the database so that hidden events are never loaded for rendering.
    """
    events = TimelineEvent.objects.filter(session_id=session_id)
    if is_gm:
        # The GM sees the full event instead of its redacted twin.
        events = events.exclude(visibility=TimelineEvent.Visibility.PLAYERS)
    else:
        listed_for_user = TimelineEvent.audience.through.objects.filter(user=user).values(
            "timelineevent_id"
        )
        events = events.filter(
            Q(
                visibility__in=[
                    TimelineEvent.Visibility.EVERYONE,
                    TimelineEvent.Visibility.PLAYERS,
                ]
            )
            | Q(visibility=TimelineEvent.Visibility.USERS, pk__in=listed_for_user)
        )
    return events.select_related("actor").order_by("seq")


def events_after(
    *, session_id: int, user, is_gm: bool, after_seq: int, up_to_seq: int | None = None
):
    """Return the visible events numbered above `after_seq` (and up to `up_to_seq`)."""
    events = visible_events(session_id=session_id, user=user, is_gm=is_gm).filter(seq__gt=after_seq)
    if up_to_seq is not None:
        events = events.filter(seq__lte=up_to_seq)
    return events


ROOM_EVENT_LIMIT = 40


def recent_events(
    *,
    session_id: int,
    user,
    is_gm: bool,
    limit: int = ROOM_EVENT_LIMIT,
    before_seq: int | None = None,
) -> tuple[list[TimelineEvent], bool]:
    """Return the last `limit` visible events (before `before_seq`), oldest first, and
    whether earlier ones exist: a page shows a long session's latest lines, not all of it."""
    events = visible_events(session_id=session_id, user=user, is_gm=is_gm)
    if before_seq is not None:
        events = events.filter(seq__lt=before_seq)
    found = list(events.order_by("-seq")[: limit + 1])
    return list(reversed(found[:limit])), len(found) > limit


PRESENCE_TIMEOUT = datetime.timedelta(minutes=3)


def present_users(*, session_id: int) -> list:
    """Return the users with at least one live socket in the room, by name."""
    seen = {}
    fresh_since = timezone.now() - PRESENCE_TIMEOUT
    presences = Presence.objects.filter(session_id=session_id, last_seen__gte=fresh_since)
    for presence in presences.select_related("user"):
        seen.setdefault(presence.user_id, presence.user)
    return sorted(seen.values(), key=lambda user: user.get_username().lower())


def pending_checks_for(*, session_id: int, user, is_gm: bool) -> list[tuple[CheckRequest, str]]:
    """Return the open checks this user should see, each with how: "roll" or "watch".

    A character's owner rolls its pending checks; the GM also watches everyone else's
    (and may cancel them). Players never see other players' secret requests here.
    """
    open_statuses = [CheckRequest.Status.PENDING, CheckRequest.Status.WAITING]
    requests = (
        CheckRequest.objects.filter(session_id=session_id, status__in=open_statuses)
        .select_related("character", "contest")
        .order_by("created_at", "id")
    )
    items = []
    for request in requests:
        owns = request.character.owner_id == user.pk
        if owns and request.status == CheckRequest.Status.PENDING:
            items.append((request, "roll"))
        elif is_gm:
            items.append((request, "watch"))
    return items


def _player_rank(session: GameSession):
    """Sort key: the player order the GM set, then everyone else by name."""
    order = {user_id: index for index, user_id in enumerate(session.player_order or [])}
    return lambda user: (order.get(user.pk, len(order)), user.get_username().lower())


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


def open_stage_requests(*, scene: Scene) -> list[StageRequest]:
    return list(
        StageRequest.objects.filter(scene=scene, status__in=StageRequest.OPEN_STATUSES)
        .select_related("character__owner", "requested_by")
        .order_by("created_at", "id")
    )


def session_scenes(*, session_id: int) -> list[Scene]:
    return list(
        Scene.objects.filter(session_id=session_id)
        .select_related("scene_player")
        .order_by("number")
    )


def handouts_for(*, session: GameSession, user, is_gm: bool) -> list[HandoutReveal]:
    """Return the handouts revealed in the session that this user may read."""
    reveals = HandoutReveal.objects.filter(session=session).select_related("handout")
    if not is_gm:
        reveals = reveals.filter(Q(readers__isnull=True) | Q(readers=user)).distinct()
    return list(reveals.order_by("revealed_at", "id"))


def table_characters(*, table: Table, kind: str | None = None):
    characters = table.characters.select_related("owner")
    if kind:
        characters = characters.filter(kind=kind)
    return characters


def table_profile(*, table: Table) -> RulesProfile:
    """Return the table's own profile choice, or the shipped SRS standard."""
    if table.rules_profile_id:
        return table.rules_profile
    return (
        RulesProfile.objects.filter(table__isnull=True, name="SRS standard").first()
        or RulesProfile.objects.filter(table__isnull=True).first()
    )


# Scenarios: only their writer ever reads them here. ----------------------------------------

from django.db.models import Count, Prefetch  # noqa: E402

from .models import MAIN_PLAY_PHASES, PlannedScene, PreparedCheck, Scenario  # noqa: E402


def scenarios_for_owner(*, user) -> QuerySet[Scenario]:
    """Return the user's own scenarios, by title, with how many scenes each plans."""
    if user is None or not user.is_authenticated:
        return Scenario.objects.none()
    return (
        Scenario.objects.filter(owner=user)
        .annotate(scene_count=Count("scenes", distinct=True))
        .order_by("title", "id")
    )


def scenario_for_owner(*, user, scenario_id: int) -> Scenario | None:
    """Return the scenario if `user` wrote it, else None (for everyone else it is not there)."""
    if user is None or not user.is_authenticated:
        return None
    return Scenario.objects.filter(pk=scenario_id, owner=user).first()


def scenario_plan(*, scenario: Scenario) -> list[tuple[str, str, list[PlannedScene]]]:
    """Return (phase, label, planned scenes in order with their checks) for each main phase."""
    scenes = scenario.scenes.prefetch_related(
        Prefetch("checks", queryset=PreparedCheck.objects.order_by("id"))
    ).order_by("position", "id")
    by_phase: dict[str, list[PlannedScene]] = {phase.value: [] for phase in MAIN_PLAY_PHASES}
    for scene in scenes:
        by_phase.setdefault(scene.phase, []).append(scene)
    return [(phase.value, phase.label, by_phase[phase.value]) for phase in MAIN_PLAY_PHASES]


def judgement_value_names_for(*, user) -> list[str]:
    """Return the judgement value names of the shipped profiles and of the user's tables."""
    names: list[str] = []
    profiles = RulesProfile.objects.filter(Q(table__isnull=True) | Q(table__gm=user))
    for profile in profiles.order_by("table_id", "name", "id"):
        for name in profile.judgement_value_names or []:
            if name not in names:
                names.append(name)
    return names


# --------------------------------------------------------------------------- dice statistics


def _roll_event_ids(rolls_filter: Q, kind: str) -> set[int]:
    payloads = TimelineEvent.objects.filter(rolls_filter, kind=kind).values_list(
        "payload__roll_id", flat=True
    )
    return {int(roll_id) for roll_id in payloads if roll_id is not None}


def _dice_rows(rolls, events_filter: Q, *, user, is_gm: bool) -> list[DiceRow]:
    """Turn rolls into statistics rows, leaving out what this viewer may not know.

    Voided rolls never count. A player does not get the numbers of a secret roll nobody
    revealed (except their own roll-box secret, which they saw), nor the difficulty and
    verdict of a roll whose difficulty is still secret: the same things the timeline hides.
    """
    voided = _roll_event_ids(events_filter, "roll_voided")
    revealed = _roll_event_ids(events_filter, "roll_revealed")
    rows = []
    for roll in rolls.select_related("roller", "character").order_by("created_at", "id"):
        if roll.pk in voided:
            continue
        shown = is_gm or roll.pk in revealed
        if roll.secret and not shown:
            own_command = roll.source == Roll.Source.COMMAND and roll.roller_id == user.pk
            if not own_command:
                continue
        result = roll.result or {}
        is_check = result.get("critical") is not None and result.get("fumble") is not None
        difficulty_known = shown or not roll.difficulty_secret
        rows.append(
            DiceRow(
                who=roll.roller.get_username(),
                who_id=roll.roller_id,
                character=roll.character.name if roll.character else "",
                character_id=roll.character_id,
                faces=tuple(roll.faces or ()),
                sides=int(result.get("sides", 6)),
                critical=result.get("critical") if is_check else None,
                fumble=result.get("fumble") if is_check else None,
                value=int(result.get("value") or 0),
                modifier=int(result.get("modifier") or 0),
                difficulty=result.get("difficulty") if difficulty_known else None,
            )
        )
    return rows


def dice_rows_for_session(*, session: GameSession, user, is_gm: bool) -> list[DiceRow]:
    """Return the session's rolls this viewer may count, as dice statistics rows."""
    return _dice_rows(
        Roll.objects.filter(session=session), Q(session=session), user=user, is_gm=is_gm
    )


def dice_rows_for_table(*, table: Table, user, is_gm: bool) -> list[DiceRow]:
    """Return the rolls of all the table's sessions this viewer may count."""
    return _dice_rows(
        Roll.objects.filter(session__table=table),
        Q(session__table=table),
        user=user,
        is_gm=is_gm,
    )


# Experience: the ledger of a person at a table, and the sheets printed from it.


def _ledger_entries():
    return ExperienceEntry.objects.select_related(
        "session", "character", "corrects", "created_by", "person"
    ).order_by("id")


def ledger_for(*, table: Table, user) -> list[ExperienceEntry]:
    """Return every entry of the person's ledger at the table, oldest first.

    Each entry carries its running balance (`balance_after`), written under a lock.
    """
    return list(_ledger_entries().filter(table=table, person=user))


def balance_of(*, table: Table | None = None, user=None, table_id=None, user_id=None) -> int:
    """Return a person's balance at a table: the running balance of their last entry."""
    last = (
        ExperienceEntry.objects.filter(
            table_id=table_id if table is None else table.pk,
            person_id=user_id if user is None else user.pk,
        )
        .order_by("-id")
        .values_list("balance_after", flat=True)
        .first()
    )
    return last or 0


def signoffs_for(*, session_ids) -> dict[int, SessionSignoff]:
    return {
        signoff.session_id: signoff
        for signoff in SessionSignoff.objects.filter(session_id__in=list(session_ids))
    }


def session_sheet(*, session: GameSession) -> dict:
    """Return the session sheet: per person (players in order, then the GM) the entries
    written on this session, what they add up to and the balance after the last of them."""
    entries = list(_ledger_entries().filter(session=session))
    people = [*session_players(session=session), session.table.gm]
    known = {person.pk for person in people}
    for entry in entries:
        if entry.person_id not in known:
            known.add(entry.person_id)
            people.append(entry.person)
    rows = []
    for person in people:
        own = [entry for entry in entries if entry.person_id == person.pk]
        rows.append(
            {
                "person": person,
                "is_gm": person.pk == session.table.gm_id,
                "entries": own,
                "awarded": sum(e.amount for e in own if e.kind == ExperienceEntry.Kind.AWARD),
                "total": sum(e.amount for e in own),
                "balance": own[-1].balance_after if own else None,
            }
        )
    return {
        "rows": rows,
        "signoff": SessionSignoff.objects.filter(session=session).first(),
    }


def record_sheet(*, table: Table, user) -> dict:
    """Return the person's record sheet at the table: every entry, balance, and the GM's
    stamp on each session sheet the entries were written on."""
    entries = ledger_for(table=table, user=user)
    signoffs = signoffs_for(session_ids={e.session_id for e in entries if e.session_id})
    return {
        "entries": entries,
        "balance": entries[-1].balance_after if entries else 0,
        "earned": sum(e.amount for e in entries if e.kind == ExperienceEntry.Kind.AWARD),
        "spent": -sum(e.amount for e in entries if e.kind == ExperienceEntry.Kind.SPEND),
        "signoffs": signoffs,
    }


def character_growth(*, character: Character) -> list[ExperienceEntry]:
    """Return the growth bought for a character, oldest first."""
    return list(
        ExperienceEntry.objects.filter(character=character, kind=ExperienceEntry.Kind.SPEND)
        .select_related("session")
        .order_by("id")
    )


def sheet_sessions(*, table: Table) -> QuerySet[GameSession]:
    """Return the sessions whose sheets take spendings: in after-play or closed."""
    return table.sessions.filter(phase__in=[Phase.AFTER_PLAY, Phase.CLOSED]).order_by(
        "-scheduled_for", "-id"
    )


def experience_balances(*, table: Table) -> list[tuple[str, list[tuple[str, int]]]]:
    """Each member's balance after each session of the table that wrote on the ledger, in
    play order: the data of the experience chart (one line per member)."""
    entries = list(
        ExperienceEntry.objects.filter(table=table, session__isnull=False)
        .select_related("session", "person")
        .order_by("id")
    )
    sessions = sorted(
        {entry.session_id: entry.session for entry in entries}.values(),
        key=lambda session: (session.scheduled_for, session.pk),
    )
    after: dict[tuple[int, int], int] = {}
    for entry in entries:
        # Later entries on the same session's sheet (growth, corrections) overwrite earlier.
        after[(entry.person_id, entry.session_id)] = entry.balance_after
    series = []
    for membership in table_members(table=table):
        person = membership.user
        points, balance = [], 0
        for session in sessions:
            balance = after.get((person.pk, session.pk), balance)
            points.append((f"{session.title} ({session.scheduled_for:%Y-%m-%d})", balance))
        if any(value for _label, value in points):
            series.append((person.get_username(), points))
    return series
