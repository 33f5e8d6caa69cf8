"""Liveness and readiness: what each checks, and a database that goes away answered as
"not ready" (503) within seconds, pages included, not a 500 after the pool's 30 s."""

import json
import time
import urllib.error
import urllib.request

import pytest
from django.db import connection
from django.urls import reverse

from tests.live_server import (
    DaphneServer,
    TcpRelay,
    cookie_for,
    database_url_for_current_connection,
)


def test_health_ready_names_each_check_and_answers_200(client, db):
    response = client.get(reverse("health_ready"), HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    checks = response.json()
    assert set(checks.values()) == {"OK"}
    names = " ".join(checks)
    for check in ("Database", "MigrationsApplied", "Cache", "ChannelLayerRoundTrip", "Storage"):
        assert check in names


def test_health_ready_answers_503_when_media_storage_is_not_writable(
    client, db, settings, tmp_path
):
    # A folder that cannot be made, whoever runs the tests: its parent is a file.
    (tmp_path / "not-a-folder").write_text("")
    settings.MEDIA_ROOT = tmp_path / "not-a-folder" / "media"

    response = client.get(reverse("health_ready"), HTTP_ACCEPT="application/json")

    assert response.status_code == 503
    assert response.json()["Storage(alias='default')"] != "OK"


def test_health_live_needs_no_database(client):
    # No database fixture: a query would fail the test.
    response = client.get(reverse("health_live"))

    assert response.status_code == 200


def _get(url: str, cookie: str = "") -> tuple[int, str, float]:
    started = time.monotonic()
    request = urllib.request.Request(url, headers={"Cookie": cookie, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=40) as response:
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read().decode()
    return status, body, time.monotonic() - started


@pytest.mark.multiprocess
@pytest.mark.django_db(transaction=True)
def test_health_ready_says_not_ready_within_seconds_when_the_database_stops(gm, table):
    assert connection.vendor == "postgresql", "the pool and its timeout are PostgreSQL's"
    settings_dict = connection.settings_dict
    relay = TcpRelay(
        settings_dict.get("HOST") or "127.0.0.1", int(settings_dict.get("PORT") or 5432)
    )
    url = database_url_for_current_connection().replace(
        f":{settings_dict.get('PORT') or 5432}/", f":{relay.port}/"
    )
    server = DaphneServer(extra_env={"DATABASE_URL": url})
    try:
        cookie = cookie_for(gm)
        assert _get(f"{server.url}/health/ready/")[0] == 200
        assert _get(f"{server.url}/tables/{table.pk}/", cookie)[0] == 200

        relay.stop()
        status, body, took = _get(f"{server.url}/health/ready/")
        page_status, page, page_took = _get(f"{server.url}/tables/{table.pk}/", cookie)

        assert status == 503
        assert json.loads(body)["Database(alias='default')"] != "OK"
        assert took < 10
        assert page_status == 503
        assert "cannot reach its database" in page
        assert page_took < 10
        assert _get(f"{server.url}/health/live/")[0] == 200
    finally:
        relay.stop()
        server.stop()


def test_health_endpoints_answer_a_local_monitor_whatever_host_it_names(client, db, settings):
    settings.ALLOWED_HOSTS = ["srs.example.org"]
    settings.SECURE_SSL_REDIRECT = True

    live = client.get(reverse("health_live"), HTTP_HOST="127.0.0.1:8001")
    ready = client.get(reverse("health_ready"), HTTP_HOST="127.0.0.1:8001", HTTP_ACCEPT="*/*")
    page = client.get(reverse("login"), HTTP_HOST="127.0.0.1:8001")

    assert live.status_code == 200
    assert ready.status_code == 200
    assert "Database" in ready.content.decode()
    assert page.status_code == 400
