"""Secrecy of verifiable dice, captured at the wire: until a secret roll is revealed, no
player's websocket frames, htmx answers or pages hold its key (nor any epoch's master
secret), the only things that, with the published roller's value, determine its faces."""

import contextlib

import pytest
from playwright.sync_api import Error, expect

from sessions_app.models import DiceEpoch, Roll, TimelineEvent
from sessions_app.rules import dice_proof
from sessions_app.services.dice import dice_commit_ahead
from tests.browser.pages import check_requested, logged_in, opened_live
from tests.factories import CharacterFactory, friday_session

pytestmark = pytest.mark.browser


class Capture:
    """Everything one browser received: websocket frames, HTTP answers and page snapshots."""

    def __init__(self, page):
        self.page = page
        self.texts: list[str] = []
        self.responses = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", lambda response: self.responses.append(response))

    def _frame(self, payload):
        self.texts.append(payload if isinstance(payload, str) else payload.decode(errors="replace"))

    def snapshot(self):
        self.texts.append(self.page.content())

    def everything(self) -> str:
        bodies = []
        for response in self.responses:
            # A redirect, or a body the browser already dropped, has no text to read.
            with contextlib.suppress(Error):
                bodies.append(response.text())
        return "\n".join(self.texts + bodies)


def _open(browser, base_url, session, username) -> Capture:
    page = logged_in(browser, base_url, username, viewport={"width": 1280, "height": 1100})
    capture = Capture(page)
    opened_live(page, f"{base_url}/sessions/{session.pk}/")
    return capture


@pytest.fixture
def table_setup(live_server_url):
    session, gm, (aki, ren) = friday_session("aki", "ren")
    session.characters.add(
        CharacterFactory(table=session.table, owner=aki, name="Aki", judgement_values={"Senses": 4})
    )
    CharacterFactory(table=session.table, owner=gm, kind="npc", name="Guard")
    dice_commit_ahead(session=session)
    return live_server_url, session


def _key(roll: Roll) -> str:
    master = bytes(DiceEpoch.objects.get(session=roll.session, number=roll.dice_epoch).master)
    return dice_proof.roll_key(master, roll.session_id, roll.dice_epoch, roll.dice_index).hex()


@pytest.mark.long
def test_secret_roll_keys_stay_off_players_wires_until_revealed(
    browser, table_setup, console_errors
):
    base_url, session = table_setup
    gm = _open(browser, base_url, session, "keeper")
    aki = _open(browser, base_url, session, "aki")
    ren = _open(browser, base_url, session, "ren")

    gm.page.locator("summary", has_text="Roll for an NPC").click()
    npc_form = gm.page.locator("#npc-roll-form")
    npc_form.get_by_label("NPC").select_option(label="Guard")
    npc_form.get_by_label("What for").fill("Sense the ambush")
    npc_form.get_by_label("or a number").fill("3")
    npc_form.get_by_label("Secret roll (GM only)").check()
    npc_form.get_by_role("button", name="Roll 2D6").click()
    expect(gm.page.locator("#timeline-items")).to_contain_text("Sense the ambush")
    check_requested(gm.page, "Notice the assassin", value_name=None, number="4", secret=True)
    aki.page.locator("#check-items .roll-widget").get_by_role("button", name="Roll 2D6").click()
    ren.page.get_by_label("Roll box").fill("S2D6+1")
    ren.page.get_by_role("button", name="Roll", exact=True).click()
    aki.page.get_by_label("Roll box").fill("2D6")
    aki.page.get_by_role("button", name="Roll", exact=True).click()
    for _ in range(100):
        if Roll.objects.count() == 4:
            break
        gm.page.wait_for_timeout(100)
    assert Roll.objects.count() == 4, list(Roll.objects.values_list("label", "command"))
    # Every live push has reached every page: the last roll's card is on each.
    for capture in (gm, aki, ren):
        timeline = capture.page.locator("#timeline-items")
        expect(timeline.locator(".roll-card code", has_text="2D6")).not_to_have_count(0)
        expect(timeline.locator(".event-secret_roll, .badge-secret")).not_to_have_count(0)

    npc_roll = Roll.objects.get(label="Sense the ambush")
    aki_secret = Roll.objects.get(label="Notice the assassin")
    ren_secret = Roll.objects.get(command="S2D6+1")
    public = Roll.objects.get(command="2D6")
    masters = [bytes(epoch.master).hex() for epoch in DiceEpoch.objects.all()]
    # A fresh look at every page a player may open, and at the hidden rolls' proof pages.
    hidden_seqs = TimelineEvent.objects.filter(
        session=session, kind__in=["check_rolled", "command_rolled"], payload__secret=True
    ).values_list("seq", flat=True)
    for capture in (gm, aki, ren):
        for path in ["", "review/", *[f"verify/{seq}/" for seq in hidden_seqs]]:
            capture.page.goto(f"{base_url}/sessions/{session.pk}/{path}")
            capture.snapshot()
        # The export is a download: fetched with the player's own cookies instead.
        export = capture.page.request.get(f"{base_url}/sessions/{session.pk}/export.json")
        assert export.ok
        capture.texts.append(export.text())
    # A player's proof page of a roll hidden from them answers 404: that is the point, and the
    # browser logs it all the same.
    console_errors[:] = [
        line for line in console_errors if not ("/verify/" in line and "status of 404" in line)
    ]

    aki_saw, ren_saw, gm_saw = aki.everything(), ren.everything(), gm.everything()
    for secret in [_key(npc_roll), _key(aki_secret), _key(ren_secret), *masters]:
        assert secret not in aki_saw
    for secret in [_key(npc_roll), _key(aki_secret), *masters]:
        assert secret not in ren_saw
    # The capture does see keys (in the export and the proof pages): the public roll's reaches
    # everyone, a secret one its roller (a roll-box secret) or the GM.
    assert _key(public) in aki_saw and _key(public) in ren_saw
    assert _key(ren_secret) in ren_saw
    assert _key(npc_roll) in gm_saw and _key(aki_secret) in gm_saw

    for capture in (gm, aki):
        opened_live(capture.page, f"{base_url}/sessions/{session.pk}/")
    gm.page.locator("#timeline-items .roll-card", has_text="Sense the ambush").get_by_role(
        "button", name="Reveal to everyone"
    ).click()
    revealed = aki.page.locator("#timeline-items .event-roll_revealed")
    expect(revealed).to_have_count(1)

    revealed.get_by_role("link", name="Check these dice").click()
    expect(aki.page.locator("#dice-verdict")).to_contain_text("These dice verify.")
    aki.snapshot()
    assert _key(npc_roll) in aki.everything()
    assert _key(aki_secret) not in aki.everything()
