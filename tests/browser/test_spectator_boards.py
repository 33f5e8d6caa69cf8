"""A spectator watches a minigame in a session: the board moves live, and no hand, setup or
plan of either seat ever reaches the spectator's page."""

import pytest
from playwright.sync_api import expect

from sessions_app.services.spectators import spectators_allow
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.browser.test_actual import _prepare, _use, seated_match

pytestmark = pytest.mark.browser


@pytest.fixture
def watched_match(live_server_url):
    session, match = seated_match()
    table = session.table
    spectators_allow(table=table, by=table.gm, allowed=True)
    table.refresh_from_db()
    watch_url = f"{live_server_url}/watch/{table.spectator_token}/sessions/{session.pk}/"
    return live_server_url, session, match, watch_url


def _no_secret(page, match) -> None:
    html = page.content()
    for secret in ('aria-label="Your hand"', 'class="hand"', "setup-form", 'name="version"'):
        assert secret not in html, secret
    expect(page.locator(f"#match-{match.pk} .hand")).to_have_count(0)


def test_spectator_sees_the_board_move_live_and_never_a_hand(
    browser, watched_match, csp_violations
):
    base_url, session, match, watch_url = watched_match
    spectator = csp_violations(
        browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    )
    spectator.goto(watch_url)
    expect(spectator.locator("#connection-status")).to_have_text("Live")
    # At 1280x800 the timeline starts on the first screen.
    expect(spectator.locator("#timeline-heading")).to_be_in_viewport()
    expect(spectator.locator("#timeline-items li").first).to_be_in_viewport()
    board = spectator.locator(f"#match-{match.pk}")
    expect(board).to_be_visible()
    _no_secret(spectator, match)

    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren")
    _prepare(aki, match)
    _prepare(ren, match)
    expect(aki.locator(f"#match-{match.pk}")).to_contain_text("your turn")
    expect(board.locator(".cell[aria-label^='c1: Aki’s piece']")).to_have_count(1)
    _no_secret(spectator, match)

    _use(aki, match, "move", "c1", "Move to c2")
    expect(board.locator(".cell[aria-label^='c2: Aki’s piece']")).to_have_count(1)
    expect(board.locator(".cell[aria-label^='c1: Aki’s piece']")).to_have_count(0)
    _no_secret(spectator, match)
    expect_same_as_fresh_load(spectator)
    assert csp_violations.found == []
