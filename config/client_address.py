"""The client's address, which no client can choose.

Behind nginx every request comes from the proxy's own address; the browser's is in
`X-Forwarded-For`. A client may send that header too, so it is read only when the request
came from one of TRUSTED_PROXIES, and then from the right: each trusted hop appended the
address it saw, and the first address that is not a trusted proxy is the client (anything
further left is what the client wrote). The shipped nginx rules overwrite the header with
`$remote_addr`, so there is one entry; reading from the right keeps a second proxy in front
safe as well. The per-address limits, the login throttling (django-axes) and the log lines
all use this one function.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def parse_trusted_proxies(values: list[str]) -> list[str]:
    """The settings' list, each entry checked: a wrong address stops the start-up."""
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError as error:
            raise ValueError(f"TRUSTED_PROXIES: {value!r} is not an address or network") from error
    return values


def _is_trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request) -> str:
    """The browser's address: the peer's, or the one a trusted proxy forwarded."""
    address = request.META.get("REMOTE_ADDR", "")
    if not _is_trusted(address):
        return address
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for hop in reversed([hop for hop in hops if hop]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            # Not an address: nothing a trusted proxy wrote, so nothing to believe left of it.
            return address
        if not _is_trusted(hop):
            return hop
        address = hop
    return address
