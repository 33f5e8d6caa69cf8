"""A guest joins a table by name through an invite link and plays."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.pages import check_requested, expect_same_as_fresh_load, logged_in, room_page
from tests.factories import CharacterFactory, friday_session

pytestmark = pytest.mark.browser


def test_guest_joins_by_name_and_plays(browser, live_server_url, csp_violations):
    session, _gm, _players = friday_session()
    base_url = live_server_url

    # The GM makes an invite link that lets guests in.
    gm_table = logged_in(browser, base_url, "keeper")
    gm_table.goto(f"{base_url}/tables/{session.table.pk}/")
    gm_table.get_by_label("Guests may join with a display name only (no sign-up)").check()
    gm_table.get_by_role("button", name="Create invite link").click()
    invite = gm_table.get_by_label("Invite link")
    expect(invite).to_have_value(re.compile(r"/invite/[\w-]+/$"))
    expect(gm_table.locator("#invite-panel")).to_contain_text("join as a guest")

    # The guest gives a name only: first a taken one, then their own.
    guest = csp_violations(browser.new_context().new_page())
    guest.goto(invite.input_value())
    guest.get_by_label("Display name").fill("Keeper")
    guest.get_by_role("button", name="Join as a guest").last.click()
    expect(guest.get_by_role("alert")).to_contain_text("already taken")
    guest.get_by_label("Display name").fill("Mio")
    guest.get_by_role("button", name="Join as a guest").last.click()
    expect(guest.get_by_role("heading", level=1)).to_have_text("Friday table")
    expect(guest.get_by_role("note")).to_contain_text("guest")

    mio = get_user_model().objects.get(username="Mio")
    session.characters.add(
        CharacterFactory(
            table=session.table, owner=mio, name="Mio", judgement_values={"Reflexes": 3}
        )
    )
    gm = room_page(browser, base_url, session, "keeper")
    guest.get_by_role("link", name="The Akashic Library").click()
    expect(guest.locator("#connection-status")).to_have_text("Live")

    # The guest writes a line; the GM sees it live.
    guest.get_by_label("Message").fill("Hello, I am Mio")
    guest.get_by_role("button", name="Send", exact=True).click()
    expect(gm.locator("#timeline-items")).to_contain_text("Hello, I am Mio")

    # The GM asks Mio for a check; the guest rolls it like any player.
    check_requested(gm, "Find the hidden door", character="Mio (Mio)", difficulty="9")
    widget = guest.locator("#check-items .roll-widget")
    expect(widget).to_contain_text("Find the hidden door")
    widget.get_by_role("button", name="Roll 2D6").click()
    expect(gm.locator("#timeline-items .roll-card")).to_have_count(1)
    expect(gm.locator("#timeline-items .roll-card")).to_contain_text("Mio")
    # The GM's own request form keeps its "Check requested." answer, so only the guest's
    # page is compared with a fresh load.
    expect_same_as_fresh_load(guest)
    assert csp_violations.found == []
