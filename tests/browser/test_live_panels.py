"""Every panel of every page follows the session live: after each step of a scripted session
in three browsers, each page shows exactly what a fresh load of it shows."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Handout
from tests.browser.pages import expect_same_as_fresh_load, room_pages
from tests.factories import CharacterFactory, GameSessionFactory, friday_table, library_scenario

pytestmark = pytest.mark.browser


@pytest.fixture
def table_in_preplay(live_server_url):
    table, gm, (aki, ren) = friday_table("aki", "ren")
    scenario, _opening = library_scenario(gm)
    Handout.objects.create(scenario=scenario, title="The torn map", body="North of the river.")
    session = GameSessionFactory(table=table, title="The Akashic Library")
    CharacterFactory(table=table, owner=aki, name="Aki", judgement_values={"Reflexes": 4})
    ren_pc = CharacterFactory(table=table, owner=ren, name="Ren", judgement_values={"Reflexes": 3})
    session.characters.add(ren_pc)
    return live_server_url, session


def _all_like_fresh(pages):
    for page in pages:
        expect_same_as_fresh_load(page)


@pytest.mark.long
def test_every_panel_follows_the_session_without_reload(browser, table_in_preplay):
    base_url, session = table_in_preplay
    pages = gm, aki, ren = room_pages(browser, base_url, session, "keeper", "aki", "ren")
    _all_like_fresh(pages)

    # Aki puts her character into the session from the cast panel.
    aki.locator("#cast-add").select_option(label="Aki (aki)")
    aki.locator("#cast-panel").get_by_role("button", name="Add").click()
    for page in pages:
        expect(page.locator("#stage .preplay-cast")).to_contain_text("Aki")
    expect(gm.locator(".sheet-checks")).to_contain_text("Aki")
    expect(aki.get_by_label("Introduce Aki to the table")).to_be_visible()
    _all_like_fresh(pages)

    # Aki introduces herself: the GM's "Mark introduced" for her goes.
    aki.get_by_label("Introduce Aki to the table").fill("Aki, the apprentice.")
    aki.get_by_role("button", name="Present").click()
    expect(
        gm.locator(".sheet-checks > li", has_text="Aki").get_by_role(
            "button", name="Mark introduced"
        )
    ).to_have_count(0)
    _all_like_fresh(pages)

    # The GM checks Ren's sheet.
    gm.locator(".sheet-checks > li", has_text="Ren").get_by_role(
        "button", name="Sheet checked"
    ).click()
    expect(ren.locator("#stage .preplay-cast")).to_contain_text("Checked by the GM")
    _all_like_fresh(pages)

    # The GM chooses the scenario: its handouts and planned scenes reach the GM's controls.
    gm.locator("#gm-scenario").select_option(label="The Akashic Library")
    gm.get_by_role("button", name="Use this scenario").click()
    expect(gm.locator("#gm-handouts")).to_contain_text("The torn map")
    _all_like_fresh(pages)

    # A handout for everyone, revealed: each player holds it.
    gm.locator("#gm-handouts summary").click()
    gm.get_by_role("button", name="Reveal “The torn map”").click()
    for player in (aki, ren):
        expect(player.locator("#player-controls")).to_contain_text("The torn map")
    _all_like_fresh(pages)

    # Main play: the scene form offers the scenario's planned scene.
    gm.locator("summary", has_text="Start main play").click()
    gm.get_by_role("button", name="Confirm: start the opening").click()
    for page in pages:
        expect(page.locator("#stage .phase-step.is-current")).to_have_text("Opening")
    expect(gm.locator("#scene-planned")).to_contain_text("A letter")
    _all_like_fresh(pages)

    # Ren leaves the session from his cast panel; Aki's stays.
    ren.locator("#cast-panel li", has_text="Ren").get_by_role("button", name="Remove Ren").click()
    ren.get_by_role("button", name="Yes, remove Ren").click()
    for page in pages:
        expect(page.locator("#cast-panel > ul")).not_to_contain_text("Ren")
    _all_like_fresh(pages)
