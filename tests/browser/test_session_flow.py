"""A whole session in three browsers: pre-play, scenes with companions, entries, exits and a
master scene, the four phases, and the move to after-play."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import Participation, PreparedCheck
from tests.browser.pages import expect_same_as_fresh_load, room_pages
from tests.factories import CharacterFactory, GameSessionFactory, friday_table, library_scenario

pytestmark = pytest.mark.browser


@pytest.fixture
def prepared_session(live_server_url):
    table, gm, (aki, ren) = friday_table("aki", "ren")
    scenario, opening = library_scenario(
        gm, place="The reading room", purpose="A sealed letter arrives for Aki"
    )
    PreparedCheck.objects.create(
        planned_scene=opening, label="Read the seal", value_name="Reflexes", difficulty=5
    )
    session = GameSessionFactory(table=table, title="The Akashic Library", scenario=scenario)
    for slot, (owner, name) in enumerate([(aki, "Aki"), (ren, "Ren")], start=1):
        character = CharacterFactory(
            table=table, owner=owner, name=name, judgement_values={"Reflexes": 4}
        )
        session.characters.add(character, through_defaults={"slot": slot})
    CharacterFactory(table=table, owner=gm, kind="npc", name="The Librarian")
    return live_server_url, session


def _stage(page):
    return page.locator("#stage")


@pytest.mark.long
def test_session_runs_from_preplay_to_afterplay(browser, prepared_session):
    base_url, session = prepared_session
    pages = gm, aki, ren = room_pages(browser, base_url, session, "keeper", "aki", "ren")

    # Pre-play: the GM's checklist, sheets checked, Aki introduces herself.
    gm.locator(".checklist li", has_text="Rulebook read").get_by_role("button", name="Tick").click()
    expect(gm.locator(".checklist li.is-done", has_text="Rulebook read")).to_have_count(1)
    for name in ("Aki", "Ren"):
        gm.locator(".sheet-checks > li", has_text=name).get_by_role(
            "button", name="Sheet checked"
        ).click()
        expect(aki.locator(f"#participation-{_pk(session, name)}")).to_contain_text(
            "Checked by the GM"
        )
    aki.get_by_label("Introduce Aki to the table").fill("Aki, the librarian's apprentice.")
    aki.get_by_role("button", name="Present").click()
    for page in pages:
        expect(page.locator("#timeline-items")).to_contain_text("the librarian's apprentice")
    expect(gm.locator(".warning-box")).to_contain_text("Ren has not been introduced")
    for page in pages:
        expect_same_as_fresh_load(page)

    gm.locator("summary", has_text="Start main play").click()
    gm.get_by_role("button", name="Confirm: start the opening").click()
    for page in pages:
        expect(_stage(page).locator(".phase-step.is-current")).to_have_text("Opening")

    # Opening: the planned scene, with Aki (PC1) as scene player.
    # Its place and purpose come with it, to be read and edited before it starts.
    gm.locator("#scene-planned").select_option(label="Opening: A letter (PC1)")
    expect(gm.locator("#scene-place")).to_have_value("The reading room")
    expect(gm.locator("#scene-purpose")).to_have_value("A sealed letter arrives for Aki")
    gm.locator("#scene-place").fill("The reading room, after hours")
    gm.get_by_role("button", name="Start the scene").click()
    for page in pages:
        expect(_stage(page).locator(".scene-card")).to_contain_text("Scene player: Aki")
        expect(_stage(page).locator(".scene-card")).to_contain_text("The reading room, after hours")
        expect(_stage(page).locator(".scene-card")).to_contain_text("A sealed letter arrives")
        expect(page.locator("#on-stage")).to_contain_text("Aki")

    # A companion: Aki proposes Ren, Ren agrees, the GM allows.
    aki.get_by_role("button", name="Propose Ren as companion").click()
    ren.get_by_role("button", name="Come along").click()
    expect(gm.locator("#stage-heading .badge-alert")).to_be_visible()
    gm.locator(".stage-request", has_text="Ren").get_by_role("button", name="Allow").click()
    for page in pages:
        expect(page.locator("#on-stage")).to_contain_text("Ren")
    for page in pages:
        expect_same_as_fresh_load(page)

    # A prepared check fired in one click, rolled by Aki.
    gm.locator("summary", has_text="Prepared checks").click()
    gm.locator(".prepared-checks li", has_text="Read the seal").get_by_role(
        "button", name="Ask"
    ).click()
    widget = aki.locator("#check-items .roll-widget")
    expect(widget).to_contain_text("Read the seal")
    widget.get_by_role("button", name="Roll 2D6").click()
    for page in pages:
        expect(page.locator("#timeline-items .roll-card")).to_have_count(1)
    for page in pages:
        expect_same_as_fresh_load(page)

    # An exit: Ren asks to leave, the GM allows.
    ren.get_by_role("button", name="Ask for Ren to exit").click()
    gm.locator(".stage-request", has_text="Ren").get_by_role("button", name="Allow").click()
    for page in pages:
        expect(page.locator("#off-stage")).to_contain_text("Ren")
    gm.get_by_label("Backstage notes (GM only)").fill("The seal was a fake.")
    gm.get_by_role("button", name="End the scene").click()
    for page in pages:
        expect(_stage(page)).to_contain_text("No scene is running")
    for page in pages:
        expect_same_as_fresh_load(page)

    # A second scene led by Ren: Aki's entry request is allowed.
    gm.locator("#scene-player").select_option(label="Ren (ren)")
    gm.locator("#scene-title").fill("Ren's night watch")
    gm.locator("#scene-place").fill("The library roof")
    gm.locator("#scene-purpose").fill("Ren keeps watch for the thief")
    gm.get_by_role("button", name="Start the scene").click()
    aki.get_by_role("button", name="Ask for Aki to enter").click()
    gm.locator(".stage-request", has_text="Aki").get_by_role("button", name="Allow").click()
    for page in pages:
        expect(page.locator("#on-stage")).to_contain_text("Aki")
    gm.get_by_role("button", name="End the scene").click()

    # Middle: a master scene, where players cannot ask to enter.
    _advance(gm, "Middle", pages)
    gm.locator("#scene-master").check()
    gm.locator("#scene-title").fill("The Librarian's warning")
    gm.locator("#scene-place").fill("The librarian's study")
    gm.locator("#scene-purpose").fill("A warning about the seal")
    gm.get_by_role("button", name="Start the scene").click()
    for page in pages:
        expect(_stage(page).locator(".scene-card")).to_contain_text("Master scene")
    expect(aki.get_by_role("button", name="Ask for Aki to enter")).to_have_count(0)
    gm.get_by_role("button", name="Bring The Librarian in").click()
    expect(aki.locator("#on-stage")).to_contain_text("The Librarian")
    gm.get_by_role("button", name="End the scene").click()

    for phase in ("Climax", "Ending", "After-play"):
        _advance(gm, phase, pages)
    for page in pages:
        expect(_stage(page)).to_contain_text("Main play is over")
    for page in pages:
        expect_same_as_fresh_load(page)
    # The backstage note stayed with the GM.
    expect(gm.locator("#timeline-items")).to_contain_text("The seal was a fake.")
    for page in (aki, ren):
        expect(page.locator("#timeline-items")).not_to_contain_text("The seal was a fake.")


def _advance(gm, phase, pages):
    # The scene just ended re-sends the stage: a click on the stage before it arrives would
    # open a disclosure that the new stage then replaces.
    expect(_stage(gm)).to_contain_text("No scene is running")
    gm.locator("#stage summary", has_text=f"Move on to {phase}").click()
    gm.get_by_role("button", name=f"Confirm: move on to {phase}").click()
    for page in pages:
        expect(_stage(page).locator(".phase-step.is-current")).to_have_text(phase)


def _pk(session, name):
    return Participation.objects.get(session=session, character__name=name).character_id
