"""One Redis connection pool per process for Django's cache, whichever thread asks.

Django keeps a cache object per thread (per request under ASGI, where each request runs on
a thread of its own), and its Redis client builds a new connection pool for each: every
request connected to Redis anew. The cache's documented `pool_class` option names this
class, whose `from_url` hands every cache object of the process the same pool.
"""

from __future__ import annotations

import os
import threading

import redis

_pools: dict[tuple, redis.ConnectionPool] = {}
_pools_lock = threading.Lock()

# Django adds a fresh driver-info object for every client it builds: it says who is
# connecting, not where, so it does not tell two pools apart.
_IDENTITY_OPTIONS = {"driver_info", "lib_name", "lib_version"}


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **kwargs) -> redis.ConnectionPool:
        key = (
            os.getpid(),
            url,
            tuple(
                sorted(
                    (name, repr(value))
                    for name, value in kwargs.items()
                    if name not in _IDENTITY_OPTIONS
                )
            ),
        )
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **kwargs)
            return pool
