"""The review page in a real browser, and its HTML export opened from disk."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import logged_in
from tests.factories import friday_session
from tests.sessions_app.log_script import PUBLIC, SECRETS, play_scripted_session

pytestmark = pytest.mark.browser


@pytest.fixture
def played(live_server_url):
    session, gm, (aki,) = friday_session("aki")
    play_scripted_session(session, gm, aki)
    return live_server_url, session


PHONE = {"accept_downloads": True, "viewport": {"width": 390, "height": 900}}


def test_review_scene_expands_by_keyboard(browser, played, csp_violations):
    base_url, session = played
    page = logged_in(browser, base_url, "aki", **PHONE)
    csp_violations(page)
    page.goto(f"{base_url}/sessions/{session.pk}/review/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("The Akashic Library")

    pre_play = page.locator("details.review-section").first
    expect(pre_play).not_to_have_attribute("open", "")
    expect(pre_play.get_by_text(PUBLIC["chat"])).to_be_hidden()
    pre_play.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(pre_play).to_have_attribute("open", "")
    expect(pre_play.get_by_text(PUBLIC["chat"])).to_be_visible()
    expect(page.locator("#review-log")).not_to_contain_text(SECRETS["gm_chat"])
    # The revealed roll counts for the player: the session's dice are drawn on the page.
    page.locator(".review-dice summary").click()
    expect(page.locator(".review-dice svg[role=img]")).to_be_visible()
    assert csp_violations.found == []
    page.context.close()


def test_review_filter_applies_without_script(browser, played):
    base_url, session = played
    page = logged_in(browser, base_url, "aki", **PHONE)
    page.goto(f"{base_url}/sessions/{session.pk}/review/")
    page.get_by_label("Chat only").check()
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(f"{base_url}/sessions/{session.pk}/review/?show=chat&character=")
    expect(page.locator("#review-log")).not_to_contain_text(PUBLIC["revealed_roll"])
    page.context.close()


def test_review_html_export_opens_offline(browser, played, tmp_path):
    base_url, session = played
    page = logged_in(browser, base_url, "aki", **PHONE)
    page.goto(f"{base_url}/sessions/{session.pk}/review/")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="HTML page (readable offline)").click()
    download = download_info.value
    assert download.suggested_filename == "2026-12-05-the-akashic-library.html"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    page.context.close()

    # Opened from disk in a browser that cannot reach any server.
    offline = browser.new_context(offline=True)
    requests = []
    disk = offline.new_page()
    disk.on("request", lambda request: requests.append(request.url))
    disk.goto(path.as_uri())
    expect(disk.get_by_role("heading", level=1)).to_have_text("The Akashic Library")
    expect(disk.get_by_role("heading", level=2, name="Opening")).to_be_visible()
    expect(disk.get_by_role("heading", level=3, name="Scene 1: The reading room")).to_be_visible()
    expect(disk.locator("main")).to_contain_text(PUBLIC["revealed_roll"])
    expect(disk.locator("main")).not_to_contain_text(SECRETS["secret_roll"])
    expect(disk.locator(".dice-figure svg[role=img]")).to_be_visible()
    assert [url for url in requests if not url.startswith("file://")] == []
    offline.close()
