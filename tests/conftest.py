"""Shared fixtures: the personas gm / player / outsider, a table and a session, a second
player, signed-in clients, and what the tests of more than one folder build on them."""

import os

import pytest

# Hashing passwords at full strength would dominate the run; live servers started by the
# tests inherit this through the environment.
os.environ.setdefault("PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher")

from minigames.services import SeatSpec, match_create
from sessions_app.models import Character, GameSession, Phase
from sessions_app.services.characters import character_create
from sessions_app.services.experience import AwardLine, experience_award_session
from tests.clients import signed_in_client
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    ScenarioFactory,
    TableFactory,
    UserFactory,
    friday_table,
)
from tests.matches import dealt
from tests.sessions_app.log_script import play_scripted_session


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
def second_player(session):
    return MembershipFactory(table=session.table, user=UserFactory(username="ren")).user


@pytest.fixture
def player_client(player):
    return signed_in_client(player)


@pytest.fixture
def table_aki(table, player, player_membership):
    """The player's Aki, made at the table through the character service, in no session."""
    return character_create(table=table, by=player, name="Aki")


@pytest.fixture
def table_npc(table, gm):
    """The GM's Librarian, made at the table through the character service, in no session."""
    return character_create(table=table, by=gm, name="Librarian", kind=Character.Kind.NPC)


@pytest.fixture
def afterplay(session, table, player):
    GameSession.objects.filter(pk=session.pk).update(phase=Phase.AFTER_PLAY)
    session.refresh_from_db()
    # Experience goes to those who played: the player's PC took part.
    session.characters.add(CharacterFactory(table=table, owner=player, name="Played"))
    return session


@pytest.fixture
def awarded(afterplay, gm, player):
    experience_award_session(
        session=afterplay,
        by=gm,
        awards={player.pk: [AwardLine(12, "Goal")], gm.pk: [AwardLine(1, "Ran it")]},
    )
    afterplay.refresh_from_db()
    return afterplay


@pytest.fixture
def played(session, gm, player, second_player):
    """The scripted session of tests/sessions_app/log_script.py, played; the second player
    is at the table but not the whisper's recipient."""
    play_scripted_session(session, gm, player)
    return session


@pytest.fixture
def pcs(session, player, second_player):
    """Aki (the player's) and Ren (the second player's), both taking part in the session."""
    aki = CharacterFactory(table=session.table, owner=player, name="Aki")
    ren = CharacterFactory(table=session.table, owner=second_player, name="Ren")
    session.characters.add(aki, ren)
    return aki, ren


@pytest.fixture
def seat_specs(pcs):
    """Aki and Ren as the seats of a match."""
    return [SeatSpec(character) for character in pcs]


@pytest.fixture
def match(session, gm, seat_specs):
    """The GM's match of Aki and Ren."""
    return dealt(match_create(session=session, by=gm, seats=seat_specs))


@pytest.fixture
def scenario(gm):
    return ScenarioFactory(owner=gm, title="The Akashic Library", player_count=2)


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
