"""Who someone is at a table: the one place services, views, the consumer and the games
ask whether someone is a member, the GM or a player.

One rule for outsiders. Whatever is looked up by its id on their behalf (a page, a partial,
the room's socket) is not there for them: `member_session` and `member_table` find nothing,
the views answer 404 (views/access.py) and the socket closes, so an outsider cannot even
learn that a session or table exists. Services refuse with PermissionDenied and say who may
(services/access.py).
"""

from __future__ import annotations

from django.db.models import Exists, Q

from ..models import GameSession, GuestAccount, Membership, Table
from .tables import membership_get


def guest_table_id(user) -> int | None:
    """The one table a guest account belongs to; None for everyone else."""
    if user is None or not user.is_authenticated:
        return None
    return GuestAccount.objects.filter(user_id=user.pk).values_list("table_id", flat=True).first()


def is_gm(membership: Membership | None) -> bool:
    """Whether a membership (or its absence) is the table's GM."""
    return membership is not None and membership.role == Membership.Role.GM


def is_player(membership: Membership | None) -> bool:
    """Whether a membership (or its absence) is one of the table's players (not the GM)."""
    return membership is not None and membership.role == Membership.Role.PLAYER


def is_member(*, user, table_id: int) -> bool:
    """Whether the user belongs to the table (anonymous users never do)."""
    return membership_get(user=user, table_id=table_id) is not None


def member_exists(*, user, table_id) -> Exists:
    """The same question as `is_member`, asked inside another query: `table_id` may be an
    OuterRef, so a locked read can carry the check instead of a statement of its own."""
    return Exists(
        Membership.objects.filter(table_id=table_id, user_id=user.pk).filter(
            Q(user__guest_account__isnull=True) | Q(user__guest_account__table_id=table_id)
        )
    )


def member_session(*, user, session_id: int) -> tuple[GameSession, Membership] | None:
    """Return the session and the user's membership of its table, or None for anyone who is
    not a member; a session that does not exist looks the same."""
    try:
        session = GameSession.objects.select_related("table", "rules_profile").get(pk=session_id)
    except GameSession.DoesNotExist:
        return None
    membership = membership_get(user=user, table_id=session.table_id)
    if membership is None:
        return None
    return session, membership


def member_table(*, user, table_id: int) -> tuple[Table, Membership] | None:
    """Return the table (with its GM) and the user's membership of it, or None for anyone
    who is not a member; a table that does not exist looks the same."""
    try:
        table = Table.objects.select_related("gm").get(pk=table_id)
    except Table.DoesNotExist:
        return None
    membership = membership_get(user=user, table_id=table.pk)
    if membership is None:
        return None
    return table, membership
