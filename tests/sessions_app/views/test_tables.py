import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from sessions_app.models import GameSession, Membership, Table, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.play import phase_advance
from sessions_app.services.tables import invite_create, invite_withdraw
from tests.factories import PASSWORD, standard_profile

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_home_anonymous_shows_welcome(client, db):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert b"Sign up" in response.content


def test_home_post_creates_table(gm_client, gm):
    response = gm_client.post(reverse("home"), {"name": "Friday table"})

    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[table.pk])
    assert table.gm == gm


def test_home_post_blank_name_shows_error_and_creates_nothing(gm_client):
    response = gm_client.post(reverse("home"), {"name": ""})

    assert response.status_code == 400
    assert not Table.objects.exists()


def test_invite_create_htmx_returns_panel_with_link(gm_client, table):
    response = gm_client.post(reverse("invite_create", args=[table.pk]), **HTMX)

    invite = table.invites.get()
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="invite-panel"')
    assert f"/invite/{invite.token}/" in response.content.decode()


def test_invite_create_by_player_refused(player_client, table, player_membership):
    response = player_client.post(reverse("invite_create", args=[table.pk]))

    assert response.status_code == 403
    assert not table.invites.exists()


def _newcomer_signs_up(client, invite):
    """Sign up as "newcomer" on the invite's landing page."""
    return client.post(
        reverse("invite_join_by_signup", args=[invite.token]),
        {
            "action": "signup",
            "signup-username": "newcomer",
            "signup-password1": "a-long-pass-phrase",
            "signup-password2": "a-long-pass-phrase",
        },
    )


def test_invite_landing_signup_joins_table(client, table, gm):
    invite = invite_create(table=table, by=gm)

    response = _newcomer_signs_up(client, invite)

    assert response.status_code == 302
    assert Membership.objects.filter(table=table, user__username="newcomer").exists()
    assert client.get(reverse("table_detail", args=[table.pk])).status_code == 200


def test_invite_landing_login_joins_table(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm)

    response = client.post(
        reverse("invite_join_by_login", args=[invite.token]),
        {"action": "login", "login-username": "outsider", "login-password": PASSWORD},
    )

    assert response.status_code == 302
    assert Membership.objects.filter(table=table, user=outsider).exists()


def test_invite_landing_wrong_password_joins_nothing(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm)

    response = client.post(
        reverse("invite_join_by_login", args=[invite.token]),
        {"action": "login", "login-username": "outsider", "login-password": "wrong"},
    )

    assert response.status_code == 400
    assert not Membership.objects.filter(user=outsider).exists()


def test_invite_landing_logged_in_join(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm)
    client.force_login(outsider)

    response = client.post(
        reverse("invite_join_signed_in", args=[invite.token]), {"action": "join"}
    )

    assert response.status_code == 302
    assert Membership.objects.filter(table=table, user=outsider).exists()


def test_invite_landing_tells_a_member_they_are_in(client, table, gm, player, player_membership):
    invite = invite_create(table=table, by=gm)
    client.force_login(player)

    response = client.get(reverse("invite", args=[invite.token]))

    assert response.status_code == 200
    assert b"You are already a member of this table." in response.content


def test_invite_landing_offers_an_outsider_to_join(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm)
    client.force_login(outsider)

    response = client.get(reverse("invite", args=[invite.token]))

    assert b"You are already a member of this table." not in response.content


def test_invite_landing_unknown_token_clear_message(client, db):
    response = client.get(reverse("invite", args=["nope"]))

    assert response.status_code == 404
    assert b"not known" in response.content


def test_invite_landing_expired_signup_creates_nothing(client, table, gm):
    invite = invite_create(table=table, by=gm, lifetime=datetime.timedelta(seconds=-1))

    response = _newcomer_signs_up(client, invite)

    assert response.status_code == 404
    assert b"expired" in response.content
    assert not Membership.objects.filter(user__username="newcomer").exists()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="newcomer").exists()


# --- The invite's ways in: each form posts to its own address under the link ---------------

NEW_PASSWORD = "a-long-pass-phrase"

# What each way in's form posts when it would let its sender in; the join form is posted
# signed in as the outsider, the others signed out.
WAYS_IN = {
    "invite_join_signed_in": {"action": "join"},
    "invite_join_as_guest": {"action": "guest", "guest-display_name": "Mio"},
    "invite_join_by_signup": {
        "action": "signup",
        "signup-username": "newcomer",
        "signup-password1": NEW_PASSWORD,
        "signup-password2": NEW_PASSWORD,
    },
    "invite_join_by_login": {
        "action": "login",
        "login-username": "outsider",
        "login-password": PASSWORD,
    },
}


def _post_way_in(client, url_name, token, outsider, **changes):
    if url_name == "invite_join_signed_in":
        client.force_login(outsider)
    return client.post(reverse(url_name, args=[token]), {**WAYS_IN[url_name], **changes})


def _accounts_and_memberships():
    return get_user_model().objects.count(), Membership.objects.count()


def test_invite_landing_forms_post_to_their_ways_in(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm, allows_guests=True)
    url = reverse("invite", args=[invite.token])

    signed_out = client.get(url).content.decode()
    client.force_login(outsider)
    signed_in = client.get(url).content.decode()

    for url_name in ("invite_join_as_guest", "invite_join_by_signup", "invite_join_by_login"):
        assert f'action="{reverse(url_name, args=[invite.token])}"' in signed_out
    assert f'action="{reverse("invite_join_signed_in", args=[invite.token])}"' in signed_in


def test_invite_landing_refuses_a_post_and_joins_nobody(client, table, gm, outsider):
    invite = invite_create(table=table, by=gm)
    client.force_login(outsider)

    response = client.post(reverse("invite", args=[invite.token]), {"action": "join"})

    assert response.status_code == 405
    assert not Membership.objects.filter(table=table, user=outsider).exists()


# The guest and sign-up limits count in the cache: it starts empty.
@pytest.mark.usefixtures("empty_cache")
@pytest.mark.parametrize("url_name", WAYS_IN)
def test_invite_way_in_joins_and_welcomes(client, table, gm, outsider, url_name):
    invite = invite_create(table=table, by=gm, allows_guests=True)

    response = _post_way_in(client, url_name, invite.token, outsider)

    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[table.pk])
    assert "Welcome to Friday table." in [str(m) for m in get_messages(response.wsgi_request)]
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize("url_name", WAYS_IN)
@pytest.mark.parametrize(
    ("link", "says"),
    [("unknown", "not known"), ("withdrawn", "withdrawn"), ("expired", "expired")],
)
def test_invite_way_in_through_a_bad_link_changes_nothing(
    client, table, gm, outsider, url_name, link, says
):
    if link == "unknown":
        token = "not-a-token"
    else:
        lifetime = datetime.timedelta(seconds=-1) if link == "expired" else None
        invite = invite_create(table=table, by=gm, allows_guests=True, lifetime=lifetime)
        if link == "withdrawn":
            invite_withdraw(invite=invite, by=gm)
        token = invite.token
    before = _accounts_and_memberships()

    response = _post_way_in(client, url_name, token, outsider)

    assert response.status_code == 404
    assert says in response.content.decode()
    assert _accounts_and_memberships() == before
    signed_in_before = url_name == "invite_join_signed_in"
    assert ("_auth_user_id" in client.session) == signed_in_before


def test_invite_join_signed_in_when_signed_out_shows_the_page_again(client, table, gm):
    invite = invite_create(table=table, by=gm)
    before = _accounts_and_memberships()

    response = client.post(reverse("invite_join_signed_in", args=[invite.token]))

    assert response.status_code == 400
    assert "Log in and join" in response.content.decode()
    assert _accounts_and_memberships() == before


# Each way in, refused: what its form posts wrong, the form in the page's context, the
# error it must show, and what was typed that the page keeps.
REFUSED_WAYS_IN = {
    "invite_join_as_guest": (
        {"guest-display_name": ""},
        "guest_form",
        "display_name",
        "Join Friday table",
    ),
    "invite_join_by_signup": (
        {"signup-password2": "another-long-pass-phrase"},
        "signup_form",
        "password2",
        'value="newcomer"',
    ),
    "invite_join_by_login": (
        {"login-password": "wrong"},
        "login_form",
        "__all__",
        'value="outsider"',
    ),
}


@pytest.mark.parametrize("url_name", REFUSED_WAYS_IN)
def test_invite_way_in_with_bad_input_shows_the_error_and_changes_nothing(
    client, table, gm, outsider, url_name
):
    fields, form_name, error_field, kept = REFUSED_WAYS_IN[url_name]
    invite = invite_create(table=table, by=gm, allows_guests=True)
    before = _accounts_and_memberships()

    response = _post_way_in(client, url_name, invite.token, outsider, **fields)

    assert response.status_code == 400
    assert error_field in response.context[form_name].errors
    assert kept in response.content.decode()
    assert _accounts_and_memberships() == before
    assert "_auth_user_id" not in client.session


@pytest.mark.usefixtures("empty_cache")
def test_invite_join_by_signup_rate_limited_per_address(client, table, gm, outsider, settings):
    settings.SIGNUPS_PER_HOUR = 1
    invite = invite_create(table=table, by=gm)
    _post_way_in(client, "invite_join_by_signup", invite.token, outsider)
    client.logout()
    before = _accounts_and_memberships()

    response = _post_way_in(
        client, "invite_join_by_signup", invite.token, outsider, **{"signup-username": "second"}
    )

    assert response.status_code == 429
    assert "Too many new accounts" in response.content.decode()
    assert _accounts_and_memberships() == before


def test_session_create_htmx_redirects_to_room(gm_client, table):
    response = gm_client.post(
        reverse("session_create", args=[table.pk]),
        {"title": "Opening", "scheduled_for": "2026-12-05", "rules_profile": standard_profile().pk},
        **HTMX,
    )

    session = GameSession.objects.get()
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("session_room", args=[session.pk])


def test_session_create_invalid_date_shows_form_error(gm_client, table):
    response = gm_client.post(
        reverse("session_create", args=[table.pk]),
        {"title": "Opening", "scheduled_for": "not a date", "rules_profile": standard_profile().pk},
        **HTMX,
    )

    assert response.status_code == 400
    assert 'id="session-form"' in response.content.decode()
    assert not GameSession.objects.exists()


def test_session_create_by_player_refused(player_client, table, player_membership):
    response = player_client.post(
        reverse("session_create", args=[table.pk]),
        {"title": "Mine", "scheduled_for": "2026-12-05", "rules_profile": standard_profile().pk},
    )

    assert response.status_code == 403
    assert not GameSession.objects.exists()


def test_session_room_member_sees_page_with_socket(player_client, session):
    response = player_client.get(reverse("session_room", args=[session.pk]))

    content = response.content.decode()
    assert response.status_code == 200
    assert f'ws-connect="/ws/sessions/{session.pk}/"' in content
    assert 'aria-live="polite"' in content


def test_session_room_player_never_receives_gm_only_lines(player_client, session, gm):
    chat_post(session=session, by=gm, text="The vault code is 1234", gm_only=True)

    response = player_client.get(reverse("session_room", args=[session.pk]))

    assert b"vault code" not in response.content


def test_session_room_gm_sees_gm_only_lines(gm_client, session, gm):
    chat_post(session=session, by=gm, text="The vault code is 1234", gm_only=True)

    response = gm_client.get(reverse("session_room", args=[session.pk]))

    assert b"vault code" in response.content


def test_chat_post_htmx_appends_event_and_answers_it_went(player_client, session):
    response = player_client.post(
        reverse("chat_post", args=[session.pk]), {"text": "Hello <b>there</b>"}, **HTMX
    )

    # The page clears the text it sent itself; the line comes back through the socket.
    assert (response.status_code, response.content, response["X-Action-Ok"]) == (204, b"", "1")
    assert TimelineEvent.objects.get(kind="chat").payload == {"text": "Hello <b>there</b>"}


def test_chat_post_offtopic_channel_posts_offtopic(player_client, session):
    response = player_client.post(
        reverse("chat_post", args=[session.pk]), {"text": "Pizza?", "channel": "offtopic"}, **HTMX
    )

    assert TimelineEvent.objects.get(kind="chat").payload["channel"] == "offtopic"
    assert response.status_code == 204


def test_chat_post_unknown_channel_shows_error_and_appends_nothing(player_client, session):
    response = player_client.post(
        reverse("chat_post", args=[session.pk]), {"text": "hi", "channel": "lobby"}, **HTMX
    )

    assert b'role="alert"' in response.content
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_text_is_escaped_in_page(player_client, session, player):
    chat_post(session=session, by=player, text="<script>alert(1)</script>")

    response = player_client.get(reverse("session_room", args=[session.pk]))

    assert b"<script>alert(1)</script>" not in response.content
    assert b"&lt;script&gt;" in response.content


def test_chat_post_empty_shows_error_and_appends_nothing(player_client, session):
    response = player_client.post(reverse("chat_post", args=[session.pk]), {"text": " "}, **HTMX)

    assert response.status_code == 200
    assert b'role="alert"' in response.content
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_post_gm_only_by_player_refused(player_client, session):
    player_client.post(
        reverse("chat_post", args=[session.pk]), {"text": "psst", "gm_only": "on"}, **HTMX
    )

    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_post_outsider_gets_404(client, session, outsider):
    client.force_login(outsider)

    response = client.post(reverse("chat_post", args=[session.pk]), {"text": "hi"})

    assert response.status_code == 404
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_htmx_post_without_csrf_token_refused(session, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.post(reverse("chat_post", args=[session.pk]), {"text": "hi"}, **HTMX)

    assert response.status_code == 403
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_htmx_post_with_csrf_header_accepted(session, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.get(reverse("session_room", args=[session.pk]))
    token = client.cookies["csrftoken"].value

    response = client.post(
        reverse("chat_post", args=[session.pk]), {"text": "hi"}, HTTP_X_CSRFTOKEN=token, **HTMX
    )

    assert response.status_code == 204
    assert TimelineEvent.objects.filter(kind="chat").exists()


def test_pages_carry_csp_with_nonce_on_htmx_script(player_client, session):
    response = player_client.get(reverse("session_room", args=[session.pk]))

    policy = response["Content-Security-Policy"]
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert "script-src 'self' 'nonce-" in policy
    assert (
        f'src="/static/django_htmx/htmx-2.min.js" defer nonce="{nonce}"'
        in response.content.decode()
    )
    assert " on" + "click=" not in response.content.decode()


def test_language_from_accept_language_header(player_client, session):
    response = player_client.get(
        reverse("session_room", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    )

    assert '<html lang="ja">' in response.content.decode()
    assert "タイムライン" in response.content.decode()


def test_ok_view(client, db):
    assert client.get(reverse("ok")).content == b"ok"


def test_profile_edit_of_a_shipped_profile_offers_its_name_in_the_readers_language(
    gm_client, table
):
    page = gm_client.get(reverse("profile_edit", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ja")

    assert 'value="SRS標準"' in page.content.decode()


def test_favicon_ico_redirects_to_the_static_icon(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("img/favicon.svg")


def test_pages_link_the_icon(client, db):
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in page


def test_table_detail_shows_each_sessions_phase(player_client, table, session, gm):
    phase_advance(session=session, by=gm, from_phase="preplay")

    page = player_client.get(reverse("table_detail", args=[table.pk])).content.decode()

    assert (
        '<span class="badge phase-badge phase-opening">'
        '<span class="visually-hidden">Phase </span>Opening</span>'
    ) in page


def test_table_detail_shows_the_phase_in_the_readers_language(player_client, table, session):
    page = player_client.get(
        reverse("table_detail", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()

    assert '<span class="visually-hidden">フェイズ </span>プリプレイ</span>' in page
