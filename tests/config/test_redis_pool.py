"""Django's Redis cache reuses one connection pool per process, whichever thread asks."""

import threading

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

pytestmark = pytest.mark.multiprocess

THREADS = 20


@pytest.fixture
def redis_cache():
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL=redis://…); CI runs it there")
    return redis.Redis.from_url(settings.REDIS_URL)


def test_cache_of_every_thread_shares_one_connection_pool(redis_cache, monkeypatch):
    # Connections are counted as this process opens them, not as the server receives them:
    # parallel test workers connect to the same server meanwhile.
    opened = []
    connect = redis.connection.Connection._connect

    def counted_connect(connection):
        opened.append(connection)
        return connect(connection)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counted_connect)

    # A request under ASGI runs on a thread of its own, with a cache object of its own.
    def request_like_use(slot: int) -> None:
        caches["default"].set(f"pool-test-{slot}", slot, 30)
        assert caches["default"].get(f"pool-test-{slot}") == slot
        caches["default"].close()

    for slot in range(THREADS):
        thread = threading.Thread(target=request_like_use, args=(slot,))
        thread.start()
        thread.join()

    # One or two for the shared pool; a pool per thread would have opened one per thread.
    assert len(opened) <= 2
