"""Checks and contests rolled live between a GM and two players, each in their own browser."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import DiceReservation
from tests.browser.pages import (
    after_the_action_roll,
    check_requested,
    room_page,
    room_pages,
    strength_contest_form,
)

pytestmark = pytest.mark.browser


def test_check_requested_rolled_and_shown_alike(browser, aki_and_ren_at_the_table):
    base_url, session = aki_and_ren_at_the_table
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")

    check_requested(gm, "Climb the archive shelves", difficulty="9", gm_modifier="-1")

    widget = aki.locator("#check-items .roll-widget")
    expect(widget).to_be_visible()
    expect(widget).to_contain_text("Climb the archive shelves")
    # Value 4, modifier -1 against 9: 6 or more on 2D6 succeeds, 26/36.
    expect(widget.locator(".chances-box")).to_contain_text("Success 72.2% (26/36)")
    widget.get_by_label("Modifier name").first.fill("Rope")
    widget.get_by_label("Amount").first.fill("2")
    # With +2 more: 4 or more succeeds, 33/36.
    expect(widget.locator(".chances-box")).to_contain_text("Success 91.7% (33/36)")
    # Working out the chances rolls nothing: no key is set aside for it.
    assert not DiceReservation.objects.exists()
    widget.get_by_role("button", name="Roll 2D6").click()

    expect(aki.locator("#check-status")).to_contain_text("Rolled")
    expect(aki.locator("#check-items .roll-widget")).to_have_count(0)
    # The list emptied live says so, as it does when the page is loaded with none open.
    expect(aki.locator(".checks-card .empty-note")).to_be_visible()
    expect(gm.locator(".checks-card .empty-note")).to_be_visible()
    gm_card = gm.locator("#timeline-items .roll-card")
    aki_card = aki.locator("#timeline-items .roll-card")
    expect(gm_card).to_have_count(1)
    expect(aki_card).to_have_count(1)
    expect(aki_card).to_contain_text("Rope +2")
    assert gm_card.locator(".roll-line").inner_text() == aki_card.locator(".roll-line").inner_text()
    assert gm_card.locator(".dice img").evaluate_all("els => els.map(e => e.alt)") == (
        aki_card.locator(".dice img").evaluate_all("els => els.map(e => e.alt)")
    )
    # The roll took the one key its widget set aside when it was sent.
    assert list(DiceReservation.objects.values_list("state", flat=True)) == [
        DiceReservation.State.USED
    ]


def test_contest_between_two_players(browser, aki_and_ren_at_the_table):
    base_url, session = aki_and_ren_at_the_table
    gm, aki, ren = room_pages(browser, base_url, session, "keeper", "aki", "ren")

    form = strength_contest_form(gm, "Arm wrestling")
    expect(form.locator("#contest-chance")).to_contain_text("Action side wins")
    form.get_by_role("button", name="Open the contest").click()

    expect(ren.locator("#timeline-items")).to_contain_text("Arm wrestling")
    expect(ren.locator("#check-items .roll-widget")).to_have_count(0)
    aki.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    expect(aki.locator("#check-items .roll-widget")).to_have_count(0)

    decided, ren_widget = after_the_action_roll(gm, ren)
    if decided.count() == 0:
        expect(ren_widget).to_contain_text("Reaction side")
        ren_widget.get_by_role("button", name="Roll 2D6").click()
    else:  # Aki fumbled: the reaction side need not roll.
        expect(decided).to_contain_text("the action side fumbled")

    for page in (gm, aki, ren):
        expect(page.locator("#timeline-items .event-contest_decided")).to_contain_text("wins")
    texts = {p.locator(".event-contest_decided").inner_text() for p in (gm, aki, ren)}
    assert len(texts) == 1


def test_reaction_side_that_cannot_roll_answers_with_its_modifiers(
    browser, aki_and_ren_at_the_table
):
    base_url, session = aki_and_ren_at_the_table
    gm, aki, ren = room_pages(browser, base_url, session, "keeper", "aki", "ren")

    form = strength_contest_form(gm, "Hold the door")
    form.get_by_label("The reaction side cannot roll").check()
    form.get_by_role("button", name="Open the contest").click()

    aki.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    decided, ren_widget = after_the_action_roll(gm, ren)
    if decided.count() == 0:
        expect(ren_widget.get_by_role("button", name="Roll 2D6")).to_have_count(0)
        # Strength 5 plus a +20 shield beats any plain roll of Aki's Strength 2.
        expect(ren_widget.locator(".chances-box")).to_contain_text("Achievement 5")
        ren_widget.get_by_label("Modifier name").first.fill("Shield")
        ren_widget.get_by_label("Amount").first.fill("20")
        expect(ren_widget.locator(".chances-box")).to_contain_text("Achievement 25")
        ren_widget.get_by_role("button", name="Answer without dice").click()
        expect(decided).to_contain_text("Shield +20")
    else:  # Aki fumbled: the reaction side need not answer.
        expect(decided).to_contain_text("the action side fumbled")

    for page in (gm, aki, ren):
        expect(page.locator("#timeline-items .event-contest_decided")).to_contain_text("wins")
