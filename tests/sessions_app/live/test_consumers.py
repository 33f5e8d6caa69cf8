"""The session room's websocket, through the real ASGI application (origin check, auth)."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import transaction

from config.asgi import application
from sessions_app.live import roster
from sessions_app.live.consumers import CLOSE_NOT_A_MEMBER, CLOSE_SIGNED_OUT
from sessions_app.models import Membership, Presence, TimelineEvent
from sessions_app.presenters.live import user_sockets_group
from sessions_app.services.chat import chat_post
from sessions_app.services.checks import check_request, check_roll, gm_roll
from sessions_app.services.timeline import timeline_append
from tests.clients import (
    LINE_AFTER,
    frames_before,
    frames_until,
    sockets_in_room,
    until_synced,
    without_presence,
)
from tests.clients import session_cookie as _session_cookie

# The quiet-window wait, for a test that counts what arrives over a while (and for the
# tests of other folders that import it from here).
from tests.clients import socket_frames as _frames
from tests.factories import secret_sneak_check
from tests.matches import ALIKE_SETUP, ren_joins_a_match_with_aki

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _communicator(user, session, *, origin=b"http://localhost", query=""):
    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", (await _session_cookie(user)).encode()))
    path = f"/ws/sessions/{session.pk}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)


async def _joined(user, session, *, last_seq=0):
    communicator = await _communicator(user, session)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": last_seq}))
    initial = await until_synced(communicator)
    return communicator, initial


append = sync_to_async(timeline_append)
chat = sync_to_async(chat_post)


async def test_consumer_outsider_closed_with_4403(session, outsider):
    communicator = await _communicator(outsider, session)

    connected, _ = await communicator.connect()
    output = await communicator.receive_output(timeout=1)

    assert connected
    assert (output["type"], output["code"]) == ("websocket.close", CLOSE_NOT_A_MEMBER)


async def test_consumer_anonymous_closed_with_4403(session):
    communicator = await _communicator(None, session)

    await communicator.connect()
    output = await communicator.receive_output(timeout=1)

    assert output["code"] == CLOSE_NOT_A_MEMBER


async def test_consumer_foreign_origin_refused(session, player):
    communicator = await _communicator(player, session, origin=b"http://evil.example")

    connected, _ = await communicator.connect()

    assert not connected


async def test_consumer_member_receives_public_event(session, player, gm):
    communicator, _ = await _joined(player, session)

    await chat(session=session, by=gm, text="Welcome to the library")
    frames = await frames_until(communicator, "Welcome to the library")

    assert any("Welcome to the library" in frame for frame in frames)
    await communicator.disconnect()


async def test_consumer_gm_only_event_reaches_gm_not_player(session, gm, player):
    gm_socket, _ = await _joined(gm, session)
    player_socket, _ = await _joined(player, session)

    await chat(session=session, by=gm, text="The librarian is the thief", gm_only=True)
    gm_frames = await frames_until(gm_socket, "The librarian is the thief")
    await chat(session=session, by=gm, text=LINE_AFTER)
    player_frames = await frames_before(player_socket, LINE_AFTER)

    assert any("The librarian is the thief" in frame for frame in gm_frames)
    assert not any("librarian" in frame for frame in player_frames)
    assert not any("event-" in frame for frame in player_frames)
    await gm_socket.disconnect()
    await player_socket.disconnect()


async def test_consumer_listed_user_event_reaches_only_listed(session, gm, player):
    player_socket, _ = await _joined(player, session)

    await append(
        session=session,
        kind="chat",
        actor=gm,
        payload={"text": "only for you"},
        visibility=TimelineEvent.Visibility.USERS,
        audience=[player],
    )
    frames = await frames_until(player_socket, "only for you")

    assert any("only for you" in frame for frame in frames)
    await player_socket.disconnect()


async def test_consumer_reconnect_gets_missed_events_in_order(session, gm, player):
    for text in ["one", "two", "three"]:
        await chat(session=session, by=gm, text=text)
    await chat(session=session, by=gm, text="hidden", gm_only=True)
    await chat(session=session, by=gm, text="four")

    # The client says it already has "one" (seq 1); "hidden" (seq 4) is not for players.
    communicator, initial = await _joined(player, session, last_seq=1)

    timeline = "".join(frame for frame in initial if 'id="timeline-items"' in frame)
    assert re.findall(r'id="event-(\d+)"', timeline) == ["2", "3", "5"]
    texts = re.findall(r"</strong>: (\w+)", timeline)
    assert texts == ["two", "three", "four"]
    await communicator.disconnect()


async def test_consumer_page_with_its_place_in_the_address_is_caught_up_on_connect(
    session, gm, player
):
    # The pages put their last line in the socket's address: no first message is needed.
    for text in ["one", "two", "three"]:
        await chat(session=session, by=gm, text=text)
    communicator = await _communicator(player, session, query="last_seq=1")
    assert (await communicator.connect())[0]

    initial = await until_synced(communicator)
    timeline = "".join(frame for frame in initial if 'id="timeline-items"' in frame)
    assert re.findall(r"</strong>: (\w+)", timeline) == ["two", "three"]

    await chat(session=session, by=gm, text="four")
    assert "four" in "".join(await frames_until(communicator, "</strong>: four"))
    await communicator.disconnect()


async def test_consumer_nonsense_place_in_the_address_counts_as_nothing_held(session, gm, player):
    await chat(session=session, by=gm, text="one")
    communicator = await _communicator(player, session, query="last_seq=yesterday")
    assert (await communicator.connect())[0]

    initial = await until_synced(communicator)
    assert "one" in "".join(frame for frame in initial if 'id="timeline-items"' in frame)
    await communicator.disconnect()


async def test_consumer_outsider_with_a_place_in_the_address_gets_nothing(session, gm, outsider):
    await chat(session=session, by=gm, text="not for outsiders")
    communicator = await _communicator(outsider, session, query="last_seq=0")
    await communicator.connect()

    output = await communicator.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": CLOSE_NOT_A_MEMBER}
    await communicator.disconnect()


async def test_consumer_match_page_with_its_board_in_the_address_follows_only_it(
    session, gm, player
):
    from minigames import services as match_services

    match, other = await sync_to_async(ren_joins_a_match_with_aki)(
        session, player, by=gm, seed=55, options={"first_player": 0}
    )
    communicator = await _communicator(player, session, query=f"only_board={match.pk}")
    assert (await communicator.connect())[0]
    await sockets_in_room(session.pk)

    await chat(session=session, by=gm, text="the room goes on")
    await sync_to_async(match_services.match_move)(
        match_id=match.pk, by=player, action=ALIKE_SETUP, version=0
    )
    frames = await frames_until(communicator, f"match-{match.pk}")
    # Nothing came before the board: no catch-up on connect, and not the room's line.
    assert frames[:-1] == []
    received = "".join(frames)
    assert f"match-{match.pk}" in received
    assert "the room goes on" not in received
    await communicator.disconnect()


async def test_consumer_catch_up_comes_in_frames_cut_by_size(session, gm, player, monkeypatch):
    monkeypatch.setattr("sessions_app.presenters.live.FRAME_BYTES", 1)
    for text in ["one", "two", "three"]:
        await chat(session=session, by=gm, text=text)

    communicator = await _communicator(player, session)
    assert (await communicator.connect())[0]
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    initial = await until_synced(communicator)

    timeline = [frame for frame in initial if 'id="timeline-items"' in frame]
    assert [re.findall(r"</strong>: (\w+)", frame) for frame in timeline] == [
        ["one"],
        ["two"],
        ["three"],
    ]
    await communicator.disconnect()


async def test_consumer_catch_up_of_long_lines_stays_under_the_frame_limit(session, gm, player):
    # 110 long lines of quotes (escaped to &quot;, six bytes each) make well over 1 MiB.
    for _ in range(110):
        await chat(session=session, by=gm, text='"' * 2000)

    communicator = await _communicator(player, session)
    assert (await communicator.connect())[0]
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    initial = await until_synced(communicator)

    timeline = [frame for frame in initial if 'id="timeline-items"' in frame]
    assert sum(len(frame.encode()) for frame in timeline) > 1024 * 1024
    assert max(len(frame.encode()) for frame in timeline) < 1024 * 1024
    assert sum(frame.count('class="event ') for frame in timeline) == 110
    await communicator.disconnect()


async def test_consumer_sends_nothing_before_sync(session, gm, player):
    communicator = await _communicator(player, session)
    await communicator.connect()
    await sockets_in_room(session.pk, synced=False)

    await chat(session=session, by=gm, text="too early")
    # The socket's channel brings the line first, then a sign-out that closes the socket:
    # had the line been forwarded, it would have come before the close.
    await get_channel_layer().group_send(user_sockets_group(player.pk), {"type": "user.signed_out"})

    assert await frames_until(communicator, "<closed") == [f"<closed {CLOSE_SIGNED_OUT}>"]
    await communicator.disconnect()


async def test_consumer_rolled_back_action_emits_no_frame(session, gm, player):
    communicator, _ = await _joined(player, session)

    @sync_to_async
    def append_then_fail():
        with transaction.atomic():
            chat_post(session=session, by=gm, text="never happened")
            raise RuntimeError("abort")

    with pytest.raises(RuntimeError):
        await append_then_fail()

    # A late presence update may still come on a loaded machine; no line may.
    await chat(session=session, by=gm, text=LINE_AFTER)
    frames = await frames_before(communicator, LINE_AFTER)
    assert not [frame for frame in frames if 'id="timeline-items"' in frame]
    await communicator.disconnect()


async def test_consumer_membership_rechecked_on_message(session, player):
    communicator, _ = await _joined(player, session)

    await sync_to_async(Membership.objects.filter(user=player).delete)()
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    frames = await frames_until(communicator, "<closed")

    assert without_presence(frames) == [f"<closed {CLOSE_NOT_A_MEMBER}>"]


async def test_consumer_presence_shows_both_users(session, gm, player):
    gm_socket, _ = await _joined(gm, session)
    player_socket, _ = await _joined(player, session)

    # The GM's own sync showed the GM alone, or both: the update that shows both is sent
    # once the player's join settles (at most once per PRESENCE_DELAY, 0.5 s, per room).
    gm_frames = await frames_until(gm_socket, 'data-user="player"')

    latest_presence = [frame for frame in gm_frames if 'id="presence"' in frame][-1]
    assert 'data-user="gm"' in latest_presence
    assert 'data-user="player"' in latest_presence
    await player_socket.disconnect()
    after_leave = [f for f in await _presence_without_player(gm_socket) if 'id="presence"' in f][-1]
    assert 'data-user="player"' not in after_leave
    await gm_socket.disconnect()


async def _presence_without_player(socket) -> list[str]:
    """Frames up to the presence update sent after the player left (one sent before, still
    showing the player, may come first)."""
    frames = []
    while not frames or 'data-user="player"' in frames[-1]:
        frames += await frames_until(socket, 'id="presence"')
    return frames


async def test_consumer_presence_storm_is_coalesced(session, gm, player):
    gm_socket, _ = await _joined(gm, session)
    await _frames(gm_socket, timeout=1.5)
    storm = [await _communicator(player, session) for _ in range(10)]
    for communicator in storm:
        await communicator.connect()

    presence_frames = [f for f in await _frames(gm_socket, timeout=1.5) if 'id="presence"' in f]

    assert 1 <= len(presence_frames) <= 2
    assert 'data-user="player"' in presence_frames[-1]
    for communicator in storm:
        await communicator.disconnect()
    await gm_socket.disconnect()


async def test_consumer_renders_in_browser_language(session, gm, player):
    communicator = await _communicator(player, session)
    communicator.scope["headers"].append((b"accept-language", b"ja,en;q=0.5"))
    await communicator.connect()
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))

    frames = await until_synced(communicator)

    assert any("（あなた）" in frame or "(あなた)" in frame for frame in frames)
    await communicator.disconnect()


async def test_consumer_sync_beyond_last_event_still_gets_live_events(session, gm, player):
    communicator, _ = await _joined(player, session, last_seq=10**9)

    await chat(session=session, by=gm, text="still heard")
    frames = await frames_until(communicator, "still heard")

    assert any("still heard" in frame for frame in frames)
    await communicator.disconnect()


@sync_to_async
def _characters(session, gm, player):
    from tests.factories import CharacterFactory

    pc = CharacterFactory(
        table=session.table, owner=player, name="Aki", judgement_values={"Strength": 5}
    )
    session.characters.add(pc)
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")
    return pc, npc


async def test_consumer_check_request_brings_widget_to_owner_only(session, gm, player):
    from tests.factories import MembershipFactory, UserFactory

    other = await sync_to_async(
        lambda: MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    )()
    pc, _npc = await _characters(session, gm, player)
    owner_socket, _ = await _joined(player, session)
    other_socket, _ = await _joined(other, session)

    await sync_to_async(check_request)(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )
    owner_frames = "".join(
        await frames_until(owner_socket, 'class="roll-widget"', 'hx-swap-oob="beforeend"')
    )
    await chat(session=session, by=gm, text=LINE_AFTER)
    other_frames = "".join(await frames_before(other_socket, LINE_AFTER))

    assert 'class="roll-widget"' in owner_frames
    assert 'hx-swap-oob="beforeend"' in owner_frames
    assert "roll-widget" not in other_frames
    await owner_socket.disconnect()
    await other_socket.disconnect()


async def test_consumer_open_checks_on_connect_come_in_frames_of_a_bounded_size(
    session, gm, player, monkeypatch
):
    monkeypatch.setattr("sessions_app.presenters.live.FRAME_BYTES", 1)
    pc, _npc = await _characters(session, gm, player)
    requests = [
        await sync_to_async(check_request)(
            session=session, by=gm, character=pc, label=f"Climb {n}", value_name="Strength"
        )
        for n in range(5)
    ]

    communicator, initial = await _joined(player, session)

    lists = [frame for frame in initial if 'id="check-items"' in frame]
    assert ['hx-swap-oob="true"' in frame for frame in lists] == [True] + [False] * 4
    assert all('hx-swap-oob="beforeend"' in frame for frame in lists[1:])
    shown = [re.findall(r'id="check-item-(\d+)"', frame) for frame in lists]
    assert [len(ids) for ids in shown] == [1, 1, 1, 1, 1]
    assert sorted(int(pk) for ids in shown for pk in ids) == sorted(r.pk for r in requests)
    await communicator.disconnect()


async def test_consumer_rolled_check_removes_widget(session, gm, player):
    pc, _npc = await _characters(session, gm, player)
    request = await sync_to_async(check_request)(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )
    owner_socket, initial = await _joined(player, session)
    assert any(f'id="check-item-{request.pk}"' in frame for frame in initial)

    await sync_to_async(check_roll)(request_id=request.pk, by=player, dice=(3, 4))
    removed = f'<li id="check-item-{request.pk}" hx-swap-oob="delete"></li>'
    frames = "".join(await frames_until(owner_socket, removed, "die showing 3"))

    assert removed in frames
    assert "die showing 3" in frames
    await owner_socket.disconnect()


async def test_consumer_secret_roll_numbers_never_in_player_frames(session, gm, player):
    _pc, npc = await _characters(session, gm, player)
    gm_socket, _ = await _joined(gm, session)
    player_socket, _ = await _joined(player, session)

    await sync_to_async(gm_roll)(
        session=session,
        by=gm,
        character=npc,
        label="Bluff the heroes",
        value=4,
        secret=True,
        dice=(6, 2),
    )
    gm_frames = "".join(await frames_until(gm_socket, "die showing 6", "Bluff the heroes"))
    await chat(session=session, by=gm, text=LINE_AFTER)
    player_frames = "".join(await frames_before(player_socket, LINE_AFTER, "made a secret roll"))

    assert "die showing 6" in gm_frames and "Bluff the heroes" in gm_frames
    assert "made a secret roll" in player_frames
    assert "die showing" not in player_frames
    assert "Bluff" not in player_frames
    assert "Achievement" not in player_frames
    await gm_socket.disconnect()
    await player_socket.disconnect()


async def test_consumer_secret_difficulty_hidden_from_player_frames(session, gm, player):
    pc, _npc = await _characters(session, gm, player)
    player_socket, _ = await _joined(player, session)

    request = await sync_to_async(secret_sneak_check)(session, gm, pc, 17)
    await sync_to_async(check_roll)(request_id=request.pk, by=player, dice=(2, 3))
    await chat(session=session, by=gm, text=LINE_AFTER)
    frames = "".join(await frames_before(player_socket, LINE_AFTER, "<strong>10</strong>"))

    assert "difficulty 17" not in frames and ">17<" not in frames
    assert "Failure" not in frames
    assert "<strong>10</strong>" in frames
    await player_socket.disconnect()


async def test_consumer_match_frames_hide_the_other_seats_hand(session, gm, player):
    from minigames import services as match_services
    from minigames.actual.rules import engine

    @sync_to_async
    def start_match():
        match, other = ren_joins_a_match_with_aki(
            session, player, by=gm, seed=55, options={"first_player": 0}
        )
        match_services.match_move(match_id=match.pk, by=player, action=ALIKE_SETUP, version=0)
        return match, other

    match, other = await start_match()
    player_socket, _ = await _joined(player, session)
    gm_socket, _ = await _joined(gm, session)

    await sync_to_async(match_services.match_move)(
        match_id=match.pk, by=other, action=ALIKE_SETUP, version=1
    )
    await chat(session=session, by=gm, text=LINE_AFTER)
    player_frames = "".join(await frames_before(player_socket, LINE_AFTER, "card-face"))
    gm_frames = "".join(await frames_before(gm_socket, LINE_AFTER, f"match-{match.pk}"))

    await sync_to_async(match.refresh_from_db)()
    state = engine.from_dict(match.state)
    ren_cards = state.hands[1] + state.decks[1]
    aki_cards = state.hands[0] + state.decks[0]
    assert "card-face" in player_frames and f"match-{match.pk}" in gm_frames
    assert not [card for card in ren_cards if card in player_frames]
    assert not [card for card in ren_cards + aki_cards if card in gm_frames]
    assert "card-face" not in gm_frames
    await player_socket.disconnect()
    await gm_socket.disconnect()


async def test_consumer_acticsx_frames_hide_hand_and_unconfirmed_plan(session, gm, player):
    import random

    from minigames import services as match_services
    from minigames.acticsx.rules import cards as card_data
    from minigames.acticsx.rules import engine as ax

    match, other = await sync_to_async(ren_joins_a_match_with_aki)(
        session, player, by=gm, game="acticsx", seed=7
    )
    player_socket, _ = await _joined(player, session)

    @sync_to_async
    def ren_plans():
        state = ax.from_dict(match.state)
        view = ax.player_view(state, 1)
        plan = ax.random_plan(view, random.Random(3))
        match_services.match_move(
            match_id=match.pk, by=other, action={"type": "plan", "plan": plan}, version=0
        )
        return view["players"][1]["hand"]

    ren_hand = await ren_plans()
    await chat(session=session, by=gm, text=LINE_AFTER)
    frames = "".join(await frames_before(player_socket, LINE_AFTER, "plan confirmed"))

    assert "plan confirmed" in frames
    hidden_names = {card_data.CARDS[card]["name"]["en"] for card in ren_hand}
    await sync_to_async(match.refresh_from_db)()
    own_hand = ax.player_view(ax.from_dict(match.state), 0)["players"][0]["hand"]
    own_names = {card_data.CARDS[card]["name"]["en"] for card in own_hand}
    assert not [name for name in hidden_names - own_names if name in frames]
    await player_socket.disconnect()


async def test_consumer_ping_keeps_presence_fresh(session, player):
    import datetime

    from django.utils import timezone

    from sessions_app.models import Presence

    communicator, _ = await _joined(player, session)
    old = timezone.now() - datetime.timedelta(minutes=10)
    await sync_to_async(Presence.objects.filter(session=session).update)(last_seen=old)

    await communicator.send_to(text_data=json.dumps({"type": "ping"}))
    # A socket handles its page's messages one after the other: once the sync that follows
    # the ping is answered, the ping has been handled.
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    await until_synced(communicator)

    presence = await sync_to_async(Presence.objects.get)(session=session)
    assert presence.last_seen > old + datetime.timedelta(minutes=5)
    await communicator.disconnect()


async def test_consumer_shows_times_in_the_browser_s_time_zone(session, gm, player):
    from zoneinfo import ZoneInfo

    tokyo = await _communicator(player, session)
    # The cookie header goes through channels' cookie middleware like a browser's would.
    tokyo.scope["headers"] = [
        (name, value + b"; tz=Asia/Tokyo" if name == b"cookie" else value)
        for name, value in tokyo.scope["headers"]
    ]
    plain, _ = await _joined(gm, session)
    await tokyo.connect()
    await tokyo.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    await until_synced(tokyo)

    event = await chat(session=session, by=gm, text="What time is it?")
    tokyo_frames = await frames_until(tokyo, "What time is it?")
    plain_frames = await frames_until(plain, "What time is it?")

    in_tokyo = event.created_at.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
    in_utc = event.created_at.astimezone(ZoneInfo("UTC")).strftime("%H:%M")
    assert any(f">{in_tokyo}</time>" in frame for frame in tokyo_frames)
    assert any(f">{in_utc}</time>" in frame for frame in plain_frames)
    await tokyo.disconnect()
    await plain.disconnect()


async def test_a_closed_socket_leaves_the_room_when_its_groups_cannot_be_left(
    session, player, monkeypatch
):
    # Redis away, or its connections all taken by a storm of pages closing at once: the
    # socket must still leave the room's roster and presence, or the room keeps reading
    # and rendering for a page nobody has open.
    communicator, _initial = await _joined(player, session)
    assert len(roster.local_sockets(session.pk)) == 1

    async def refused(group, channel):
        raise ConnectionError("the channel layer refused")

    monkeypatch.setattr(get_channel_layer(), "group_discard", refused)
    await communicator.disconnect()

    assert roster.local_sockets(session.pk) == []
    assert not await Presence.objects.filter(session=session).aexists()
