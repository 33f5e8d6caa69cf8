"""Limits on how often one client may do something costly (make accounts), kept in the cache.

A fixed window per client and action: simple, shared by every server process when the
cache is Redis, and forgiving (a restart of a local-memory cache only resets the counts).
Only what succeeded counts, so a name that was taken does not use up a try.
"""

from __future__ import annotations

from django.core.cache import cache

WINDOW_SECONDS = 3600


def _key(action: str, client: str) -> str:
    return f"rate:{action}:{client}"


def rate_limit_reached(*, action: str, client: str, limit: int) -> bool:
    """Whether `client` already did `action` `limit` times in the current window."""
    return (cache.get(_key(action, client)) or 0) >= limit


def rate_limit_count(*, action: str, client: str) -> None:
    """Count one more `action` by `client` in the current window."""
    key = _key(action, client)
    # add() is atomic: the first one in a window sets the count and its expiry together.
    if cache.add(key, 1, timeout=WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:
        # Expired between add() and incr(): this one opens a new window.
        cache.add(key, 1, timeout=WINDOW_SECONDS)
