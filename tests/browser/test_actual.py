"""Two players sit down to Actual in the session room, a third person watches."""

import pytest
from playwright.sync_api import expect

from minigames import services as match_services
from minigames.actual.rules import engine as actual_engine
from minigames.services import SeatSpec
from tests.browser.pages import expect_same_as_fresh_load, room_page
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    friday_table,
)
from tests.matches import actual_set_up_alike, aki_and_ren_at_a_match

pytestmark = pytest.mark.browser

# With this seed and these options the first player (Aki) draws four Move cards and an
# Attack, and Ren draws the Counter: enough to walk up, attack and be countered.
SEED = 55


def seated_match():
    """A session of Aki and Ren sitting down to Actual with SEED, Aki first."""
    return aki_and_ren_at_a_match(options={"first_player": 0, "turn_limit": 200}, seed=SEED)


@pytest.fixture
def match_setup(live_server_url):
    return (live_server_url, *seated_match())


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

    # Ren is asked at the attack (the default mode, seen by Ren alone), knowing which
    # piece attacks which; Aki waits, and Ren shows the Counter.
    expect(ren_board.locator(".counter-choice [aria-pressed=true]")).to_have_text(
        "Ask me at each attack"
    )
    expect(gm_board.locator(".counter-choice")).to_have_count(0)
    expect(aki_board).to_contain_text("your turn")
    _use(aki, match, "attack", "c5", "Attack c6")
    expect(ren_board.locator(".match-status")).to_contain_text(
        "Your piece on c6 (life 5) is attacked by the piece on c5"
    )
    expect(aki_board.locator(".match-status")).to_contain_text("Ren decides whether")
    ren_board.get_by_role("button", name="Show the Counter").click()
    expect(aki_board.locator(".cell[aria-label='c5: your piece, life 4']")).to_have_count(1)
    expect(ren_board.locator(".cell[aria-label='c6: your piece, life 5']")).to_have_count(1)
    expect(aki_board).to_contain_text("your turn")
    expect(aki_board.get_by_role("button", name="Show the Counter")).to_have_count(0)
    _end_turn(aki, match)
    expect(ren_board).to_contain_text("your turn")

    # Ren resigns; the result reaches everyone's timeline.
    ren.once("dialog", lambda dialog: dialog.accept())
    ren_board.get_by_role("button", name="Resign").click()
    for page in (aki, ren, gm):
        expect(page.locator("#timeline-items .event-match_finished")).to_contain_text(
            "Aki beat Ren at Actual"
        )


# --- the Counter asked at the attack (seed 000: 攻撃を受けたとき…見せることで) -------------------

WITH_COUNTER = ["counter", "move", "move", "attack", "attack"]
WITHOUT_COUNTER = ["move", "move", "move", "attack", "attack"]


def _face_to_face(match, ren_hand):
    """Put Aki's piece on c5 facing Ren's on c6, Aki to play, Ren holding ``ren_hand``."""
    state = actual_engine.from_dict(match.state)
    state.pieces = [(0, 0, 5, 2, 4), (5, 1, 5, 2, 5)]
    for seat, kinds in ((0, ["attack", "attack", "move", "move", "move"]), (1, ren_hand)):
        pool = sorted(state.kinds[seat])
        hand = []
        for kind in kinds:
            hand.append(next(c for c in pool if state.kinds[seat][c] == kind and c not in hand))
        state.hands[seat] = hand
        state.decks[seat] = [c for c in pool if c not in hand]
    state.current = 0
    match.state = actual_engine.to_dict(actual_engine.from_dict(actual_engine.to_dict(state)))
    match.save(update_fields=["state"])


@pytest.fixture
def two_defences(live_server_url):
    """Two sessions, each with a match between Aki and Ren at the same point of play: Ren
    holds the Counter in the first and not in the second."""
    table, gm, (aki, ren) = friday_table("aki", "ren")
    characters = [
        CharacterFactory(table=table, owner=owner, name=name)
        for owner, name in [(aki, "Aki"), (ren, "Ren")]
    ]
    cases = []
    for title, ren_hand in (("With", WITH_COUNTER), ("Without", WITHOUT_COUNTER)):
        session = GameSessionFactory(table=table, title=title)
        session.characters.add(*characters)
        match = match_services.match_create(
            session=session,
            by=gm,
            seats=[SeatSpec(characters[0]), SeatSpec(characters[1])],
            options={"first_player": 0},
            seed=SEED,
        )
        actual_set_up_alike(match, aki, ren)
        match.refresh_from_db()
        _face_to_face(match, ren_hand)
        cases.append((session, match))
    return live_server_url, cases


def _as_seen(board):
    """What a board shows its viewer: its text, each square's name and highlight, and the
    buttons it offers."""
    text = " ".join((board.text_content() or "").split())
    cells = board.locator(".cell").evaluate_all(
        "cells => cells.map(c => [c.className, c.getAttribute('aria-label')])"
    )
    buttons = board.locator("button:enabled").evaluate_all(
        "buttons => buttons.map(b => (b.getAttribute('aria-label') || b.textContent).trim())"
    )
    return text, cells, buttons


@pytest.mark.long
def test_actual_defender_answers_the_counter_question_while_the_attacker_sees_the_same(
    browser, two_defences
):
    base_url, cases = two_defences
    seen = []
    for session, match in cases:
        aki = room_page(browser, base_url, session, "aki")
        ren = room_page(browser, base_url, session, "ren")
        aki_board = aki.locator(f"#match-{match.pk}")
        ren_board = ren.locator(f"#match-{match.pk}")
        expect(aki_board).to_contain_text("your turn")

        _use(aki, match, "attack", "c5", "Attack c6")

        # Ren is asked, live and announced, with the attack highlighted on the board.
        question = "Your piece on c6 (life 5) is attacked by the piece on c5: show your Counter?"
        expect(ren_board.locator("[aria-live=polite]")).to_contain_text(question)
        expect(ren_board.locator(".cell-attacked")).to_have_attribute(
            "aria-label", "attacked: c6: your piece, life 5"
        )
        expect(ren_board.locator(".cell-attacking")).to_have_attribute(
            "aria-label", "attacking: c5: enemy piece, life 5"
        )
        # Aki waits, told only that Ren decides; no card can be played meanwhile.
        expect(aki_board.locator("[aria-live=polite]")).to_contain_text(
            "The piece on c5 attacks c6: Ren decides whether to show a Counter."
        )
        expect(aki_board.locator(".cell-attacked")).to_have_count(1)
        expect(aki_board.locator(".hand button:enabled")).to_have_count(0)
        before = _as_seen(aki_board)
        expect_same_as_fresh_load(aki)
        expect_same_as_fresh_load(ren)

        holds = ren_board.get_by_role("button", name="Show the Counter")
        expect(holds).to_have_count(1 if match is cases[0][1] else 0)
        ren_board.get_by_role("button", name="Take the hit").click()

        expect(aki_board.locator(".cell[aria-label='c6: enemy piece, life 4']")).to_have_count(1)
        expect(aki_board.locator("[aria-live=polite]")).to_contain_text("your turn")
        expect(ren_board.locator(".cell-attacked")).to_have_count(0)
        after = _as_seen(aki_board)
        expect_same_as_fresh_load(aki)
        expect_same_as_fresh_load(ren)
        seen.append((before, after))
        if match is cases[0][1]:
            # Asked again at the next attack, Ren shows the Counter this time.
            _use(aki, match, "attack", "c5", "Attack c6")
            ren_board.get_by_role("button", name="Show the Counter").click()
            expect(aki_board.locator(".cell[aria-label='c5: your piece, life 4']")).to_have_count(1)
            expect(aki_board.locator(".match-log")).to_contain_text("Ren revealed a Counter")
        aki.context.close()
        ren.context.close()

    (held_before, held_after), (none_before, none_after) = seen
    assert held_before == none_before
    assert held_after == none_after
