"""A GM brings a room over from Ccfolia in a real browser: the report, then the characters
with their palettes and faces; a hostile zip is refused with a message."""

import pytest
from playwright.sync_api import expect

from sessions_app.models import TableAudio
from tests.browser.pages import logged_in
from tests.ccfolia_exports import sample_room, zip_of
from tests.factories import friday_table

pytestmark = pytest.mark.browser


@pytest.fixture
def console_errors():
    """Collect every console error and uncaught page error of the pages watched."""
    found: list[str] = []

    def watch(page):
        page.on(
            "console",
            lambda message: found.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: found.append(str(error)))
        return page

    watch.found = found
    return watch


def _import(page, base_url, table, name: str, data: bytes) -> None:
    page.goto(f"{base_url}/tables/{table.pk}/")
    page.get_by_role("link", name="Import a Ccfolia room").click()
    page.get_by_label("Ccfolia room export (zip)").set_input_files(
        {"name": name, "mimeType": "application/zip", "buffer": data}
    )
    page.get_by_role("button", name="Import").click()


def test_gm_imports_a_room_and_finds_its_characters_with_palettes_and_faces(
    browser, live_server_url, console_errors
):
    table, _gm, _players = friday_table("aki")
    page = console_errors(logged_in(browser, live_server_url, "keeper"))
    data, _names = sample_room()

    _import(page, live_server_url, table, "月曜卓.zip", data)

    expect(page.get_by_role("heading", name="Ccfolia room imported")).to_be_visible()
    characters = page.locator("section[aria-labelledby='imported-characters-heading']")
    expect(characters.get_by_role("link", name="天城 アキ")).to_be_visible()
    expect(characters).to_contain_text("2 pictures")
    expect(characters).to_contain_text("chat palette of 3 lines")
    scenes = page.locator("section[aria-labelledby='imported-scenes-heading']")
    expect(scenes.get_by_role("link", name="Ccfolia: 月曜卓")).to_be_visible()
    expect(scenes).to_contain_text("foreground as the handout “図書館 (foreground)”")
    sounds = page.locator("section[aria-labelledby='imported-sounds-heading']")
    expect(sounds).to_contain_text("battle")
    expect(sounds).to_contain_text("played in Scene “決戦”")
    assert TableAudio.objects.get(table=table).title == "battle"
    left_out = page.locator("section[aria-labelledby='left-out-heading']")
    expect(left_out).to_contain_text("Portrait of 黒衣の男")
    expect(left_out).to_contain_text("never fetched")

    characters.get_by_role("link", name="天城 アキ").click()
    expect(page.get_by_label("Chat palette")).to_have_value(
        "2D6+{筋力}>= 筋力判定\n:HP-1\n{武器}で斬りかかる"
    )
    for alt in ("天城 アキ: Portrait", "天城 アキ: 笑顔"):
        face = page.locator(f"#face-list img[alt='{alt}']")
        expect(face).to_be_visible()
        # decode() settles once the picture has loaded: it is served, not a broken link.
        assert face.evaluate("image => image.decode().then(() => image.naturalWidth)") == 40

    page.goto(f"{live_server_url}/tables/{table.pk}/characters/")
    expect(page.get_by_role("link", name="黒衣の男")).to_be_visible()
    assert console_errors.found == []


def test_gm_uploading_a_zip_bomb_is_told_why_and_nothing_is_imported(
    browser, live_server_url, console_errors
):
    table, _gm, _players = friday_table("aki")
    page = console_errors(logged_in(browser, live_server_url, "keeper"))
    bomb = zip_of([("__data.json", b"{}"), ("a.png", bytes(4 << 20))])

    _import(page, live_server_url, table, "room.zip", bomb)

    expect(page.get_by_text("a zip bomb")).to_be_visible()
    page.goto(f"{live_server_url}/tables/{table.pk}/characters/")
    expect(page.get_by_text("No characters yet.")).to_be_visible()
    # The refusal answers 400: the browser reports that one response, nothing else.
    assert [text for text in console_errors.found if "400" not in text] == []
