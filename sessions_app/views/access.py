"""The views' side of access: whatever is looked up by its id for an outsider is not there.

A page or a partial asked for by someone who is not a member answers 404, so an outsider
cannot even learn that a session or table exists. The predicates themselves live in
services/access.py, which knows nothing of HTTP.
"""

from __future__ import annotations

from django.http import Http404

from ..models import GameSession, Membership, Table
from ..selectors.tables import membership_get
from ..services.access import member_session


def member_session_or_404(*, user, session_id: int) -> tuple[GameSession, Membership]:
    """Return the session and the user's membership of its table; 404 for anyone else."""
    found = member_session(user=user, session_id=session_id)
    if found is None:
        raise Http404
    return found


def member_table_or_404(*, user, table_id: int) -> tuple[Table, Membership]:
    """Return the table (with its GM) and the user's membership of it; 404 for anyone else."""
    try:
        table = Table.objects.select_related("gm").get(pk=table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    return table, membership_or_404(user=user, table_id=table.pk)


def membership_or_404(*, user, table_id: int) -> Membership:
    """Return the user's membership of a table the caller already has; 404 for anyone else."""
    membership = membership_get(user=user, table_id=table_id)
    if membership is None:
        raise Http404
    return membership
