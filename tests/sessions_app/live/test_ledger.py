"""The experience page's websocket: a growth asked for, confirmed or declined, an award or a
correction reach every open experience page of the table, each rendered for its member."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from sessions_app.live.consumers import CLOSE_NOT_A_MEMBER
from sessions_app.services.experience import experience_correct, growth_confirm, growth_request
from tests.factories import CharacterFactory, own_profile
from tests.sessions_app.live.test_consumers import _session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WAIT = 20
CATALOGUE = [{"label": "+1 Strength", "cost": 10, "value_name": "Strength", "delta": 1}]


@sync_to_async
def _table_with_growth_by_the_gm(table, gm, player):
    own_profile(table, growth_catalogue=CATALOGUE, growth_self_service=False)
    experience_correct(table=table, by=gm, person=player, amount=12, reason="Starting points")
    return CharacterFactory(table=table, owner=player, name="Aki", judgement_values={"Strength": 3})


async def _ledger_socket(user, table, *, query=""):
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", (await _session_cookie(user)).encode()))
    path = f"/ws/tables/{table.pk}/experience/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=WAIT)
    assert connected
    return communicator


async def _next_frame(communicator) -> str:
    """The next frame, however busy the machine: waited for, not sampled."""
    return await communicator.receive_from(timeout=WAIT)


async def _synced(user, table):
    communicator = await _ledger_socket(user, table)
    await communicator.send_to(text_data=json.dumps({"type": "sync"}))
    assert 'id="ledger"' in await _next_frame(communicator)
    return communicator


async def test_ledger_socket_outsider_closed_with_4403(table, outsider):
    communicator = await _ledger_socket(outsider, table)

    closed = await communicator.receive_output(timeout=WAIT)
    assert (closed["type"], closed.get("code")) == ("websocket.close", CLOSE_NOT_A_MEMBER)


async def test_ledger_page_with_its_place_in_the_address_gets_its_ledger_on_connect(
    table, gm, player, player_membership
):
    await _table_with_growth_by_the_gm(table, gm, player)
    communicator = await _ledger_socket(player, table, query="last_seq=0")

    ledger = await _next_frame(communicator)

    assert 'id="ledger"' in ledger and "Starting points" in ledger
    await communicator.disconnect()


async def test_growth_asked_reaches_the_gms_open_experience_page(
    table, gm, player, player_membership
):
    pc = await _table_with_growth_by_the_gm(table, gm, player)
    gm_page = await _synced(gm, table)

    await sync_to_async(growth_request)(character=pc, by=player, item_label="+1 Strength")

    frame = await _next_frame(gm_page)
    assert 'id="growth-to-confirm"' in frame and "+1 Strength" in frame
    await gm_page.disconnect()


async def test_growth_confirmed_reaches_the_players_open_experience_page(
    table, gm, player, player_membership
):
    pc = await _table_with_growth_by_the_gm(table, gm, player)
    asked = await sync_to_async(growth_request)(character=pc, by=player, item_label="+1 Strength")
    player_page = await _synced(player, table)

    await sync_to_async(growth_confirm)(request=asked, by=gm)

    frame = await _next_frame(player_page)
    assert '<strong id="balance">2</strong>' in frame
    assert "Confirmed" in frame and "waiting for the GM" not in frame
    await player_page.disconnect()
