"""Who may act at a table: the one place services and views ask for a member or its GM."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ..models import Membership
from ..selectors.tables import membership_get


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


def is_gm(membership: Membership | None) -> bool:
    """Whether a membership (or its absence) is the table's GM."""
    return membership is not None and membership.role == Membership.Role.GM
