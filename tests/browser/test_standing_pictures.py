"""The standing pictures (立ち絵) in real browsers: the speaker steps to the front live, with
the expression they spoke with; on a phone a short strip leaves the chat on the first screen."""

import pytest
from playwright.sync_api import expect

from sessions_app.services.faces import face_add
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.factories import cast_member, friday_session, on_stage
from tests.pictures import picture_bytes

pytestmark = pytest.mark.browser


@pytest.fixture
def pair_on_stage(live_server_url):
    session, gm, (aki, ren) = friday_session("aki", "ren")
    characters = []
    for owner, name, color in [(aki, "Aki", (200, 40, 40)), (ren, "Ren", (40, 40, 200))]:
        character = cast_member(session, owner, name=name)
        face_add(
            character=character,
            by=owner,
            data=picture_bytes("PNG", size=(60, 96), color=color),
            label="calm",
        )
        face_add(
            character=character,
            by=owner,
            data=picture_bytes("PNG", size=(60, 96), color=(40, 160, 40)),
            label="grin",
        )
        characters.append(character)
    on_stage(session, gm, *characters)
    return live_server_url, session


def test_the_speaker_steps_to_the_front_with_their_expression(
    browser, pair_on_stage, csp_violations
):
    base_url, session = pair_on_stage
    aki = csp_violations(room_page(browser, base_url, session, "aki"))
    ren = csp_violations(room_page(browser, base_url, session, "ren", width=390, height=844))
    figures = aki.locator("#standing .standing-figure")
    expect(figures).to_have_count(2)
    expect(aki.locator("#standing img[alt='Aki: calm']")).to_be_visible()
    expect(aki.locator("#standing img[alt='Ren: calm']")).to_be_visible()
    expect(aki.locator("#standing .is-speaking")).to_have_count(0)

    # On the phone the strip is short, and the chat is still on the first screen.
    strip = ren.locator("#standing").bounding_box()
    assert strip is not None and strip["height"] <= 100
    expect(ren.get_by_label("Message")).to_be_in_viewport()

    ren.get_by_label("Say as").select_option(label="As Ren (in character)")
    ren.get_by_label("Expression").select_option(label="Ren: grin")
    ren.get_by_label("Message").fill("I know this place.")
    ren.get_by_role("button", name="Send").click()

    # Ren stands in front (last, drawn over the others), lit up, grinning: on every page.
    for page in (aki, ren):
        speaker = page.locator("#standing .standing-figure.is-speaking")
        expect(speaker).to_have_count(1)
        expect(speaker.locator("img")).to_have_attribute("alt", "Ren: grin")
        expect(page.locator("#standing .standing-figure").last).to_have_class(
            "standing-figure is-speaking"
        )
    speaker = aki.locator("#standing .is-speaking img")
    assert speaker.evaluate("image => image.decode().then(() => image.naturalWidth)") == 60
    front = aki.locator("#standing .is-speaking").evaluate("el => getComputedStyle(el).zIndex")
    behind = aki.locator("#standing .standing-figure").first.evaluate(
        "el => getComputedStyle(el).zIndex"
    )
    assert int(front) > (0 if behind == "auto" else int(behind))
    expect_same_as_fresh_load(aki)
    expect_same_as_fresh_load(ren)

    # A line out of character moves nobody; the GM taking Ren off stage does.
    gm = room_page(browser, base_url, session, "keeper")
    gm.get_by_role("button", name="Take Ren off stage").click()
    expect(figures).to_have_count(1)
    expect(aki.locator("#standing img[alt='Aki: calm']")).to_be_visible()
    expect_same_as_fresh_load(aki)
    assert csp_violations.found == []
