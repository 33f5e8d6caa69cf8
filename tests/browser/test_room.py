"""A GM and a player meet in a live session room, each in their own browser."""

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "a-long-pass-phrase"


def _sign_up(page, base_url, username, *, submit_label):
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label(re.compile("Username|ユーザー名")).fill(username)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name=submit_label).click()


@pytest.mark.browser
def test_room_gm_and_player_meet_live(browser, live_server_url, csp_violations):
    gm_context = browser.new_context(locale="en-US")
    gm_page = csp_violations(gm_context.new_page())

    # The GM signs up, creates a table and copies an invite link.
    _sign_up(gm_page, live_server_url, "keeper", submit_label="Create account")
    gm_page.get_by_label("Table name").fill("Friday table")
    gm_page.get_by_role("button", name="Create table").click()
    expect(gm_page.get_by_role("heading", level=1)).to_have_text("Friday table")
    gm_page.get_by_role("button", name="Create invite link").click()
    invite_field = gm_page.get_by_label("Invite link")
    expect(invite_field).to_have_value(re.compile(r"/invite/[\w-]+/$"))
    invite_url = invite_field.input_value()

    # The GM creates a session and lands in its room.
    gm_page.get_by_label("Title").fill("The Akashic Library")
    gm_page.get_by_label("Date").fill("2026-12-05")
    gm_page.get_by_label("Rules profile").select_option(label="SRS standard")
    gm_page.get_by_role("button", name="Create session").click()
    expect(gm_page.get_by_role("heading", level=1)).to_have_text("The Akashic Library")
    expect(gm_page.locator("#connection-status")).to_have_text("Live")

    # A player in another browser, in Japanese, joins through the link in one step.
    player_context = browser.new_context(
        locale="ja-JP", extra_http_headers={"Accept-Language": "ja"}
    )
    player_page = csp_violations(player_context.new_page())
    player_page.goto(invite_url)
    player_page.locator("input[name=signup-username]").fill("aki")
    player_page.locator("input[name=signup-password1]").fill(PASSWORD)
    player_page.locator("input[name=signup-password2]").fill(PASSWORD)
    player_page.get_by_role("button", name="登録して参加").click()
    expect(player_page.get_by_role("heading", level=1)).to_have_text("Friday table")
    player_page.get_by_role("link", name="The Akashic Library").click()

    # Both see both people in the room, without reloading.
    for page in (gm_page, player_page):
        expect(page.locator('#presence [data-user="keeper"]')).to_be_visible()
        expect(page.locator('#presence [data-user="aki"]')).to_be_visible()

    # A line from one appears on the other's timeline, live.
    player_page.get_by_label("メッセージ").fill("こんばんは、よろしくお願いします")
    player_page.get_by_role("button", name="送信").click()
    expect(gm_page.locator("#timeline-items")).to_contain_text("こんばんは、よろしくお願いします")
    gm_page.get_by_label("Message").fill("Welcome to the library")
    gm_page.get_by_role("button", name="Send").click()
    expect(player_page.locator("#timeline-items")).to_contain_text("Welcome to the library")
    expect(gm_page.get_by_label("Message")).to_have_value("")

    # A GM-only line stays on the GM's screen.
    gm_page.get_by_label("Message").fill("The librarian is the thief")
    gm_page.get_by_label("GM only (players do not see this line)").check()
    gm_page.get_by_role("button", name="Send").click()
    expect(gm_page.locator("#timeline-items")).to_contain_text("The librarian is the thief")
    # The answer to Send brings a fresh form (GM only unticked); the next line waits for it.
    expect(gm_page.get_by_label("Message")).to_have_value("")
    gm_page.get_by_label("Message").fill("Let us begin")
    gm_page.get_by_role("button", name="Send").click()
    expect(player_page.locator("#timeline-items")).to_contain_text("Let us begin")
    expect(player_page.locator("#timeline-items")).not_to_contain_text("librarian is the thief")

    # The player's page is in Japanese.
    expect(player_page.locator("html")).to_have_attribute("lang", "ja")
    expect(player_page.get_by_role("heading", name="タイムライン")).to_be_visible()
    expect(player_page.get_by_role("heading", name="在室中")).to_be_visible()
    expect(player_page.locator("#connection-status")).to_have_text("接続中")

    # When the player leaves, the GM sees it.
    player_context.close()
    expect(gm_page.locator('#presence [data-user="aki"]')).to_have_count(0)
    assert csp_violations.found == []
    gm_context.close()


@pytest.mark.browser
def test_room_reload_restores_timeline_and_reconnects(browser, live_server_url):
    context = browser.new_context()
    page = context.new_page()
    _sign_up(page, live_server_url, "keeper", submit_label="Create account")
    page.get_by_label("Table name").fill("Solo table")
    page.get_by_role("button", name="Create table").click()
    page.get_by_label("Title").fill("Prep night")
    page.get_by_label("Date").fill("2026-12-06")
    page.get_by_role("button", name="Create session").click()
    expect(page.locator("#connection-status")).to_have_text("Live")
    page.get_by_label("Message").fill("First line")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#timeline-items")).to_contain_text("First line")

    page.reload()

    # The session's creation, its dice commitment and the line.
    expect(page.locator("#timeline-items li")).to_have_count(3)
    expect(page.locator("#connection-status")).to_have_text("Live")
    page.get_by_label("Message").fill("Second line")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#timeline-items li")).to_have_count(4)
    context.close()


@pytest.mark.browser
def test_room_language_switch_in_header(browser, live_server_url):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server_url}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play SRS games online, together")

    page.get_by_role("button", name="日本語").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("SRSのゲームを、オンラインでみんなと")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    context.close()
