"""The websocket Origin check: a socket may be opened only by a page of this very site.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and
nothing else, so a page served over plain http, or on another port of the same host, could
open a socket with the visitor's cookies. Here the Origin must match the scheme, host and
port the request itself came to, as Django's CSRF check requires of a POST's Origin (the
scheme is https when SECURE_PROXY_SSL_HEADER says the proxy received it so), or be one of
CSRF_TRUSTED_ORIGINS.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

_DEFAULT_PORTS = {"http": 80, "https": 443}


class SameOriginValidator:
    """ASGI middleware refusing a websocket whose Origin is not this site's."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None if malformed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname, port or _DEFAULT_PORTS[scheme]


def _request_is_secure(scope) -> bool:
    # As HttpRequest.is_secure(): the proxy's header when one is configured and present.
    if settings.SECURE_PROXY_SSL_HEADER:
        header, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") in {"wss", "https"}


def _trusted(origin: tuple[str, str, int]) -> bool:
    scheme, host, port = origin
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        trusted_scheme, _, trusted_netloc = trusted.partition("://")
        # "https://*.example.com" trusts example.com's subdomains, as Django's CSRF check.
        pattern_netloc = trusted_netloc.removeprefix("*")
        parsed = _origin(trusted_scheme.lower(), pattern_netloc.lstrip("."))
        if parsed is None or parsed[0] != scheme or parsed[2] != port:
            continue
        pattern = f".{parsed[1]}" if pattern_netloc.startswith(".") else parsed[1]
        if is_same_domain(host, pattern):
            return True
    return False


def origin_allowed(scope) -> bool:
    origin_header = _header(scope, b"origin")
    if not origin_header:
        return False
    scheme, _, netloc = origin_header.partition("://")
    origin = _origin(scheme.lower(), netloc)
    if origin is None:
        return False
    host_header = _header(scope, b"host")
    if host_header is None:
        # Only an in-process caller (a test's communicator) sends no Host: the websocket
        # handshake requires it, and daphne's refuses a request without one. The host alone
        # is checked then, as Channels does.
        return validate_host(origin[1], settings.ALLOWED_HOSTS)
    domain, _port = split_domain_port(host_header)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    expected = _origin("https" if _request_is_secure(scope) else "http", host_header)
    return origin == expected or _trusted(origin)
