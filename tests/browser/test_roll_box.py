"""BCDice's common commands typed into the roll box, on a phone and on the GM's screen."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import room_page, synced
from tests.factories import friday_session

pytestmark = pytest.mark.browser


@pytest.fixture
def room(live_server_url):
    session, gm, (aki,) = friday_session("aki")
    return live_server_url, session


def _roll(page, text):
    box = page.get_by_label("Roll box")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")


def test_bcdice_commands_fit_a_phone_and_reach_the_gm_live(browser, room):
    base_url, session = room
    gm = room_page(browser, base_url, session, "keeper")
    phone = room_page(browser, base_url, session, "aki", width=390, height=900)

    _roll(phone, "40B6>=4 volley")
    _roll(phone, "x3 2D6+1*2>=8 attack")
    _roll(phone, "choice[north gate,south gate,the long way round]")
    _roll(phone, "S3U6[6] hidden")

    cards = phone.locator("#timeline-items .roll-card")
    expect(cards).to_have_count(4)
    expect(cards.nth(0)).to_contain_text("40B6>=4")
    expect(cards.nth(0)).to_contain_text("Number of successes")
    expect(cards.nth(0).get_by_role("img", name="die showing", exact=False)).to_have_count(40)
    expect(cards.nth(1).locator(".command-repeats li")).to_have_count(3)
    expect(cards.nth(2)).to_contain_text("Chosen:")
    expect(cards.nth(3)).to_contain_text("secret")
    # Forty dice and three repeats wrap inside the phone's width rather than widen the page.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    gm_cards = gm.locator("#timeline-items .roll-card")
    expect(gm_cards).to_have_count(4)
    expect(gm_cards.nth(1)).to_contain_text("x3 2D6+2>=8")
    expect(gm_cards.nth(3)).to_contain_text("3U6[6]")


def test_roll_box_refuses_in_japanese(browser, room):
    base_url, session = room
    page = room_page(browser, base_url, session, "aki", width=390, height=900)
    page.context.set_extra_http_headers({"Accept-Language": "ja"})
    page.reload()
    synced(page)

    box = page.locator("#roll_text")
    box.fill("2D6>=")
    box.press("Enter")

    expect(page.locator("#roll-box [role=alert]")).to_contain_text("目標値がありません")


def test_a_refusal_stays_with_its_text_through_a_live_update(browser, room):
    base_url, session = room
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki", width=390, height=900)

    box = aki.locator("#roll_text")
    box.fill("2D6>=")
    box.press("Enter")
    refusal = aki.locator("#roll-box [role=alert]")
    expect(refusal).to_contain_text("the target number is missing")

    # The GM's change re-renders Aki's roll box (its voices follow the stage).
    gm.locator("summary", has_text="Start main play").click()
    gm.get_by_role("button", name="Confirm: start the opening").click()
    expect(aki.locator("#stage .phase-step.is-current")).to_have_text("Opening")
    expect(refusal).to_contain_text("the target number is missing")
    expect(box).to_have_value("2D6>=")
