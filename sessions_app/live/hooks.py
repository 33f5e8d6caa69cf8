"""The commit hook: what the services signal after a commit, carried to the open pages.

Each receiver renders once per audience (render.py) and sends through the transport. They
run where the commit happened: in a view's worker thread, or a consumer's database work.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from ..presenters.live import user_sockets_group
from ..selectors.tables import table_open_session_ids
from ..services.signals import (
    board_changed,
    event_committed,
    ledger_changed,
    membership_ended,
    room_panels_changed,
    spectating_closed,
)
from .render import board_messages, event_messages, inbox_messages, panels_messages
from .transport import broadcast, send_all


def spectators_group(*, table_id: int) -> str:
    """The channel group of every open spectator socket of one table."""
    return f"watch.{table_id}"


@receiver(event_committed, dispatch_uid="live_event_committed")
def event_to_the_room(sender, *, event, **kwargs) -> None:
    send_all(event_messages(event=event))


@receiver(board_changed, dispatch_uid="live_board_changed")
def board_to_the_room(sender, *, session_id: int, board_id: int, user_ids=None, **kwargs) -> None:
    user_ids = None if user_ids is None else list(user_ids)
    send_all(board_messages(session_id=session_id, board_id=board_id, user_ids=user_ids))
    send_all(inbox_messages(session_id=session_id, user_ids=user_ids))


@receiver(room_panels_changed, dispatch_uid="live_room_panels_changed")
def panels_to_the_room(sender, *, session_id: int, panels, **kwargs) -> None:
    send_all(panels_messages(session_id=session_id, panels=panels))


def ledger_group(table_id: int) -> str:
    """The channel group of every open experience page of one table."""
    return f"ledger.{table_id}"


@receiver(ledger_changed, dispatch_uid="live_ledger_changed")
def ledger_to_the_pages(sender, *, table_id: int, **kwargs) -> None:
    """Each open experience page of the table renders its own ledger again, and the GMs in
    its rooms their inbox, where growth asked between sessions waits."""
    broadcast(ledger_group(table_id), {"type": "ledger.changed"})
    for session_id in table_open_session_ids(table_id=table_id):
        send_all(inbox_messages(session_id=session_id))


@receiver(membership_ended, dispatch_uid="live_membership_ended")
def close_former_member_sockets(sender, *, table_id: int, user_id: int, **kwargs) -> None:
    """A member removed from the table (or leaving it) is cut off at once: the message goes
    to all the user's sockets, and those open at this table close. (A group per member and
    table would be one more group for every socket, and the in-memory layer's every receive
    walks all of its groups.)"""
    broadcast(user_sockets_group(user_id), {"type": "member.removed", "table_id": table_id})


@receiver(spectating_closed, dispatch_uid="live_spectating_closed")
def close_spectator_sockets(sender, *, table_id: int, **kwargs) -> None:
    broadcast(spectators_group(table_id=table_id), {"type": "watch.closed"})


@receiver(user_logged_out, dispatch_uid="close_signed_out_sockets")
def close_signed_out_sockets(sender, request, user, **kwargs) -> None:
    """Signing out ends the user's rooms at once, in every tab and process."""
    if user is not None:
        broadcast(user_sockets_group(user.pk), {"type": "user.signed_out"})
