"""Shared fixtures: the personas gm / player / outsider, a table and a session."""

import os

import pytest

# Hashing passwords at full strength would dominate the run; live servers started by the
# tests inherit this through the environment.
os.environ.setdefault("PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher")

from tests.factories import (
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
    friday_table,
)


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _media_in_temporary_folder(settings, tmp_path):
    # Uploaded pictures go to a folder of the test's own: no test leaves files behind.
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    # Each async test runs in its own event loop; a Redis layer kept from an earlier test
    # holds locks bound to a closed loop.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    # A request through the test client activates its reader's language on the test's own
    # thread and leaves it there: a later test would read Japanese where it expects English.
    from django.utils import translation

    yield
    translation.deactivate()


def pytest_collection_modifyitems(config, items):
    # Playwright's sync API leaves an event loop in the main thread, which breaks the sync
    # ORM and pytest-asyncio afterwards: whatever else runs, browser tests run last.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    # Several processes share a room only through PostgreSQL and Redis: on the embedded
    # default those tests are not collected (CI's second run, on PostgreSQL and Redis, has
    # them all), rather than reported as skipped.
    from django.conf import settings

    if not settings.REDIS_URL:
        chosen = [item for item in items if item.get_closest_marker("multiprocess") is None]
        deselected = [item for item in items if item.get_closest_marker("multiprocess")]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = chosen


@pytest.fixture
def gm(db):
    return UserFactory(username="gm")


@pytest.fixture
def player(db):
    return UserFactory(username="player")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def table(gm):
    return TableFactory(name="Friday table", gm=gm)


@pytest.fixture
def player_membership(table, player):
    return MembershipFactory(table=table, user=player)


@pytest.fixture
def session(table, player_membership):
    return GameSessionFactory(table=table, title="The Akashic Library")


@pytest.fixture
def redis_url():
    """Redis for the tests on real daphne processes (collected only when REDIS_URL is set)."""
    from django.conf import settings

    from tests.live_server import shipped_rules_profiles

    if not settings.REDIS_URL:
        pytest.fail("needs Redis (REDIS_URL=redis://…): run with PostgreSQL and Redis, as CI does")
    shipped_rules_profiles()
    return settings.REDIS_URL


@pytest.fixture
def redis_room(db):
    """A session of a GM's table with one player, for the tests on real daphne processes."""
    table, gm, (player,) = friday_table("aki")
    return GameSessionFactory(table=table), gm, player
