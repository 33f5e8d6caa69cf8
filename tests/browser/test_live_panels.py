"""Every panel of every page follows the session live: after each step of a scripted session
in three browsers, each page shows exactly what a fresh load of it shows."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Character, Handout
from tests.browser.pages import (
    after_the_action_roll,
    check_requested,
    expect_same_as_fresh_load,
    room_pages,
    strength_contest_form,
)
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    friday_table,
    library_scenario,
)

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


@pytest.fixture
def table_with_a_guard(aki_and_ren_at_the_table):
    base_url, session = aki_and_ren_at_the_table
    CharacterFactory(
        table=session.table, owner=session.table.gm, name="Guard", kind=Character.Kind.NPC
    )
    return base_url, session


@pytest.mark.long
def test_the_gms_forms_answer_and_every_page_follows_without_reload(browser, table_with_a_guard):
    base_url, session = table_with_a_guard
    pages = gm, aki, ren = room_pages(browser, base_url, session, "keeper", "aki", "ren")
    _all_like_fresh(pages)

    # A check asked of Aki: the GM's form says so and empties; Aki's widget appears.
    check_requested(gm, "Climb the archive shelves", difficulty="9")
    request_form = gm.locator("#check-request-form")
    expect(request_form.get_by_role("status")).to_have_text("Check requested.")
    expect(request_form.get_by_label("What for")).to_have_value("")
    expect(aki.locator("#check-items .roll-widget")).to_contain_text("Climb the archive")
    _all_like_fresh([aki, ren])

    aki.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    for page in pages:
        expect(page.locator("#timeline-items .roll-card")).to_have_count(1)
    _all_like_fresh(pages)

    # A request the server refuses (neither a judgement value nor a number) keeps what the
    # GM typed, says why, and changes nothing anywhere.
    request_form.get_by_label("Character").select_option(label="Ren (ren)")
    request_form.get_by_label("What for").fill("Listen at the door")
    request_form.get_by_role("button", name="Ask for the check").click()
    expect(request_form.locator(".errorlist, [role=alert]").first).to_be_visible()
    expect(request_form.get_by_label("What for")).to_have_value("Listen at the door")
    _all_like_fresh([aki, ren])
    # Mended, it goes through; Ren rolls.
    request_form.get_by_label("Judgement value").select_option("Reflexes")
    request_form.get_by_role("button", name="Ask for the check").click()
    expect(request_form.get_by_role("status")).to_have_text("Check requested.")
    ren.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    for page in pages:
        expect(page.locator("#timeline-items .roll-card")).to_have_count(2)
    _all_like_fresh(pages)

    # A contest of Strength, rolled by both sides (or decided by an action fumble).
    contest = strength_contest_form(gm, "Arm wrestling")
    contest.get_by_role("button", name="Open the contest").click()
    expect(contest.get_by_role("status")).to_have_text("Contest opened.")
    aki.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    # Ren is asked to roll, unless Aki fumbled and the contest is already decided.
    decided, ren_widget = after_the_action_roll(gm, ren)
    if decided.count() == 0:
        ren_widget.get_by_role("button", name="Roll 2D6").click()
    for page in pages:
        expect(page.locator("#timeline-items .event-contest_decided")).to_contain_text("wins")
    _all_like_fresh([aki, ren])

    # The GM rolls for the Guard in the open.
    gm.locator("summary", has_text="Roll for an NPC").click()
    npc_form = gm.locator("#npc-roll-form")
    npc_form.get_by_label("NPC").select_option(label="Guard")
    npc_form.get_by_label("What for").fill("Spot the thief")
    npc_form.get_by_label("or a number").fill("3")
    npc_form.get_by_role("button", name="Roll 2D6").click()
    for page in pages:
        expect(page.locator("#timeline-items")).to_contain_text("Spot the thief")
    expect(gm.locator("#npc-roll-form").get_by_label("What for")).to_have_value("")
    _all_like_fresh(pages)

    # Ren types a command into the roll box.
    box = ren.get_by_label("Roll box")
    box.fill("2D6+1 dodge")
    box.press("Enter")
    expect(box).to_have_value("")
    for page in pages:
        expect(page.locator("#timeline-items .roll-card", has_text="dodge")).to_have_count(1)
    _all_like_fresh(pages)
