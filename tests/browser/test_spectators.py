"""A spectator follows a room through the table's link: live, and never a secret."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Membership
from sessions_app.services.spectators import spectators_allow
from tests.browser.pages import expect_same_as_fresh_load, logged_in, room_page
from tests.factories import aki_with_a_hidden_curse, friday_session
from tests.sessions_app.log_script import add_chat_lines

pytestmark = pytest.mark.browser


@pytest.fixture
def watched_table(live_server_url):
    session, _gm, (aki,) = friday_session("aki")
    aki_with_a_hidden_curse(session, aki, hp=8, curse=3)
    return live_server_url, session.table, session


def test_spectator_sees_public_lines_live_and_no_secret(browser, watched_table, csp_violations):
    base_url, table, session = watched_table
    # The GM lets spectators in from the table page and copies the link.
    gm_table = logged_in(browser, base_url, "keeper")
    gm_table.goto(f"{base_url}/tables/{table.pk}/")
    gm_table.get_by_role("button", name="Allow spectators").click()
    link = gm_table.get_by_label("Spectator link")
    expect(link).to_have_value(f"{base_url}/watch/{table.spectator_token}/")

    spectator = csp_violations(browser.new_context().new_page())
    spectator.goto(link.input_value())
    spectator.get_by_role("link", name="The Akashic Library").click()
    expect(spectator.locator("#connection-status")).to_have_text("Live")
    expect(spectator.locator("#characters")).to_contain_text("8/10")
    expect(spectator.locator("#characters")).not_to_contain_text("Curse")
    expect(spectator.locator("form[method=post]:not(.language-switch)")).to_have_count(0)

    gm = room_page(browser, base_url, session, "keeper")
    gm.get_by_label("Message").fill("The librarian is the thief")
    gm.get_by_label("GM only (players do not see this line)").check()
    gm.get_by_role("button", name="Send", exact=True).click()
    expect(gm.locator("#timeline-items")).to_contain_text("The librarian is the thief")
    gm.get_by_label("Message").fill("Welcome to the library")
    gm.get_by_role("button", name="Send", exact=True).click()

    expect(spectator.locator("#timeline-items")).to_contain_text("Welcome to the library")
    expect(spectator.locator("#timeline-items")).not_to_contain_text("thief")
    # A change of a resource reaches the spectator's character panel too.
    gm.locator("summary", has_text="Change a resource").click()
    resource_form = gm.locator(".gm-resource-form")
    resource_form.get_by_label("Character").select_option(label="Aki")
    resource_form.get_by_label("Command").fill(":HP-2")
    resource_form.get_by_role("button", name="Change").click()
    expect(spectator.locator("#characters")).to_contain_text("6/10")
    expect_same_as_fresh_load(spectator)
    expect(spectator.locator("#presence")).to_have_count(0)
    expect(gm.locator("#presence li")).to_have_count(1)

    # The GM stops spectators: the open page says so at once.
    gm_table.reload()
    gm_table.get_by_role("button", name="Stop spectators").click()
    expect(spectator.locator("#room-closed")).to_be_visible()
    assert csp_violations.found == []


def test_spectator_page_opens_at_the_newest_line(browser, watched_table):
    base_url, table, session = watched_table
    gm_user = Membership.objects.get(table=table, role=Membership.Role.GM).user
    spectators_allow(table=table, by=gm_user, allowed=True)
    table.refresh_from_db()
    add_chat_lines(session, gm_user, 60)

    spectator = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    spectator.goto(f"{base_url}/watch/{table.spectator_token}/sessions/{session.pk}/")
    expect(spectator.locator("#connection-status")).to_have_text("Live")

    expect(spectator.locator("#timeline-items > li").last).to_be_in_viewport()
    # A reader who scrolled back keeps their place when a line arrives.
    spectator.locator("#timeline-items").evaluate("(list) => { list.scrollTop = 0; }")
    gm = room_page(browser, base_url, session, "keeper")
    gm.get_by_label("Message").fill("A line while the spectator reads back")
    gm.get_by_role("button", name="Send", exact=True).click()
    expect(spectator.locator("#timeline-items")).to_contain_text("reads back")
    assert spectator.locator("#timeline-items").evaluate("(list) => list.scrollTop") < 40
