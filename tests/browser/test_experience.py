"""After-play in real browsers: the GM awards experience, a player asks for growth, the GM
confirms it."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Phase
from sessions_app.services.experience import AwardLine, experience_award_session
from tests.browser.pages import logged_in, opened_live, room_page
from tests.factories import CharacterFactory, GameSessionFactory, friday_table, standard_profile

pytestmark = pytest.mark.browser


SCREEN = {"viewport": {"width": 1280, "height": 1000}, "locale": "en-US"}


@pytest.fixture
def afterplay_setup(live_server_url):
    table, gm, (aki,) = friday_table("aki")
    profile = standard_profile()
    profile.pk = None
    profile.table = table
    profile.growth_catalogue = [
        {"label": "+1 Strength", "cost": 10, "value_name": "Strength", "delta": 1, "limit": 3}
    ]
    profile.save()
    table.rules_profile = profile
    table.save()
    session = GameSessionFactory(
        table=table, title="The Akashic Library", phase=Phase.AFTER_PLAY, rules_profile=profile
    )
    pc = CharacterFactory(table=table, owner=aki, name="Aki", judgement_values={"Strength": 3})
    session.characters.add(pc)
    return live_server_url, session, pc


def test_gm_awards_experience_and_player_grows_pc(browser, afterplay_setup, csp_violations):
    base_url, session, pc = afterplay_setup
    gm = csp_violations(logged_in(browser, base_url, "keeper", **SCREEN))

    opened_live(gm, f"{base_url}/sessions/{session.pk}/")
    gm.get_by_role("link", name="After-play: experience and cleanup").click()
    aki_block = gm.locator("fieldset[data-person='aki']")
    aki_block.get_by_label("Good roleplay", exact=True).uncheck()
    aki_block.get_by_label("Points for “Reached the scenario's goal”").fill("8")
    aki_block.get_by_label("Other reason").first.fill("Found the lost book")
    aki_block.get_by_label("Points", exact=True).first.fill("1")
    gm.get_by_role("button", name="Confirm the experience").click()

    # 1 attended + 8 goal + 1 helped + 1 GM's award + 1 other; the GM gets the four lines.
    totals = gm.locator("#award-totals")
    expect(totals.locator("li").first).to_contain_text("aki")
    expect(totals.locator("li").first).to_contain_text("12 points")
    expect(totals.locator("li").last).to_contain_text("5 points")
    expect(gm.get_by_role("button", name="Close the session")).to_be_visible()

    player = csp_violations(logged_in(browser, base_url, "aki", **SCREEN))
    player.goto(f"{base_url}/tables/{session.table_id}/")
    player.get_by_role("link", name="My experience and growth").click()
    expect(player.locator("#balance")).to_have_text("12")
    form = player.locator("#growth-form")
    form.get_by_label("PC").select_option(label="Aki")
    form.get_by_label("Growth", exact=True).select_option(label="+1 Strength (cost 10)")
    form.get_by_role("button", name="Ask the GM").click()
    expect(player.locator("#my-growth-requests")).to_contain_text("Waiting for the GM")
    expect(player.locator("#balance")).to_have_text("12")
    player.goto(f"{base_url}/characters/{pc.pk}/")
    expect(player.get_by_label("Strength")).to_have_value("3")
    assert csp_violations.found == []


def test_growth_waits_for_the_gm_then_the_sheet_changes(browser, afterplay_setup, csp_violations):
    base_url, session, pc = afterplay_setup
    gm_user = session.table.gm
    experience_award_session(
        session=session, by=gm_user, awards={pc.owner_id: [AwardLine(12, "Goal")]}
    )
    player = csp_violations(logged_in(browser, base_url, "aki", **SCREEN))
    opened_live(player, f"{base_url}/tables/{session.table_id}/experience/")
    form = player.locator("#growth-form")
    form.get_by_label("Growth", exact=True).select_option(label="+1 Strength (cost 10)")
    form.get_by_label("Write it on the session sheet of").select_option(label=str(session))
    form.get_by_role("button", name="Ask the GM").click()
    expect(player.locator("#waiting")).to_contain_text("10 points waiting for the GM")
    player.goto(f"{base_url}/characters/{pc.pk}/")
    expect(player.get_by_label("Strength")).to_have_value("3")
    # The room is live: the request and then the confirmation appear on its timeline.
    room = csp_violations(room_page(browser, base_url, session, "aki"))
    expect(room.locator("#timeline-items")).to_contain_text("asks the GM for “+1 Strength”")

    gm = csp_violations(logged_in(browser, base_url, "keeper", **SCREEN))
    opened_live(gm, f"{base_url}/tables/{session.table_id}/experience/")
    waiting = gm.locator("#growth-to-confirm li")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("aki")
    expect(waiting).to_contain_text("+1 Strength")
    waiting.get_by_role("button", name="Confirm and rewrite the sheet").click()
    expect(gm.locator("#growth-to-confirm")).to_have_count(0)
    expect(gm.get_by_text("No growth is waiting for you.")).to_be_visible()

    expect(room.locator("#timeline-items")).to_contain_text("Aki grows: “+1 Strength”")
    expect(room.locator("#timeline-items")).to_contain_text("Strength 3 → 4")
    live = room.locator("#timeline-items").inner_text()
    room.reload()
    expect(room.locator("#connection-status")).to_have_text("Live")
    assert room.locator("#timeline-items").inner_text() == live

    player.goto(f"{base_url}/characters/{pc.pk}/")
    expect(player.get_by_label("Strength")).to_have_value("4")
    expect(player.locator("#growth-history")).to_contain_text("3 → 4")
    opened_live(player, f"{base_url}/tables/{session.table_id}/experience/")
    expect(player.locator("#balance")).to_have_text("2")
    expect(player.locator("#my-growth-requests")).to_contain_text("Confirmed")
    assert csp_violations.found == []
