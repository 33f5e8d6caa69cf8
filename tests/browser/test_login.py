"""The login form in a real browser: the other browser tests sign in with a session cookie
(pages.logged_in), so this is where the form itself is walked."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import synced
from tests.factories import PASSWORD, friday_session

pytestmark = pytest.mark.browser


def test_a_player_sent_to_log_in_comes_back_to_the_room(browser, live_server_url, csp_violations):
    session, _gm, _players = friday_session("aki")
    page = csp_violations(browser.new_context().new_page())

    page.goto(f"{live_server_url}/sessions/{session.pk}/")
    expect(page).to_have_url(f"{live_server_url}/accounts/login/?next=/sessions/{session.pk}/")
    page.get_by_label("Username").fill("aki")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page).to_have_url(f"{live_server_url}/accounts/login/")

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(f"{live_server_url}/sessions/{session.pk}/")
    expect(page.locator("#connection-status")).to_have_text("Live")
    synced(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("The Akashic Library")
