"""Behind the shipped nginx rules, a client's own X-Forwarded-For names no address: the
per-address limits on new accounts count what nginx saw, however the header is varied."""

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from sessions_app.models import GuestAccount
from sessions_app.services.tables import invite_create
from tests.clients import cache_cleared
from tests.factories import friday_table
from tests.live_server import DaphneServer, NginxServer

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 2
NEW_PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def behind_nginx():
    cache_cleared()
    server = DaphneServer(
        extra_env={
            "TRUSTED_PROXIES": "127.0.0.1,::1",
            "GUEST_JOINS_PER_HOUR": str(LIMIT),
            "SIGNUPS_PER_HOUR": str(LIMIT),
            "SIGNUP_POLICY": "open",
        }
    )
    nginx = None
    try:
        nginx = NginxServer([server.port])
        yield nginx
    finally:
        if nginx is not None:
            nginx.stop()
        server.stop()
        cache_cleared()


def _post_as_new_browser(
    url: str, fields: dict, forged_address: str, *, form_action: str | None = None
) -> int:
    """GET the form's page, then POST it (to `form_action` when the form names one), as a
    browser with no cookies yet would; both requests carry a forged X-Forwarded-For. The
    POST's status."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect())
    forged = {"X-Forwarded-For": forged_address}
    opener.open(urllib.request.Request(url, headers=forged), timeout=15).read()
    csrf = next(cookie.value for cookie in jar if cookie.name == settings.CSRF_COOKIE_NAME)
    request = urllib.request.Request(
        form_action or url,
        data=urllib.parse.urlencode({"csrfmiddlewaretoken": csrf, **fields}).encode(),
        headers={**forged, "Referer": url},
    )
    try:
        with opener.open(request, timeout=15) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_forged_forwarded_for_does_not_move_the_guest_limit(behind_nginx):
    table, gm, _players = friday_table()
    invite = invite_create(table=table, by=gm, allows_guests=True)
    url = f"{behind_nginx.url}/invite/{invite.token}/"
    guest_url = f"{behind_nginx.url}{reverse('invite_join_as_guest', args=[invite.token])}"

    statuses = [
        _post_as_new_browser(
            url,
            {"action": "guest", "guest-display_name": f"Guest{n}"},
            f"203.0.113.{n}",
            form_action=guest_url,
        )
        for n in range(LIMIT + 2)
    ]

    assert statuses == [302] * LIMIT + [429, 429]
    assert GuestAccount.objects.count() == LIMIT


def test_forged_forwarded_for_does_not_move_the_signup_limit(behind_nginx):
    url = f"{behind_nginx.url}/accounts/signup/"

    statuses = [
        _post_as_new_browser(
            url,
            {"username": f"new{n}", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
            f"198.51.100.{n}, 203.0.113.{n}",
        )
        for n in range(LIMIT + 2)
    ]

    assert statuses == [302] * LIMIT + [429, 429]
    assert get_user_model().objects.filter(username__startswith="new").count() == LIMIT
