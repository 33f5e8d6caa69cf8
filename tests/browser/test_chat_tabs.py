"""GM-made chat tabs in three browsers: the GM opens 情報, a player posts in it, the other
player's tab counts the line while Main leaves it out; the GM renames and archives it."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import ChatTab, TimelineEvent
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.factories import friday_session

pytestmark = pytest.mark.browser


@pytest.fixture
def table_setup(live_server_url):
    session, _gm, _players = friday_session("aki", "ren")
    return live_server_url, session


def _line(page, text):
    return page.locator("#timeline-items .event", has_text=text)


def _tab(page, name):
    return page.get_by_role("tab", name=re.compile("^" + re.escape(name)))


def _manage(gm):
    return gm.locator("#chat-tabs-manage")


def test_gm_tab_carries_its_lines_counts_unread_and_goes_when_archived(browser, table_setup):
    base_url, session = table_setup
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki", width=390, height=844)
    ren = room_page(browser, base_url, session, "ren")

    gm.locator("summary", has_text="Chat tabs").click()
    gm.get_by_label("New tab").fill("情報")
    gm.get_by_role("button", name="Open the tab").click()
    expect(gm.locator("#chat-tabs-status")).to_have_text("Tab “情報” opened.")
    expect(gm.get_by_label("New tab")).to_have_value("")
    # A duplicate is refused with why, the name left to fix.
    gm.get_by_label("New tab").fill("情報")
    gm.get_by_role("button", name="Open the tab").click()
    expect(gm.locator("#chat-tabs-status")).to_have_text("There is a tab of that name already.")
    expect(gm.get_by_label("New tab")).to_have_value("情報")
    gm.get_by_label("New tab").fill("")
    assert ChatTab.objects.count() == 1

    # Everyone's tab bar has it, live.
    for page in (gm, aki, ren):
        expect(_tab(page, "情報")).to_be_visible()
    _tab(aki, "情報").click()
    aki.locator("#chat_text").fill("The ledger is forged")
    aki.get_by_role("button", name="Send", exact=True).click()
    expect(_line(aki, "The ledger is forged")).to_be_visible()
    line = TimelineEvent.objects.get(payload__text="The ledger is forged")
    assert line.payload["tab"] == "情報"

    # The other player: counted on the tab, not shown on Main.
    expect(
        ren.locator(f'[data-channel-tab="{line.payload["channel"]}"] [data-unread]')
    ).to_have_text("1")
    expect(_line(ren, "The ledger is forged")).to_be_hidden()
    expect(_line(gm, "The ledger is forged")).to_be_hidden()
    _tab(ren, "情報").click()
    expect(_line(ren, "The ledger is forged")).to_be_visible()
    expect(
        ren.locator(f'[data-channel-tab="{line.payload["channel"]}"] [data-unread]')
    ).to_be_hidden()

    # Renamed: the reader stays on the tab, under its new name.
    rename = _manage(gm).get_by_label("New name for the tab 情報")
    rename.fill("Clues")
    _manage(gm).get_by_role("button", name="Rename").click()
    expect(_tab(ren, "Clues")).to_have_attribute("aria-selected", "true")
    expect(_line(ren, "The ledger is forged")).to_be_visible()
    expect(aki.locator("#chat-form select[name=channel] option", has_text="Clues")).to_have_count(1)

    # Archived: gone from the bar and the form; its reader is back on Main.
    gm.once("dialog", lambda dialog: dialog.accept())
    _manage(gm).get_by_role("button", name="Archive the tab Clues").click()
    for page in (gm, aki, ren):
        expect(page.locator(f'[data-channel-tab="{line.payload["channel"]}"]')).to_have_count(0)
        expect(
            page.locator("#chat-form select[name=channel] option", has_text="Clues")
        ).to_have_count(0)
    expect(_tab(ren, "Main")).to_have_attribute("aria-selected", "true")
    expect(_line(ren, "The ledger is forged")).to_be_hidden()
    expect(_line(ren, "The GM archived the chat tab “Clues”.")).to_be_visible()

    for page in (gm, aki, ren):
        expect_same_as_fresh_load(page)
