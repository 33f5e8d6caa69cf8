"""Clients the tests talk to the app through: a signed-in test client, and the room
websocket's session cookie and frames."""

import asyncio

from asgiref.sync import sync_to_async
from django.test import Client

from tests.live_server import cookie_for


def signed_in_client(user) -> Client:
    """A test client of its own, signed in as `user`."""
    client = Client()
    client.force_login(user)
    return client


# The Cookie header of a websocket's handshake, signed in as a user (from async tests).
session_cookie = sync_to_async(cookie_for)


async def socket_frames(communicator, *, timeout=0.5) -> list[str]:
    """Collect every text frame that arrives before the socket stays quiet for `timeout`:
    for a test that counts what arrives over a while. A test that waits for a frame a sync
    or an event always sends waits for it with frames_until, below."""
    # The same window on Redis as in memory: the missing frames that once made it three times
    # as long on Redis were other workers' cache.clear() emptying this worker's channel
    # groups (FLUSHDB), fixed by cache_cleared() below, not frames slow on their way.
    # receive_output() cancels the application when it times out; receive_nothing() does not.
    frames = []
    while not await communicator.receive_nothing(timeout=timeout):
        output = await communicator.receive_output()
        if output["type"] == "websocket.send":
            frames.append(output["text"])
        elif output["type"] == "websocket.close":
            frames.append(f"<closed {output.get('code')}>")
            return frames
    return frames


# How long a frame a test waits for may take: on a loaded machine, through Redis, a long
# catch-up can pause for seconds. Only a test that fails ever waits this long.
FRAME_DEADLINE = 30.0
# The frame that ends a member's sync: the board list, always the last it sends.
SYNCED = 'id="matches"'
# The frame that ends a spectator's catch-up: the panels, sent after the missed lines.
CAUGHT_UP = "data-live-panel"


async def frames_until(communicator, *markers: str, deadline=FRAME_DEADLINE) -> list[str]:
    """Collect text frames until each of `markers` has been in one of them, and return them
    as soon as the last arrives: no quiet window. The markers may come in any order (through
    Redis, the messages of one change can). A close ends the wait as "<closed CODE>" (a
    marker may name it); a marker missing when the socket closes or `deadline` passes fails
    the test."""
    frames: list[str] = []
    missing = list(markers)
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline
    while missing:
        # Waiting on the queue itself: receive_output() would cancel the application when
        # it times out.
        if communicator.future.done():
            communicator.future.result()
        try:
            async with asyncio.timeout(max(until - loop.time(), 0)):
                output = await communicator.output_queue.get()
        except TimeoutError:
            break
        if output["type"] == "websocket.send":
            frames.append(output.get("text") or "")
        elif output["type"] == "websocket.close":
            frames.append(f"<closed {output.get('code')}>")
        else:
            continue
        missing = [marker for marker in missing if marker not in frames[-1]]
        if output["type"] == "websocket.close":
            break
    if missing:
        received = "\n".join(frame[:300] for frame in frames)
        raise AssertionError(f"No frame held {missing!r}; the socket sent:\n{received}")
    return frames


async def until_synced(communicator, *, deadline=FRAME_DEADLINE) -> list[str]:
    """Every frame of a member's sync, up to the board list that always ends it."""
    return await frames_until(communicator, SYNCED, deadline=deadline)


# A public line to post after the change under test, as the barrier of frames_before.
LINE_AFTER = "The lamps are lit"


async def frames_before(communicator, barrier: str, *markers: str, deadline=FRAME_DEADLINE):
    """The frames that came before the one holding `barrier` (such as LINE_AFTER, posted
    after the change under test). A socket forwards what its channel brings in order, so
    everything the change sent it has come by then: what is not among these frames never
    came. `markers` are waited for too: a test asserts they came before the barrier."""
    frames = await frames_until(communicator, *markers, barrier, deadline=deadline)
    return frames[: next(n for n, frame in enumerate(frames) if barrier in frame)]


def without_presence(frames: list[str]) -> list[str]:
    """The frames less the room's presence updates: coalesced over PRESENCE_DELAY, the
    update of a join may come at any time after it (or not at all, when the socket had not
    synced yet)."""
    return [frame for frame in frames if 'id="presence"' not in frame]


async def sockets_in_room(
    session_id: int, *, besides=frozenset(), synced=True, deadline=FRAME_DEADLINE
) -> list:
    """This process's sockets in the room that are not in `besides`, once there is one and
    each has joined its groups (and, when `synced`, taken its place in the timeline): for
    a socket whose sync sends no frame to wait for (a match page's, a spectator's of an
    empty session)."""
    from sessions_app.live import roster

    loop = asyncio.get_running_loop()
    until = loop.time() + deadline
    while True:
        sockets = [socket for socket in roster.local_sockets(session_id) if socket not in besides]
        if sockets and (not synced or all(socket.cursor is not None for socket in sockets)):
            return sockets
        if loop.time() > until:
            raise AssertionError(f"No socket {'synced' if synced else 'joined'} in the room")
        await asyncio.sleep(0.01)


def cache_cleared() -> None:
    """Empty this test run's cache (the sign-up and guest-join limits count in it).

    On Redis, cache.clear() is FLUSHDB: it would also empty the cache and the channel groups
    of every other parallel test worker, whose rooms then hear nothing. Only the keys under
    this run's prefix go.
    """
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(match=cache.make_key("*")))
    if keys:
        client.delete(*keys)
