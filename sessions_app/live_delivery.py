"""Delivery of the room's live updates: what commits is rendered once per audience and sent.

The services announce what committed; the presenters render it; this module sends the
result through the channel layer. Presence changes arrive in storms (a hundred pages
reconnecting at once), so they are coalesced: at most one presence update per room and
process every PRESENCE_DELAY seconds.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out

from .presenters import live
from .services.timeline import announcers_set, send_all, send_all_async

logger = logging.getLogger(__name__)

PRESENCE_DELAY = 0.5


def announce_event(*, event_id: int) -> None:
    send_all(live.event_messages(event_id=event_id))


def announce_board(*, session_id: int, board_id: int) -> None:
    send_all(live.board_messages(session_id=session_id, board_id=board_id))


_presence_due: dict[int, asyncio.Task] = {}


def presence_soon(session_id: int) -> None:
    """Send the room's presence list shortly, once for every change until then."""
    if session_id in _presence_due:
        return
    task = asyncio.get_running_loop().create_task(_presence_later(session_id))
    _presence_due[session_id] = task


async def _presence_later(session_id: int) -> None:
    try:
        await asyncio.sleep(PRESENCE_DELAY)
    finally:
        # A change from now on needs a list read after it: it schedules the next one.
        _presence_due.pop(session_id, None)
    try:
        messages = await database_sync_to_async(live.presence_messages)(session_id=session_id)
        await send_all_async(get_channel_layer(), messages)
    except Exception:
        logger.exception("The presence update of session %s failed", session_id)


def close_signed_out_sockets(sender, request, user, **kwargs) -> None:
    """Signing out ends the user's rooms at once, in every tab and process."""
    if user is not None:
        send_all([(live.user_sockets_group(user.pk), {"type": "user.signed_out"})])


def register() -> None:
    announcers_set(event=announce_event, board=announce_board)
    user_logged_out.connect(close_signed_out_sockets, dispatch_uid="close_signed_out_sockets")
