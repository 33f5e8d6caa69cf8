"""Faults on the production set-up (PostgreSQL + Redis, several daphne processes): a process
killed mid-session, a storm of connections, Redis losing everything, a spectator link renewed.
Scripted clients post through both processes; afterwards every acknowledged line is stored
once, the sequence has no gap, and every socket (members' and spectators') holds exactly the
events its viewer may see, each once, in order."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sessions_app.live.consumers import CLOSE_NOT_A_MEMBER
from sessions_app.models import Table, TimelineEvent
from sessions_app.services.spectators import spectator_token_renew
from tests.live_server import DaphneServer, cookie_for, post_chat

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]

SEQ = re.compile(r'<li id="event-(\d+)" data-seq="\d+"')


class ScriptedPage:
    """What a room page's script does: open its socket with the last line it holds in the
    address, and reconnect the same way."""

    def __init__(self, session, cookie: str = "", *, spectator_token: str = ""):
        self.session = session
        self.cookie = cookie
        # A spectator's page opens the room through the table's link, with no account.
        self.path = (
            f"/ws/watch/{spectator_token}/sessions/{session.pk}/"
            if spectator_token
            else f"/ws/sessions/{session.pk}/"
        )
        self.seqs: list[int] = []
        self.socket = None

    def open(self, server_url: str) -> None:
        url = (
            server_url.replace("http://", "ws://")
            + self.path
            + f"?last_seq={max(self.seqs, default=0)}"
        )
        headers = {"Origin": server_url}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.socket = connect(
            url,
            additional_headers=headers,
            ping_interval=None,
            max_queue=None,
        )

    def read(self, *, until_seq: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while max(self.seqs, default=0) < until_seq and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                frame = self.socket.recv(timeout=0.5)
                self.seqs += [int(seq) for seq in SEQ.findall(frame)]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()


def _visible_seqs(session, *, gm: bool, spectator: bool = False) -> list[int]:
    events = TimelineEvent.objects.filter(session=session).order_by("seq")
    if spectator:
        events = events.filter(visibility=TimelineEvent.Visibility.EVERYONE)
    elif gm:
        events = events.exclude(visibility=TimelineEvent.Visibility.PLAYERS)
    else:
        events = events.filter(
            visibility__in=[TimelineEvent.Visibility.EVERYONE, TimelineEvent.Visibility.PLAYERS]
        )
    return list(events.values_list("seq", flat=True))


def test_a_killed_process_s_page_reconnects_to_another_and_misses_nothing(redis_url, redis_room):
    session, gm, player = redis_room
    gm_cookie, player_cookie = cookie_for(gm), cookie_for(player)
    first = DaphneServer(extra_env={"REDIS_URL": redis_url})
    second = DaphneServer(extra_env={"REDIS_URL": redis_url})
    player_page = ScriptedPage(session, player_cookie)
    gm_page = ScriptedPage(session, gm_cookie)
    try:
        player_page.open(first.url)
        gm_page.open(second.url)
        acknowledged = []
        for n in range(3):
            server = (first, second)[n % 2]
            assert post_chat(server.url, session, gm_cookie, f"before {n}") == 204
            acknowledged.append(f"before {n}")
        player_page.read(until_seq=TimelineEvent.objects.filter(session=session).count())

        # The player's process dies without closing anything; lines go on through the other.
        first.process.kill()
        first.process.wait()
        for n in range(4):
            assert post_chat(second.url, session, gm_cookie, f"during {n}") == 204
            acknowledged.append(f"during {n}")
        player_page.close()
        player_page.open(second.url)
        assert post_chat(second.url, session, player_cookie, "after") == 204
        acknowledged.append("after")

        last = TimelineEvent.objects.filter(session=session).order_by("seq").last().seq
        player_page.read(until_seq=last)
        gm_page.read(until_seq=last)
    finally:
        player_page.close()
        gm_page.close()
        first.stop()
        second.stop()

    stored = list(
        TimelineEvent.objects.filter(session=session, kind="chat").values_list(
            "payload__text", flat=True
        )
    )
    assert sorted(stored) == sorted(acknowledged)
    assert list(
        TimelineEvent.objects.filter(session=session).order_by("seq").values_list("seq", flat=True)
    ) == list(range(1, last + 1))
    assert player_page.seqs == _visible_seqs(session, gm=False)
    assert gm_page.seqs == _visible_seqs(session, gm=True)


def test_a_storm_of_connections_settles_and_every_socket_gets_the_next_line(redis_url, redis_room):
    session, gm, player = redis_room
    cookie = cookie_for(player)
    server = DaphneServer(extra_env={"REDIS_URL": redis_url})
    pages = [ScriptedPage(session, cookie) for _ in range(60)]
    try:
        for page in pages:
            page.open(server.url)
        assert post_chat(server.url, session, cookie_for(gm), "after the storm") == 204
        last = TimelineEvent.objects.filter(session=session).order_by("seq").last().seq
        for page in pages:
            page.read(until_seq=last, timeout=30)
    finally:
        for page in pages:
            page.close()
        server.stop()

    wanted = _visible_seqs(session, gm=False)
    assert all(page.seqs == wanted for page in pages), [page.seqs for page in pages][:3]


def _close_code(socket, timeout: float = 10.0) -> int | None:
    """The code the server closed `socket` with, reading what comes before it."""
    deadline = time.monotonic() + timeout
    with contextlib.suppress(ConnectionClosed):
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                socket.recv(timeout=0.5)
    return socket.close_code


def _watched(session):
    Table.objects.filter(pk=session.table_id).update(spectators_allowed=True)
    return Table.objects.get(pk=session.table_id)


def _last_seq(session) -> int:
    return TimelineEvent.objects.filter(session=session).order_by("seq").last().seq


def test_a_killed_process_s_spectator_reconnects_to_another_and_misses_nothing(
    redis_url, redis_room
):
    session, gm, _player = redis_room
    table = _watched(session)
    gm_cookie = cookie_for(gm)
    first = DaphneServer(extra_env={"REDIS_URL": redis_url})
    second = DaphneServer(extra_env={"REDIS_URL": redis_url})
    spectator = ScriptedPage(session, spectator_token=table.spectator_token)
    try:
        spectator.open(first.url)
        for n in range(3):
            assert post_chat((first, second)[n % 2].url, session, gm_cookie, f"before {n}") == 204
        spectator.read(until_seq=_last_seq(session))

        first.process.kill()
        first.process.wait()
        for n in range(3):
            assert post_chat(second.url, session, gm_cookie, f"during {n}") == 204
        spectator.close()
        spectator.open(second.url)
        assert post_chat(second.url, session, gm_cookie, "after") == 204
        spectator.read(until_seq=_last_seq(session))
    finally:
        spectator.close()
        first.stop()
        second.stop()

    assert spectator.seqs == _visible_seqs(session, gm=False, spectator=True)


def test_pages_of_members_and_spectators_recover_when_redis_loses_everything(redis_url, redis_room):
    import redis

    session, gm, player = redis_room
    table = _watched(session)
    gm_cookie = cookie_for(gm)
    server = DaphneServer(extra_env={"REDIS_URL": redis_url})
    pages = [
        ScriptedPage(session, cookie_for(player)),
        ScriptedPage(session, spectator_token=table.spectator_token),
    ]
    try:
        for page in pages:
            page.open(server.url)
        assert post_chat(server.url, session, gm_cookie, "before") == 204
        for page in pages:
            page.read(until_seq=_last_seq(session))

        # What a restart of Redis does to this run's own data: every group, every queued
        # message and every cached value gone. The sockets stay open and hear nothing more
        # until they notice. Only this run's keys go: parallel test workers share the server.
        lost = redis.Redis.from_url(redis_url)
        keys = list(lost.scan_iter(match=f"{settings.REDIS_PREFIX}*"))
        assert keys, "the room's groups were expected in Redis"
        lost.delete(*keys)
        assert post_chat(server.url, session, gm_cookie, "lost with the groups") == 204
        for page in pages:
            page.read(until_seq=_last_seq(session), timeout=40)
        assert post_chat(server.url, session, gm_cookie, "heard again") == 204
        for page in pages:
            page.read(until_seq=_last_seq(session), timeout=40)
    finally:
        for page in pages:
            page.close()
        server.stop()

    member, spectator = pages
    assert member.seqs == _visible_seqs(session, gm=False)
    assert spectator.seqs == _visible_seqs(session, gm=False, spectator=True)


def test_a_renewed_spectator_link_closes_spectators_on_every_process(redis_url, redis_room):
    session, gm, _player = redis_room
    table = _watched(session)
    servers = [DaphneServer(extra_env={"REDIS_URL": redis_url}) for _ in range(2)]
    spectators = [ScriptedPage(session, spectator_token=table.spectator_token) for _ in servers]
    try:
        for spectator, server in zip(spectators, servers, strict=True):
            spectator.open(server.url)
            spectator.read(until_seq=1, timeout=2)

        spectator_token_renew(table=table, by=gm)

        assert [_close_code(spectator.socket) for spectator in spectators] == [
            CLOSE_NOT_A_MEMBER
        ] * len(spectators)
    finally:
        for spectator in spectators:
            spectator.close()
        for server in servers:
            server.stop()
