"""The review page, the export downloads and the import page over HTTP."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from sessions_app import log_export
from sessions_app.models import GameSession, ImportedLog, Table, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.chat_tabs import chat_tab_add, chat_tab_archive
from tests.clients import signed_in_client as _client
from tests.sessions_app.log_script import PUBLIC, SECRETS, add_chat_lines

EXPORTS = ["session_export_html", "session_export_markdown", "session_export_json"]


# The scripted session played, and the second player who is not its whisper's recipient,
# are tests/conftest.py's played and second_player.


def _review(session, user, **params):
    return _client(user).get(reverse("session_review", args=[session.pk]), params)


def test_review_player_sees_no_hidden_text(played, second_player):
    page = _review(played, second_player).content.decode()
    for secret in SECRETS.values():
        assert secret not in page


def test_review_player_sees_public_text(played, second_player):
    page = _review(played, second_player).content.decode()
    assert PUBLIC["chat"] in page and PUBLIC["revealed_roll"] in page


def test_review_gm_sees_gm_only_lines(played, gm):
    page = _review(played, gm).content.decode()
    assert SECRETS["gm_chat"] in page and SECRETS["secret_roll"] in page


def test_review_has_no_forms_of_the_room(played, gm):
    page = _review(played, gm).content.decode()
    assert "hx-post" not in page


def test_review_opens_the_scenes_and_the_last_section_and_folds_the_rest(played, gm):
    page = _review(played, gm).content.decode()
    details = re.findall(r'<details class="review-section[^>]*>', page)
    assert len(details) >= 2
    expected = ["review-scene" in tag for tag in details[:-1]] + [True]
    assert [" open" in tag for tag in details] == expected


def test_review_shows_the_log_before_the_dice_chart_which_is_folded(played, gm):
    page = _review(played, gm).content.decode()
    chart = re.search(r'<details class="card review-dice"[^>]*>', page)
    assert chart and " open" not in chart.group(0)
    assert page.index('id="review-log"') < chart.start()


def test_review_filter_checks_only(played, gm):
    page = _review(played, gm, show="checks").content.decode()
    assert PUBLIC["chat"] not in page
    assert PUBLIC["revealed_roll"] in page


def test_review_filter_chat_only(played, second_player):
    page = _review(played, second_player, show="chat").content.decode()
    assert PUBLIC["chat"] in page and PUBLIC["revealed_roll"] not in page


def test_review_filter_one_character(played, second_player):
    page = _review(played, second_player, character="Aki").content.decode()
    assert PUBLIC["ic"] in page and PUBLIC["chat"] not in page


def test_review_filter_form_works_without_script(played, second_player):
    page = _review(played, second_player).content.decode()
    assert re.search(r'<form method="get" action="/sessions/\d+/review/"', page)
    assert 'type="submit"' in page


def test_review_filter_nothing_matches(session, gm):
    page = _review(session, gm, show="checks").content.decode()
    assert "Nothing in this session matches the filter." in page


@pytest.mark.parametrize("name", EXPORTS)
def test_export_download_is_attachment(played, second_player, name):
    response = _client(second_player).get(reverse(name, args=[played.pk]))
    assert response["Content-Disposition"].startswith('attachment; filename="2026-12-05-')
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.parametrize("name", EXPORTS)
def test_export_download_player_holds_no_hidden_text(played, second_player, name):
    text = _client(second_player).get(reverse(name, args=[played.pk])).getvalue().decode()
    for secret in SECRETS.values():
        assert secret not in text


@pytest.mark.parametrize("name", EXPORTS)
def test_export_download_gm_holds_gm_only_lines(played, gm, name):
    text = _client(gm).get(reverse(name, args=[played.pk])).getvalue().decode()
    assert SECRETS["gm_chat"] in text and SECRETS["secret_roll"] in text


def test_room_links_to_review(played, player):
    page = _client(player).get(reverse("session_room", args=[played.pk])).content.decode()
    assert reverse("session_review", args=[played.pk]) in page


def test_table_page_links_to_review(played, player):
    url = reverse("table_detail", args=[played.table_id])
    assert reverse("session_review", args=[played.pk]) in _client(player).get(url).content.decode()


def _counts():
    return (
        Table.objects.count(),
        GameSession.objects.count(),
        TimelineEvent.objects.count(),
        ImportedLog.objects.count(),
    )


def _upload(client, content: bytes):
    upload = SimpleUploadedFile("log.json", content, content_type="application/json")
    return client.post(reverse("log_import"), {"file": upload})


def test_import_creates_table_and_opens_review(played, gm, outsider):
    document = log_export.export_json(viewer=log_export.log_viewer(session=played, user=gm))
    client = _client(outsider)
    response = _upload(client, json.dumps(document).encode())
    imported = GameSession.objects.get(table__gm=outsider)
    assert response["Location"] == reverse("session_review", args=[imported.pk])
    assert SECRETS["gm_chat"] in client.get(response["Location"]).content.decode()


def test_import_malformed_refused_with_message(outsider):
    before = _counts()
    response = _upload(_client(outsider), b"{not json")
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    assert _counts() == before


def test_import_hostile_text_escaped_on_review(played, gm, outsider):
    document = log_export.export_json(viewer=log_export.log_viewer(session=played, user=gm))
    document["events"][1]["payload"]["text"] = "<script>alert(1)</script>"
    client = _client(outsider)
    response = _upload(client, json.dumps(document).encode())
    page = client.get(response["Location"]).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def _page_queries(client, url) -> int:
    # Counted at the cursor: the query log is reset when a request starts.
    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
        # A streamed export reads the log while it is sent.
        response.getvalue()
        assert response.status_code == 200
    return len(statements)


@pytest.mark.parametrize("name", ["session_review", *EXPORTS])
def test_review_and_exports_queries_constant(session, gm, player, name):
    client = _client(player)
    url = reverse(name, args=[session.pk])
    counts = []
    client.get(url)  # the first request also fills the cache with the signed-in user
    for total in (50, 500):
        add_chat_lines(session, gm, total - session.last_seq)
        counts.append(_page_queries(client, url))
    assert counts[0] == counts[1] > 0


def test_review_badges_offtopic_line(session, gm):
    chat_post(session=session, by=gm, text="Pizza is here", channel="offtopic")

    page = _review(session, gm).content.decode()

    assert 'class="badge badge-offtopic">[Off-topic]</span>' in page
    assert "Pizza is here" in page


def test_review_badges_an_archived_tabs_line_with_its_name(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="秘匿")
    chat_post(session=session, by=player, text="I pocket the key", channel=tab.key)
    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)

    page = _review(session, gm).content.decode()

    assert 'class="badge badge-tab">[秘匿]</span>' in page
    assert "I pocket the key" in page


# --------------------------------------------------------------------------- long logs


def _events_shown(page: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li id="event-(\d+)"', page)]


def test_review_page_of_a_long_log_shows_a_bounded_page(session, gm, player):
    add_chat_lines(session, gm, 2 * log_export.REVIEW_PAGE_EVENTS + 5)

    first = _review(session, player).content.decode()
    last = _review(session, player, page=3).content.decode()

    assert len(_events_shown(first)) == log_export.REVIEW_PAGE_EVENTS
    assert _events_shown(first)[0] == 1
    assert len(_events_shown(last)) == 5
    assert _events_shown(last)[-1] == session.events.count()
    assert 'href="?page=2" rel="next"' in first
    assert 'aria-current="page"' in last and 'rel="next"' not in last


def test_review_page_links_keep_the_filters(session, gm, player):
    add_chat_lines(session, gm, log_export.REVIEW_PAGE_EVENTS + 5)

    page = _review(session, player, show="chat", page=2).content.decode()

    assert 'href="?show=chat&amp;page=1" rel="prev"' in page
    assert _events_shown(page)


def test_review_page_out_of_range_shows_the_nearest_page(session, gm, player):
    add_chat_lines(session, gm, 5)

    assert _events_shown(_review(session, player, page=99).content.decode())
    assert _events_shown(_review(session, player, page="x").content.decode())


@pytest.mark.parametrize("name", EXPORTS)
def test_exports_stream(played, gm, name):
    response = _client(gm).get(reverse(name, args=[played.pk]))

    assert response.streaming
    assert SECRETS["gm_chat"] in response.getvalue().decode()


def test_exports_are_the_same_whatever_the_chunk_size(played, gm, monkeypatch):
    add_chat_lines(played, gm, 30)
    viewer = log_export.log_viewer(session=played, user=gm)

    def files():
        return (
            "".join(log_export.export_json_chunks(viewer=viewer)),
            log_export.export_markdown(viewer=viewer),
            re.sub(r"<footer.*</footer>", "", log_export.export_html(viewer=viewer)),
        )

    whole = files()
    monkeypatch.setattr(log_export, "CHUNK", 7)
    monkeypatch.setattr(log_export, "OUTLINE_CHUNK", 11)

    assert files() == whole
    assert whole[0] == log_export.export_json_text(viewer=viewer)
    assert whole[1].count("\n- ") == len(log_export.log_events(viewer))
