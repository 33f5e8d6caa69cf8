"""The viewer's time zone: the browser names it in a cookie, pages and live updates use it.

A table in Tokyo and its player abroad each read the log's times as their own clocks show
them. Without the cookie (a first visit, scripts off) times are in the server's TIME_ZONE.
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.utils import timezone

TIME_ZONE_COOKIE = "tz"


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_from_cookie(value: str | None) -> zoneinfo.ZoneInfo | None:
    """The named IANA zone, or None for anything else (never a path, never an error)."""
    if not value or len(value) > 64 or value not in _known_zones():
        return None
    return zoneinfo.ZoneInfo(value)


class ViewerTimeZoneMiddleware:
    """Show times in the zone the viewer's browser reported."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = zone_from_cookie(request.COOKIES.get(TIME_ZONE_COOKIE))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
