"""The room as a play table on a phone: the chat in front, the timeline's channels, and a check
waiting for the player signalled until it is answered."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import TimelineEvent
from sessions_app.services.faces import face_add
from tests.browser.pages import check_requested, expect_same_as_fresh_load, room_page
from tests.factories import CharacterFactory, friday_session
from tests.pictures import picture_bytes
from tests.sessions_app.log_script import add_chat_lines

pytestmark = pytest.mark.browser

TITLE = "The Akashic Library · SRS Table"


@pytest.fixture
def table_setup(live_server_url):
    session, gm, (aki,) = friday_session("aki")
    session.characters.add(
        CharacterFactory(
            table=session.table, owner=aki, name="Aki", judgement_values={"Reflexes": 4}
        )
    )
    return live_server_url, session


def _send(page, text):
    page.locator("#chat_text").fill(text)
    page.get_by_role("button", name="Send", exact=True).click()


def _line(page, text):
    return page.locator("#timeline-items .event", has_text=text)


def test_phone_player_chats_off_topic_and_answers_a_check(browser, table_setup):
    base_url, session = table_setup
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki", width=390, height=844)

    expect(aki.locator("#chat_text")).to_be_in_viewport(ratio=1)
    assert aki.evaluate("window.scrollY") == 0

    _send(aki, "Shall we open the door?")
    expect(_line(aki, "Shall we open the door?")).to_be_visible()

    aki.get_by_role("tab", name="Off-topic").click()
    expect(_line(aki, "Shall we open the door?")).to_be_hidden()
    _send(aki, "Pizza is here")
    expect(_line(aki, "Pizza is here")).to_be_visible()
    assert TimelineEvent.objects.get(payload__text="Pizza is here").payload["channel"] == "offtopic"

    _send(gm, "The door creaks open.")
    expect(_line(gm, "The door creaks open.")).to_be_visible()
    expect(aki.locator('[data-channel-tab="main"] [data-unread]')).to_have_text("1")
    expect(_line(aki, "The door creaks open.")).to_be_hidden()

    aki.get_by_role("tab", name=re.compile("^Main")).click()
    expect(aki.locator('[data-channel-tab="main"] [data-unread]')).to_be_hidden()
    expect(_line(aki, "The door creaks open.")).to_be_visible()
    expect(_line(aki, "Pizza is here")).to_be_hidden()

    check_requested(gm, "Climb the archive shelves", difficulty="9")
    expect(aki).to_have_title("(1) Check waiting · " + TITLE)
    expect(aki.locator("[data-check-badge]")).to_have_text("1")

    aki.locator('[data-room-tab="checks"]').click()
    widget = aki.locator("#check-items .roll-widget")
    expect(widget).to_be_in_viewport()
    _send(gm, "Mind the loose shelf.")
    expect(aki.locator("[data-chat-badge]")).to_have_text("1")
    widget.get_by_role("button", name="Roll 2D6").click()

    expect(aki).to_have_title(TITLE)
    expect(aki.locator("[data-check-badge]")).to_be_hidden()
    aki.locator('[data-room-tab="play"]').click()
    expect(aki.locator("[data-chat-badge]")).to_be_hidden()
    expect(_line(aki, "Mind the loose shelf.")).to_be_in_viewport()
    # The GM's request form still says "Check requested." to the GM who sent it; the player's
    # page is the one that lived through every live change.
    expect_same_as_fresh_load(aki)


def test_check_jump_moves_focus_to_the_waiting_check(browser, table_setup):
    base_url, session = table_setup
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")

    check_requested(gm, "Climb the archive shelves", difficulty="9")
    aki.get_by_role("button", name="Go to the check").click()

    expect(aki.locator("#check-items h3")).to_be_focused()
    expect(aki.locator(".checks-card")).to_have_class(re.compile("has-waiting"))


def test_information_tab_shows_rolls_without_chat(browser, table_setup):
    base_url, session = table_setup
    aki = room_page(browser, base_url, session, "aki")

    _send(aki, "Anyone for tea?")
    aki.locator("#roll_text").fill("2D6")
    aki.get_by_role("button", name="Roll", exact=True).click()
    expect(aki.locator("#timeline-items .event-command_rolled")).to_be_visible()
    aki.get_by_role("tab", name="Information").click()

    expect(_line(aki, "Anyone for tea?")).to_be_hidden()
    expect(aki.locator("#timeline-items .event-command_rolled")).to_be_visible()


def test_reader_scrolled_back_gets_a_new_lines_button(browser, table_setup):
    base_url, session = table_setup
    add_chat_lines(session, session.table.gm, 60)
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki")
    timeline = aki.locator("#timeline-items")
    timeline.evaluate("list => { list.scrollTop = 0; }")

    _send(gm, "Something stirs in the stacks.")
    expect(aki.get_by_role("button", name="New lines ↓")).to_be_visible()
    expect(_line(aki, "Something stirs in the stacks.")).not_to_be_in_viewport()
    aki.get_by_role("button", name="New lines ↓").click()

    expect(_line(aki, "Something stirs in the stacks.")).to_be_in_viewport()
    expect(aki.get_by_role("button", name="New lines ↓")).to_be_hidden()


def test_check_sound_choice_is_remembered(browser, table_setup):
    base_url, session = table_setup
    aki = room_page(browser, base_url, session, "aki")

    aki.get_by_label("Beep when a check waits for me").check()
    aki.reload()

    expect(aki.get_by_label("Beep when a check waits for me")).to_be_checked()


@pytest.fixture
def aki_on_stage_with_a_smile(aki_in_a_scene):
    live_server_url, session, character = aki_in_a_scene
    aki = character.owner
    face_add(character=character, by=aki, data=picture_bytes("PNG"), label="calm")
    face_add(character=character, by=aki, data=picture_bytes("PNG", size=(64, 64)), label="smile")
    return live_server_url, session


def test_phone_player_speaks_with_an_expression(browser, aki_on_stage_with_a_smile):
    base_url, session = aki_on_stage_with_a_smile
    gm = room_page(browser, base_url, session, "keeper")
    aki = room_page(browser, base_url, session, "aki", width=390, height=844)

    aki.get_by_label("Say as").select_option(label="As Aki (in character)")
    aki.get_by_label("Expression").select_option(label="Aki: smile")
    expect(aki.locator("#chat_text")).to_be_in_viewport(ratio=1)
    _send(aki, "Found it!")

    for page in (aki, gm):
        face = page.locator("#timeline-items li.event-chat img.line-face[alt='Aki: smile']")
        expect(face).to_be_visible()
    expect(aki.locator("#chat_text")).to_be_in_viewport(ratio=1)
    expect_same_as_fresh_load(aki)
    expect_same_as_fresh_load(gm)


# A menu's chosen option fits inside it beside the menu's arrow: a select cut short shows
# no scrollbar, so its text is measured in the menu's own font.
CHOICE_SHOWN_WHOLE = """(el) => {
  const style = getComputedStyle(el);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const text = pen.measureText(el.options[el.selectedIndex].text).width;
  const inside = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const arrow = 16;
  return text + arrow <= inside;
}"""


@pytest.mark.parametrize("language", ["English", "日本語"])
def test_phone_room_keeps_language_tabs_and_voices_whole(browser, table_setup, language):
    base_url, session = table_setup
    page = room_page(browser, base_url, session, "keeper", width=390, height=844)
    # The language switch is on screen, not scrolled off in the header's menu, and works.
    for button in page.locator(".language-switch button").all():
        expect(button).to_be_in_viewport(ratio=1)
    page.locator(".language-switch button", has_text=language).click()
    expect(page.locator(".language-switch button.current")).to_have_text(language)
    expect(page.locator("#connection-status")).to_have_text(re.compile("Live|接続中"))
    # Every tab, 「卓」 included, shows its whole label inside the screen.
    for tab in page.locator(".room-tab").all():
        expect(tab).to_be_in_viewport(ratio=1)
        assert tab.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    # The voice menu is never cut short ("Out of cha…", 「プレイヤー発言（PL」).
    voices = page.locator("#chat-form select[name=say_as]")
    assert voices.evaluate(CHOICE_SHOWN_WHOLE), voices.evaluate("(el) => el.value")
    expect(page.locator("#chat_text")).to_be_in_viewport(ratio=1)
