"""The room's boards: the questions a match puts to a GM in a seat they run reach the GM's
inbox, answered there, and leave it once answered."""

import pytest
from asgiref.sync import sync_to_async

from minigames import services
from minigames.actual.rules import engine
from minigames.room import board_questions
from minigames.services import SeatSpec
from sessions_app.presenters.inbox import BOARD, inbox_context
from tests.factories import MembershipFactory, UserFactory
from tests.minigames.test_services import SETUP_A, SETUP_B, attack_a_held_counter


def _attacked_npc(session, player, gm, pc, npc):
    """A match where the player's piece has just attacked the GM's NPC, which holds its
    Counter: the match waits for the GM's answer."""
    match = services.match_create(
        session=session,
        by=gm,
        seats=[SeatSpec(pc), SeatSpec(npc)],
        seed=3,
        options={"first_player": 0},
    )
    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)
    match.refresh_from_db()
    services.match_move(match_id=match.pk, by=gm, action=SETUP_B, version=match.version)
    match.refresh_from_db()
    attack_a_held_counter(match, attacker=player)
    match.refresh_from_db()
    assert engine.from_dict(match.state).pending is not None
    return match


def _board_items(session, user, viewer_is_gm=True):
    return [
        item for item in inbox_context(session, user, viewer_is_gm)["inbox"] if item.kind == BOARD
    ]


def test_counter_question_to_a_seat_the_gm_runs_is_in_the_gm_s_inbox(session, gm, player, pc, npc):
    match = _attacked_npc(session, player, gm, pc, npc)

    (item,) = _board_items(session, gm)

    assert item.anchor == f"inbox-board-{match.pk}"
    assert "Show the Counter" in item.request.html
    assert "Innkeeper" in item.request.html
    assert f'href="#match-{match.pk}"' in item.request.html


def test_counter_question_is_answered_from_the_inbox_and_leaves_it(session, gm, player, pc, npc):
    match = _attacked_npc(session, player, gm, pc, npc)

    services.match_move(
        match_id=match.pk,
        by=gm,
        action={"type": "counter", "player": 1, "use": True},
        version=match.version,
    )

    assert _board_items(session, gm) == []


def test_a_gm_not_seated_and_a_player_asked_get_no_board_item(session, gm, player, pc, npc):
    co_gm = MembershipFactory(
        table=session.table, user=UserFactory(username="cogm"), role="gm"
    ).user
    _attacked_npc(session, player, gm, pc, npc)

    assert _board_items(session, co_gm) == []
    # A player has no inbox, whatever a board asks.
    assert inbox_context(session, player, False)["inbox"] == []


def test_the_attacker_is_asked_nothing(session, gm, player, pc, npc):
    _attacked_npc(session, player, gm, pc, npc)

    assert board_questions(session, player) == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_gm_s_open_inbox_gets_the_question_when_the_attack_lands(
    session, gm, player, pc, npc
):
    from tests.clients import frames_until
    from tests.sessions_app.live.test_consumers import _joined

    gm_socket, _ = await _joined(gm, session)

    match = await sync_to_async(_attacked_npc)(session, player, gm, pc, npc)

    received = "".join(await frames_until(gm_socket, f'id="inbox-board-{match.pk}"'))
    # In the inbox, not only on the board, which asks too.
    assert f'id="inbox-board-{match.pk}"' in received
    await gm_socket.disconnect()


def test_a_deal_waiting_for_the_gm_s_seat_asks_in_the_inbox_until_shuffled_in(
    session, gm, player, pc, npc
):
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(npc)], dice_value="c3" * 16
    )
    assert services.match_waiting_for(match, gm)

    (item,) = _board_items(session, gm)

    assert item.anchor == f"inbox-board-{match.pk}"
    assert "Shuffle in" in item.request.html
    assert f'action="/matches/{match.pk}/shuffle-in/"' in item.request.html
    assert f'href="#match-{match.pk}"' in item.request.html
    # The player who started the match added their value already: nothing is asked of them.
    assert board_questions(session, player) == []

    services.match_shuffle_in(match_id=match.pk, by=gm, dice_value="d4" * 16)

    assert _board_items(session, gm) == []
