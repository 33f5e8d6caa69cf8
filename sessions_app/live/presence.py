"""The room's presence list, sent when someone comes or goes.

Presence changes arrive in storms (a hundred pages reconnecting at once), so they are
coalesced: at most one presence update per room and process every PRESENCE_DELAY seconds.
The same change tells this process's roster to read who is present anew.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from channels.db import database_sync_to_async

from . import roster
from .render import presence_messages
from .transport import send_all_async

logger = logging.getLogger(__name__)

PRESENCE_DELAY = 0.5
# Presence updates carry their process: one from another process tells this one's roster
# that the room changed, where this process's own change was already noted.
PROCESS = uuid.uuid4().hex

_presence_due: dict[int, asyncio.Task] = {}


def presence_heard(session_id: int, message: dict) -> None:
    """A socket here heard a room's presence update: someone came or went, perhaps in
    another process, and the roster reads who is present anew."""
    if message.get("origin") != PROCESS:
        roster.presence_changed(session_id)


def presence_soon(session_id: int) -> None:
    """Send the room's presence list shortly, once for every change until then."""
    roster.presence_changed(session_id)
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
        messages = await database_sync_to_async(presence_messages)(session_id=session_id)
        await send_all_async(
            [(group, {**message, "origin": PROCESS}) for group, message in messages]
        )
    except Exception:
        logger.exception("The presence update of session %s failed", session_id)
