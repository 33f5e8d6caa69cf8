"""The room's sound and cut-ins in real browsers: a scene's music starts where sound is
allowed and stops with the scene; a critical's cut-in reaches the players and a spectator."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import Membership, RulesProfile
from sessions_app.services.audio import audio_upload, scene_music_set
from tests.browser.conftest import CHROMIUM
from tests.browser.pages import check_requested, expect_same_as_fresh_load, room_page
from tests.factories import cast_member, friday_session, scene_started
from tests.sounds import wav_bytes

pytestmark = pytest.mark.browser


@pytest.fixture
def sound_allowed_browser(browser_type, browser_type_launch_args, live_server_url):
    """A Chromium that lets pages play sound without a click first, as a browser does once
    its user allowed the site. It asks for the live server so that it closes before the
    server's teardown, which waits for every page's socket to be gone."""
    launched = browser_type.launch(
        **{
            **browser_type_launch_args,
            "executable_path": CHROMIUM,
            "args": [
                *browser_type_launch_args.get("args", []),
                "--autoplay-policy=no-user-gesture-required",
                "--mute-audio",
            ],
        }
    )
    yield launched
    launched.close()


@pytest.fixture
def scene_running(live_server_url):
    session, gm, (aki, ren) = friday_session("aki", "ren")
    aki_pc = cast_member(session, aki, name="Aki", slot=1, judgement_values={"Reflexes": 4})
    cast_member(session, ren, name="Ren", slot=2, judgement_values={"Reflexes": 3})
    scene_started(session, gm, scene_player=aki_pc, title="The reading room")
    return live_server_url, session.table, session


def _music_playing(page) -> bool:
    return page.evaluate(
        """() => {
          const player = document.getElementById("music-player");
          return !!player.getAttribute("src") && !player.paused;
        }"""
    )


def test_scene_music_starts_where_sound_is_allowed_and_stops_with_the_scene(
    browser, sound_allowed_browser, scene_running, csp_violations
):
    base_url, _table, session = scene_running
    gm = csp_violations(room_page(browser, base_url, session, "keeper"))
    aki = csp_violations(room_page(sound_allowed_browser, base_url, session, "aki"))

    gm.locator("summary", has_text="Music, sounds and cut-ins").click()
    tools = gm.locator("#audio-controls")
    # A picture renamed .mp3 is refused with a message, and nothing is added.
    tools.get_by_label(re.compile("^Sound file")).set_input_files(
        {"name": "theme.mp3", "mimeType": "audio/mpeg", "buffer": b"\x89PNG\r\n\x1a\n" + bytes(64)}
    )
    tools.get_by_role("button", name="Upload the sound").click()
    expect(gm.locator("#audio-status")).to_contain_text("not a sound this app accepts")

    tools = gm.locator("#audio-controls")
    tools.get_by_label(re.compile("^Sound file")).set_input_files(
        {"name": "rain.wav", "mimeType": "audio/wav", "buffer": wav_bytes(2.0)}
    )
    tools.get_by_label("Title").fill("Rain on the library")
    tools.get_by_role("button", name="Upload the sound").click()
    expect(gm.locator("#audio-status")).to_contain_text("“Rain on the library” was added.")

    gm.get_by_label("Scene music (looped)").select_option(label="Rain on the library")
    gm.get_by_role("button", name="Set the music").click()

    expect(aki.locator("#scene-audio")).to_contain_text("Music: Rain on the library")
    expect(aki.locator("#timeline-items")).to_contain_text("Scene 1's music: Rain on the library.")
    aki.wait_for_function(
        """() => {
          const player = document.getElementById("music-player");
          return !player.paused && player.loop && player.currentTime > 0;
        }"""
    )
    expect(aki.locator("[data-sound-unlock]")).to_be_hidden()
    expect_same_as_fresh_load(aki)

    # This browser's own volume is kept across a reload.
    aki.get_by_label("Volume").fill("20")
    aki.reload()
    expect(aki.get_by_label("Volume")).to_have_value("20")
    aki.wait_for_function("() => !document.getElementById('music-player').paused")
    assert aki.evaluate("() => document.getElementById('music-player').volume") == 0.2

    gm.get_by_role("button", name="End the scene").click()
    expect(aki.locator("#scene-audio")).to_contain_text("No music is playing.")
    aki.wait_for_function("() => document.getElementById('music-player').paused")
    assert not _music_playing(aki)
    expect_same_as_fresh_load(aki)
    expect_same_as_fresh_load(gm)
    assert not csp_violations.found


def test_blocked_autoplay_offers_a_button_that_starts_the_music(browser, scene_running):
    base_url, _table, session = scene_running
    gm_user = Membership.objects.get(table=session.table, role="gm").user
    audio = audio_upload(
        table=session.table, by=gm_user, data=wav_bytes(2.0), file_name="rain.wav", title="Rain"
    )
    scene_music_set(session=session, by=gm_user, audio_id=audio.pk)

    ren = room_page(browser, base_url, session, "ren")
    # The test browser keeps Chromium's policy: no sound before the user's first click.
    unlock = ren.get_by_role("button", name="Click to allow sound")
    expect(unlock).to_be_visible()
    assert ren.evaluate("() => document.getElementById('music-player').paused")
    unlock.click()
    expect(unlock).to_be_hidden()
    ren.wait_for_function("() => !document.getElementById('music-player').paused")


@pytest.mark.long
def test_cut_in_on_a_critical_reaches_both_players_and_a_spectator(
    browser, scene_running, csp_violations
):
    base_url, table, session = scene_running
    # A profile where every roll is a critical (3 or more) or a fumble (2): the dice come
    # from the browser and the server together, so the test cannot choose them.
    lucky = RulesProfile.objects.get(pk=session.rules_profile_id)
    lucky.pk = None
    lucky.table = table
    lucky.name = "Every roll counts"
    lucky.critical, lucky.fumble = 3, 2
    lucky.save()
    session.rules_profile = lucky
    session.save(update_fields=["rules_profile"])
    table.spectators_allowed = True
    table.save(update_fields=["spectators_allowed"])

    gm = csp_violations(room_page(browser, base_url, session, "keeper"))
    aki = csp_violations(room_page(browser, base_url, session, "aki"))
    ren = csp_violations(room_page(browser, base_url, session, "ren", width=390, height=844))
    spectator = csp_violations(browser.new_context().new_page())
    spectator.goto(f"{base_url}/watch/{table.spectator_token}/sessions/{session.pk}/")
    expect(spectator.locator("#connection-status")).to_have_text("Live")

    gm.locator("summary", has_text="Music, sounds and cut-ins").click()
    gm.get_by_role("button", name="Show a cut-in on every critical and fumble").click()
    expect(gm.locator("#audio-status")).to_contain_text("Criticals and fumbles now show a cut-in.")

    check_requested(gm, "Dodge the falling shelf")

    widget = aki.locator("#check-items .roll-widget")
    expect(widget).to_be_visible()
    widget.get_by_role("button", name="Roll 2D6").click()

    said = re.compile(r"(Critical|Fumble)! Aki")
    for page in (aki, ren, spectator, gm):
        # Seen over the room on a phone too, whichever tab is open.
        expect(page.locator("[data-cut-in-stage]")).to_be_visible()
        expect(page.locator("[data-cut-in-stage] [data-cut-in-text]")).to_have_text(said)
        expect(page.locator("[data-cut-in-announce]")).to_have_text(said)
        expect(page.locator("#timeline-items")).to_contain_text("Cut-in:")
    # It goes by itself after a few seconds.
    expect(ren.locator("[data-cut-in-stage]")).to_be_hidden(timeout=8000)

    for page in (aki, ren, spectator):
        expect_same_as_fresh_load(page)
    assert not csp_violations.found


def test_cut_ins_turned_off_in_one_browser_stay_announced(browser, scene_running):
    base_url, _table, session = scene_running
    gm = room_page(browser, base_url, session, "keeper")
    ren = room_page(browser, base_url, session, "ren")
    ren.get_by_label("Hide cut-ins").check()

    gm.locator("summary", has_text="Music, sounds and cut-ins").click()
    gm.get_by_label("Cut-in text").fill("The seal breaks!")
    gm.get_by_role("button", name="Show the cut-in").click()

    expect(gm.locator("[data-cut-in-stage]")).to_be_visible()
    expect(ren.locator("[data-cut-in-announce]")).to_have_text("The seal breaks!")
    expect(ren.locator("[data-cut-in-stage]")).to_be_hidden()
    ren.reload()
    expect(ren.get_by_label("Hide cut-ins")).to_be_checked()
