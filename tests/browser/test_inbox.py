"""The GM's inbox in real browsers: a GM at 1280x800 answers an entry request, a companion
proposal, a scene request and a growth request where they are pinned, without scrolling;
the players' pages follow live, and every page ends as a fresh load of itself shows it."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import Phase
from sessions_app.services.experience import AwardLine, experience_award_session
from tests.browser.pages import expect_same_as_fresh_load, logged_in, opened_live, room_page
from tests.factories import CharacterFactory, friday_session, scene_started

pytestmark = pytest.mark.browser

GM_SCREEN = {"width": 1280, "height": 800}


def _in_view_unscrolled(gm, item):
    """The item is on the GM's screen as the room opened: no scrolling was needed."""
    expect(item).to_be_in_viewport()
    assert gm.evaluate("window.scrollY") == 0


@pytest.fixture
def scene_running(live_server_url):
    session, gm, (aki, ren) = friday_session("aki", "ren")
    characters = {}
    for slot, (owner, name) in enumerate([(aki, "Aki"), (ren, "Ren")], start=1):
        characters[name] = CharacterFactory(table=session.table, owner=owner, name=name)
        session.characters.add(characters[name], through_defaults={"slot": slot})
    scene_started(
        session,
        gm,
        scene_player=characters["Aki"],
        title="A letter",
        place="The reading room",
        purpose="A sealed letter arrives",
    )
    return live_server_url, session


@pytest.mark.long
def test_gm_answers_stage_and_scene_requests_from_the_inbox(browser, scene_running, csp_violations):
    base_url, session = scene_running
    gm = csp_violations(room_page(browser, base_url, session, "keeper", **GM_SCREEN))
    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren", width=390, height=844)
    inbox = gm.locator("#inbox")
    expect(inbox).to_be_hidden()

    # A companion: Aki proposes Ren, Ren agrees; only then does it wait for the GM.
    aki.get_by_role("button", name="Propose Ren as companion").click()
    expect(aki.locator("#stage-status")).to_have_text("Companion proposed.")
    ren.locator("[data-room-tab='stage']").click()
    ren.get_by_role("button", name="Come along").click()
    item = inbox.locator(".inbox-item", has_text="Ren")
    _in_view_unscrolled(gm, item)
    expect(item).to_contain_text("Companion")
    expect(gm).to_have_title(re.compile(r"^\(1\) Waiting for your answer"))
    # The request's own line links to its item.
    expect(gm.locator("#timeline-items a.inbox-link").last).to_have_attribute(
        "href", re.compile(r"#inbox-stage-\d+")
    )
    item.get_by_role("button", name="Allow").click()
    for page in (gm, aki, ren):
        expect(page.locator("#on-stage")).to_contain_text("Ren")
    expect(inbox).to_be_hidden()
    expect(gm.locator("#inbox-status")).to_have_text("Allowed.")
    expect(aki.locator("#stage-status")).to_have_text("")

    # Ren leaves, then asks to come back in: the entry request.
    ren.get_by_role("button", name="Ask for Ren to exit").click()
    item = inbox.locator(".inbox-item", has_text="Ren")
    _in_view_unscrolled(gm, item)
    item.get_by_role("button", name="Allow").click()
    expect(ren.locator("#off-stage")).to_contain_text("Ren")
    ren.get_by_role("button", name="Ask for Ren to enter").click()
    expect(ren.locator("#stage-status")).to_have_text("Entry requested: the GM decides.")
    item = inbox.locator(".inbox-item", has_text="Entry request")
    _in_view_unscrolled(gm, item)
    # On a phone the GM's first tab would say how many wait.
    expect(gm.locator("[data-inbox-badge]")).to_have_text("1")
    item.get_by_role("button", name="Allow").click()
    expect(ren.locator("#on-stage")).to_contain_text("Ren")
    # The notice goes once the GM decided, with no reload.
    expect(ren.locator("#stage-status")).to_have_text("")

    # A scene request: asked during the scene, started from the inbox once it ended.
    aki.locator("#wish-place").fill("The clock tower")
    aki.locator("#wish-purpose").fill("Aki meets her twin")
    aki.get_by_role("button", name="Ask for this scene").click()
    expect(aki.locator("#stage-status")).to_have_text("Scene requested: the GM decides.")
    item = inbox.locator(".inbox-item", has_text="The clock tower")
    _in_view_unscrolled(gm, item)
    expect(item.get_by_role("button", name="Start this scene")).to_have_count(0)
    gm.get_by_role("button", name="End the scene").click()
    expect(gm.locator("#stage")).to_contain_text("No scene is running")
    gm.evaluate("window.scrollTo(0, 0)")
    _in_view_unscrolled(gm, item)
    item.get_by_role("button", name="Start this scene").click()
    for page in (gm, aki, ren):
        expect(page.locator("#stage .scene-card")).to_contain_text("The clock tower")
    expect(aki.locator("#stage-status")).to_have_text("")
    expect(inbox).to_be_hidden()
    expect(gm).not_to_have_title(re.compile("Waiting for your answer"))

    # Main folds the run of bookkeeping lines; Information shows them whole.
    fold = gm.locator("#timeline-items .fold-toggle").first
    expect(fold).to_be_visible()
    expect(fold).to_have_attribute("aria-expanded", "false")
    expect(gm.locator("#timeline-items .event-stage_requested").first).to_be_hidden()
    fold.click()
    expect(fold).to_have_attribute("aria-expanded", "true")
    expect(gm.locator("#timeline-items .event-stage_requested").first).to_be_visible()
    gm.get_by_role("tab", name="Information").click()
    expect(gm.locator("#timeline-items .fold-toggle").first).to_be_hidden()
    expect(gm.locator("#timeline-items .event-stage_requested").first).to_be_visible()

    for page in (gm, aki, ren):
        expect_same_as_fresh_load(page)
    assert csp_violations.found == []


@pytest.fixture
def growth_asked_for(live_server_url):
    session, gm, (aki,) = friday_session("aki", phase=Phase.AFTER_PLAY)
    pc = CharacterFactory(table=session.table, owner=aki, name="Aki")
    session.characters.add(pc)
    experience_award_session(session=session, by=gm, awards={aki.pk: [AwardLine(12, "Goal")]})
    return live_server_url, session


def test_gm_confirms_growth_from_the_inbox(browser, growth_asked_for, csp_violations):
    base_url, session = growth_asked_for
    gm = csp_violations(room_page(browser, base_url, session, "keeper", **GM_SCREEN))
    # The same GM on a phone too: the inbox tops the first tab, its count on the tab.
    gm_phone = csp_violations(
        room_page(browser, base_url, session, "keeper", width=390, height=844)
    )
    aki = logged_in(browser, base_url, "aki", viewport={"width": 1280, "height": 1000})
    opened_live(aki, f"{base_url}/tables/{session.table_id}/experience/")
    expect(aki.locator("#connection-status")).to_have_text("Live")
    form = aki.locator("#growth-form")
    form.get_by_label("Describe the growth").fill("A new contact")
    form.get_by_label("Cost").fill("3")
    form.get_by_label("Write it on the session sheet of").select_option(label=str(session))
    form.get_by_role("button", name="Ask the GM").click()
    expect(aki.locator("#my-growth-requests")).to_contain_text("Waiting for the GM")

    item = gm.locator("#inbox .inbox-item", has_text="A new contact")
    _in_view_unscrolled(gm, item)
    expect(gm).to_have_title(re.compile(r"^\(1\) Waiting for your answer"))
    expect(gm_phone.locator("[data-inbox-badge]")).to_have_text("1")
    expect(gm_phone.locator("[data-inbox-badge]")).to_be_visible()
    expect(gm_phone.locator("#inbox .inbox-item")).to_be_in_viewport()
    item.get_by_role("button", name="Confirm").click()
    expect(gm.locator("#inbox-status")).to_contain_text("is confirmed")
    expect(gm.locator("#inbox")).to_be_hidden()
    expect(aki.locator("#my-growth-requests")).to_contain_text("Confirmed")

    expect(gm_phone.locator("[data-inbox-badge]")).to_be_hidden()
    for page in (gm, gm_phone, aki):
        expect_same_as_fresh_load(page)
    assert csp_violations.found == []
