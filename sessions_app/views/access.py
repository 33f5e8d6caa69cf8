"""The views' side of access: whatever is looked up by its id for an outsider is not there.

A page or a partial asked for by someone who is not a member answers 404, so an outsider
cannot even learn that a session or table exists. The questions themselves are
selectors/access.py's, which knows nothing of HTTP.
"""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.views.decorators.http import require_http_methods

from ..selectors.access import is_gm, member_session, member_table
from ..selectors.tables import membership_get


def member_view(*methods: str, gm: bool = False, refusal: str = ""):
    """A view for the members of the session or table its URL names (`session_id` or
    `table_id`), called as `view(request, session_or_table, membership, **other_url_ids)`.

    The checks run in this order: signed in (else the login page), one of `methods` if any
    are given (else 405), a member (else 404), and with `gm=True` the table's GM (else 403,
    `refusal` saying why).
    """

    def decorate(view):
        @functools.wraps(view)
        def resolved(request, **url_ids):
            if "session_id" in url_ids:
                place, membership = member_session_or_404(
                    user=request.user, session_id=url_ids.pop("session_id")
                )
            else:
                place, membership = member_table_or_404(
                    user=request.user, table_id=url_ids.pop("table_id")
                )
            if gm and not is_gm(membership):
                raise PermissionDenied(refusal)
            return view(request, place, membership, **url_ids)

        if methods:
            resolved = require_http_methods(list(methods))(resolved)
        return login_required(resolved)

    return decorate


def member_session_or_404(*, user, session_id: int) -> tuple:
    """Return the session and the user's membership of its table; 404 for anyone else."""
    found = member_session(user=user, session_id=session_id)
    if found is None:
        raise Http404
    return found


def member_table_or_404(*, user, table_id: int) -> tuple:
    """Return the table (with its GM) and the user's membership of it; 404 for anyone else."""
    found = member_table(user=user, table_id=table_id)
    if found is None:
        raise Http404
    return found


def membership_or_404(*, user, table_id: int):
    """Return the user's membership of a table the caller already has; 404 for anyone else."""
    membership = membership_get(user=user, table_id=table_id)
    if membership is None:
        raise Http404
    return membership
