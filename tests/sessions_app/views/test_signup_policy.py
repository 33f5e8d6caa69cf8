"""SIGNUP_POLICY: open, invite-only or closed; a refused way in creates nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sessions_app.models import GuestAccount, Membership

NEW_PASSWORD = "a-long-pass-phrase"
SIGNUP = {"username": "newcomer", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}


# An empty cache around each test; guest_invite is tests/sessions_app/conftest.py's too.
pytestmark = pytest.mark.usefixtures("empty_cache")


def _invite_signup(client, invite):
    return client.post(
        reverse("invite_join_by_signup", args=[invite.token]),
        {"action": "signup", **{f"signup-{key}": value for key, value in SIGNUP.items()}},
    )


def test_signup_policy_open_offers_and_takes_sign_ups(client, settings, db):
    settings.SIGNUP_POLICY = "open"

    assert 'href="/accounts/signup/"' in client.get(reverse("login")).content.decode()
    response = client.post(reverse("signup"), SIGNUP)

    assert response.status_code == 302
    assert get_user_model().objects.filter(username="newcomer").exists()


def test_signup_policy_invite_refuses_the_sign_up_page(client, settings, db):
    settings.SIGNUP_POLICY = "invite"

    page = client.get(reverse("signup"))
    response = client.post(reverse("signup"), SIGNUP)

    assert page.status_code == 403
    assert "invite link" in page.content.decode()
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_signup_policy_invite_hides_the_sign_up_links(client, settings, db):
    settings.SIGNUP_POLICY = "invite"

    for url in (reverse("home"), reverse("login")):
        assert 'href="/accounts/signup/"' not in client.get(url).content.decode()


def test_signup_policy_invite_still_signs_up_through_an_invite(client, settings, guest_invite):
    settings.SIGNUP_POLICY = "invite"

    response = _invite_signup(client, guest_invite)

    assert response.status_code == 302
    user = get_user_model().objects.get(username="newcomer")
    assert Membership.objects.filter(user=user, table=guest_invite.table).exists()


def test_signup_policy_closed_refuses_sign_up_and_guests_on_an_invite(
    client, settings, guest_invite
):
    settings.SIGNUP_POLICY = "closed"
    url = reverse("invite", args=[guest_invite.token])

    page = client.get(url).content.decode()
    signup = _invite_signup(client, guest_invite)
    guest = client.post(
        reverse("invite_join_as_guest", args=[guest_invite.token]),
        {"action": "guest", "guest-display_name": "Mio"},
    )

    assert 'value="signup"' not in page
    assert 'value="guest"' not in page
    assert signup.status_code == 403
    assert guest.status_code == 403
    assert "opens no new accounts" in guest.content.decode()
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert not GuestAccount.objects.exists()


def test_signup_policy_closed_still_lets_a_member_log_in_and_join(
    client, settings, guest_invite, player
):
    settings.SIGNUP_POLICY = "closed"
    from tests.factories import PASSWORD

    response = client.post(
        reverse("invite_join_by_login", args=[guest_invite.token]),
        {"action": "login", "login-username": "player", "login-password": PASSWORD},
    )

    assert response.status_code == 302
    assert Membership.objects.filter(user=player, table=guest_invite.table).exists()
