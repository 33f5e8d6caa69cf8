"""After-play in real browsers: the GM awards experience, a player spends it on a PC."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Phase
from tests.browser.pages import logged_in
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
    standard_profile,
)

pytestmark = pytest.mark.browser


SCREEN = {"viewport": {"width": 1280, "height": 1000}, "locale": "en-US"}


@pytest.fixture
def afterplay_setup(live_server_url):
    gm = UserFactory(username="keeper")
    aki = UserFactory(username="aki")
    table = TableFactory(gm=gm, name="Friday table")
    MembershipFactory(table=table, user=aki)
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

    gm.goto(f"{base_url}/sessions/{session.pk}/")
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
    form.get_by_role("button", name="Spend").click()
    expect(player.locator("#balance")).to_have_text("2")

    player.goto(f"{base_url}/characters/{pc.pk}/")
    expect(player.get_by_label("Strength")).to_have_value("4")
    expect(player.locator("#growth-history")).to_contain_text("+1 Strength")
    expect(player.locator("#growth-history")).to_contain_text("3 → 4")
    assert csp_violations.found == []
