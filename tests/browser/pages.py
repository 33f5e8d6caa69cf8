"""Helpers shared by the browser tests."""

from playwright.sync_api import expect

from tests.factories import PASSWORD


def logged_in(browser, base_url, username, **context_options):
    """Log `username` in within a fresh browser context made with `context_options`; return
    the page, where the login led."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # The next page a test opens would otherwise cut short the login's answer and cookie.
    page.wait_for_url(lambda url: not url.endswith("/accounts/login/"))
    return page


def room_page(browser, base_url, session, username, *, width=1280, height=1100):
    """Log `username` in within a fresh browser context and open the session's room."""
    page = logged_in(browser, base_url, username, viewport={"width": width, "height": height})
    page.goto(f"{base_url}/sessions/{session.pk}/")
    expect(page.locator("#connection-status")).to_have_text("Live")
    return page
