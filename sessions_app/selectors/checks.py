"""Reads of the checks waiting for someone."""

from __future__ import annotations

from ..models import (
    CheckRequest,
)


def pending_checks_for(*, session_id: int, user, is_gm: bool) -> list[tuple[CheckRequest, str]]:
    """Return the open checks this user should see, each with how: "roll" or "watch".

    A character's owner rolls its pending checks; the GM also watches everyone else's
    (and may cancel them). Players never see other players' secret requests here.
    """
    open_statuses = [CheckRequest.Status.PENDING, CheckRequest.Status.WAITING]
    requests = (
        CheckRequest.objects.filter(session_id=session_id, status__in=open_statuses)
        .select_related("character", "contest")
        .order_by("created_at", "id")
    )
    items = []
    for request in requests:
        owns = request.character.owner_id == user.pk
        if owns and request.status == CheckRequest.Status.PENDING:
            items.append((request, "roll"))
        elif is_gm:
            items.append((request, "watch"))
    return items
