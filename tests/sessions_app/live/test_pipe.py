"""The ordered pipe: in steady state no socket reads the database; the reads that remain are
made once per room or once per audience and variant, not once per socket."""

import asyncio
import contextlib
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from sessions_app.live import pipe, roster, transport
from sessions_app.models import Table
from sessions_app.services.chat import chat_post
from tests.clients import frames_until, until_synced
from tests.sessions_app.live.test_consumers import _communicator, _joined

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

chat = sync_to_async(chat_post)
SOCKETS = 6


@contextlib.asynccontextmanager
async def _statements():
    """Every SQL statement the consumers' database work and the services run meanwhile.

    They all run in the one thread that thread-sensitive sync_to_async uses, whose
    connection the wrapper is installed on.
    """
    found: list[str] = []

    def count(execute, sql, params, many, context):
        found.append(sql)
        return execute(sql, params, many, context)

    stack = contextlib.ExitStack()
    await sync_to_async(lambda: stack.enter_context(connection.execute_wrapper(count)))()
    try:
        yield found
    finally:
        await sync_to_async(stack.close)()


def _reads_of(statements, table: str) -> int:
    return sum(1 for sql in statements if sql.startswith("SELECT") and f'FROM "{table}"' in sql)


def _timeline_reads(statements) -> int:
    return _reads_of(statements, "sessions_app_timelineevent")


def _last_seq_reads(statements) -> int:
    return sum(
        1
        for sql in statements
        if sql.startswith('SELECT "sessions_app_gamesession"."last_seq" AS "last_seq" FROM')
    )


async def _room_of(user, session, count=SOCKETS):
    return [(await _joined(user, session))[0] for _ in range(count)]


async def _all_frames(session, sockets, *markers: str) -> list[str]:
    """What each socket received until each of `markers` came, waited for side by side
    rather than one socket after another; then until no socket of the room still waits out
    a gap (GAP_SECONDS), so that a read one would make then is among those counted."""
    received = await asyncio.gather(*(frames_until(socket, *markers) for socket in sockets))
    async with asyncio.timeout(10):
        while any(
            consumer.gap_wait is not None and not consumer.gap_wait.done()
            for consumer in roster.local_sockets(session.pk)
        ):
            await asyncio.sleep(0.01)
    return ["".join(frames) for frames in received]


async def _close(sockets):
    for socket in sockets:
        await socket.disconnect()


@pytest.fixture
def no_quiet_check(monkeypatch):
    """The room stays lively for the test: on a loaded machine a test can last longer than
    the quiet time, and the quiet check's own read is not what these tests count."""
    monkeypatch.setattr("sessions_app.live.pipe.QUIET_SECONDS", 600.0)


def _held(monkeypatch) -> list:
    """Keep what the commit hook sends instead of sending it: a test delivers it itself."""
    held = []
    monkeypatch.setattr("sessions_app.live.hooks.send_all", held.append)
    return held


async def test_numbers_that_arrive_out_of_order_are_forwarded_without_a_read(
    session, gm, player, monkeypatch, no_quiet_check
):
    sockets = await _room_of(player, session)
    held = _held(monkeypatch)
    await chat(session=session, by=gm, text="first said")
    await chat(session=session, by=gm, text="second said")
    monkeypatch.undo()

    async with _statements() as statements:
        # Two worker threads finishing in the other order: the later number comes first.
        for messages in reversed(held):
            await transport.send_all_async(messages)
        frames = await _all_frames(session, sockets, "first said", "second said")

    assert _timeline_reads(statements) == 0
    for received in frames:
        assert received.count("first said") == 1
        assert received.index("first said") < received.index("second said")
    await _close(sockets)


async def test_a_lost_number_is_read_once_for_every_socket_of_the_audience(
    session, gm, player, monkeypatch, no_quiet_check
):
    sockets = await _room_of(player, session)
    monkeypatch.setattr("sessions_app.live.hooks.send_all", lambda messages: None)
    await chat(session=session, by=gm, text="lost on the way")
    monkeypatch.undo()

    async with _statements() as statements:
        await chat(session=session, by=gm, text="arrives")
        frames = await _all_frames(session, sockets, "lost on the way", "arrives")

    assert _timeline_reads(statements) == 1
    for received in frames:
        assert received.index("lost on the way") < received.index("arrives")
    await _close(sockets)


async def test_steady_posts_cost_the_same_reads_for_one_socket_or_many(
    session, gm, player, no_quiet_check
):
    async def statements_with(count):
        sockets = await _room_of(player, session, count)
        # The presence update of the joins has been sent: the room is settled.
        await asyncio.sleep(0.7)
        async with _statements() as statements:
            for n in range(5):
                await chat(session=session, by=gm, text=f"line {n}")
            await _all_frames(session, sockets, "line 4")
        await _close(sockets)
        await asyncio.sleep(0.7)
        return [sql for sql in statements if sql.startswith("SELECT")]

    one = await statements_with(1)
    many = await statements_with(SOCKETS)

    assert _timeline_reads(many) == _last_seq_reads(many) == 0
    assert len(many) == len(one)


async def test_who_is_present_is_not_read_for_every_event(session, gm, player, monkeypatch):
    monkeypatch.setattr(roster, "ROSTER_SECONDS", 60.0)
    sockets = await _room_of(player, session, 2)
    await asyncio.sleep(0.7)

    async with _statements() as statements:
        for n in range(5):
            await chat(session=session, by=gm, text=f"line {n}")
        await frames_until(sockets[0], "line 4")

    # The presence update read the members present; the spectators, the first event.
    assert _reads_of(statements, "sessions_app_presence") == 0
    assert _reads_of(statements, "sessions_app_spectatorpresence") <= 1
    await _close(sockets)


async def test_a_page_in_a_new_language_is_rendered_for_as_soon_as_it_joins(
    session, gm, player, monkeypatch, no_quiet_check
):
    monkeypatch.setattr(roster, "ROSTER_SECONDS", 60.0)
    english, _ = await _joined(player, session)
    await chat(session=session, by=gm, text="before")
    japanese = await _communicator(player, session)
    japanese.scope["headers"].append((b"accept-language", b"ja"))
    await japanese.connect()
    await japanese.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    await until_synced(japanese)

    async with _statements() as statements:
        event = await chat(session=session, by=gm, text="after", mode="narration")
        received = "".join(await frames_until(japanese, f'id="event-{event.seq}"'))

    assert "after" in received
    assert _timeline_reads(statements) == 0
    await _close([english, japanese])


async def test_a_quiet_room_is_checked_once_per_process_not_per_socket(
    session, gm, player, monkeypatch
):
    monkeypatch.setattr("sessions_app.live.pipe.QUIET_SECONDS", 0.3)
    sockets = await _room_of(player, session)

    async with _statements() as statements:
        await asyncio.sleep(1.5)

    # Checked soon, then less often: a few reads for the room, where each socket would
    # have read at least once.
    assert 0 < _last_seq_reads(statements) < len(sockets)
    await _close(sockets)


async def test_a_storm_of_joins_reads_the_catch_up_once_per_audience(
    session, gm, player, no_quiet_check
):
    for n in range(5):
        await chat(session=session, by=gm, text=f"said before {n}")
    sockets = [await _communicator(player, session) for _ in range(SOCKETS)]
    for socket in sockets:
        assert (await socket.connect())[0]
    # A socket is accepted before it joins its groups (on Redis, a round trip each): a read
    # that starts before a socket joined is rightly not shared with it. All have joined here.
    async with asyncio.timeout(10):
        while len(roster.local_sockets(session.pk)) < SOCKETS:
            await asyncio.sleep(0.01)

    async with _statements() as statements:
        await asyncio.gather(
            *(
                socket.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
                for socket in sockets
            )
        )
        # Each socket's catch-up, however long a loaded machine takes to bring it, up to
        # the board list that ends its sync (a second copy within it would come before).
        frames = await asyncio.gather(*(until_synced(socket) for socket in sockets))

    assert ["".join(received).count("said before 4") for received in frames] == [1] * SOCKETS
    assert _timeline_reads(statements) == 1
    await _close(sockets)


async def _database_thread_busy_until(gate: threading.Event) -> asyncio.Task:
    """The one database thread the consumers share, held until `gate` is set."""
    busy = asyncio.create_task(sync_to_async(gate.wait)())
    await asyncio.sleep(0.05)
    return busy


async def test_a_read_still_waiting_for_the_database_thread_is_shared_with_later_joiners():
    gate = threading.Event()
    busy = await _database_thread_busy_until(gate)
    reads = []

    def read(n):
        reads.append(n)
        return n

    first = asyncio.create_task(pipe.shared("waiting", lambda: read(1), not_before=pipe.now()))
    await asyncio.sleep(0.05)
    # Joined after the first read was asked for, but before it began: it hears the rest.
    second = asyncio.create_task(pipe.shared("waiting", lambda: read(2), not_before=pipe.now()))
    await asyncio.sleep(0.05)
    gate.set()

    assert (await first, await second) == (1, 1)
    assert reads == [1]
    await busy


async def test_a_read_begun_before_a_socket_joined_is_not_handed_to_it():
    began, gate = threading.Event(), threading.Event()

    def slow_read():
        began.set()
        gate.wait()
        return "read before"

    first = asyncio.create_task(pipe.shared("begun", slow_read, not_before=pipe.now()))
    async with asyncio.timeout(10):
        while not began.is_set():
            await asyncio.sleep(0.01)
    second = asyncio.create_task(pipe.shared("begun", lambda: "read after", not_before=pipe.now()))
    await asyncio.sleep(0.05)
    gate.set()

    assert (await first, await second) == ("read before", "read after")


# --- Spectators share the same base ------------------------------------------------------


def _watching(table):
    Table.objects.filter(pk=table.pk).update(spectators_allowed=True)
    table.refresh_from_db()
    return table


async def _watchers(token, session, count):
    from tests.sessions_app.services.test_spectators import _watcher

    return [(await _watcher(token, session))[0] for _ in range(count)]


async def test_spectator_catches_up_when_the_room_goes_quiet(session, gm, monkeypatch):
    monkeypatch.setattr("sessions_app.live.pipe.QUIET_SECONDS", 0.3)
    monkeypatch.setattr("sessions_app.live.consumers.LATE_SECONDS", 0.2)
    table = await sync_to_async(_watching)(session.table)
    (watcher,) = await _watchers(table.spectator_token, session, 1)
    monkeypatch.setattr("sessions_app.live.hooks.send_all", lambda messages: None)

    await chat(session=session, by=gm, text="dropped by the layer")

    # No ping: the quiet check alone finds what the layer dropped.
    assert "dropped by the layer" in "".join(await frames_until(watcher, "dropped by the layer"))
    await watcher.disconnect()


async def test_spectator_ping_joins_its_groups_again(
    session, gm, channel_layer_of, monkeypatch, no_quiet_check
):
    table = await sync_to_async(_watching)(session.table)
    (watcher,) = await _watchers(table.spectator_token, session, 1)
    (consumer,) = roster.local_sockets(session.pk)
    # The layer expelled the channel (a Redis restart, a message left unread too long).
    for group in consumer.groups_joined:
        await channel_layer_of(consumer).group_discard(group, consumer.channel_name)
    pinged = asyncio.Event()
    rejoin = consumer.pinged

    async def rejoin_and_tell():
        await rejoin()
        pinged.set()

    monkeypatch.setattr(consumer, "pinged", rejoin_and_tell)

    await watcher.send_to(text_data=json.dumps({"type": "ping"}))
    async with asyncio.timeout(30):
        await pinged.wait()
    await chat(session=session, by=gm, text="heard again")

    # No quiet check in this test: only the groups joined again can bring it.
    assert "heard again" in "".join(await frames_until(watcher, "heard again"))
    await watcher.disconnect()


async def test_a_storm_of_spectators_reads_the_catch_up_once(session, gm, no_quiet_check):
    table = await sync_to_async(_watching)(session.table)
    for n in range(5):
        await chat(session=session, by=gm, text=f"said before {n}")

    async with _statements() as statements:
        watchers = await asyncio.gather(
            *(_watchers(table.spectator_token, session, 1) for _ in range(SOCKETS))
        )

    assert _timeline_reads(statements) == 1
    await _close([watcher for (watcher,) in watchers])


@pytest.fixture
def channel_layer_of():
    return lambda consumer: consumer.channel_layer
