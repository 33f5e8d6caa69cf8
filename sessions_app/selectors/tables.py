"""Reads about tables: memberships, members, rules profiles, characters."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from ..models import (
    Character,
    GameSession,
    Invite,
    Membership,
    Phase,
    RulesProfile,
    Table,
    TableBar,
)


def membership_get(*, user, table_id: int) -> Membership | None:
    """Return the user's membership of the table, or None (anonymous users have none)."""
    if user is None or not user.is_authenticated:
        return None
    # get() rather than first(): one row at most, and no ORDER BY to compile and run.
    # A guest account counts at its own table only, whatever other membership it holds.
    try:
        return Membership.objects.filter(
            Q(user__guest_account__isnull=True) | Q(user__guest_account__table_id=table_id)
        ).get(user=user, table_id=table_id)
    except Membership.DoesNotExist:
        return None


def table_open_session_ids(*, table_id: int) -> list[int]:
    """The table's sessions not yet closed: the rooms a GM may be sitting in."""
    return list(
        GameSession.objects.filter(table_id=table_id)
        .exclude(phase=Phase.CLOSED)
        .values_list("pk", flat=True)
    )


def tables_for_user(*, user) -> QuerySet[Table]:
    # A guest account lists its own table only, like every other check of membership.
    return (
        Table.objects.filter(
            Q(memberships__user__guest_account__isnull=True)
            | Q(memberships__user__guest_account__table_id=F("pk")),
            memberships__user=user,
        )
        .select_related("gm")
        .distinct()
    )


def table_members(*, table: Table) -> QuerySet[Membership]:
    return table.memberships.select_related("user").order_by("role", "joined_at", "id")


def table_bars(*, table: Table) -> QuerySet[TableBar]:
    """The accounts removed from the table that its invites keep out."""
    return TableBar.objects.filter(table=table).select_related("user").order_by("barred_at", "id")


def open_invites(*, table: Table) -> QuerySet[Invite]:
    """The table's invite links someone could still join with, newest first."""
    return table.invites.filter(revoked=False, expires_at__gt=timezone.now())


def rules_profiles_for_table(*, table: Table) -> QuerySet[RulesProfile]:
    return RulesProfile.objects.filter(Q(table__isnull=True) | Q(table=table))


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


def character_with_table(*, character_id: int) -> Character | None:
    """The character with its table and owner, or None."""
    return Character.objects.select_related("table", "owner").filter(pk=character_id).first()
