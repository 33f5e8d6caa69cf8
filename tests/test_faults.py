"""Faults on the production set-up (PostgreSQL + Redis, several daphne processes): a process
killed mid-session, a storm of connections. Scripted clients post through both processes;
afterwards every acknowledged line is stored once, the sequence has no gap, and every socket
holds exactly the events its user may see, each once, in order."""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from websockets.sync.client import connect

from sessions_app.models import TimelineEvent
from tests.live_server import DaphneServer, cookie_for, post_chat

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]

SEQ = re.compile(r'<li id="event-(\d+)" data-seq="\d+"')


class ScriptedPage:
    """What a room page's script does: sync from the last line it holds, reconnect with it."""

    def __init__(self, session, cookie: str):
        self.session = session
        self.cookie = cookie
        self.seqs: list[int] = []
        self.socket = None

    def open(self, server_url: str) -> None:
        url = server_url.replace("http://", "ws://") + f"/ws/sessions/{self.session.pk}/"
        self.socket = connect(
            url,
            additional_headers={"Origin": server_url, "Cookie": self.cookie},
            ping_interval=None,
            max_queue=None,
        )
        self.socket.send(json.dumps({"type": "sync", "last_seq": max(self.seqs, default=0)}))

    def read(self, *, until_seq: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while max(self.seqs, default=0) < until_seq and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                frame = self.socket.recv(timeout=0.5)
                self.seqs += [int(seq) for seq in SEQ.findall(frame)]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()


def _visible_seqs(session, *, gm: bool) -> list[int]:
    events = TimelineEvent.objects.filter(session=session).order_by("seq")
    if gm:
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
            assert post_chat(server.url, session, gm_cookie, f"before {n}") == 200
            acknowledged.append(f"before {n}")
        player_page.read(until_seq=TimelineEvent.objects.filter(session=session).count())

        # The player's process dies without closing anything; lines go on through the other.
        first.process.kill()
        first.process.wait()
        for n in range(4):
            assert post_chat(second.url, session, gm_cookie, f"during {n}") == 200
            acknowledged.append(f"during {n}")
        player_page.close()
        player_page.open(second.url)
        assert post_chat(second.url, session, player_cookie, "after") == 200
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
        assert post_chat(server.url, session, cookie_for(gm), "after the storm") == 200
        last = TimelineEvent.objects.filter(session=session).order_by("seq").last().seq
        for page in pages:
            page.read(until_seq=last, timeout=30)
    finally:
        for page in pages:
            page.close()
        server.stop()

    wanted = _visible_seqs(session, gm=False)
    assert all(page.seqs == wanted for page in pages), [page.seqs for page in pages][:3]
