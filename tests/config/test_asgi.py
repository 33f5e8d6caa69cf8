"""The ASGI application: HTTP through Django's stock handler, announcements to the room."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.test import Client

from config.asgi import application
from sessions_app.presenters import live
from sessions_app.services.timeline import presence_enter

CSRF = "c" * 32

# The test's own database work runs through Channels' wrapper, which closes the thread's
# connection afterwards as a request does: none is left open when the test database goes.


async def _request(path: str, *, method="GET", cookies: dict | None = None, body=b""):
    cookie_header = "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())
    headers = [(b"host", b"testserver"), (b"cookie", cookie_header.encode())]
    if method == "POST":
        headers += [
            (b"x-csrftoken", CSRF.encode()),
            (b"hx-request", b"true"),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        message = await communicator.receive_output(10)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return start["status"], content


async def _signed_in_cookies(user) -> dict:
    def sign_in():
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    session_cookie = await database_sync_to_async(sign_in)()
    return {settings.SESSION_COOKIE_NAME: session_cookie, settings.CSRF_COOKIE_NAME: CSRF}


@pytest.mark.asyncio
async def test_a_page_is_served_over_http():
    assert await _request("/ok/") == (200, b"ok")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_signed_in_roll_goes_through_sessions_csrf_and_the_view(session, player, gm):
    from sessions_app.models import Roll
    from sessions_app.services import checks
    from tests.factories import CharacterFactory

    def prepare():
        pc = CharacterFactory(
            table=session.table, owner=player, name="Aki", judgement_values={"Strength": 4}
        )
        session.characters.add(pc)
        check = checks.check_request(
            session=session, by=gm, character=pc, label="climb", value_name="Strength"
        )
        return check.pk

    check_id = await database_sync_to_async(prepare)()
    cookies = await _signed_in_cookies(player)
    url = f"/sessions/{session.pk}/checks/{check_id}/roll/"

    status, content = await _request(url, method="POST", cookies=cookies)
    refused, _ = await _request(url, method="POST", cookies={})

    assert status == 200
    assert b"Rolled" in content
    assert await Roll.objects.filter(request_id=check_id).acount() == 1
    assert refused == 403  # no CSRF cookie: refused before the view


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_event_a_view_appends_reaches_the_room_once_committed(session, player):
    cookies = await _signed_in_cookies(player)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    # A player's page in English is in the room: the line is rendered for its audience.
    await database_sync_to_async(presence_enter)(
        session_id=session.pk, user=player, channel_name=channel, language="en"
    )
    await layer.group_add(live.room_group(session.pk, live.PLAYERS, live.Variant("en")), channel)

    status, _ = await _request(
        f"/sessions/{session.pk}/chat/", method="POST", cookies=cookies, body=b"text=hello+table"
    )
    message = await asyncio.wait_for(layer.receive(channel), 5)

    assert status == 204
    last = await database_sync_to_async(lambda: session.events.order_by("seq").last())()
    assert (message["type"], message["seq"]) == ("room.event", last.seq)
    assert "hello table" in message["html"]
    assert last.payload["text"] == "hello table"


def test_a_served_process_sets_what_starting_made_aside_from_the_garbage_collector():
    # In a process of its own: the test runner's heap is not a served process's.
    script = (
        "import gc, json, config.asgi\n"
        "from django.template import engines\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "print(json.dumps([gc.get_freeze_count(), len(gc.get_objects()),\n"
        "    'sessions_app/_roll_card.html' in loader.get_template_cache]))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=settings.BASE_DIR,
        check=True,
    )
    frozen, walked, roll_card_compiled = json.loads(result.stdout.strip().splitlines()[-1])

    # A full collection walks what serving made, not the modules and templates of the start.
    assert frozen > 10 * walked
    assert roll_card_compiled
