"""Spectators (観戦): the GM lets anyone holding the table's link follow its rooms, read-only.

A spectator has no account and is never a member: the link's token is the only key, checked
on every request and every websocket message. Turning spectating off or renewing the token
closes every open spectator socket of the table at once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import SpectatorPresence, Table
from ..models.tables import _new_invite_token
from .access import require_gm
from .signals import send_on_commit, spectating_closed


def _close_spectators(table: Table) -> None:
    send_on_commit(spectating_closed, table_id=table.pk)


def spectators_allow(*, table: Table, by, allowed: bool) -> Table:
    """Let spectators follow the table's rooms through its link, or stop them (GM only)."""
    require_gm(
        user=by, table_id=table.pk, message=_("Only the table's GM can change who may watch.")
    )
    with transaction.atomic():
        table.spectators_allowed = bool(allowed)
        table.save(update_fields=["spectators_allowed"])
        if not allowed:
            _close_spectators(table)
    return table


def spectator_token_renew(*, table: Table, by) -> Table:
    """Give the table a new spectator link; the old one stops working at once (GM only)."""
    require_gm(
        user=by, table_id=table.pk, message=_("Only the table's GM can change who may watch.")
    )
    with transaction.atomic():
        table.spectator_token = _new_invite_token()
        table.save(update_fields=["spectator_token"])
        _close_spectators(table)
    return table


def spectator_enter(*, session_id: int, channel_name: str, language: str, time_zone: str) -> None:
    """Record an open spectator socket and the language and zone its page is in."""
    SpectatorPresence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"session_id": session_id, "language": language, "time_zone": time_zone},
    )


def spectator_seen(*, channel_name: str) -> None:
    """Note that a spectator socket is still alive (its page pings every minute)."""
    SpectatorPresence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def spectator_leave(*, channel_name: str) -> None:
    """Forget a closed spectator socket."""
    SpectatorPresence.objects.filter(channel_name=channel_name).delete()
