"""The Actics X board as one viewer sees it: squares to tap, the plan drawn, nothing secret."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from minigames import services
from minigames.acticsx import presenter


@pytest.fixture
def seats(players_match):
    return players_match(game="acticsx", seed=9)


def _board(match, user):
    return render_to_string(presenter.TEMPLATE, presenter.board_context(match, user))


def _deploy_first_card(match, user):
    """Confirm a plan that plays the first card that may go somewhere."""
    match.refresh_from_db()
    board = presenter.board_context(match, user)
    card = next(card for card in board["hand"] if card["kind"] == "actor" and card["squares"])
    plan = {"play": [{"card": card["id"], "square": card["squares"][0]}], "actors": []}
    services.match_move(
        match_id=match.pk, by=user, action={"type": "plan", "plan": plan}, version=match.version
    )


@pytest.fixture
def second_turn(seats):
    """Both sides deployed an actor in turn 1; turn 2 is being planned."""
    match, aki, ren = seats
    _deploy_first_card(match, aki)
    _deploy_first_card(match, ren)
    match.refresh_from_db()
    return match, aki, ren


def test_move_target_follows_the_owner_s_forward():
    assert presenter.move_target("A10", 0, "F", 1) == "A6"
    assert presenter.move_target("B10", 1, "F", 1) == "B6"


def test_move_target_off_the_board_is_empty():
    assert presenter.move_target("A9", 0, "B", 1) == ""


def test_planning_board_squares_are_buttons_named_by_their_square(seats):
    match, aki, _ren = seats

    html = _board(match, aki)

    assert '<button type="button" data-square="A9"' in html
    assert 'aria-label="A9 (base)"' in html


def test_watching_board_squares_are_not_buttons(seats, gm):
    match, _aki, _ren = seats

    html = _board(match, gm)

    assert '<button type="button" data-square=' not in html
    assert 'data-square="A9"' in html


def test_hand_cards_are_buttons_that_pick_the_card(seats):
    match, aki, _ren = seats
    board = presenter.board_context(match, aki)

    html = _board(match, aki)

    first = board["hand"][0]
    assert f'data-pick-card="0" data-name="{first["name"]}"' in html


def test_actor_move_choices_name_their_target_square(second_turn):
    match, aki, _ren = second_turn
    actor = presenter.board_context(match, aki)["own_actors"][0]

    moves = [c for c in actor["choices"] if c["kind"] == "move"]

    assert moves
    for choice in moves:
        _move, direction, distance = choice["value"].split(":")
        expected = presenter.move_target(actor["square"], 0, direction, int(distance))
        assert choice["target"] == expected
        assert f'data-target="{expected}"' in _board(match, aki)


def test_actor_names_are_not_cut_short(second_turn):
    match, aki, _ren = second_turn
    actor = presenter.board_context(match, aki)["own_actors"][0]

    assert f'<span class="ax-actor-name">{actor["name"]}</span>' in _board(match, aki)


def test_a_confirmed_plan_is_drawn_on_its_own_seat_s_board(second_turn):
    match, aki, _ren = second_turn
    actor = presenter.board_context(match, aki)["own_actors"][0]
    move = next(c for c in actor["choices"] if c["kind"] == "move")
    _move, direction, distance = move["value"].split(":")
    plan = {
        "play": [],
        "actors": [
            {
                "square": actor["square"],
                "do": "move",
                "direction": direction,
                "distance": int(distance),
            }
        ],
    }
    services.match_move(
        match_id=match.pk, by=aki, action={"type": "plan", "plan": plan}, version=match.version
    )
    match.refresh_from_db()

    grid = {sq["square"]: sq for row in presenter.board_context(match, aki)["grid"] for sq in row}

    assert {"kind": "to", "order": 1, "text": ""} in grid[move["target"]]["marks"]
    assert grid[actor["square"]]["marks"][0]["order"] == 1


def test_a_confirmed_plan_is_not_drawn_for_the_other_seat_or_a_spectator(second_turn, gm):
    match, aki, ren = second_turn
    _deploy_first_card(match, aki)
    match.refresh_from_db()

    for viewer in (ren, gm):
        assert "ax-mark" not in _board(match, viewer)


def test_the_other_seat_s_hand_is_not_rendered(seats):
    match, aki, ren = seats
    theirs = presenter.board_context(match, ren)["hand"]

    html = _board(match, aki)

    mine = {card["id"] for card in presenter.board_context(match, aki)["hand"]}
    for card in theirs:
        if card["id"] not in mine:
            assert f'data-name="{card["name"]}"' not in html


def test_the_computer_is_named_in_the_reader_s_language(player):
    with translation.override("en"):
        match = services.match_create_practice(by=player, level="random", game="acticsx")

    with translation.override("ja"):
        board = presenter.board_context(match, player)

    assert board["opponent_name"] == "コンピューター"
