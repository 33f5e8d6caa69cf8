"""Changes to a user reach every browser signed in as them on its next request."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _signed_in_browser(user) -> Client:
    browser = Client()
    browser.force_login(user)
    assert browser.get(reverse("home")).wsgi_request.user == user
    return browser


def test_a_password_change_signs_out_other_browsers_at_once():
    user = UserFactory(username="aki")
    other_browser = _signed_in_browser(user)

    user.set_password("a-brand-new-passphrase")
    user.save()

    assert not other_browser.get(reverse("home")).wsgi_request.user.is_authenticated


def test_a_rename_shows_on_the_next_page():
    user = UserFactory(username="aki")
    browser = _signed_in_browser(user)

    user.username = "akira"
    user.save()

    assert browser.get(reverse("home")).wsgi_request.user.username == "akira"


def test_a_deactivated_user_is_signed_out_at_once():
    user = UserFactory(username="aki")
    browser = _signed_in_browser(user)

    user.is_active = False
    user.save()

    assert not browser.get(reverse("home")).wsgi_request.user.is_authenticated


def test_a_deleted_user_is_signed_out_at_once():
    user = UserFactory(username="aki")
    browser = _signed_in_browser(user)

    user.delete()

    assert not browser.get(reverse("home")).wsgi_request.user.is_authenticated
