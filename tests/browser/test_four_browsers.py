"""Four browsers, nobody reloading: the GM starts a match, it is played to its end, the GM
awards experience, a growth is asked for and confirmed, the session is closed. After each
step every open page (rooms, the spectator's, after-play and experience pages) shows what a
fresh load of it shows."""

import re

import pytest
from playwright.sync_api import expect

from minigames.models import Match
from sessions_app.models import Character, Phase
from sessions_app.services.scenes import stage_bring_in
from sessions_app.services.spectators import spectators_allow
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.browser.test_actual import _prepare
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    friday_table,
    own_profile,
    scene_started,
)

pytestmark = pytest.mark.browser

CATALOGUE = [{"label": "+1 Strength", "cost": 10, "value_name": "Strength", "delta": 1, "limit": 3}]


@pytest.fixture
def table_in_the_ending(live_server_url):
    table, gm, (aki, ren) = friday_table("aki", "ren")
    profile = own_profile(table, growth_catalogue=CATALOGUE, growth_self_service=False)
    spectators_allow(table=table, by=gm, allowed=True)
    table.refresh_from_db()
    session = GameSessionFactory(
        table=table, title="The Akashic Library", phase=Phase.ENDING, rules_profile=profile
    )
    pcs = [
        CharacterFactory(table=table, owner=owner, name=name, judgement_values={"Strength": 3})
        for owner, name in [(aki, "Aki"), (ren, "Ren")]
    ]
    session.characters.add(*pcs)
    clerk = CharacterFactory(table=table, owner=gm, name="Clerk", kind=Character.Kind.NPC)
    # A match is played in a scene, by characters on stage.
    scene_started(session, gm, scene_player=pcs[0], title="The reading room")
    stage_bring_in(session=session, by=gm, character=clerk)
    return live_server_url, table, session


def _open(page, url):
    """Another page of the same browser, opened by following a link (not a reload)."""
    other = page.context.new_page()
    other.goto(url)
    expect(other.locator("#connection-status")).to_have_text("Live")
    return other


def _all_like_fresh(pages):
    for page in pages:
        expect_same_as_fresh_load(page)


@pytest.mark.long
def test_match_award_and_growth_reach_four_browsers_without_reload(browser, table_in_the_ending):
    base_url, table, session = table_in_the_ending
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren")
    spectator = browser.new_context().new_page()
    spectator.goto(f"{base_url}/watch/{table.spectator_token}/sessions/{session.pk}/")
    expect(spectator.locator("#connection-status")).to_have_text("Live")
    rooms = [gm, aki, ren]
    pages = [*rooms, spectator]
    _all_like_fresh(pages)

    # The GM seats Aki against the computer's Clerk: the board appears on every room.
    gm.locator("details.match-start summary").click()
    gm.get_by_label("First character", exact=True).select_option(label="Aki (aki)")
    gm.get_by_label("Second character", exact=True).select_option(label="Clerk")
    gm.get_by_label("The computer plays the second character (NPCs only)").check()
    gm.get_by_role("button", name="Sit down to a match").click()
    expect(gm.locator("#match-form")).to_contain_text("The match is set up")
    for page in rooms:
        expect(page.locator("#matches .match-board")).to_have_count(1)
    for page in pages:
        expect(page.locator("#timeline-items .event-match_started")).to_have_count(1)
    match = Match.objects.get(session=session)
    _all_like_fresh(pages)

    # Aki's browser adds its value to the seed (the GM started the match), and the cards are
    # dealt on every page.
    aki.locator(f"#match-{match.pk}").get_by_role("button", name="Shuffle in").click()
    for page in pages:
        expect(page.locator("#timeline-items .event-match_dealt")).to_have_count(1)
    _all_like_fresh(pages)

    # Aki prepares (the computer is ready at once), then resigns: the end reaches everyone.
    _prepare(aki, match)
    aki_board = aki.locator(f"#match-{match.pk}")
    # Whoever opens, the board settles on Aki's turn: the computer's opening move redraws it,
    # and a click aimed at the old board's Resign would land on whatever the new one has there.
    aki_turn = aki_board.get_by_role("status").filter(has_text=re.compile(r"Turn \d+: your turn"))
    expect(aki_turn).to_be_visible(timeout=20_000)
    expect(aki_board.get_by_role("button", name="Resign")).to_be_visible()
    aki.once("dialog", lambda dialog: dialog.accept())
    aki_board.get_by_role("button", name="Resign").click()
    for page in pages:
        # A resignation commits, then the computer's seat and four pages hear of it: on a
        # loaded two-core CI machine that takes longer than the default five seconds.
        expect(page.locator("#timeline-items .event-match_finished")).to_contain_text(
            "Clerk beat Aki", timeout=20_000
        )
    for page in rooms:
        expect(page.locator(f"#match-{match.pk}")).to_contain_text("the other side resigned")
    _all_like_fresh(pages)

    # The GM ends the scene and main play: every room offers the after-play page.
    gm.get_by_role("button", name="End the scene").click()
    expect(gm.locator("#stage")).to_contain_text("No scene is running")
    gm.locator("#stage summary", has_text="Move on to After-play").click()
    gm.get_by_role("button", name="Confirm: move on to After-play").click()
    for page in rooms:
        expect(page.locator("#afterplay-link")).to_contain_text("After-play")
    _all_like_fresh(pages)

    # Everyone opens the after-play page; the GM confirms the awards on theirs.
    afterplay_url = f"{base_url}/sessions/{session.pk}/afterplay/"
    gm_after, aki_after, ren_after = (_open(page, afterplay_url) for page in rooms)
    for page in (aki_after, ren_after):
        expect(page.locator("#afterplay")).to_contain_text("has not confirmed the experience")
    aki_block = gm_after.locator("fieldset[data-person='aki']")
    aki_block.get_by_label("Points for “Reached the scenario's goal”").fill("10")
    gm_after.get_by_role("button", name="Confirm the experience").click()
    for page in (aki_after, ren_after):
        expect(page.locator("#award-totals li").first).to_contain_text("aki")
    pages += [gm_after, aki_after, ren_after]
    _all_like_fresh(pages)

    # Aki asks for growth on the experience page; the GM's open page shows it, and the
    # GM's confirmation reaches Aki's page.
    ledger_url = f"{base_url}/tables/{table.pk}/experience/"
    gm_ledger, aki_ledger = _open(gm, ledger_url), _open(aki, ledger_url)
    expect(gm_ledger.get_by_text("No growth is waiting for you.")).to_be_visible()
    balance = int(aki_ledger.locator("#balance").inner_text())
    form = aki_ledger.locator("#growth-form")
    form.get_by_label("PC").select_option(label="Aki")
    form.get_by_label("Growth", exact=True).select_option(label="+1 Strength (cost 10)")
    form.get_by_role("button", name="Ask the GM").click()
    expect(aki_ledger.locator("#my-growth-requests")).to_contain_text("Waiting for the GM")
    waiting = gm_ledger.locator("#growth-to-confirm li")
    expect(waiting).to_contain_text("+1 Strength")
    pages += [gm_ledger, aki_ledger]
    _all_like_fresh(pages)

    waiting.get_by_role("button", name="Confirm and rewrite the sheet").click()
    expect(aki_ledger.locator("#my-growth-requests")).to_contain_text("Confirmed")
    expect(aki_ledger.locator("#balance")).to_have_text(str(balance - 10))
    _all_like_fresh(pages)

    # The GM closes the session: the after-play pages and the rooms say so.
    gm_after.get_by_role("button", name="Close the session").click()
    for page in (aki_after, ren_after):
        expect(page.locator("#afterplay .badge", has_text="Closed")).to_be_visible()
    for page in [*rooms, spectator]:
        expect(page.locator("#stage-heading")).to_contain_text("Closed")
    _all_like_fresh(pages)
