"""Times shown in the zone the viewer's browser reports."""

from __future__ import annotations

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions_app.services.chat import chat_post
from sessions_app.time_zones import TIME_ZONE_COOKIE, zone_from_cookie


@pytest.mark.parametrize("name", ["Asia/Tokyo", "Europe/London", "Etc/GMT+9", "UTC"])
def test_a_known_zone_is_taken(name):
    assert zone_from_cookie(name) == ZoneInfo(name)


@pytest.mark.parametrize(
    "value", [None, "", "Mars/Olympus", "../../etc/passwd", "/etc/localtime", "A" * 200]
)
def test_anything_else_is_ignored(value):
    assert zone_from_cookie(value) is None


def _room_time(client, session) -> str:
    """The clock time of the (only) line in the room's log."""
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    (clock,) = re.findall(r'<time datetime="[^"]+">(\d\d:\d\d)</time>', page)
    return clock


@pytest.mark.django_db
def test_the_room_shows_the_log_in_the_viewer_s_zone(session, gm, player):
    event = chat_post(session=session, by=gm, text="What time is it?")
    client = Client()
    client.force_login(player)

    assert _room_time(client, session) == event.created_at.astimezone(ZoneInfo("UTC")).strftime(
        "%H:%M"
    )
    client.cookies[TIME_ZONE_COOKIE] = "Asia/Tokyo"
    assert _room_time(client, session) == event.created_at.astimezone(
        ZoneInfo("Asia/Tokyo")
    ).strftime("%H:%M")


@pytest.mark.django_db
def test_a_bad_cookie_shows_the_server_s_zone_and_nothing_breaks(session, gm, player):
    event = chat_post(session=session, by=gm, text="What time is it?")
    client = Client()
    client.force_login(player)
    client.cookies[TIME_ZONE_COOKIE] = "../../etc/passwd"

    assert _room_time(client, session) == event.created_at.astimezone(datetime.UTC).strftime(
        "%H:%M"
    )


@pytest.mark.django_db
def test_the_zone_does_not_outlive_the_request(session, player):
    client = Client()
    client.force_login(player)
    client.cookies[TIME_ZONE_COOKIE] = "Asia/Tokyo"
    client.get(reverse("session_room", args=[session.pk]))

    assert timezone.get_current_timezone_name() == "UTC"
