"""Helpers shared by the browser tests."""

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.live_server import session_key_for


def logged_in(browser, base_url, username, **context_options):
    """A fresh browser context made with `context_options`, signed in as `username`, and a
    blank page in it. The session is made on the server as the login form makes it, and its
    cookie handed to the browser: three page loads fewer per person and test
    (test_login.py walks the form itself)."""
    context = browser.new_context(**context_options)
    user = get_user_model().objects.get(username=username)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_key_for(user), "url": base_url}]
    )
    return context.new_page()


def room_page(browser, base_url, session, username, *, width=1280, height=1100):
    """Log `username` in within a fresh browser context and open the session's room."""
    page = logged_in(browser, base_url, username, viewport={"width": width, "height": height})
    page.goto(f"{base_url}/sessions/{session.pk}/")
    expect(page.locator("#connection-status")).to_have_text("Live")
    return synced(page)


def room_pages(browser, base_url, session, *usernames):
    """The session's room as each of `usernames` sees it (room_page), in that order."""
    return tuple(room_page(browser, base_url, session, username) for username in usernames)


def check_requested(
    gm,
    what_for,
    *,
    character="Aki (aki)",
    value_name="Reflexes",
    difficulty=None,
    gm_modifier=None,
    number=None,
    secret=False,
):
    """Ask `character` for a check through the GM's request form on the GM's room page;
    a field left None keeps the form's own value."""
    gm.locator("summary", has_text="Request a check").click()
    form = gm.locator("#check-request-form")
    form.get_by_label("Character").select_option(label=character)
    form.get_by_label("What for").fill(what_for)
    if value_name is not None:
        form.get_by_label("Judgement value").select_option(value_name)
    if number is not None:
        form.get_by_label("or a number").fill(number)
    if difficulty is not None:
        form.get_by_label("Difficulty", exact=True).fill(difficulty)
    if gm_modifier is not None:
        form.get_by_label("GM modifier").fill(gm_modifier)
    if secret:
        form.get_by_label("Secret roll (GM only)").check()
    form.get_by_role("button", name="Ask for the check").click()


def strength_contest_form(gm, what_for):
    """The GM's contest form, opened and filled for Aki's Strength against Ren's, not yet
    sent."""
    gm.locator("summary", has_text="Open a contest").click()
    form = gm.locator("#contest-form")
    form.get_by_label("What for").fill(what_for)
    form.get_by_label("Action side", exact=True).select_option(label="Aki (aki)")
    form.locator("[name=action_value_name]").select_option("Strength")
    form.get_by_label("Reaction side", exact=True).select_option(label="Ren (ren)")
    form.locator("[name=reaction_value_name]").select_option("Strength")
    return form


def after_the_action_roll(gm, ren):
    """Wait until the contest either asks Ren's reaction side to roll, or is decided (after
    an action fumble): (the GM's decided line, Ren's roll widget)."""
    decided = gm.locator("#timeline-items .event-contest_decided")
    ren_widget = ren.locator("#check-items .roll-widget")
    for _ in range(100):
        if decided.count() or ren_widget.count():
            break
        gm.wait_for_timeout(100)
    return decided, ren_widget


def synced(page):
    """Wait until the page's socket has caught up: until then its frames may still replace
    a panel under a click. A test acts on a live page once it is whole."""
    expect(page.locator("[ws-connect][data-synced]")).to_have_count(1)
    return page


def opened_live(page, url):
    """Open `url`, a page with a socket, and wait until it is live and whole."""
    page.goto(url)
    return synced(page)


# The room's panels by their text, closed disclosures and option lists included (what a
# viewer opened is their own business). A page kept open through a session must show the
# same as a fresh load of itself.
_PANELS_JS = """() => {
  const ids = ["afterplay-link", "stage", "cast-panel", "gm-controls", "player-controls",
               "check-items", "timeline-items", "matches", "chat-form", "check-request-form",
               "contest-form", "npc-roll-form", "characters", "roll-box"];
  // And every panel the page marks as live (the after-play and experience pages' too).
  document.querySelectorAll("[data-live-panel][id]").forEach((element) => {
    if (!ids.includes(element.id)) ids.push(element.id);
  });
  const seen = {};
  for (const id of ids) {
    const element = document.getElementById(id);
    if (!element) { seen[id] = null; continue; }
    // Unread counts on the channel tabs, and the answer to what this page itself sent
    // ("Check requested."), are the page's own: a fresh load starts with neither.
    const copy = element.cloneNode(true);
    copy.querySelectorAll("[data-unread], [data-acknowledgement]").forEach((own) => own.remove());
    seen[id] = copy.textContent.replace(/\\s+/g, " ").trim();
  }
  const board = document.querySelector(".match-board");
  if (board && !document.getElementById("matches")) {
    seen.board = board.textContent.replace(/\\s+/g, " ").trim();
  }
  return seen;
}"""


def panels_of(page) -> dict:
    return page.evaluate(_PANELS_JS)


def expect_same_as_fresh_load(page, *, timeout: float = 8.0) -> None:
    """Assert that every panel of `page` shows what a fresh load of its address shows."""
    import time

    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("#connection-status")).to_have_text(re.compile("Live|接続中"))
    # Both pages are read again until they agree: the fresh one may still be loading what
    # it asks for after the first paint (a check widget's chances), the kept one may still
    # be receiving the last push.
    deadline = time.monotonic() + timeout
    while True:
        wanted = panels_of(fresh)
        shown = panels_of(page)
        if shown == wanted or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    fresh.close()
    differing = {
        key: (shown.get(key), wanted.get(key))
        for key in wanted
        if shown.get(key) != wanted.get(key)
    }
    assert not differing, f"{page.url}: panels differ from a fresh load: {differing}"
