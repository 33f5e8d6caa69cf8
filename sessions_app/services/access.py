"""Who may act at a table: the one place the services ask for a member or its GM."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ..models import Membership
from ..selectors.tables import membership_get


def require_member(table_id: int, user, message: str | None = None) -> Membership:
    """Return the user's membership of the table, or refuse with `message`."""
    membership = membership_get(user=user, table_id=table_id)
    if membership is None:
        raise PermissionDenied(message or _("Only members of this table can do that."))
    return membership


def require_gm(table_id: int, user, message: str | None = None) -> Membership:
    """Return the GM's membership of the table, or refuse with `message`."""
    membership = membership_get(user=user, table_id=table_id)
    if membership is None or membership.role != Membership.Role.GM:
        raise PermissionDenied(message or _("Only the GM can do that."))
    return membership
