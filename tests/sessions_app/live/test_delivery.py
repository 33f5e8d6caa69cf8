"""Live delivery: each event rendered once per audience, sockets that only forward, gaps read."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions_app.live import render
from sessions_app.live.consumers import CLOSE_SIGNED_OUT
from sessions_app.models import Membership, TimelineEvent
from sessions_app.presenters import live
from sessions_app.services.chat import chat_post
from sessions_app.services.checks import command_roll
from sessions_app.services.timeline import presence_enter
from tests.clients import (
    LINE_AFTER,
    frames_before,
    frames_until,
    until_synced,
    without_presence,
)
from tests.factories import MembershipFactory, UserFactory
from tests.sessions_app.live.test_consumers import _communicator, _joined, _session_cookie

chat = sync_to_async(chat_post)


def _dropped(messages):
    """The channel layer losing what it was given."""


@pytest.mark.django_db
def test_event_rendered_once_per_audience_and_language(session, gm, player):
    others = [UserFactory(username=f"p{n}") for n in range(3)]
    for other in others:
        MembershipFactory(table=session.table, user=other, role=Membership.Role.PLAYER)
    for n, user in enumerate([gm, player, *others]):
        presence_enter(session_id=session.pk, user=user, channel_name=f"en{n}", language="en")
    presence_enter(session_id=session.pk, user=others[0], channel_name="ja0", language="ja")
    event = chat_post(session=session, by=gm, text="Welcome")

    messages = render.event_messages(event=event)

    groups = sorted(group for group, _message in messages)
    en, ja = live.Variant("en"), live.Variant("ja")
    assert groups == sorted(
        [
            live.room_group(session.pk, live.GM, en),
            live.room_group(session.pk, live.PLAYERS, en),
            live.room_group(session.pk, live.PLAYERS, ja),
        ]
    )
    by_group = dict(messages)
    assert "Welcome" in by_group[live.room_group(session.pk, live.PLAYERS, ja)]["html"]


def _counting_renders(monkeypatch) -> list[bool]:
    """Record whether each line render was the GM's, while still rendering it."""
    rendered = []
    real = render.event_html

    def counted(event, *, viewer, viewer_is_gm):
        rendered.append(viewer_is_gm)
        return real(event, viewer=viewer, viewer_is_gm=viewer_is_gm)

    monkeypatch.setattr(render, "event_html", counted)
    return rendered


@pytest.mark.django_db
def test_a_line_the_gm_sees_as_the_players_do_is_rendered_once_for_both(
    session, gm, player, monkeypatch
):
    for n, user in enumerate([gm, player]):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{n}", language="en")
    event = chat_post(session=session, by=player, text="Shelves to the ceiling")
    rendered = _counting_renders(monkeypatch)

    messages = dict(render.event_messages(event=event))

    en = live.Variant("en")
    assert rendered == [False]
    gm_line = messages[live.room_group(session.pk, live.GM, en)]["html"]
    assert "Shelves to the ceiling" in gm_line
    assert gm_line == messages[live.room_group(session.pk, live.PLAYERS, en)]["html"]


@pytest.mark.django_db
def test_a_public_roll_is_rendered_for_the_gm_and_once_for_every_player_its_roller_included(
    session, gm, player, monkeypatch
):
    other = UserFactory(username="other")
    MembershipFactory(table=session.table, user=other, role=Membership.Role.PLAYER)
    for n, user in enumerate([gm, player, other]):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{n}", language="en")
    roll = command_roll(session=session, by=player, text="2D6 Climb")
    event = TimelineEvent.objects.get(session=session, kind="command_rolled")
    rendered = _counting_renders(monkeypatch)

    messages = dict(render.event_messages(event=event))

    en = live.Variant("en")
    assert sorted(rendered) == [False, True]
    players = messages[live.room_group(session.pk, live.PLAYERS, en)]
    assert "skip" not in players
    # Nothing on the card is the roller's alone: a public roll has nothing to reveal.
    assert "roll-actions" not in players["html"]
    void_url = reverse("roll_void", args=(session.pk, roll.pk))
    assert void_url not in players["html"]
    assert void_url in messages[live.room_group(session.pk, live.GM, en)]["html"]


@pytest.mark.django_db
def test_whisper_goes_to_its_listed_user_and_the_gm_only(session, gm, player):
    other = UserFactory(username="other")
    MembershipFactory(table=session.table, user=other, role=Membership.Role.PLAYER)
    for n, user in enumerate([gm, player, other]):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{n}", language="en")
    event = chat_post(session=session, by=gm, text="psst", mode="whisper", to=player)

    messages = dict(render.event_messages(event=event))

    en = live.Variant("en")
    players = messages[live.room_group(session.pk, live.PLAYERS, en)]
    assert (players["html"], players["skip"]) == ("", [player.pk])
    assert (
        "psst" in messages[live.room_group(session.pk, live.user_audience(player.pk), en)]["html"]
    )
    assert "psst" in messages[live.room_group(session.pk, live.GM, en)]["html"]
    assert live.room_group(session.pk, live.user_audience(other.pk), en) not in messages


@pytest.mark.django_db
def test_a_removed_member_is_rendered_for_no_more(session, gm, player):
    presence_enter(session_id=session.pk, user=player, channel_name="p", language="en")
    Membership.objects.filter(user=player).delete()
    event = chat_post(session=session, by=gm, text="Still here?")

    assert render.event_messages(event=event) == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_forwards_a_live_event_without_reading_or_rendering(session, gm, player):
    socket, _ = await _joined(player, session)
    seq = (await sync_to_async(chat_post)(session=session, by=gm, text="first")).seq
    await frames_until(socket, "</strong>: first")
    group = live.room_group(session.pk, live.PLAYERS, live.Variant("en"))

    # The socket forwards what it is sent as it is: nothing in the database says "verbatim".
    await get_channel_layer().group_send(
        group, {"type": "room.event", "seq": seq + 1, "html": "<p>verbatim</p>"}
    )
    # The next number: whatever the socket sent for "verbatim", it sent before this one.
    await get_channel_layer().group_send(
        group, {"type": "room.event", "seq": seq + 2, "html": "<p>after</p>"}
    )

    frames = await frames_before(socket, "<p>after</p>")
    assert without_presence(frames) == ["<p>verbatim</p>"]
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_reads_the_gap_when_a_message_is_missing(session, gm, player, monkeypatch):
    socket, _ = await _joined(player, session)
    monkeypatch.setattr("sessions_app.live.hooks.send_all", _dropped)
    await chat(session=session, by=gm, text="lost on the way")
    monkeypatch.undo()

    await chat(session=session, by=gm, text="arrives")

    frames = "".join(await frames_until(socket, "lost on the way", "arrives"))
    assert frames.index("lost on the way") < frames.index("arrives")
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_quiet_room_notices_a_dropped_message_without_another_event(
    session, gm, player, monkeypatch
):
    monkeypatch.setattr("sessions_app.live.pipe.QUIET_SECONDS", 0.3)
    monkeypatch.setattr("sessions_app.live.consumers.LATE_SECONDS", 0.2)
    socket, _ = await _joined(player, session)
    monkeypatch.setattr("sessions_app.live.hooks.send_all", _dropped)

    await chat(session=session, by=gm, text="dropped by the layer")

    assert "dropped by the layer" in "".join(await frames_until(socket, "dropped by the layer"))
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_event_reaches_a_socket_once_and_in_order(session, gm, player):
    socket, _ = await _joined(player, session)
    for text in ["a1", "a2", "a3", "a4"]:
        await chat(session=session, by=gm, text=text)
    # A line read again, or twice, would come before the line posted after them.
    await chat(session=session, by=gm, text=LINE_AFTER)

    frames = "".join(await frames_before(socket, LINE_AFTER))

    assert [frames.count(text) for text in ["a1", "a2", "a3", "a4"]] == [1, 1, 1, 1]
    assert frames.index("a1") < frames.index("a2") < frames.index("a3") < frames.index("a4")
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_signing_out_closes_the_user_s_sockets_at_once(session, player):
    socket = await _communicator(player, session)
    await socket.connect()
    await socket.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    await until_synced(socket)
    cookie = await _session_cookie(player)

    @sync_to_async
    def sign_out():
        client = Client()
        client.cookies.load(cookie)
        return client.post("/accounts/logout/")

    await sign_out()

    assert (await frames_until(socket, "<closed"))[-1] == f"<closed {CLOSE_SIGNED_OUT}>"


@pytest.mark.django_db
def test_a_chat_post_answers_with_its_form_alone(session, player, client):
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/sessions/{session.pk}/chat/",
            {"text": "hello", "say_as": "ooc"},
            HTTP_HX_REQUEST="true",
        )

    # The answer is "it went" alone: the line reaches this page through the socket.
    assert (response.status_code, response.content) == (204, b"")
    assert len(queries) <= 16
