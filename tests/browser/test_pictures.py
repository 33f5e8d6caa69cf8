"""Faces in a real browser: a refused upload says why; an expression shows beside its line."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import expect_same_as_fresh_load, logged_in, opened_live
from tests.pictures import picture_bytes

pytestmark = pytest.mark.browser


def _upload(page, label: str, name: str, mime: str, data: bytes) -> None:
    form = page.locator("form.face-upload")
    form.get_by_label("Label").fill(label)
    form.get_by_label("Picture").set_input_files({"name": name, "mimeType": mime, "buffer": data})
    form.get_by_role("button", name="Upload").click()


def test_character_page_refuses_a_file_that_is_not_a_picture(browser, aki_in_a_scene):
    base_url, _session, character = aki_in_a_scene
    page = logged_in(browser, base_url, "aki")
    page.goto(f"{base_url}/characters/{character.pk}/")
    _upload(page, "smile", "smile.png", "image/png", b"%PDF-1.4 not a picture at all")
    expect(page.get_by_role("alert")).to_contain_text(
        "That file is not a picture this app accepts: use a PNG, JPEG, WebP or GIF image."
    )
    expect(page.locator("#face-list")).to_have_count(0)


def test_expression_uploaded_then_spoken_shows_beside_the_line(
    browser, aki_in_a_scene, csp_violations
):
    base_url, session, character = aki_in_a_scene
    page = csp_violations(logged_in(browser, base_url, "aki"))
    page.goto(f"{base_url}/characters/{character.pk}/")
    _upload(page, "smile", "smile.png", "image/png", picture_bytes("PNG", size=(64, 64)))
    expect(page.locator("#face-list img[alt='Aki: smile']")).to_be_visible()

    opened_live(page, f"{base_url}/sessions/{session.pk}/")
    page.get_by_label("Say as").select_option(label="As Aki (in character)")
    expression = page.get_by_label("Expression")
    expect(expression).to_be_enabled()
    expression.select_option(label="Aki: smile (portrait)")
    page.get_by_label("Message").fill("Found it!")
    page.get_by_role("button", name="Send").click()

    face = page.locator("#timeline-items li.event-chat img.line-face[alt='Aki: smile']")
    expect(face).to_be_visible()
    # decode() settles once the picture has loaded: no race with a slow answer.
    assert face.evaluate("image => image.decode().then(() => image.naturalWidth)") == 64
    expect(page.locator("#on-stage img.stage-portrait")).to_be_visible()
    expect_same_as_fresh_load(page)
    assert csp_violations.found == []
