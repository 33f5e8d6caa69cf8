"""Who may act at a table: the one place services, views, the consumer and the games ask
whether someone is a member, the GM or a player.

One rule for outsiders. Whatever is looked up by its id on their behalf (a page, a partial,
the room's socket) is not there for them: `member_session` finds nothing, the views answer
404 (views/access.py) and the socket closes, so an outsider cannot even learn that a
session or table exists. A service handed an object
refuses with PermissionDenied and says who may (`require_member`, `require_gm`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Q
from django.utils.translation import gettext as _

from ..models import GameSession, GuestAccount, Membership
from ..selectors.tables import membership_get


def guest_table_id(user) -> int | None:
    """The one table a guest account belongs to; None for everyone else."""
    if user is None or not user.is_authenticated:
        return None
    return GuestAccount.objects.filter(user_id=user.pk).values_list("table_id", flat=True).first()


def require_not_guest(*, user, message: str | None = None) -> None:
    """Refuse a guest account: it is a player at its one table and nothing anywhere else."""
    if guest_table_id(user) is not None:
        raise PermissionDenied(
            message or _("A guest account plays at its own table only. Set a password first.")
        )


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


def require_member(*, user, table_id: int, message: str | None = None) -> Membership:
    """Return the user's membership of the table, or refuse with `message`."""
    membership = membership_get(user=user, table_id=table_id)
    if membership is None:
        raise PermissionDenied(message or _("Only members of this table can do that."))
    return membership


def require_gm(*, user, table_id: int, message: str | None = None) -> Membership:
    """Return the GM's membership of the table, or refuse with `message`."""
    membership = membership_get(user=user, table_id=table_id)
    if not is_gm(membership):
        raise PermissionDenied(message or _("Only the GM can do that."))
    return membership


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
