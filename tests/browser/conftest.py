"""Real-browser tests: Playwright driving Debian's Chromium against a live daphne process."""

import os
import shutil
import time

import pytest

from sessions_app.services.scenes import scene_start
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    cast_member,
    friday_session,
    friday_table,
    main_play_start,
)
from tests.live_server import DaphneServer, shipped_rules_profiles

# Debian's headless build of Chromium when it is installed (CI installs it): the same engine
# as /usr/bin/chromium without the desktop browser around it, which is what Playwright's own
# headless runs use, at about three quarters of the time per test. Else Debian's Chromium.
CHROMIUM = (
    shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
)

# Playwright's sync API runs an event loop in this thread; the ORM calls the fixtures make
# (test data, flushing the database) are plain sync calls all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            "Chromium is missing: install it with 'apt-get install -y chromium'.", pytrace=False
        )
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


CONSOLE_ERRORS = pytest.StashKey[list]()


@pytest.fixture(autouse=True)
def console_errors(request):
    """Collect every console error and uncaught exception of every page the test opens.

    A CSP violation, an htmx error event (it logs with console.error) and a script that throws
    all land here; the test fails on any of them (see pytest_runtest_call below). Each browser
    context a test makes is watched from its creation, so no page slips through.
    """
    found: list[str] = []
    request.node.stash[CONSOLE_ERRORS] = found
    if "browser" not in request.fixturenames:
        yield found
        return
    browser = request.getfixturevalue("browser")
    original = browser.new_context

    def watched_context(*args, **kwargs):
        context = original(*args, **kwargs)

        def on_console(message):
            # A form refused with its message comes back as 400 Bad Request, which the
            # browser logs as a failed load: the refusal is the app's answer, not an error.
            if message.type == "error" and "status of 400 (Bad Request)" not in message.text:
                where = message.page.url if message.page else "?"
                found.append(f"console error on {where}: {message.text}")

        def on_page_error(error):
            where = error.page.url if error.page else "?"
            found.append(f"uncaught error on {where}: {error.error}")

        context.on("console", on_console)
        context.on("weberror", on_page_error)
        return context

    browser.new_context = watched_context
    try:
        yield found
    finally:
        del browser.new_context


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    # Checked when the test body ends, before its fixtures stop the server: the sockets a
    # stopping server drops are not the page's fault.
    result = yield
    found = item.stash.get(CONSOLE_ERRORS, [])
    if found:
        pytest.fail(
            "The browser reported errors:\n" + "\n".join(dict.fromkeys(found)), pytrace=False
        )
    return result


@pytest.fixture(scope="session")
def live_media_root(tmp_path_factory):
    """The uploads folder of this worker's shared server (see `live_server_url`)."""
    return tmp_path_factory.mktemp("live-media")


@pytest.fixture(autouse=True)
def _media_in_temporary_folder(settings, live_media_root):
    # The shared server took its MEDIA_ROOT from the environment when it started: the test
    # keeps its pictures in that folder too, and empties it when it ends, so that no test
    # sees another's files.
    settings.MEDIA_ROOT = str(live_media_root)
    yield
    for entry in live_media_root.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


@pytest.fixture(scope="session")
def _shared_daphne(django_db_setup, live_media_root):
    """One daphne process per xdist worker, on the worker's test database, started by its
    first browser test: starting one per test (and warming its caches anew) cost about three
    seconds a test on two cores."""
    servers: list[DaphneServer] = []

    def running() -> DaphneServer:
        # A test that brought the server down must not take every later test with it.
        if servers and servers[-1].process.poll() is not None:
            servers.pop().stop()
        if not servers:
            servers.append(DaphneServer(extra_env={"MEDIA_ROOT": str(live_media_root)}))
        return servers[-1]

    yield running
    for server in servers:
        server.stop()


@pytest.fixture
def live_server_url(request, transactional_db, _shared_daphne):
    """The worker's shared daphne process, on this test's data.

    Between tests, transactional_db empties the database (ids are not reused: neither
    SQLite's AUTOINCREMENT nor PostgreSQL's sequences start again), and every browser context
    the test made is closed first, so that no page of one test keeps a socket or a request
    going into the next one's data. What the server keeps in its own memory is keyed by
    those ids (rooms, groups) or by random keys (sessions, channels).
    """
    server = _shared_daphne()
    shipped_rules_profiles()
    yield server.url
    # Before the flush (transactional_db's teardown, which comes after this one).
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
    _server_settled()


def _server_settled(timeout: float = 10.0) -> None:
    """Wait until the shared server has finished with this test's data: the closed pages'
    sockets forgotten (their presence rows deleted) and, on PostgreSQL, no statement or
    transaction of its own still open. A request a test's last click started, or a socket's
    goodbye, still writing beside the flush's TRUNCATE deadlocked with it on PostgreSQL.
    Past the timeout the flush goes ahead: a server that never settles fails its own way."""
    from django.db import connection

    from sessions_app.models import Presence, SpectatorPresence

    deadline = time.monotonic() + timeout
    quiet_polls = 0
    while time.monotonic() < deadline:
        busy = Presence.objects.exists() or SpectatorPresence.objects.exists()
        if not busy and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                    " AND state <> 'idle'"
                )
                busy = cursor.fetchone()[0] > 0
        # Twice quiet in a row: a socket's goodbye may start just after a first look.
        quiet_polls = 0 if busy else quiet_polls + 1
        if quiet_polls >= 2:
            return
        time.sleep(0.05)


@pytest.fixture
def csp_violations():
    """Collect console messages that report a Content Security Policy violation."""
    found: list[str] = []

    def watch(page):
        page.on(
            "console",
            lambda message: (
                found.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    watch.found = found
    return watch


@pytest.fixture
def aki_in_a_scene(live_server_url):
    """Aki, a player's PC, is the scene player of a scene running in the opening."""
    table, gm, (aki,) = friday_table("aki")
    session = GameSessionFactory(table=table, title="The Akashic Library")
    character = cast_member(session, aki, name="Aki", slot=1)
    main_play_start(session, gm)
    scene_start(
        session=session,
        by=gm,
        scene_player=character,
        place="The inn",
        purpose="To meet the contact",
    )
    return live_server_url, session, character


@pytest.fixture
def aki_and_ren_at_the_table(live_server_url):
    """A session whose two players' characters take part: Aki (Strength 2, Reflexes 4) and
    Ren (Strength 5, Reflexes 3)."""
    session, gm, (aki, ren) = friday_session("aki", "ren")
    for owner, name, values in [
        (aki, "Aki", {"Strength": 2, "Reflexes": 4}),
        (ren, "Ren", {"Strength": 5, "Reflexes": 3}),
    ]:
        session.characters.add(
            CharacterFactory(table=session.table, owner=owner, name=name, judgement_values=values)
        )
    return live_server_url, session
