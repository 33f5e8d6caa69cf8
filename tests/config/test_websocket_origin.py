"""The websocket Origin check: scheme, host and port of the page must be this site's."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from config.asgi import application
from config.websocket_origin import origin_allowed

PROXY_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


def _scope(origin: str | None, host: str | None = "table.example:8443", **headers) -> dict:
    pairs = []
    if origin is not None:
        pairs.append((b"origin", origin.encode()))
    if host is not None:
        pairs.append((b"host", host.encode()))
    pairs += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    return {"type": "websocket", "path": "/ws/sessions/1/", "headers": pairs}


@pytest.fixture
def site(settings):
    settings.ALLOWED_HOSTS = ["table.example"]
    settings.CSRF_TRUSTED_ORIGINS = []
    settings.SECURE_PROXY_SSL_HEADER = None
    return settings


def test_origin_of_the_same_scheme_host_and_port_allowed(site):
    assert origin_allowed(_scope("http://table.example:8443"))


def test_origin_on_another_port_of_the_same_host_refused(site):
    assert not origin_allowed(_scope("http://table.example:8000"))


def test_origin_with_another_scheme_refused(site):
    assert not origin_allowed(_scope("https://table.example:8443"))


def test_origin_of_another_host_refused(site):
    assert not origin_allowed(_scope("http://evil.example:8443"))


def test_missing_or_opaque_origin_refused(site):
    assert not origin_allowed(_scope(None))
    assert not origin_allowed(_scope("null"))


def test_host_outside_allowed_hosts_refused_even_when_origin_matches_it(site):
    assert not origin_allowed(_scope("http://evil.example", host="evil.example"))


def test_default_port_written_or_not_is_the_same_origin(site):
    assert origin_allowed(_scope("http://table.example", host="table.example:80"))
    assert origin_allowed(_scope("http://table.example:80", host="table.example"))


def test_behind_a_proxy_that_received_https_the_page_must_be_https(site):
    site.SECURE_PROXY_SSL_HEADER = PROXY_HEADER
    forwarded = {"x_forwarded_proto": "https"}

    assert origin_allowed(_scope("https://table.example", host="table.example", **forwarded))
    assert not origin_allowed(_scope("http://table.example", host="table.example", **forwarded))


def test_proxy_header_ignored_unless_the_settings_trust_it(site):
    # Without SECURE_PROXY_SSL_HEADER anyone may send the header: it proves nothing.
    scope = _scope("https://table.example", host="table.example", x_forwarded_proto="https")

    assert not origin_allowed(scope)


def test_proxy_that_received_plain_http_expects_an_http_page(site):
    site.SECURE_PROXY_SSL_HEADER = PROXY_HEADER
    forwarded = {"x_forwarded_proto": "http"}

    assert origin_allowed(_scope("http://table.example", host="table.example", **forwarded))
    assert not origin_allowed(_scope("https://table.example", host="table.example", **forwarded))


def test_csrf_trusted_origins_are_trusted_with_their_scheme_and_port(site):
    site.CSRF_TRUSTED_ORIGINS = ["https://app.example", "https://*.table.example"]

    assert origin_allowed(_scope("https://app.example"))
    assert origin_allowed(_scope("https://eu.table.example"))
    assert not origin_allowed(_scope("http://app.example"))
    assert not origin_allowed(_scope("https://app.example:8443"))
    assert not origin_allowed(_scope("https://elsewhere.example"))


async def _cookie(user) -> bytes:
    def sign_in():
        client = Client()
        client.force_login(user)
        return client.cookies[django_settings.SESSION_COOKIE_NAME].value

    value = await sync_to_async(sign_in)()
    return f"{django_settings.SESSION_COOKIE_NAME}={value}".encode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_application_refuses_a_page_on_another_port(session, player):
    headers = [
        (b"origin", b"http://localhost:8000"),
        (b"host", b"localhost:8001"),
        (b"cookie", await _cookie(player)),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/", headers)

    connected, _ = await communicator.connect()

    assert not connected


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_application_lets_a_member_in_from_the_same_origin(session, player):
    headers = [
        (b"origin", b"http://localhost:8001"),
        (b"host", b"localhost:8001"),
        (b"cookie", await _cookie(player)),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/", headers)

    connected, _ = await communicator.connect()

    assert connected
    await communicator.disconnect()
