"""Two players sit down to Actual in the session room, a third person watches."""

import pytest
from playwright.sync_api import expect

from minigames import services as match_services
from minigames.services import SeatSpec
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    friday_table,
)

pytestmark = pytest.mark.browser

# With this seed and these options the first player (Aki) draws four Move cards and an
# Attack, and Ren draws the Counter: enough to walk up, attack and be countered.
SEED = 55


@pytest.fixture
def match_setup(live_server_url):
    table, gm, (aki, ren) = friday_table("aki", "ren")
    session = GameSessionFactory(table=table, title="The Akashic Library")
    characters = []
    for owner, name in [(aki, "Aki"), (ren, "Ren")]:
        character = CharacterFactory(table=table, owner=owner, name=name)
        session.characters.add(character)
        characters.append(character)
    match = match_services.match_create(
        session=session,
        by=gm,
        seats=[SeatSpec(characters[0]), SeatSpec(characters[1])],
        options={"first_player": 0, "turn_limit": 200},
        seed=SEED,
    )
    return live_server_url, session, match


def _prepare(page, match):
    board = page.locator(f"#match-{match.pk}")
    board.get_by_role("radiogroup", name="Piece 1: column").get_by_role("radio", name="c").check()
    board.locator("input[name=life]").nth(0).fill("5")
    board.get_by_role("radiogroup", name="Piece 2: column").get_by_role(
        "radio", name="none"
    ).check()
    board.locator("input[name=life]").nth(1).fill("0")
    board.get_by_role("button", name="Ready").click()


def _use(page, match, kind, piece_square, target_label):
    board = page.locator(f"#match-{match.pk}")
    board.locator(f".hand .card-{kind}").first.click()
    board.get_by_role(
        "button", name=f"Use it with your piece on {piece_square}", exact=False
    ).click()
    board.get_by_role("button", name=target_label, exact=True).click()


def _end_turn(page, match):
    page.locator(f"#match-{match.pk}").get_by_role(
        "button", name="End turn (draw back to 5)"
    ).click()


def test_actual_match_played_watched_and_resigned(browser, match_setup):
    base_url, session, match = match_setup
    aki = room_page(browser, base_url, session, "aki")
    ren = room_page(browser, base_url, session, "ren")
    gm = room_page(browser, base_url, session, "keeper")
    aki_board = aki.locator(f"#match-{match.pk}")
    ren_board = ren.locator(f"#match-{match.pk}")
    gm_board = gm.locator(f"#match-{match.pk}")

    # Both prepare in secret; the watcher sees neither setup.
    expect(gm_board).to_contain_text("watching")
    expect(gm_board.locator(".setup-form")).to_have_count(0)
    # Aki also keeps the match's own page open in another tab: it follows the board live.
    aki_match_page = aki.context.new_page()
    aki_match_page.goto(f"{base_url}/matches/{match.pk}/")
    expect(aki_match_page.locator("#connection-status")).to_have_text("Live")
    _prepare(aki, match)
    expect(aki_board).to_contain_text("Waiting for both sides")
    expect(aki_match_page.locator(f"#match-{match.pk}")).to_contain_text("Waiting for both sides")
    _prepare(ren, match)
    expect(aki_board).to_contain_text("your turn")
    expect(aki_match_page.locator(f"#match-{match.pk}")).to_contain_text("your turn")
    expect_same_as_fresh_load(aki_match_page)
    aki_match_page.close()

    # Aki walks up the c file with four Move cards.
    for start, target in [("c1", "c2"), ("c2", "c3"), ("c3", "c4"), ("c4", "c5")]:
        _use(aki, match, "move", start, f"Move to {target}")
        expect(aki_board.locator(".cell[aria-label^='" + target + ": your piece']")).to_have_count(
            1
        )
    _end_turn(aki, match)

    # Ren steps forward; the watcher sees the pieces but no hand.
    expect(ren_board).to_contain_text("your turn")
    _use(ren, match, "move", "c7", "Move to c6")
    expect(ren_board.locator(".cell[aria-label^='c6: your piece']")).to_have_count(1)
    _end_turn(ren, match)
    expect(gm_board.locator(".cell[aria-label^='c6: Ren’s piece']")).to_have_count(1)
    expect(gm_board.locator(".hand")).to_have_count(0)

    # Ren settled the Counter beforehand (reveal it, the default), a choice only Ren sees;
    # Aki's attack is met at once, with no question asked of anyone.
    expect(ren_board.locator(".counter-choice")).to_contain_text("you reveal your Counter")
    expect(gm_board.locator(".counter-choice")).to_have_count(0)
    expect(aki_board).to_contain_text("your turn")
    _use(aki, match, "attack", "c5", "Attack c6")
    expect(aki_board.locator(".cell[aria-label='c5: your piece, life 4']")).to_have_count(1)
    expect(ren_board.locator(".cell[aria-label='c6: your piece, life 5']")).to_have_count(1)
    expect(aki_board).to_contain_text("your turn")
    expect(aki_board.get_by_role("button", name="Reveal the Counter")).to_have_count(0)
    _end_turn(aki, match)
    expect(ren_board).to_contain_text("your turn")

    # Ren resigns; the result reaches everyone's timeline.
    ren.once("dialog", lambda dialog: dialog.accept())
    ren_board.get_by_role("button", name="Resign").click()
    for page in (aki, ren, gm):
        expect(page.locator("#timeline-items .event-match_finished")).to_contain_text(
            "Aki beat Ren at Actual"
        )
