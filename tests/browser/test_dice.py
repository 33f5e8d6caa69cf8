"""Verifiable dice in a real browser: roll, open the verification page, see it verify."""

import json

import pytest
from django.db import connection
from playwright.sync_api import expect

from sessions_app.models import DiceEpoch, DiceReservation, Roll
from sessions_app.rules import dice_proof
from sessions_app.services.dice import dice_commit_ahead
from tests.browser.pages import room_page
from tests.factories import friday_session

pytestmark = pytest.mark.browser


@pytest.fixture
def table_setup(live_server_url):
    session, gm, (aki,) = friday_session("aki")
    dice_commit_ahead(session=session)
    return live_server_url, session


def test_roll_opens_a_verification_page_that_verifies(browser, table_setup, csp_violations):
    base_url, session = table_setup
    aki = csp_violations(room_page(browser, base_url, session, "aki"))

    aki.get_by_label("Roll box").fill("3D6+1")
    aki.get_by_role("button", name="Roll", exact=True).click()
    link = aki.locator("#timeline-items .roll-card").last.get_by_role(
        "link", name="Check these dice"
    )
    expect(link).to_be_visible()
    roll = Roll.objects.get()
    assert roll.dice_value_source == "browser"
    link.click()

    expect(aki.locator('#dice-verdict [data-verdict="ok"]')).to_be_visible()
    expect(aki.locator("#dice-verdict")).to_contain_text("These dice verify.")
    expect(aki.locator('[data-out="faces"]')).to_have_text(", ".join(map(str, roll.faces)))
    expect(aki.locator("[data-dice-mine]")).to_be_visible()
    assert csp_violations.found == []


def test_in_browser_verifier_refuses_tampered_proofs(browser, table_setup):
    base_url, session = table_setup
    aki = room_page(browser, base_url, session, "aki")
    aki.get_by_label("Roll box").fill("2D6")
    aki.get_by_role("button", name="Roll", exact=True).click()
    aki.locator("#timeline-items .roll-card").last.get_by_role(
        "link", name="Check these dice"
    ).click()
    # Every verdict is in the page, hidden; the script shows the one that holds.
    expect(aki.locator('#dice-verdict [data-verdict="ok"]')).to_be_visible()
    roll = Roll.objects.get()
    master = bytes(DiceEpoch.objects.get(session=session).master)

    def verdict(change: str, **values) -> str:
        return aki.evaluate(
            """async ([change, values]) => {
                const data = JSON.parse(document.getElementById("dice-proof-data").textContent);
                if (change === "face") data.faces[0] = String(Number(data.faces[0]) % 6 + 1);
                if (change === "shown") data.shown[0] = String(Number(data.shown[0]) % 6 + 1);
                Object.assign(data, values);
                return (await window.srsDiceVerify(data)).verdict;
            }""",
            [change, values],
        )

    other_session = dice_proof.roll_key(master, session.pk + 1, 0, roll.dice_index).hex()
    other_roll = dice_proof.roll_key(master, session.pk, 0, roll.dice_index + 1).hex()
    assert verdict("") == "ok"
    assert verdict("face") == "faces"
    assert verdict("shown") == "faces"
    assert verdict("", root="00" * 32) == "commitment"
    assert verdict("", key=other_session) == "commitment"
    assert verdict("", key=other_roll) == "commitment"
    assert verdict("", index=roll.dice_index + 1) == "commitment"
    assert verdict("", value="ab" * 16) in ("faces", "ok")  # 1 in 36 to match by chance
    assert verdict("", key="zz") == "malformed"


def test_browser_warns_when_a_batchs_commitment_changes_later(browser, table_setup):
    base_url, session = table_setup
    aki = room_page(browser, base_url, session, "aki")
    commit = session.events.get(kind="dice_committed")
    kept = aki.evaluate("() => JSON.parse(localStorage.getItem('srs-dice-roots'))")
    assert kept == {f"{session.pk}:0": commit.payload["root"]}
    expect(aki.locator("[data-dice-root-warning]")).to_be_hidden()
    aki.get_by_label("Roll box").fill("2D6")
    aki.get_by_role("button", name="Roll", exact=True).click()
    verify_url = (
        aki.locator("#timeline-items .roll-card")
        .last.get_by_role("link", name="Check these dice")
        .get_attribute("href")
    )

    # The server now shows another root for the same batch (a rewritten history).
    forged = "ab" * 32
    # A rewritten history, past the model's append-only guard: as a server's database could.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE sessions_app_timelineevent SET payload = %s WHERE id = %s",
            [json.dumps({**commit.payload, "root": forged}), commit.pk],
        )

    aki.reload()
    warning = aki.locator("[data-dice-root-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("The dice commitments changed.")
    expect(warning.locator('[data-out="seen"]')).to_have_text(DiceEpoch.objects.get().root)
    expect(warning.locator('[data-out="now"]')).to_have_text(forged)
    aki.goto(base_url + verify_url)
    expect(aki.locator("[data-dice-root-warning]")).to_be_visible()
    expect(aki.locator('#dice-verdict [data-verdict="commitment"]')).to_be_visible()


def test_browser_roll_reserves_its_key_before_drawing_its_value(browser, table_setup):
    base_url, session = table_setup
    aki = room_page(browser, base_url, session, "aki")

    aki.get_by_label("Roll box").fill("2D6")
    aki.get_by_role("button", name="Roll", exact=True).click()
    expect(aki.locator("#timeline-items .roll-card")).to_have_count(1)

    roll = Roll.objects.get()
    reservation = DiceReservation.objects.get()
    assert (reservation.state, reservation.user.username) == ("used", "aki")
    assert (roll.dice_epoch, roll.dice_index) == (reservation.epoch, reservation.index)
    assert roll.dice_value_source == "browser"
    reserved = session.events.get(kind="dice_reserved")
    assert reserved.seq < session.events.get(kind="command_rolled").seq
