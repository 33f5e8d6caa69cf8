"""Login throttling (django-axes): wrong passwords lock the account and the address for a
while, with a translated page; the administrator unlocks; the address is the trusted one."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.urls import reverse
from django.utils import timezone

from tests.factories import PASSWORD, UserFactory

WRONG = "not-the-password"


@pytest.fixture
def keeper(db):
    return UserFactory(username="keeper")


def _login(client, password, *, username="keeper", **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def test_login_five_wrong_passwords_are_answered_as_usual(client, keeper):
    for _ in range(5):
        response = _login(client, WRONG)
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()

    response = _login(client, PASSWORD)

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(keeper.pk)


def test_login_sixth_wrong_password_locks_the_account(client, keeper):
    for _ in range(5):
        _login(client, WRONG)

    locked = _login(client, WRONG)
    right_password = _login(client, PASSWORD)

    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    assert right_password.status_code == 429
    assert SESSION_KEY not in client.session


def test_login_lock_holds_for_the_account_from_another_address(client, keeper):
    for _ in range(6):
        _login(client, WRONG, REMOTE_ADDR="192.0.2.10")

    response = _login(client, PASSWORD, REMOTE_ADDR="198.51.100.20")

    assert response.status_code == 429


def test_login_lock_holds_for_the_address_with_another_account(client, keeper):
    UserFactory(username="other")
    for _ in range(6):
        _login(client, WRONG, REMOTE_ADDR="192.0.2.10")

    response = _login(client, PASSWORD, username="other", REMOTE_ADDR="192.0.2.10")

    assert response.status_code == 429


def test_login_lock_ends_after_the_cool_off(client, keeper):
    for _ in range(6):
        _login(client, WRONG)
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))

    response = _login(client, PASSWORD)

    assert response.status_code == 302


def test_login_lock_is_lifted_when_the_admin_deletes_the_attempts(client, keeper):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    for _ in range(6):
        _login(client, WRONG, REMOTE_ADDR="192.0.2.10")
    admin_client = client.__class__()
    admin_client.force_login(admin)
    changelist = admin_client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200
    assert "keeper" in changelist.content.decode()

    admin_client.post(
        reverse("admin:axes_accessattempt_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": list(AccessAttempt.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    response = _login(client, PASSWORD, REMOTE_ADDR="192.0.2.10")

    assert not AccessAttempt.objects.exists()
    assert response.status_code == 302


def test_login_lock_page_in_japanese(client, keeper):
    client.cookies["django_language"] = "ja"
    for _ in range(6):
        response = _login(client, WRONG)

    assert response.status_code == 429
    assert "ログインの失敗が多すぎます" in response.content.decode()


def test_login_lock_on_the_invite_page_form(client, keeper, table, gm):
    from sessions_app.services.tables import invite_create

    invite = invite_create(table=table, by=gm)
    url = reverse("invite_join_by_login", args=[invite.token])
    form = {"action": "login", "login-username": "keeper", "login-password": WRONG}
    for _ in range(6):
        response = client.post(url, form)

    assert response.status_code == 429
    assert _login(client, PASSWORD).status_code == 429


def test_login_lock_counts_the_forwarded_address_only_from_a_trusted_proxy(
    client, keeper, settings
):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    attacker = {"REMOTE_ADDR": "192.0.2.50"}
    for n in range(6):
        # Not behind the proxy: the address it names is ignored, so all six count together.
        _login(
            client, WRONG, username=f"nobody{n}", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}", **attacker
        )

    forged = _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.99", **attacker)
    through_proxy = _login(
        client, PASSWORD, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.9"
    )

    assert forged.status_code == 429
    assert through_proxy.status_code == 302
