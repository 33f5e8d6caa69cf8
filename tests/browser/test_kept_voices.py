"""A sent chat line or roll keeps the voice chosen, and the voices still follow the stage live.

The server answers a sent line with no content: the page keeps its form (its list of voices
among it) and clears the text sent itself; these walks check that the form the page keeps
is the one a fresh load shows, and the list the one the socket brings when the stage changes.
"""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import Roll, TimelineEvent
from tests.browser.pages import expect_same_as_fresh_load, room_page

pytestmark = pytest.mark.browser


def test_sent_lines_keep_the_chosen_voice_and_the_voices_follow_the_stage(browser, aki_in_a_scene):
    base_url, session, character = aki_in_a_scene
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")

    aki.get_by_label("Say as").select_option(label="As Aki (in character)")
    # A refusal first (a line of spaces): its message goes once a line is sent.
    aki.get_by_label("Message").fill("   ")
    aki.get_by_role("button", name="Send").click()
    expect(aki.locator("#chat-form [role=alert]")).to_have_count(1)
    for line in ("The door is sealed.", "I try the key."):
        aki.get_by_label("Message").fill(line)
        aki.get_by_role("button", name="Send").click()
        expect(gm.locator("#timeline-items")).to_contain_text(line)
        expect(aki.get_by_label("Message")).to_have_value("")
        expect(aki.get_by_label("Say as")).to_have_value(f"ic:{character.pk}")
        expect(aki.locator("#chat-form [role=alert]")).to_have_count(0)
    said = TimelineEvent.objects.filter(session=session, kind="chat").order_by("seq")
    assert [event.payload.get("character") for event in said] == ["Aki", "Aki"]

    aki.get_by_label("Roll as").select_option(label="Aki")
    aki.get_by_label("Roll box").fill("2D6")
    aki.get_by_role("button", name="Roll").click()
    expect(gm.locator("#timeline-items .roll-card")).to_have_count(1)
    expect(aki.get_by_label("Roll box")).to_have_value("")
    expect(aki.get_by_label("Roll as")).to_have_value(str(character.pk))
    assert Roll.objects.get().character == character
    for page in (gm, aki):
        expect_same_as_fresh_load(page)

    # The scene ends: Aki is off stage, and the kept lists lose Aki without a reload.
    gm.get_by_role("button", name="End the scene").click()
    expect(aki.locator("#chat_say_as option", has_text="As Aki")).to_have_count(0)
    # (The first choice is the user, "aki": the character's is the one named "Aki".)
    expect(aki.locator("#roll_roll_as option", has_text=re.compile("^Aki$"))).to_have_count(0)
    for page in (gm, aki):
        expect_same_as_fresh_load(page)


def test_text_typed_while_a_line_is_on_its_way_is_kept(browser, aki_in_a_scene):
    base_url, session, _character = aki_in_a_scene
    aki = room_page(browser, base_url, session, "aki")
    held = []
    aki.route(re.compile(r"/chat/$"), lambda route: held.append(route))

    aki.get_by_label("Message").fill("The door is sealed.")
    aki.get_by_role("button", name="Send").click()
    aki.wait_for_timeout(50)
    while not held:
        aki.wait_for_timeout(50)
    # Typing on, before the server has answered the first line.
    aki.get_by_label("Message").press("End")
    aki.get_by_label("Message").press_sequentially(" I try the key.")
    held.pop().continue_()

    expect(aki.locator("#timeline-items")).to_contain_text("The door is sealed.")
    expect(aki.get_by_label("Message")).to_have_value("I try the key.")
    said = TimelineEvent.objects.filter(session=session, kind="chat")
    assert [event.payload["text"] for event in said] == ["The door is sealed."]
