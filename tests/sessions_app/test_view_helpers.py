"""Helpers shared by the views."""

from __future__ import annotations

import pytest
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client, RequestFactory

from sessions_app.views.common import signed_in_user

pytestmark = pytest.mark.django_db


def _request(cookies: dict | None = None):
    """A request past the session and authentication middleware, as a view receives it."""
    request = RequestFactory().get("/")
    request.COOKIES = cookies or {}
    SessionMiddleware(lambda request: None).process_request(request)
    AuthenticationMiddleware(lambda request: None).process_request(request)
    return request


def _signed_in_request(user):
    client = Client()
    client.force_login(user)
    return _request({name: morsel.value for name, morsel in client.cookies.items()})


def test_the_signed_in_user_is_the_user_itself_and_the_one_request_user_stands_for(player):
    request = _signed_in_request(player)

    user = signed_in_user(request)

    assert type(user) is type(player)
    assert user.pk == player.pk
    assert request.user == user
    assert signed_in_user(request) is user  # read once, then cached on the request


def test_nobody_signed_in_is_the_anonymous_user():
    assert signed_in_user(_request()).is_authenticated is False


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HX-Request": "true"},
        {"HX-Request": "false"},
        {"HX-Request": "True"},
        {"HX-Request": "true", "HX-Request-URI-AutoEncoded": "true"},
        {"HX-Request": "tr%75e", "HX-Request-URI-AutoEncoded": "true"},
    ],
)
def test_asked_by_htmx_answers_as_django_htmx_does(headers):
    from django_htmx.middleware import HtmxDetails

    from sessions_app.views.common import asked_by_htmx

    request = RequestFactory().get("/", headers=headers)
    assert asked_by_htmx(request) is bool(HtmxDetails(request))
    # It did not build the request's header dictionary, the cost it exists to avoid.
    fresh = RequestFactory().get("/", headers=headers)
    asked_by_htmx(fresh)
    assert "headers" not in fresh.__dict__
