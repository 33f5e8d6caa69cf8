"""Boards played by taps: an Actics X turn planned on the board against the computer, and an
Actual setup made by tapping columns."""

import pytest
from playwright.sync_api import expect

from minigames import services as match_services
from minigames.acticsx import presenter as acticsx_presenter
from minigames.services import SeatSpec
from sessions_app.models import Character
from tests.browser.pages import expect_same_as_fresh_load, logged_in, room_page
from tests.factories import CharacterFactory, friday_session
from tests.matches import actual_set_up_alike, aki_and_ren_at_a_match

pytestmark = pytest.mark.browser


def _against_the_computer(game, **options):
    session, gm, (aki,) = friday_session("aki")
    hero = CharacterFactory(table=session.table, owner=aki, name="Aki")
    session.characters.add(hero)
    return session, aki, _computer_match(session, gm, hero, "Archivist", game, **options)


def _computer_match(session, gm, hero, rival_name, game, **options):
    """A match of `hero` against a new NPC the computer plays."""
    rival = CharacterFactory(
        table=session.table, owner=gm, name=rival_name, kind=Character.Kind.NPC
    )
    return match_services.match_create(
        session=session,
        by=gm,
        seats=[SeatSpec(hero), SeatSpec(rival, computer=True, level="random")],
        game=game,
        seed=1,
        **options,
    )


def test_acticsx_turn_planned_by_taps_only(browser, live_server_url):
    session, aki, match = _against_the_computer("acticsx")
    hand = acticsx_presenter.board_context(match, aki)["hand"]
    cheapest = sorted((c for c in hand if c["kind"] == "actor"), key=lambda c: c["level"])[:2]
    assert sum(card["level"] for card in cheapest) <= 3
    page = room_page(browser, live_server_url, session, "aki")
    board = page.locator(f"#match-{match.pk}")
    status = board.locator(".ax-tap-status")

    # Turn 1: a card, then a base square, twice; the board shows where each goes.
    for card, square in zip(cheapest, ("A9", "A10"), strict=True):
        board.locator(f'[data-pick-card="{card["index"]}"]').click()
        expect(board.locator(f'.ax-cell.ax-legal[data-square="{square}"]')).to_be_visible()
        board.locator(f'.ax-cell[data-square="{square}"]').click()
        expect(status).to_have_text(f"{card['name']} will be played on {square}.")
        expect(board.locator(f'.ax-cell[data-square="{square}"] .ax-mark-play')).to_have_text(
            card["name"]
        )
    # Keyboard: a card picked with Enter, then Escape lets go of it.
    board.locator(f'[data-pick-card="{cheapest[0]["index"]}"]').focus()
    page.keyboard.press("Enter")
    expect(board.locator(".ax-cell.ax-legal").first).to_be_visible()
    page.keyboard.press("Escape")
    expect(status).to_have_text("Nothing chosen.")
    expect(board.locator(".ax-cell.ax-legal")).to_have_count(0)
    board.get_by_role("button", name="Confirm the plan").click()
    expect(board).to_contain_text("Turn 2: plan in secret")

    # Turn 2: each actor, then a square it may reach; then the second acts first.
    for square in ("A9", "A10"):
        board.locator(f'.ax-cell[data-square="{square}"]').click()
        expect(board.locator(f'.ax-cell.ax-chosen[data-square="{square}"]')).to_be_visible()
        board.locator(".ax-cell.ax-legal").first.click()
        expect(status).to_contain_text("will move to")
    board.locator('[data-actor-row="A10"] [data-order-step="-1"]').click()
    expect(board.locator("[data-actor-row]").first).to_have_attribute("data-actor-row", "A10")
    expect(board.locator('input[name="order_A10"]')).to_have_value("1")
    # The plan is drawn: where each actor goes, and in which order.
    expect(board.locator(".ax-mark-to")).to_have_count(2)
    expect(board.locator('.ax-cell[data-square="A10"] .ax-mark-from b')).to_have_text("1")
    expect(board.locator('.ax-cell[data-square="A9"] .ax-mark-from b')).to_have_text("2")
    board.get_by_role("button", name="Confirm the plan").click()

    expect(board).to_contain_text("Action phase of turn 2")
    expect(board).to_contain_text("Turn 3: plan in secret")
    expect_same_as_fresh_load(page)


def _playable(match, user):
    """The cheapest actor card of the hand that fits this turn's level limit somewhere."""
    board = acticsx_presenter.board_context(match, user)
    cards = [c for c in board["hand"] if c["kind"] == "actor" and c["squares"]]
    card = min(cards, key=lambda c: c["level"])
    assert card["level"] <= board["view"]["limits"]["level"]
    return card, board["hand"]


def test_acticsx_taps_work_in_the_turn_after_a_plan_sent_with_a_card_chosen(
    browser, live_server_url
):
    session, aki, match = _against_the_computer("acticsx")
    hand = acticsx_presenter.board_context(match, aki)["hand"]
    cheapest = sorted((c for c in hand if c["kind"] == "actor"), key=lambda c: c["level"])[:2]
    last = hand[-1]
    page = room_page(browser, live_server_url, session, "aki")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    board = page.locator(f"#match-{match.pk}")
    status = board.locator(".ax-tap-status")

    # Turn 1: two cards played, then the hand's last card chosen (played or not) as the plan
    # is sent.
    for played, square in zip(cheapest, ("A9", "A10"), strict=True):
        board.locator(f'[data-pick-card="{played["index"]}"]').click()
        board.locator(f'.ax-cell[data-square="{square}"]').click()
        expect(status).to_have_text(f"{played['name']} will be played on {square}.")
    board.locator(f'[data-pick-card="{last["index"]}"]').click()
    expect(board.locator(f'[data-pick-card="{last["index"]}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    board.get_by_role("button", name="Confirm the plan").click()
    expect(board).to_contain_text("Action phase of turn 1")
    expect(board).to_contain_text("Turn 2: plan in secret")
    match.refresh_from_db()
    card, hand = _playable(match, aki)
    # The card chosen before is past the end of the new hand: nothing of it may linger.
    assert last["index"] >= len(hand)
    expect(board.locator('[aria-pressed="true"]')).to_have_count(0)

    # Turn 2: a card, then a square, as in any turn.
    board.locator(f'[data-pick-card="{card["index"]}"]').click()
    square = card["squares"][0]
    expect(board.locator(f'.ax-cell.ax-legal[data-square="{square}"]')).to_be_visible()
    board.locator(f'.ax-cell[data-square="{square}"]').click()
    expect(status).to_have_text(f"{card['name']} will be played on {square}.")
    expect(board.locator(f'.ax-cell[data-square="{square}"] .ax-mark-play')).to_have_text(
        card["name"]
    )
    board.get_by_role("button", name="Confirm the plan").click()

    expect(board).to_contain_text("Turn 3: plan in secret")
    assert errors == []
    expect_same_as_fresh_load(page)


def test_actual_setup_by_tapping_columns(browser, live_server_url):
    session, aki, match = _against_the_computer("actual", options={"first_player": 0})
    page = logged_in(browser, live_server_url, "aki", viewport={"width": 390, "height": 900})
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    expect(page.locator("#connection-status")).to_have_text("Live")
    board = page.locator(f"#match-{match.pk}")

    board.get_by_role("radiogroup", name="Piece 1: column").get_by_role("radio", name="c").check()
    board.get_by_role("radiogroup", name="Piece 2: column").get_by_role(
        "radio", name="none"
    ).check()
    board.locator("input[name=life]").nth(0).fill("5")
    board.locator("input[name=life]").nth(1).fill("0")
    board.get_by_role("button", name="Ready").click()

    expect(board).to_contain_text("Turn 1: your turn.")
    expect(board.get_by_role("img", name="c1: your piece, life 5")).to_be_visible()
    expect(board.locator(".edge-column")).to_have_text(list("abcde"))
    expect_same_as_fresh_load(page)


def test_phone_table_tab_opens_on_the_board_with_its_prompt_beside_it(browser, live_server_url):
    session, match = aki_and_ren_at_a_match(options={"first_player": 0}, seed=55)
    actual_set_up_alike(match, match.seat0_user, match.seat1_user)
    page = room_page(browser, live_server_url, session, "aki", width=390, height=844)
    page.get_by_role("button", name="Table", exact=True).click()
    board = page.locator(f"#match-{match.pk}")
    expect(board).to_be_visible()
    # The board comes before everything else in the panel: the cast and its Remove buttons.
    cards_above_the_board = page.locator("#panel-table").evaluate(
        """(panel) => {
            const board = panel.querySelector(".match-board").getBoundingClientRect().top;
            return [...panel.querySelectorAll(":scope > section.card:not(.minigames-card)")]
                .filter((card) => card.getBoundingClientRect().top < board).length;
        }"""
    )
    assert cards_above_the_board == 0

    board.locator(".hand .card-move").first.click()
    board.get_by_role("button", name="Use it with your piece on", exact=False).click()
    prompt = board.locator(".board-prompt")
    expect(prompt).to_have_text("Now choose a highlighted square.")
    expect(prompt).to_be_in_viewport()
    expect(board.locator(".cell-target").first).to_be_in_viewport()
    # The prompt sits directly above the board's squares.
    grid = board.locator(".actual-grid").bounding_box()
    box = prompt.bounding_box()
    assert 0 <= grid["y"] - (box["y"] + box["height"]) < 40
    # The choice is the viewer's own until played: the move made, the page agrees with a
    # fresh load again.
    board.locator(".cell-target").first.click()
    expect(board.locator(".board-prompt")).to_have_count(0)
    expect_same_as_fresh_load(page)
