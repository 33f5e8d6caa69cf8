"""The signed-in user's row is cached between requests and forgotten when it changes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from sessions_app.auth_backends import CachedModelBackend
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_second_lookup_reads_no_row(django_assert_num_queries):
    user = UserFactory(username="aki")
    backend = CachedModelBackend()

    with django_assert_num_queries(1):
        assert backend.get_user(user.pk) == user
    with django_assert_num_queries(0):
        cached = backend.get_user(user.pk)
    assert cached.username == "aki"


def test_a_saved_user_is_read_again():
    user = UserFactory(username="aki")
    backend = CachedModelBackend()
    backend.get_user(user.pk)

    user.first_name = "Akira"
    user.save()

    assert backend.get_user(user.pk).first_name == "Akira"


def test_a_deactivated_user_is_signed_out_at_once():
    user = UserFactory(username="aki")
    backend = CachedModelBackend()
    backend.get_user(user.pk)

    user.is_active = False
    user.save()

    assert backend.get_user(user.pk) is None


def test_a_deleted_user_is_gone_at_once():
    user = UserFactory(username="aki")
    backend = CachedModelBackend()
    backend.get_user(user.pk)
    user_id = user.pk

    user.delete()

    assert backend.get_user(user_id) is None
    assert get_user_model().objects.filter(pk=user_id).count() == 0


def test_an_unknown_user_is_none():
    assert CachedModelBackend().get_user(987654) is None


def test_a_password_change_signs_out_other_browsers_at_once():
    user = UserFactory(username="aki")
    other_browser = Client()
    other_browser.force_login(user)
    home = reverse("home")
    assert other_browser.get(home).wsgi_request.user == user  # the row is cached now

    user.set_password("a-brand-new-passphrase")
    user.save()

    assert not other_browser.get(home).wsgi_request.user.is_authenticated


def test_a_rename_shows_on_the_next_page():
    user = UserFactory(username="aki")
    browser = Client()
    browser.force_login(user)
    assert browser.get(reverse("home")).wsgi_request.user.username == "aki"

    user.username = "akira"
    user.save()

    assert browser.get(reverse("home")).wsgi_request.user.username == "akira"
