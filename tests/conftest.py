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


def _template_paths(config):
    """The lock and the marker the xdist workers of one run share to build the migrated
    test database once, or None outside xdist."""
    import tempfile
    from pathlib import Path

    workerinput = getattr(config, "workerinput", None)
    if workerinput:
        run = workerinput["testrunuid"]
    elif getattr(config.option, "numprocesses", 0):
        run = getattr(config.option, "testrunuid", None)
    else:
        run = None
    if not run:
        return None
    folder = Path(tempfile.gettempdir())
    return folder / f"srs-test-db-{run}.lock", folder / f"srs-test-db-{run}.ready"


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker):
    """The test databases: migrated once per run, then copied for each worker.

    pytest-django runs every migration in every xdist worker (about 7 s of CPU each on
    SQLite, 11 s on PostgreSQL, with 4 + 2 workers per `make test`, each run twice in CI).
    Here the first worker to take the lock runs the real migrations into the test database
    (named in settings.py), and every worker, that one included, then clones it with
    Django's own clone_test_db (what `manage.py test --parallel` does: CREATE DATABASE ...
    TEMPLATE on PostgreSQL, a file copy on SQLite) into a database of its own, named with
    its worker id as before. The template is dropped when the run ends
    (pytest_sessionfinish below). Outside xdist, pytest-django's own way.
    """
    import fcntl

    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    verbosity = request.config.option.verbose
    paths = _template_paths(request.config)
    if paths is None:
        with django_db_blocker.unblock():
            db_cfg = setup_databases(verbosity=verbosity, interactive=False)
        yield
        with django_db_blocker.unblock():
            teardown_databases(db_cfg, verbosity=verbosity)
        return

    lock_path, ready_path = paths
    worker = request.config.workerinput["workerid"]
    original_name = connection.settings_dict["NAME"]
    template_name = connection.settings_dict["TEST"]["NAME"]
    if connection.vendor == "sqlite":
        # Files of this run alone: `make test` runs pytest twice on the same folder, and a
        # write-ahead log a worker of the first run left beside its copy (a connection still
        # open when it ended) would be replayed into the second run's copy of the same name,
        # which SQLite then finds malformed.
        root, ext = os.path.splitext(template_name)
        template_name = f"{root}_{request.config.workerinput['testrunuid'][:12]}{ext}"
        connection.settings_dict["TEST"]["NAME"] = template_name
        settings.DATABASES[connection.alias]["TEST"]["NAME"] = template_name
    with django_db_blocker.unblock(), open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not ready_path.exists():
                # The run's one pass through the real migrations.
                connection.creation.create_test_db(verbosity=verbosity, autoclobber=True)
                ready_path.write_text(template_name)
            else:
                settings.DATABASES[connection.alias]["NAME"] = template_name
                connection.settings_dict["NAME"] = template_name
            # Closed first: SQLite writes its write-ahead log back into the file only when
            # the last connection closes, and the copy must have all of it.
            connection.close()
            connection.creation.clone_test_db(suffix=worker, verbosity=verbosity, autoclobber=True)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
        clone = connection.creation.get_test_db_clone_settings(worker)
        connection.close()
        connection.settings_dict.update(clone)
        settings.DATABASES[connection.alias]["NAME"] = clone["NAME"]
    yield
    with django_db_blocker.unblock():
        try:
            connection.creation.destroy_test_db(original_name, verbosity=verbosity)
        except Exception as error:  # noqa: BLE001 - as pytest-django's own teardown does
            # A connection a test's thread left open keeps the database busy on PostgreSQL:
            # the controller drops what is left (pytest_sessionfinish).
            request.node.warn(pytest.PytestWarning(f"Could not drop the test database: {error}"))


def pytest_configure(config):
    # The controller of an xdist run names the run (xdist hands the name to every worker as
    # workerinput["testrunuid"]): the lock and marker of its template database carry it.
    if getattr(config, "workerinput", None) is None and getattr(config.option, "numprocesses", 0):
        import uuid

        if not getattr(config.option, "testrunuid", None):
            config.option.testrunuid = uuid.uuid4().hex


def pytest_sessionfinish(session):
    # The controller drops the template the workers cloned, once they are all done. Not
    # through Django's connection: pytest-django blocks database access outside tests.
    config = session.config
    if getattr(config, "workerinput", None) is not None:
        return
    paths = _template_paths(config)
    if paths is None or not paths[1].exists():
        return
    lock_path, ready_path = paths
    from django.conf import settings

    database = settings.DATABASES["default"]
    template_name = ready_path.read_text()
    if database["ENGINE"] == "django.db.backends.postgresql":
        import psycopg

        with psycopg.connect(
            dbname="postgres",
            host=database.get("HOST") or None,
            port=database.get("PORT") or None,
            user=database.get("USER") or None,
            password=database.get("PASSWORD") or None,
            autocommit=True,
        ) as admin:
            # And any worker's copy still there (a connection a test left open kept it).
            left = admin.execute(
                "SELECT datname FROM pg_database WHERE datname = %s OR datname LIKE %s",
                [template_name, template_name.replace("_", r"\_") + r"\_gw%"],
            ).fetchall()
            for (name,) in left:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        import contextlib
        import glob

        # The template, the workers' copies, and what a connection a test left open kept
        # of them (a write-ahead log and its index beside a copy already removed).
        root, ext = os.path.splitext(template_name)
        for suffix in ("", "-wal", "-shm"):
            for path in [template_name, *glob.glob(f"{glob.escape(root)}_gw*{ext}")]:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(path + suffix)
            for path in glob.glob(f"{glob.escape(root)}_gw*{ext}{suffix}"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(path)
    ready_path.unlink()
    lock_path.unlink(missing_ok=True)


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
    # Tests on daphne processes of their own (one holds a room quiet for 70 s) are the
    # longest of the run, and so are the long browser walks: they go first, so that none is
    # left running alone at its end while the other xdist workers have finished.
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None,
            item.get_closest_marker("multiprocess") is None,
            item.get_closest_marker("long") is None,
        )
    )
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
