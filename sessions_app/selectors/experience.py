"""Reads of the experience ledger, balances, growth requests, record and session sheets.

A person's ledger is kept per game (the rules profile's `game`), not per table: the lines
say which table and session each point came from or went to.
"""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import (
    Character,
    ExperienceEntry,
    GameSession,
    GrowthRequest,
    Membership,
    Phase,
    SessionSignoff,
    Table,
)
from .scenes import session_cast
from .tables import table_members, table_profile


def profile_game(profile) -> str:
    """Return the game a rules profile belongs to (its own name if it derives from none)."""
    return profile.game or profile.name


def table_game(*, table: Table) -> str:
    """Return the game a table plays: where its players spend and its GM corrects."""
    return profile_game(table_profile(table=table))


def _ledger_entries():
    return ExperienceEntry.objects.select_related(
        "table", "session", "character", "corrects", "created_by", "person"
    ).order_by("id")


def ledger_for(*, user, game: str) -> list[ExperienceEntry]:
    """Return every entry of the person's ledger in a game, at any table, oldest first.

    Each entry carries the person's running balance in the game (`balance_after`), written
    under the lock of their account.
    """
    return list(_ledger_entries().filter(person=user, game=game))


def balance_of(*, game: str, user=None, user_id=None) -> int:
    """Return a person's balance in a game: the running balance of their last entry."""
    last = (
        ExperienceEntry.objects.filter(person_id=user_id if user is None else user.pk, game=game)
        .order_by("-id")
        .values_list("balance_after", flat=True)
        .first()
    )
    return last or 0


def pending_cost(*, game: str, user) -> int:
    """Return the points the person's growth requests in a game wait to spend."""
    requests = GrowthRequest.objects.filter(
        person=user, status=GrowthRequest.Status.PENDING
    ).select_related("character__table__rules_profile")
    return sum(request.cost for request in requests if request_game(request=request) == game)


def request_game(*, request: GrowthRequest) -> str:
    return table_game(table=request.character.table)


def growth_requests_to_decide(*, table: Table) -> list[GrowthRequest]:
    """Return the growth waiting for the table's GM, oldest first."""
    return list(
        GrowthRequest.objects.filter(
            character__table=table, status=GrowthRequest.Status.PENDING
        ).select_related("character", "person", "session")
    )


def growth_requests_of(*, table: Table, user) -> list[GrowthRequest]:
    """Return the person's growth requests for their PCs at the table, newest first."""
    return list(
        GrowthRequest.objects.filter(character__table=table, person=user)
        .select_related("character", "session", "decided_by")
        .order_by("-requested_at", "-id")
    )


def award_recipients(*, session: GameSession) -> list:
    """Return who receives experience: the players whose PCs took part in the session, in
    player order, then its GM (the rules give points to those who played and to the GM)."""
    gm_id = session.table.gm_id
    players = []
    for character in session_cast(session=session):
        owner = character.owner
        if character.kind == Character.Kind.PC and owner.pk != gm_id and owner not in players:
            players.append(owner)
    return [*players, session.table.gm]


def signoffs_for(*, session_ids) -> dict[int, SessionSignoff]:
    return {
        signoff.session_id: signoff
        for signoff in SessionSignoff.objects.filter(session_id__in=list(session_ids))
    }


def session_sheet(*, session: GameSession) -> dict:
    """Return the session sheet: per person (players in order, then the GM) the entries
    written on this session, what they add up to and the balance after the last of them."""
    entries = list(_ledger_entries().filter(session=session))
    people = award_recipients(session=session)
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
                "awards": [e for e in own if e.kind == ExperienceEntry.Kind.AWARD],
                "awarded": sum(e.amount for e in own if e.kind == ExperienceEntry.Kind.AWARD),
                "total": sum(e.amount for e in own),
                "balance": own[-1].balance_after if own else None,
            }
        )
    return {
        "rows": rows,
        "signoff": SessionSignoff.objects.filter(session=session).first(),
    }


def record_sheet(*, user, game: str, viewer) -> dict:
    """Return the person's record sheet in a game: every entry at any table, the balance,
    and the GM's stamp on each session sheet the entries were written on.

    An entry written at a table the viewer does not belong to is marked `elsewhere`: the
    page shows its points but not that table's sessions, reasons or characters.
    """
    entries = ledger_for(user=user, game=game)
    viewer_tables = set(Membership.objects.filter(user=viewer).values_list("table_id", flat=True))
    for entry in entries:
        entry.elsewhere = entry.table_id not in viewer_tables
    signoffs = signoffs_for(
        session_ids={e.session_id for e in entries if e.session_id and not e.elsewhere}
    )
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


def growth_request_at(*, table: Table, request_id: int) -> GrowthRequest | None:
    """A growth request for one of the table's characters, with its character and person."""
    return (
        GrowthRequest.objects.select_related("character__table", "person")
        .filter(pk=request_id, character__table=table)
        .first()
    )


def ledger_entries_at(*, table: Table, person) -> QuerySet[ExperienceEntry]:
    """The person's ledger entries written at this table, newest first."""
    return ExperienceEntry.objects.filter(table=table, person=person).order_by("-id")
