"""The Actual board as one viewer sees it: coordinates on its edges, setup by column."""

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string

from minigames import services
from minigames.actual import presenter


@pytest.fixture
def seats(players_match):
    return players_match(options={"first_player": 0}, seed=55)


def _ready(match, user, column):
    match.refresh_from_db()
    action = {
        "type": "setup",
        "deck": {"move": 10, "attack": 9, "counter": 1},
        "pieces": [{"column": column, "life": 5}],
    }
    services.match_move(match_id=match.pk, by=user, action=action, version=match.version)


def _html(match, user):
    match.refresh_from_db()
    return render_to_string(presenter.TEMPLATE, presenter.board_context(match, user))


def test_setup_offers_a_button_per_column_for_each_piece(seats):
    match, aki, _ren = seats

    html = _html(match, aki)

    for letter_index in range(5):
        assert f'name="column_0" value="{letter_index}"' in html
    assert 'name="column_4" value=""' in html


def test_setup_columns_follow_the_seat_s_side_of_the_board(seats):
    match, aki, ren = seats

    mine = presenter.board_context(match, aki)["view_columns"]
    theirs = presenter.board_context(match, ren)["view_columns"]

    assert [c["letter"] for c in mine] == list("abcde")
    assert [c["letter"] for c in theirs] == list("edcba")


def test_setup_reads_one_column_choice_per_piece():
    post = QueryDict(mutable=True)
    post.update({"type": "setup", "move": "10", "attack": "9", "counter": "1"})
    post.setlist("life", ["3", "2", "0", "0", "0"])
    post.update({"column_0": "4", "column_1": "0", "column_2": ""})

    action = presenter.action_from_post(post)

    assert action["pieces"] == [{"column": 4, "life": 3}, {"column": 0, "life": 2}]


def test_board_edges_name_the_columns_and_rows(seats):
    match, aki, ren = seats
    _ready(match, aki, 2)
    _ready(match, ren, 2)

    html = _html(match, aki)

    columns = html.split('class="edge edge-column" aria-hidden="true">')[1:]
    rows = html.split('class="edge edge-row" aria-hidden="true">')[1:]
    assert [c[0] for c in columns] == list("abcde")
    assert [r.split("<")[0] for r in rows] == ["7", "6", "5", "4", "3", "2", "1"]
