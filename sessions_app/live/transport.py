"""The one module that touches the channel layer: send finished messages to groups.

A send that fails is logged, not raised: what it announces has committed, and every socket
notices the gap (with the next event, or when the room goes quiet) and reads it.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

Message = tuple[str, dict]

_PENDING_SENDS: set[asyncio.Task] = set()
SEND_TIMEOUT = 2.0


async def send_all_async(messages: list[Message]) -> None:
    """Send each (group, message) at once from inside the event loop; failures are logged.

    A channel layer that hangs (Redis stalled rather than down) must not hold whoever sent:
    each send gives up after SEND_TIMEOUT, and the sockets catch up by sequence number.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    results = await asyncio.gather(
        *(
            asyncio.wait_for(layer.group_send(group, message), timeout=SEND_TIMEOUT)
            for group, message in messages
        ),
        return_exceptions=True,
    )
    for result in results:
        if isinstance(result, BaseException):
            logger.warning("Broadcast to the room failed: %r", result)


def send_all(messages: list[Message]) -> None:
    """Send each (group, message) through the channel layer, all at once, from anywhere."""
    if not messages:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        # A view or a consumer's database work, in a worker thread of the server: the sends
        # run on the server's event loop while this thread waits, as Channels documents.
        try:
            async_to_sync(send_all_async)(messages)
        except Exception as error:
            logger.warning("Broadcast to the room failed: %r", error)
        return
    # A caller already inside an event loop (a script, a test driving a browser) cannot
    # block on it.
    task = loop.create_task(send_all_async(messages))
    _PENDING_SENDS.add(task)
    task.add_done_callback(_PENDING_SENDS.discard)


def broadcast(group: str, message: dict) -> None:
    """Send one message to one group (see send_all)."""
    send_all([(group, message)])
