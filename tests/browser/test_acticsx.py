"""Two players plan Actics X turns in secret in the room; AUTO plans for one of them."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import room_page
from tests.matches import aki_and_ren_at_a_match

pytestmark = pytest.mark.browser


@pytest.fixture
def match_setup(live_server_url):
    session, match = aki_and_ren_at_a_match(game="acticsx", seed=7)
    return live_server_url, session, match


def _plan_one_card(board):
    """Deploy the first card that can be played somewhere, then confirm the plan."""
    selects = board.locator(".plan-form select[name^=play_]")
    for index in range(selects.count()):
        if selects.nth(index).locator("option").count() > 1:
            selects.nth(index).select_option(index=1)
            break
    board.get_by_role("button", name="Confirm the plan").click()


def test_acticsx_turn_planned_resolved_and_auto(browser, match_setup):
    base_url, session, match = match_setup
    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren")
    aki_board = aki.locator(f"#match-{match.pk}")
    ren_board = ren.locator(f"#match-{match.pk}")

    # Both plan in secret; Aki's confirmed plan stays hidden from Ren.
    _plan_one_card(aki_board)
    expect(aki_board).to_contain_text("your plan is in")
    expect(ren_board.locator(".badge", has_text="plan confirmed")).to_be_visible()
    _plan_one_card(ren_board)

    # The action phase plays out, step by step, on both screens.
    for board in (aki_board, ren_board):
        expect(board.locator(".steps li").first).to_contain_text("Turn 1: the action phase begins")
        expect(board).to_contain_text("deploys")
        expect(board).to_contain_text("Turn 2: plan in secret")

    # The steps light up one by one on the board, where they happened.
    aki_board.get_by_role("button", name="Replay the steps on the board").click()
    expect(aki_board.locator(".steps li.step-current")).to_have_count(1)
    expect(aki_board.locator(".ax-cell.ax-highlight")).to_have_count(1)

    # A card's detail opens by right-click; a discard pile opens in its panel.
    card = aki_board.locator(".plan-form .card-detail").first
    card.locator("summary").click(button="right")
    expect(card.locator(".card-body")).to_be_visible()
    pile = aki_board.locator(".discard-pile").first
    pile.locator("summary").click()
    expect(pile).to_have_attribute("open", "")

    # Ren hands planning to the computer; Aki plans alone and the turns go on.
    ren_board.get_by_role("button", name="AUTO: let the computer plan for me").click()
    expect(ren_board.get_by_role("button", name="AUTO is on: plan myself again")).to_be_visible()
    for turn in (2, 3):
        expect(aki_board).to_contain_text(f"Turn {turn}: plan in secret")
        # The computer's plan for Ren arrives as a new board; a click meanwhile would land
        # on the board being replaced.
        expect(aki_board.locator(".badge", has_text="plan confirmed")).to_be_visible()
        aki_board.get_by_role("button", name="Confirm the plan").click()
        expect(aki_board).to_contain_text(f"Action phase of turn {turn}")

    # Aki resigns once the computer's plan for turn 4 has arrived: a click meanwhile would
    # land on the board being replaced.
    expect(aki_board).to_contain_text("Turn 4: plan in secret")
    expect(aki_board.locator(".badge", has_text="plan confirmed")).to_be_visible()
    # The result reaches everyone's timeline.
    aki.once("dialog", lambda dialog: dialog.accept())
    aki_board.get_by_role("button", name="Resign").click()
    for page in (aki, ren):
        expect(page.locator("#timeline-items .event-match_finished")).to_contain_text(
            "Ren beat Aki at Actics X"
        )
