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
    """Collect every text frame that arrives before the socket stays quiet for `timeout`."""
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


async def socket_frames_until(communicator, marker: str, *, deadline=20.0, quiet=0.5) -> list[str]:
    """Collect text frames until one holds `marker` (waiting up to `deadline` seconds: on a
    loaded machine, through Redis, a frame can take longer than any quiet window), then
    every frame that follows before the socket stays quiet for `quiet`."""
    frames = []
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline
    while not any(marker in frame for frame in frames) and loop.time() < until:
        if await communicator.receive_nothing(timeout=0.1):
            continue
        output = await communicator.receive_output()
        if output["type"] == "websocket.send":
            frames.append(output["text"])
    return frames + await socket_frames(communicator, timeout=quiet)


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
