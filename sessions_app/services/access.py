"""Refusals for services handed an object: `require_member`, `require_gm` and
`require_not_guest` raise PermissionDenied and say who may. The questions they ask (is this
a member, the GM, a guest?) are selectors/access.py's.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ..models import Membership
from ..selectors.access import guest_table_id, is_gm, is_member
from ..selectors.tables import membership_get

# The games still import is_gm and is_member from here.
__all__ = ["is_gm", "is_member", "require_gm", "require_member", "require_not_guest"]


def require_not_guest(*, user, message: str | None = None) -> None:
    """Refuse a guest account: it is a player at its one table and nothing anywhere else."""
    if guest_table_id(user) is not None:
        raise PermissionDenied(
            message or _("A guest account plays at its own table only. Set a password first.")
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
