"""Reads of the experience ledger, balances, record and session sheets."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import (
    Character,
    ExperienceEntry,
    GameSession,
    Phase,
    SessionSignoff,
    Table,
)
from .scenes import session_players
from .tables import table_members


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
