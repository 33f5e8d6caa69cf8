"""Helpers shared by the browser tests."""

from playwright.sync_api import expect

from tests.factories import PASSWORD


def room_page(browser, base_url, session, username, *, width=1280, height=1100):
    """Log `username` in within a fresh browser context and open the session's room."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base_url}/sessions/{session.pk}/")
    expect(page.locator("#connection-status")).to_have_text("Live")
    return page
