"""Spectators: the table's link, the read-only pages, and their websocket."""

import datetime
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from sessions_app.live import roster
from sessions_app.live.consumers import CLOSE_NOT_A_MEMBER
from sessions_app.models import SpectatorPresence, Table
from sessions_app.selectors.spectators import spectator_variants
from sessions_app.selectors.timeline import PRESENCE_TIMEOUT
from sessions_app.services.chat import chat_post
from sessions_app.services.checks import gm_roll
from sessions_app.services.spectators import spectator_token_renew, spectators_allow
from tests.clients import CAUGHT_UP, LINE_AFTER, frames_before, frames_until, sockets_in_room
from tests.factories import CharacterFactory, aki_with_a_hidden_curse, open_to_spectators


def _secrets(session, gm, player):
    """A public line and every kind of secret the room holds."""
    aki_with_a_hidden_curse(session, player, hp=7, curse=2)
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")
    chat_post(session=session, by=gm, text="Welcome to the library")
    chat_post(session=session, by=gm, text="The librarian is the thief", gm_only=True)
    chat_post(session=session, by=gm, text="psst take the key", mode="whisper", to=player)
    gm_roll(session=session, by=gm, character=npc, label="Bluff the heroes", value=4, secret=True)


# --- The GM's switch ---------------------------------------------------------------------


def test_spectators_allow_by_player_refused(table, player_membership, player):
    with pytest.raises(PermissionDenied):
        spectators_allow(table=table, by=player, allowed=True)


def test_spectator_token_renew_changes_the_token(table, gm):
    before = table.spectator_token

    spectator_token_renew(table=table, by=gm)

    assert Table.objects.get(pk=table.pk).spectator_token not in ("", before)


def test_spectators_update_view_allows_and_shows_link(client, table, gm):
    client.force_login(gm)

    response = client.post(reverse("spectators_update", args=[table.pk]), {"action": "allow"})

    table.refresh_from_db()
    assert response.status_code == 302 and table.spectators_allowed
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert f"/watch/{table.spectator_token}/" in page


def test_spectators_update_view_refuses_player(client, table, player_membership, player):
    client.force_login(player)

    response = client.post(reverse("spectators_update", args=[table.pk]), {"action": "allow"})

    table.refresh_from_db()
    assert response.status_code == 403 and not table.spectators_allowed


# --- The pages ---------------------------------------------------------------------------


def test_watch_index_lists_sessions(client, session):
    table = open_to_spectators(session.table)

    response = client.get(reverse("watch_index", args=[table.spectator_token]))

    assert response.status_code == 200
    assert "The Akashic Library" in response.content.decode()


def test_watch_session_rotated_token_404(client, session, gm):
    table = open_to_spectators(session.table)
    old = table.spectator_token
    spectator_token_renew(table=table, by=gm)

    response = client.get(reverse("watch_session", args=[old, session.pk]))

    assert response.status_code == 404


def test_watch_session_shows_no_secret(client, session, gm, player):
    table = open_to_spectators(session.table)
    _secrets(session, gm, player)

    page = client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))
    html = page.content.decode()

    assert "Welcome to the library" in html
    assert "HP" in html and "7/10" in html
    for secret in ["thief", "psst", "Bluff", "secret roll", "Curse", "2/9", "hx-post"]:
        assert secret not in html


def test_watch_session_spectator_is_not_a_member(client, session):
    table = open_to_spectators(session.table)
    members_before = table.memberships.count()

    client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))

    assert table.memberships.count() == members_before


# --- The websocket -----------------------------------------------------------------------


async def _watcher(token, session, *, last_seq=0):
    """A spectator's socket once it has synced, and the catch-up it was sent (the lines
    after `last_seq`, then the panels; nothing when there were none)."""
    others = set(roster.local_sockets(session.pk))
    communicator = WebsocketCommunicator(
        application,
        f"/ws/watch/{token}/sessions/{session.pk}/",
        headers=[(b"origin", b"http://localhost")],
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": last_seq}))
    # Synced, the socket knows where the session was: past `last_seq`, it sent a catch-up.
    synced = await sockets_in_room(session.pk, besides=others)
    if any(socket.cursor > last_seq for socket in synced):
        return communicator, await frames_until(communicator, CAUGHT_UP)
    return communicator, []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_socket_bad_token_closed(session):
    await sync_to_async(open_to_spectators)(session.table)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/watch/wrong/sessions/{session.pk}/",
        headers=[(b"origin", b"http://localhost")],
    )

    await communicator.connect()
    output = await communicator.receive_output(timeout=1)

    assert output["code"] == CLOSE_NOT_A_MEMBER


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_socket_gets_public_lines_only(session, gm, player):
    table = await sync_to_async(open_to_spectators)(session.table)
    socket, _ = await _watcher(table.spectator_token, session)

    await sync_to_async(_secrets)(session, gm, player)
    await sync_to_async(chat_post)(session=session, by=gm, text=LINE_AFTER)
    frames = "".join(await frames_before(socket, LINE_AFTER, "Welcome to the library"))

    assert "Welcome to the library" in frames
    for secret in ["thief", "psst", "Bluff", "secret roll", "die showing"]:
        assert secret not in frames
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_catch_up_has_no_secret(session, gm, player):
    table = await sync_to_async(open_to_spectators)(session.table)
    await sync_to_async(_secrets)(session, gm, player)

    socket, frames = await _watcher(table.spectator_token, session)
    joined = "".join(frames)

    assert "Welcome to the library" in joined and "7/10" in joined
    for secret in ["thief", "psst", "Bluff", "secret roll", "Curse", "2/9"]:
        assert secret not in joined
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_page_with_its_place_in_the_address_is_caught_up_on_connect(
    session, gm, player
):
    table = await sync_to_async(open_to_spectators)(session.table)
    await sync_to_async(_secrets)(session, gm, player)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/watch/{table.spectator_token}/sessions/{session.pk}/?last_seq=0",
        headers=[(b"origin", b"http://localhost")],
    )
    assert (await communicator.connect())[0]

    joined = "".join(await frames_until(communicator, CAUGHT_UP))

    assert "Welcome to the library" in joined
    for secret in ["thief", "psst", "Bluff", "secret roll", "Curse", "2/9"]:
        assert secret not in joined
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_socket_closes_when_spectating_stops(session, gm):
    table = await sync_to_async(open_to_spectators)(session.table)
    socket, _ = await _watcher(table.spectator_token, session)

    await sync_to_async(spectators_allow)(table=table, by=gm, allowed=False)
    output = await socket.receive_output(timeout=1)

    assert (output["type"], output["code"]) == ("websocket.close", CLOSE_NOT_A_MEMBER)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_socket_closes_when_token_renewed(session, gm):
    table = await sync_to_async(open_to_spectators)(session.table)
    socket, _ = await _watcher(table.spectator_token, session)

    await sync_to_async(spectator_token_renew)(table=table, by=gm)
    output = await socket.receive_output(timeout=1)

    assert output["code"] == CLOSE_NOT_A_MEMBER


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_socket_token_rechecked_on_message(session):
    table = await sync_to_async(open_to_spectators)(session.table)
    socket, _ = await _watcher(table.spectator_token, session)
    # Changed behind the service's back: no broadcast, only the per-message check.
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(spectators_allowed=False)

    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    output = await socket.receive_output(timeout=1)

    assert output["code"] == CLOSE_NOT_A_MEMBER


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_is_not_present_as_a_member(session, gm):
    table = await sync_to_async(open_to_spectators)(session.table)
    socket, _ = await _watcher(table.spectator_token, session)

    spectators = await sync_to_async(SpectatorPresence.objects.filter(session=session).count)()
    members_present = await sync_to_async(session.presences.count)()

    assert (spectators, members_present) == (1, 0)
    await socket.disconnect()


def test_event_rendered_once_per_spectator_variant(session, gm):
    from sessions_app.live import render
    from sessions_app.models import SpectatorPresence

    open_to_spectators(session.table)
    for channel, language in [("a", "en"), ("b", "en"), ("c", "ja")]:
        SpectatorPresence.objects.create(session=session, channel_name=channel, language=language)
    event = chat_post(session=session, by=gm, text="Welcome to the library")

    groups = [group for group, _message in render.event_messages(event=event)]

    assert sorted(group for group in groups if ".sp." in group) == [
        f"room.{session.pk}.sp.en.server",
        f"room.{session.pk}.sp.ja.server",
    ]


def test_spectator_variants_forget_a_socket_whose_pings_stopped(session):
    SpectatorPresence.objects.create(
        session=session, channel_name="gone", language="ja", time_zone="Asia/Tokyo"
    )
    SpectatorPresence.objects.filter(channel_name="gone").update(
        last_seen=timezone.now() - PRESENCE_TIMEOUT - datetime.timedelta(seconds=1)
    )
    SpectatorPresence.objects.create(
        session=session, channel_name="here", language="en", time_zone="UTC"
    )

    assert spectator_variants(session_id=session.pk) == [("en", "UTC")]


# --- Handouts ----------------------------------------------------------------------------


@pytest.fixture
def two_handouts_revealed(session, gm, player):
    """A handout revealed to everyone (with a picture) and one given to PC1's player."""
    from sessions_app.services.play import handout_reveal, session_scenario_set
    from sessions_app.services.scene_pictures import handout_image_set
    from tests.factories import HandoutFactory, ScenarioFactory, cast_member
    from tests.pictures import picture_bytes

    cast_member(session, player, name="Aki", slot=1)
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=session, by=gm, scenario=scenario)
    session.refresh_from_db()
    public = HandoutFactory(scenario=scenario, title="The town map", body="Roads and rivers")
    handout_image_set(handout=public, by=gm, data=picture_bytes("PNG"))
    private = HandoutFactory(scenario=scenario, slot=1, title="Your secret", body="You are heir")
    handout_image_set(handout=private, by=gm, data=picture_bytes("PNG"))
    for handout in (public, private):
        handout_reveal(session=session, by=gm, handout=handout)
    return public, private


def test_spectators_see_handouts_revealed_to_everyone_and_never_a_pcs_own(
    client, session, two_handouts_revealed
):
    public, private = two_handouts_revealed
    table = open_to_spectators(session.table)

    html = client.get(
        reverse("watch_session", args=[table.spectator_token, session.pk])
    ).content.decode()

    handouts = html[html.index('id="handouts"') :]
    assert "The town map" in handouts and "Roads and rivers" in handouts
    assert "Your secret" not in html and "You are heir" not in html
    assert client.get(reverse("handout_image", args=[public.pk])).status_code == 200
    assert client.get(reverse("handout_image", args=[private.pk])).status_code == 404


def test_handout_image_refused_to_anonymous_visitors_without_a_spectator_link(
    client, session, two_handouts_revealed
):
    public, _private = two_handouts_revealed
    open_to_spectators(session.table)

    assert client.get(reverse("handout_image", args=[public.pk])).status_code == 404
