"""Guests: joining a table with a display name alone, what such an account may do, and
keeping it with a password."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from sessions_app.models import GuestAccount, Invite, Membership, Table
from sessions_app.selectors.access import member_session
from sessions_app.services.chat import chat_post
from sessions_app.services.guests import display_name_clean, guest_join, guest_keep
from sessions_app.services.logs import log_import
from sessions_app.services.scenarios import scenario_create
from sessions_app.services.tables import InviteError, invite_accept, invite_create, table_create
from tests.factories import GameSessionFactory, MembershipFactory, TableFactory, UserFactory

NEW_PASSWORD = "a-long-pass-phrase"


# An empty cache around each test; guest_invite is tests/sessions_app/conftest.py's too.
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def guest(guest_invite):
    user, _membership = guest_join(token=guest_invite.token, display_name="Mio")
    return user


def _message(error: ValidationError) -> str:
    return " ".join(error.messages)


# --- Display names -----------------------------------------------------------------------


def test_display_name_clean_keeps_japanese_name(db):
    assert display_name_clean(" あき ") == "あき"


def test_display_name_clean_refuses_empty(db):
    with pytest.raises(ValidationError, match="name the others will see"):
        display_name_clean("   ")


def test_display_name_clean_refuses_control_characters(db):
    with pytest.raises(ValidationError, match="control or invisible"):
        display_name_clean("Mi\u200bo")


def test_display_name_clean_refuses_long_name(db):
    with pytest.raises(ValidationError, match="at most 30"):
        display_name_clean("a" * 31)


def test_display_name_clean_refuses_spaces(db):
    with pytest.raises(ValidationError, match="without spaces"):
        display_name_clean("Mio Tanaka")


def test_display_name_clean_refuses_taken_name_whatever_the_case(db):
    UserFactory(username="Aki")

    with pytest.raises(ValidationError, match="already taken"):
        display_name_clean("aki")


# --- Joining ----------------------------------------------------------------------------


def test_guest_join_makes_player_of_that_table(guest, table):
    membership = Membership.objects.get(user=guest)

    assert (membership.table_id, membership.role) == (table.pk, Membership.Role.PLAYER)
    assert GuestAccount.objects.get(user=guest).table_id == table.pk
    assert not guest.has_usable_password()


def test_guest_join_refused_by_ordinary_invite(table, gm):
    invite = invite_create(table=table, by=gm)

    with pytest.raises(InviteError, match="does not let guests join"):
        guest_join(token=invite.token, display_name="Mio")
    assert not GuestAccount.objects.exists()


def test_guest_join_refused_by_withdrawn_invite(guest_invite):
    Invite.objects.filter(pk=guest_invite.pk).update(revoked=True)

    with pytest.raises(InviteError, match="withdrawn"):
        guest_join(token=guest_invite.token, display_name="Mio")


def test_guest_join_taken_name_keeps_nothing(guest_invite, player):
    with pytest.raises(ValidationError):
        guest_join(token=guest_invite.token, display_name="PLAYER")

    assert not GuestAccount.objects.exists()


# --- Rights --------------------------------------------------------------------------


def test_guest_posts_chat_at_own_table(guest, table):
    session = GameSessionFactory(table=table)

    event = chat_post(session=session, by=guest, text="Hello from Mio")

    assert event.actor_id == guest.pk


def test_guest_cannot_create_table(guest):
    with pytest.raises(PermissionDenied):
        table_create(gm=guest, name="My own table")


def test_guest_cannot_write_a_scenario(guest):
    with pytest.raises(PermissionDenied):
        scenario_create(by=guest, title="My own scenario")


def test_guest_scenario_form_says_why(client, guest):
    client.force_login(guest)

    response = client.post(reverse("scenario_list"), {"title": "Mine", "player_count": 3})

    assert response.status_code == 400
    assert "A guest account cannot write scenarios" in response.content.decode()


def test_guest_cannot_import_a_log_as_a_table(guest):
    with pytest.raises(PermissionDenied):
        log_import(data=b"{}", by=guest)


def test_guest_cannot_accept_another_tables_invite(guest):
    other = TableFactory()
    invite = invite_create(table=other, by=other.gm)

    with pytest.raises(PermissionDenied):
        invite_accept(token=invite.token, user=guest)
    assert not Membership.objects.filter(table=other, user=guest).exists()


def test_guest_membership_elsewhere_does_not_count(guest):
    other_session = GameSessionFactory()
    MembershipFactory(table=other_session.table, user=guest)

    assert member_session(user=guest, session_id=other_session.pk) is None


def test_guest_table_page_of_another_table_404(client, guest):
    other = TableFactory()
    MembershipFactory(table=other, user=guest)
    client.force_login(guest)

    assert client.get(reverse("table_detail", args=[other.pk])).status_code == 404


def test_home_create_table_refused_for_guest(client, guest):
    client.force_login(guest)

    response = client.post(reverse("home"), {"name": "Sneaky table"})

    assert response.status_code == 400
    assert "cannot create tables" in response.content.decode()
    assert not Table.objects.filter(name="Sneaky table").exists()


def test_invite_page_join_refused_for_guest_of_another_table(client, guest):
    other = TableFactory()
    invite = invite_create(table=other, by=other.gm)
    client.force_login(guest)

    response = client.post(
        reverse("invite_join_signed_in", args=[invite.token]), {"action": "join"}
    )

    assert response.status_code == 403
    assert not Membership.objects.filter(table=other, user=guest).exists()


# --- The invite page -----------------------------------------------------------------


def test_invite_create_view_makes_guest_invite(client, table, gm):
    client.force_login(gm)

    client.post(reverse("invite_create", args=[table.pk]), {"allows_guests": "on"})

    assert Invite.objects.get(table=table).allows_guests


def test_invite_page_offers_guest_form_only_for_guest_invite(client, table, gm):
    ordinary = invite_create(table=table, by=gm)
    for_guests = invite_create(table=table, by=gm, allows_guests=True)

    plain_page = client.get(reverse("invite", args=[ordinary.token])).content.decode()
    guest_page = client.get(reverse("invite", args=[for_guests.token])).content.decode()

    assert 'value="guest"' not in plain_page
    assert 'value="guest"' in guest_page


def test_invite_page_guest_join_logs_in(client, guest_invite, table):
    response = client.post(
        reverse("invite_join_as_guest", args=[guest_invite.token]),
        {"action": "guest", "guest-display_name": "Mio"},
    )

    assert response.status_code == 302
    assert client.get(reverse("table_detail", args=[table.pk])).status_code == 200


def test_invite_page_guest_name_clash_says_so(client, guest_invite, player):
    response = client.post(
        reverse("invite_join_as_guest", args=[guest_invite.token]),
        {"action": "guest", "guest-display_name": "player"},
    )

    assert response.status_code == 400
    assert "already taken" in response.content.decode()


def test_invite_page_ordinary_invite_refuses_guest_post(client, table, gm):
    invite = invite_create(table=table, by=gm)

    response = client.post(
        reverse("invite_join_as_guest", args=[invite.token]),
        {"action": "guest", "guest-display_name": "Mio"},
    )

    assert response.status_code == 400
    assert not GuestAccount.objects.exists()


def test_invite_page_guest_joins_rate_limited_per_address(client, guest_invite, settings):
    settings.GUEST_JOINS_PER_HOUR = 2
    url = reverse("invite_join_as_guest", args=[guest_invite.token])
    for name in ["Mio", "Ren"]:
        client.post(url, {"action": "guest", "guest-display_name": name})
        client.logout()

    response = client.post(url, {"action": "guest", "guest-display_name": "Sora"})

    assert response.status_code == 429
    assert "Too many new accounts" in response.content.decode()
    assert GuestAccount.objects.count() == 2


def test_invite_page_rate_limit_counts_each_address_apart(client, guest_invite, settings):
    settings.GUEST_JOINS_PER_HOUR = 1
    url = reverse("invite_join_as_guest", args=[guest_invite.token])
    client.post(url, {"action": "guest", "guest-display_name": "Mio"})
    client.logout()

    response = client.post(
        url, {"action": "guest", "guest-display_name": "Ren"}, REMOTE_ADDR="192.0.2.7"
    )

    assert response.status_code == 302


def test_signup_rate_limited_per_address(client, settings, db):
    settings.SIGNUPS_PER_HOUR = 1
    form = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    client.post(reverse("signup"), {**form, "username": "first"})
    client.logout()

    response = client.post(reverse("signup"), {**form, "username": "second"})

    assert response.status_code == 429
    assert not UserFactory._meta.model.objects.filter(username="second").exists()


# --- Keeping the account ---------------------------------------------------------------


def test_guest_keep_sets_password_and_lifts_restriction(guest):
    guest_keep(user=guest, password=NEW_PASSWORD)

    guest.refresh_from_db()
    assert guest.check_password(NEW_PASSWORD)
    assert table_create(gm=guest, name="Mio's table").gm_id == guest.pk


def test_guest_keep_refused_for_ordinary_account(player):
    with pytest.raises(PermissionDenied):
        guest_keep(user=player, password=NEW_PASSWORD)


def test_guest_keep_refuses_weak_password(guest):
    with pytest.raises(ValidationError):
        guest_keep(user=guest, password="123")

    assert GuestAccount.objects.filter(user=guest).exists()


def test_guest_keep_view_renames_and_keeps(client, guest):
    client.force_login(guest)

    response = client.post(
        reverse("guest_keep"),
        {"username": "MioT", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    guest.refresh_from_db()
    assert response.status_code == 302
    assert guest.username == "MioT" and not GuestAccount.objects.filter(user=guest).exists()


def test_guest_keep_view_name_clash_says_so(client, guest, player):
    client.force_login(guest)

    response = client.post(
        reverse("guest_keep"),
        {"username": "Player", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 400
    assert "already taken" in response.content.decode()


def test_guest_home_lists_own_table_only(client, guest, table):
    other = TableFactory(name="Another table")
    MembershipFactory(table=other, user=guest)
    client.force_login(guest)

    page = client.get(reverse("home")).content.decode()

    assert table.name in page and "Another table" not in page
