"""Real-browser tests: Playwright driving Debian's Chromium against a live daphne process."""

import os
import shutil

import pytest

from tests.live_server import DaphneServer, shipped_rules_profiles

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

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


@pytest.fixture
def live_server_url(transactional_db):
    shipped_rules_profiles()
    server = DaphneServer()
    try:
        yield server.url
    finally:
        server.stop()


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
