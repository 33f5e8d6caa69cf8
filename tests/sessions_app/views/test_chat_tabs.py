"""The GM's chat tabs managed from the room, and lines posted in them through the chat form."""

import pytest
from django.urls import reverse

from sessions_app.models import ChatTab, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.chat_tabs import chat_tab_add, chat_tab_archive
from tests.clients import signed_in_client as _client

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def _room(client, session) -> str:
    return client.get(
        reverse("session_room", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()


def test_gm_opens_a_tab_from_the_room(session, gm):
    response = _client(gm).post(
        reverse("chat_tab_add", args=[session.pk]), {"name": "情報"}, **HTMX
    )

    assert response.status_code == 200
    assert ChatTab.objects.get().name == "情報"
    assert "Tab “情報” opened." in response.content.decode()
    # The room's script clears the name typed.
    assert response["X-Action-Ok"] == "1"


def test_gm_duplicate_tab_name_answered_with_the_reason(session, gm):
    chat_tab_add(session=session, by=gm, name="情報")

    response = _client(gm).post(
        reverse("chat_tab_add", args=[session.pk]), {"name": "情報"}, **HTMX
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="check-status error"' in html
    assert "There is a tab of that name already." in html
    assert "X-Action-Ok" not in response
    assert ChatTab.objects.count() == 1


def test_gm_duplicate_tab_name_in_a_plain_post_answered_400(session, gm):
    chat_tab_add(session=session, by=gm, name="情報")

    response = _client(gm).post(reverse("chat_tab_add", args=[session.pk]), {"name": "情報"})

    assert response.status_code == 400
    assert "There is a tab of that name already." in response.content.decode()


def test_player_post_to_open_a_tab_forbidden(session, player):
    response = _client(player).post(reverse("chat_tab_add", args=[session.pk]), {"name": "Mine"})

    assert response.status_code == 403
    assert not ChatTab.objects.exists()


def test_player_post_to_rename_or_archive_a_tab_forbidden(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    client = _client(player)

    renamed = client.post(reverse("chat_tab_rename", args=[session.pk, tab.pk]), {"name": "Mine"})
    archived = client.post(reverse("chat_tab_archive", args=[session.pk, tab.pk]))
    moved = client.post(reverse("chat_tab_move", args=[session.pk, tab.pk]), {"towards": "end"})

    assert (renamed.status_code, archived.status_code, moved.status_code) == (403, 403, 403)
    tab.refresh_from_db()
    assert (tab.name, tab.archived) == ("情報", False)


def test_gm_renames_and_archives_a_tab(session, gm):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    client = _client(gm)

    client.post(reverse("chat_tab_rename", args=[session.pk, tab.pk]), {"name": "Clues"}, **HTMX)
    response = client.post(reverse("chat_tab_archive", args=[session.pk, tab.pk]), **HTMX)

    tab.refresh_from_db()
    assert (tab.name, tab.archived) == ("Clues", True)
    assert "Tab “Clues” archived." in response.content.decode()


def test_gm_moves_a_tab_from_the_room_and_hears_why_not_at_the_end(session, gm):
    chat_tab_add(session=session, by=gm, name="Clues")
    secrets = chat_tab_add(session=session, by=gm, name="Secrets")
    url = reverse("chat_tab_move", args=[session.pk, secrets.pk])
    client = _client(gm)

    moved = client.post(url, {"towards": "start"}, **HTMX)
    refused = client.post(url, {"towards": "start"}, **HTMX)

    assert "Tab “Secrets” moved." in moved.content.decode()
    assert "already at that end" in refused.content.decode()
    assert [tab.name for tab in ChatTab.objects.filter(session=session)] == ["Secrets", "Clues"]
    page = _room(client, session)
    assert 'aria-label="Move the tab Secrets one place earlier" disabled' not in page
    assert 'disabled aria-label="Move the tab Secrets one place earlier"' in page


def test_archiving_an_archived_tab_says_it_is_gone(session, gm):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)

    response = _client(gm).post(reverse("chat_tab_archive", args=[session.pk, tab.pk]), **HTMX)

    assert "That tab is gone: it was archived." in response.content.decode()


def test_room_offers_open_tabs_in_the_tab_bar_and_chat_form(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    gone = chat_tab_add(session=session, by=gm, name="Old")
    chat_tab_archive(session=session, by=gm, tab_id=gone.pk)

    page = _room(_client(player), session)

    assert f'data-channel-tab="{tab.key}"' in page
    assert f'<option value="{tab.key}">情報</option>' in page
    assert gone.key not in page
    # The GM's list is the GM's alone.
    assert 'id="chat-tabs-manage"' not in page
    assert 'id="chat-tabs-manage"' in _room(_client(gm), session)


def test_chat_form_posts_a_line_in_a_tab(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    response = _client(player).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "The ledger is forged", "say_as": "ooc", "channel": tab.key},
        **HTMX,
    )

    assert response.status_code == 204
    line = TimelineEvent.objects.get(kind="chat")
    assert line.payload["channel"] == tab.key
    assert line.payload["tab"] == "情報"


def test_chat_form_refuses_an_archived_tab(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)

    response = _client(player).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "Hello", "say_as": "ooc", "channel": tab.key},
        **HTMX,
    )

    assert not TimelineEvent.objects.filter(kind="chat").exists()
    html = response.content.decode()
    assert "Choose the main channel, off-topic or a tab." in html
    assert f'value="{tab.key}"' not in html


def test_chat_form_refusal_offers_the_open_tabs_again(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    response = _client(player).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "", "say_as": "ooc", "channel": tab.key},
        **HTMX,
    )

    assert f'<option value="{tab.key}" selected>情報</option>' in response.content.decode()


def test_tab_line_is_marked_for_its_tab_in_the_room(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    chat_post(session=session, by=player, text="The ledger is forged", channel=tab.key)

    page = _room(_client(gm), session)

    assert f'event-tab" data-tab-channel="{tab.key}"' in page


def test_a_gm_tab_named_情報_appears_once_in_the_japanese_tab_bar(session, gm):
    chat_tab_add(session=session, by=gm, name="情報")

    page = (
        _client(gm)
        .get(reverse("session_room", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="ja")
        .content.decode()
    )

    tab_bar = page[page.index('id="channel-tabs"') :]
    tab_bar = tab_bar[: tab_bar.index("</div>")]
    assert tab_bar.count("情報") == 1
    assert "システム" in tab_bar
