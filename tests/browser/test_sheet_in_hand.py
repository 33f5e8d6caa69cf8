"""A player brings a character from a sheet site, rolls from its chat palette and takes
damage with :HP-3, while the GM and another player watch live, each in their own browser."""

import json

import pytest
from playwright.sync_api import expect

from tests.browser.pages import logged_in, opened_live, room_page
from tests.ccfolia_exports import copied_character
from tests.factories import friday_session

pytestmark = pytest.mark.browser

# Shaped like a sheet site's Ccfolia export, written for this test.
SHEET = copied_character(
    status=[{"label": "HP", "value": 24, "max": 24}, {"label": "MP", "value": 8, "max": 8}],
    params=[{"label": "筋力", "value": "4"}, {"label": "反射", "value": "6"}],
    commands="2D6+{反射}>=\n:HP-\n{反射}で身をかわす",
)


@pytest.fixture
def table_setup(live_server_url):
    session, gm, (aki, ren) = friday_session("aki", "ren")
    return live_server_url, session


def test_imported_character_rolls_from_its_palette_and_loses_hp_live(browser, table_setup):
    base_url, session = table_setup
    gm = room_page(browser, base_url, session, "keeper")
    ren = room_page(browser, base_url, session, "ren")

    # The player pastes the sheet site's JSON on a new sheet.
    aki = logged_in(browser, base_url, "aki", viewport={"width": 390, "height": 900})
    aki.goto(f"{base_url}/tables/{session.table_id}/characters/new/")
    aki.get_by_label("Ccfolia character JSON").fill(json.dumps(SHEET, ensure_ascii=False))
    aki.get_by_role("button", name="Import").click()
    expect(aki.get_by_role("heading", level=1)).to_have_text("天城 アキ")
    expect(aki.get_by_label("Chat palette")).to_have_value(SHEET["data"]["commands"])

    # It takes part in the session, and its palette is there in the room (at phone width).
    opened_live(aki, f"{base_url}/sessions/{session.pk}/")
    # On a phone the cast is under the Table tab and the palette under Sheets.
    aki.locator('[data-room-tab="table"]').click()
    aki.get_by_label("Character to add").select_option(label="天城 アキ (aki)")
    aki.locator("#cast-panel").get_by_role("button", name="Add").click()
    expect(aki.locator("#cast-panel .item-list")).to_contain_text("天城 アキ")
    aki.reload()
    expect(aki.locator("#connection-status")).to_have_text("Live")
    palette = aki.locator("#palette")
    expect(palette).to_contain_text("2D6+{反射}>=")
    aki.locator('[data-room-tab="sheets"]').click()

    # A palette line goes to the roll box, as the character; the player types the target.
    palette.get_by_role("button", name="2D6+{反射}>=", exact=True).click()
    roll_box = aki.get_by_label("Roll box")
    expect(roll_box).to_be_focused()
    expect(roll_box).to_have_value("2D6+{反射}>=")
    roll_box.press("End")
    roll_box.type("8")
    roll_box.press("Enter")

    # The others see the card with the character's name and its judgement value, live.
    for page in (gm, ren):
        card = page.locator("#timeline-items .roll-card").last
        expect(card).to_contain_text("天城 アキ")
        expect(card).to_contain_text("2D6+6>=8")

    # Damage typed as Ccfolia players type it.
    aki.get_by_label("Message").fill(":HP-3")
    aki.get_by_label("Message").press("Enter")
    for page in (gm, ren):
        expect(page.locator("#timeline-items")).to_contain_text("HP: 24 → 21")

    # Everyone's character panel follows the event without a reload.
    for page in (gm, ren, aki):
        expect(page.locator("#characters")).to_contain_text("天城 アキ")
        expect(page.locator("#characters")).to_contain_text("21/24")
    for page in (gm, ren, aki):
        page.context.close()
