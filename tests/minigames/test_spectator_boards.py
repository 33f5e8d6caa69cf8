"""Spectators see the boards being played in a session: as nobody's seat, so never a hand
of cards nor a plan before it is revealed, and live as the match moves."""

import pytest
from django.test import Client
from django.urls import reverse

from minigames.registry import GAMES
from minigames.room import render_board
from minigames.services import SeatSpec, match_create
from sessions_app.live import render
from sessions_app.presenters.live import SPECTATORS
from sessions_app.services.spectators import spectator_enter, spectators_allow
from tests.factories import CharacterFactory, MembershipFactory, UserFactory
from tests.matches import dealt

HAND = 'aria-label="Your hand"'
# What only a seat's board holds: its hand, its plan being made, its move forms.
SEAT_ONLY = (HAND, 'class="plan-form', 'class="hand"', 'name="version"')


@pytest.fixture
def watched(session, gm, player):
    spectators_allow(table=session.table, by=gm, allowed=True)
    session.table.refresh_from_db()
    other = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    aki = CharacterFactory(table=session.table, owner=player, name="Aki")
    ren = CharacterFactory(table=session.table, owner=other, name="Ren")
    session.characters.add(aki, ren)
    return session, aki, ren


def _watch_page(session) -> str:
    url = reverse("watch_session", args=[session.table.spectator_token, session.pk])
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(GAMES))
def test_spectator_page_shows_each_games_board_without_a_hand(watched, gm, player, game):
    session, aki, ren = watched
    match = dealt(
        match_create(session=session, by=gm, seats=[SeatSpec(aki), SeatSpec(ren)], game=game)
    )
    seat_board = render_board(match, player)

    page = _watch_page(session)

    assert f'id="match-{match.pk}"' in page
    assert any(mark in seat_board for mark in SEAT_ONLY)
    assert not [mark for mark in SEAT_ONLY if mark in page]


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_board_change_reaches_spectators_as_nobody_s_seat(watched, gm, game):
    session, aki, ren = watched
    match = dealt(
        match_create(session=session, by=gm, seats=[SeatSpec(aki), SeatSpec(ren)], game=game)
    )
    spectator_enter(session_id=session.pk, channel_name="watching", language="ja", time_zone="")

    messages = render.board_messages(session_id=session.pk, board_id=match.pk)

    ((group, message),) = messages
    assert group.split(".")[2] == SPECTATORS
    assert f'id="match-{match.pk}"' in message["list_html"]
    assert not [mark for mark in SEAT_ONLY if mark in message["list_html"]]


@pytest.mark.django_db
def test_a_change_for_one_seat_alone_is_not_sent_to_spectators(watched, gm, player):
    session, aki, ren = watched
    match = dealt(match_create(session=session, by=gm, seats=[SeatSpec(aki), SeatSpec(ren)]))
    spectator_enter(session_id=session.pk, channel_name="watching", language="en", time_zone="")

    assert (
        render.board_messages(session_id=session.pk, board_id=match.pk, user_ids=[player.pk]) == []
    )
