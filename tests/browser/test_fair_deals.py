"""Deals nobody can choose, in real browsers: a match's second seat shuffles in from its room
and the check page lists both browsers' values; a practice game keeps its commitment from
before the player's value and verifies once it is over."""

import re

import pytest
from playwright.sync_api import expect

from minigames import services as match_services
from minigames.models import Match, PracticeDice
from minigames.services import SeatSpec
from sessions_app.models import TimelineEvent
from sessions_app.services.dice import dice_commit_ahead
from tests.browser.pages import expect_same_as_fresh_load, logged_in, room_page
from tests.factories import cast_member, friday_session, friday_table

pytestmark = pytest.mark.browser

AKI_VALUE = "a1" * 16


@pytest.fixture
def waiting_match(live_server_url):
    """Aki's player seats Aki against Ren: the deal waits for Ren's browser."""
    session, _gm, (aki, ren) = friday_session("aki", "ren")
    dice_commit_ahead(session=session)
    characters = [
        cast_member(session, owner, name=name) for owner, name in [(aki, "Aki"), (ren, "Ren")]
    ]
    match = match_services.match_create(
        session=session,
        by=aki,
        seats=[SeatSpec(character) for character in characters],
        dice_value=AKI_VALUE,
    )
    return live_server_url, session, match


def test_second_seat_shuffles_in_and_the_deal_reaches_every_room(browser, waiting_match):
    base_url, session, match = waiting_match
    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren")
    aki_board, ren_board = (page.locator(f"#match-{match.pk}") for page in (aki, ren))
    expect(aki_board).to_contain_text("The deal waits for ren to shuffle in")
    expect(aki_board.get_by_role("button", name="Shuffle in")).to_have_count(0)

    ren_board.get_by_role("button", name="Shuffle in").click()

    for board in (ren_board, aki_board):
        expect(board.get_by_role("button", name="Ready")).to_be_visible()
    proof = TimelineEvent.objects.get(kind="match_dealt").payload["proof"]
    assert proof["value_by"] == ["aki", "ren"] and proof["value_source"] == "browser"
    kept = ren.evaluate("() => JSON.parse(localStorage.getItem('srs-dice-values'))")
    assert proof["values"][1] in kept
    for page in (aki, ren):
        expect_same_as_fresh_load(page)

    # Over, its check page lists both values, says one came from this browser, and verifies;
    # the same proof with the values swapped does not.
    match_services.match_move(
        match_id=match.pk, by=match.seat0_user, action={"type": "resign"}, version=0
    )
    finished = TimelineEvent.objects.get(kind="match_finished")
    ren.goto(f"{base_url}/sessions/{session.pk}/verify/{finished.seq}/")
    expect(ren.locator('#dice-verdict [data-verdict="ok"]')).to_be_visible()
    expect(ren.locator("ol.dice-values li")).to_have_count(2)
    expect(ren.locator("[data-dice-mine]")).to_be_visible()
    swapped = ren.evaluate(
        """async () => {
            const data = JSON.parse(document.getElementById("dice-proof-data").textContent);
            data.values.reverse();
            return (await window.srsDiceVerify(data)).verdict;
        }"""
    )
    assert swapped == "values"


def test_practice_game_is_committed_before_the_value_and_verifies_after(browser, live_server_url):
    friday_table("aki")
    page = logged_in(browser, live_server_url, "aki")
    page.goto(f"{live_server_url}/practice/")
    page.get_by_role("button", name="Play against the computer").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))

    dice = PracticeDice.objects.get()
    assert dice.value_source == "browser"
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('srs-dice-roots'))")
    assert kept[f"practice:{dice.pk}"] == dice.root
    expect(page.locator(".practice-commitment")).to_contain_text("published when the game is over")

    match = Match.objects.get()
    match_services.match_move(
        match_id=match.pk, by=match.seat0_user, action={"type": "resign"}, version=match.version
    )
    page.reload()
    page.get_by_role("link", name="Check these dice").click()
    expect(page.locator('#dice-verdict [data-verdict="ok"]')).to_be_visible()
    expect(page.locator("[data-dice-mine]")).to_be_visible()
    expect(page.locator("[data-dice-root-warning]")).to_be_hidden()
