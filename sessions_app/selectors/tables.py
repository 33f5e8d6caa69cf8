"""Reads about tables: members, the GM, rules profiles, sheets, a member's session."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from ..models import (
    GameSession,
    Membership,
    RulesProfile,
    Table,
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
