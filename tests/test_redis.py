"""Real daphne processes on Redis: a quiet room keeps its sockets, and while Redis is away
signed-in pages still answer and a chat line is still kept (only the live push is lost)."""

import contextlib
import time

import pytest

from sessions_app.models import TimelineEvent
from sessions_app.services.timeline import presence_enter
from tests.live_server import (
    DaphneServer,
    cookie_for,
    free_port,
    post_chat,
    receive_until,
    room_socket,
)

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]

QUIET_SOCKETS = 20
# Longer than a minute: in the run that found the fault every socket was gone by then.
QUIET_SECONDS = 70


@contextlib.contextmanager
def _daphne(**extra_env):
    server = DaphneServer(extra_env=extra_env)
    try:
        yield server
    finally:
        server.stop()


def test_quiet_room_keeps_every_socket_for_over_a_minute(redis_url, redis_room):
    session, gm, player = redis_room
    cookie = cookie_for(player)
    with _daphne(REDIS_URL=redis_url) as server, contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(room_socket(server.url, session, cookie))
            for _ in range(QUIET_SOCKETS)
        ]
        time.sleep(QUIET_SECONDS)

        assert post_chat(server.url, session, cookie_for(gm), "Still here after the lull") == 204

        for socket in sockets:
            receive_until(socket, lambda frame: "Still here after the lull" in frame)


def test_signed_in_page_answers_while_redis_is_unreachable(redis_url, redis_room):
    session, _gm, player = redis_room
    # Nothing listens on a port just freed: Redis as unreachable as a stopped one.
    away = f"redis://127.0.0.1:{free_port()}/0"
    with _daphne(REDIS_URL=away) as server:
        import urllib.request

        request = urllib.request.Request(
            f"{server.url}/sessions/{session.pk}/", headers={"Cookie": cookie_for(player)}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
            assert session.title in response.read().decode()


def test_chat_line_is_kept_and_answered_while_the_channel_layer_is_unreachable(
    redis_url, redis_room
):
    session, _gm, player = redis_room
    # A page of the player's is open: the line is rendered and sent for it (a room nobody
    # has open is sent nothing).
    presence_enter(session_id=session.pk, user=player, channel_name="open-page", language="en")
    away = f"redis://127.0.0.1:{free_port()}/0"
    with _daphne(REDIS_URL=away) as server:
        status = post_chat(server.url, session, cookie_for(player), "Said while Redis slept")
        log = server.log()

    assert status == 204
    assert TimelineEvent.objects.filter(
        session=session, payload__text="Said while Redis slept"
    ).exists()
    assert "Broadcast to the room failed" in log
