"""Several daphne processes on one PostgreSQL + Redis behave as one room."""

import contextlib
import http.cookiejar
import json
import time
import urllib.parse
import urllib.request

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from websockets.sync.client import connect

from tests.factories import GameSessionFactory, MembershipFactory, TableFactory, UserFactory
from tests.live_server import DaphneServer, shipped_rules_profiles

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip(
            "needs PostgreSQL and Redis (DATABASE_URL=postgres://…, REDIS_URL=redis://…); "
            "CI runs it there"
        )
    shipped_rules_profiles()
    servers = [DaphneServer(), DaphneServer()]
    yield servers
    for server in servers:
        server.stop()


def _cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@contextlib.contextmanager
def _socket(server, session, cookie):
    ws_url = server.url.replace("http://", "ws://") + f"/ws/sessions/{session.pk}/"
    with connect(ws_url, additional_headers={"Origin": server.url, "Cookie": cookie}) as socket:
        socket.send(json.dumps({"type": "sync", "last_seq": 0}))
        yield socket


def _receive_until(socket, predicate, timeout=15.0) -> str:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            frame = socket.recv(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        seen.append(frame)
        if predicate(frame):
            return frame
    raise AssertionError(f"no matching frame within {timeout} s; got {seen!r}")


def _post_chat(server, session, cookie, text) -> int:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    room_url = f"{server.url}/sessions/{session.pk}/"
    opener.open(urllib.request.Request(room_url, headers={"Cookie": cookie})).read()
    csrf = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)
    request = urllib.request.Request(
        f"{room_url}chat/",
        data=urllib.parse.urlencode({"text": text}).encode(),
        headers={
            "Cookie": f"{cookie}; {settings.CSRF_COOKIE_NAME}={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
        },
    )
    with opener.open(request) as response:
        return response.status


def test_event_appended_through_one_process_reaches_socket_on_other(two_servers):
    server_a, server_b = two_servers
    gm = UserFactory(username="keeper")
    player = UserFactory(username="aki")
    table = TableFactory(gm=gm)
    MembershipFactory(table=table, user=player)
    session = GameSessionFactory(table=table)
    gm_cookie, player_cookie = _cookie_for(gm), _cookie_for(player)

    with (
        _socket(server_b, session, player_cookie) as player_socket,
        _socket(server_a, session, gm_cookie),
    ):
        # Presence recorded by process A shows on the socket held by process B.
        _receive_until(player_socket, lambda f: 'data-user="keeper"' in f)

        assert _post_chat(server_a, session, gm_cookie, "Heard across processes") == 200

        frame = _receive_until(player_socket, lambda f: "Heard across processes" in f)
        assert 'id="event-1"' in frame
