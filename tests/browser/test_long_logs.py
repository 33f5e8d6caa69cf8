"""A long log in a real browser: the room loads earlier lines in place and stays live; the
review shows a page at a time, and its page links keep the filter."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app import log_export
from sessions_app.selectors.timeline import ROOM_EVENT_LIMIT
from tests.browser.pages import logged_in, room_page
from tests.factories import friday_session
from tests.sessions_app.log_script import add_chat_lines

pytestmark = pytest.mark.browser


@pytest.fixture
def long_log(live_server_url):
    session, gm, (_aki,) = friday_session("aki")
    add_chat_lines(session, gm, log_export.REVIEW_PAGE_EVENTS + ROOM_EVENT_LIMIT)
    return live_server_url, session


def test_room_earlier_lines_load_in_place_and_live_lines_still_arrive(browser, long_log):
    base_url, session = long_log
    total = log_export.REVIEW_PAGE_EVENTS + ROOM_EVENT_LIMIT
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")
    lines = aki.locator("#timeline-items > li")
    expect(lines).to_have_count(ROOM_EVENT_LIMIT)

    aki.get_by_role("link", name="Show earlier lines").click()

    expect(lines).to_have_count(2 * ROOM_EVENT_LIMIT)
    expect(lines.first).to_have_attribute("data-seq", str(total - 2 * ROOM_EVENT_LIMIT + 1))
    gm.locator("#chat_text").fill("Still live after reading back")
    gm.get_by_role("button", name="Send", exact=True).click()
    expect(lines).to_have_count(2 * ROOM_EVENT_LIMIT + 1)
    expect(lines.last).to_contain_text("Still live after reading back")
    expect(aki.locator(f'#timeline-items > li[data-seq="{total + 1}"]')).to_have_count(1)


def test_review_pages_keep_the_filter(browser, long_log):
    base_url, session = long_log
    page = logged_in(browser, base_url, "aki")
    page.goto(f"{base_url}/sessions/{session.pk}/review/?show=chat")

    page.get_by_role("navigation", name="Pages of the log", exact=True).get_by_role(
        "link", name="Later events"
    ).click()

    expect(page).to_have_url(re.compile(r"\?show=chat&page=2$"))
    expect(page.get_by_label("Chat only")).to_be_checked()
    expect(page.locator("#review-log li.event")).to_have_count(ROOM_EVENT_LIMIT)
    page.context.close()
