"""In the browser: a player asks the GM for a scene, and the GM removes a member. After
every step each page shows what a fresh load of it shows."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import logged_in, room_page
from tests.factories import CharacterFactory, friday_session, main_play_start

pytestmark = pytest.mark.browser


@pytest.fixture
def table_in_play(live_server_url):
    session, gm, (aki,) = friday_session("aki")
    character = CharacterFactory(table=session.table, owner=aki, name="Aki")
    session.characters.add(character, through_defaults={"slot": 1})
    return live_server_url, main_play_start(session, gm)


def _text(locator) -> str:
    return re.sub(r"\s+", " ", locator.text_content() or "").strip()


def _room_matches_a_fresh_load(page):
    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("#connection-status")).to_have_text("Live")
    for part in ("#stage", "#timeline-items"):
        assert _text(page.locator(part)) == _text(fresh.locator(part)), part
    fresh.close()


def test_player_asks_for_a_scene_and_the_gm_starts_it(browser, table_in_play):
    base_url, session = table_in_play
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")

    aki.locator("#wish-scene-player").select_option(label="Aki (aki)")
    aki.get_by_label("Place").fill("The clock tower")
    aki.get_by_label("What happens").fill("Aki meets her twin")
    aki.get_by_role("button", name="Ask for this scene").click()

    wish = gm.locator("#scene-requests .scene-request")
    expect(wish).to_contain_text("The clock tower")
    expect(wish).to_contain_text("asked by aki")
    expect(gm.locator("#stage-heading .badge-alert")).to_be_visible()
    expect(aki.locator("#scene-requests")).to_contain_text("Waiting for the GM")
    for page in (gm, aki):
        expect(page.locator("#timeline-items")).to_contain_text("aki asks the GM for a scene.")
        _room_matches_a_fresh_load(page)

    # Seed 003: the scene says where and why; the request's words come ready to edit.
    expect(wish.get_by_label("Place")).to_have_value("The clock tower")
    wish.get_by_label("Purpose").fill("Aki meets her twin at midnight")
    wish.get_by_role("button", name="Start this scene").click()

    for page in (gm, aki):
        expect(page.locator("#stage .scene-card")).to_contain_text("Scene player: Aki")
        expect(page.locator("#stage .scene-card")).to_contain_text("The clock tower")
        expect(page.locator("#stage .scene-card")).to_contain_text("at midnight")
        expect(page.locator("#scene-requests")).to_have_count(0)
        expect(page.locator("#timeline-items")).to_contain_text(
            "The GM starts scene 1 from aki's request."
        )
        _room_matches_a_fresh_load(page)


def test_gm_removes_a_player_whose_room_closes_at_once(browser, table_in_play, console_errors):
    base_url, session = table_in_play
    aki = room_page(browser, base_url, session, "aki")
    gm = logged_in(browser, base_url, "keeper")
    gm.goto(f"{base_url}/tables/{session.table_id}/")

    member = gm.locator("#members li", has_text="aki")
    member.locator("summary", has_text="Remove").click()
    member.get_by_role("button", name="Remove aki from the table").click()

    expect(gm.locator("#members")).not_to_contain_text("aki")
    fresh = gm.context.new_page()
    fresh.goto(gm.url)
    assert _text(gm.locator("#members")) == _text(fresh.locator("#members"))
    fresh.close()

    expect(aki.locator("#room-closed")).to_contain_text("You are no longer a member of this table.")
    expect(aki.locator("#room")).to_have_count(0)
    assert "The Akashic Library" not in _text(aki.locator("main"))
    fresh = aki.context.new_page()
    response = fresh.goto(aki.url)
    assert response.status == 404
    # That 404 is the point; the browser logs it all the same.
    console_errors[:] = [line for line in console_errors if "status of 404" not in line]
    assert "The Akashic Library" not in _text(fresh.locator("body"))
    fresh.close()
