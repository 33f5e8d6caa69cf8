"""Input no field can take answers 400 with a message and changes nothing."""

import json

import pytest
from django.urls import reverse

from sessions_app.models import TimelineEvent
from sessions_app.services.logs import log_import

pytestmark = pytest.mark.django_db

HUGE = "9" * 25


def test_an_id_past_any_column_answers_400(player_client):
    response = player_client.get(f"/sessions/{HUGE}/")

    assert response.status_code in (400, 404)


def test_a_posted_id_past_any_column_answers_400(player_client, session):
    response = player_client.post(
        reverse("cast_update", args=[session.pk]), {"character": HUGE, "taking_part": "1"}
    )

    assert response.status_code in (400, 404)


def test_a_character_that_is_not_a_number_answers_400(player_client, session):
    response = player_client.post(
        reverse("cast_update", args=[session.pk]), {"character": "abc", "taking_part": "1"}
    )

    assert response.status_code == 400
    assert "character" in response.content.decode().lower()


def test_a_nul_character_answers_400_and_stores_nothing(player_client, session):
    before = TimelineEvent.objects.count()

    response = player_client.post(
        reverse("chat_post", args=[session.pk]), {"text": "a\x00b", "say_as": "ooc"}
    )

    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert TimelineEvent.objects.count() == before


def test_a_nul_character_in_a_query_answers_400(player_client, session):
    response = player_client.get(reverse("session_review", args=[session.pk]), {"show": "\x00"})

    assert response.status_code == 400


def _exported(session, gm, client):
    client.force_login(gm)
    response = client.get(reverse("session_export_json", args=[session.pk]))
    return json.loads(response.getvalue())


@pytest.mark.parametrize(
    "change",
    [
        lambda event: event["payload"].update(text=12),
        lambda event: event["payload"].update(unknown_field="x"),
        lambda event: event["payload"].update(text=None),
        lambda event: event.update(seq=2**40),
    ],
)
def test_an_imported_log_whose_payloads_cannot_be_shown_is_refused(session, gm, client, change):
    from sessions_app.services.chat import chat_post

    chat_post(session=session, by=gm, text="hello")
    document = _exported(session, gm, client)
    chat_line = next(event for event in document["events"] if event["kind"] == "chat")
    change(chat_line)

    with pytest.raises(Exception) as refused:
        log_import(data=json.dumps(document), by=gm)

    assert refused.type.__name__ == "ValidationError"


def test_an_imported_roll_with_a_number_out_of_range_is_refused(session, gm, client):
    from sessions_app.services.checks import command_roll

    command_roll(session=session, by=gm, text="2D6")
    document = _exported(session, gm, client)
    roll = next(event for event in document["events"] if event["kind"] == "command_rolled")
    roll["payload"]["roll_id"] = 10**30

    with pytest.raises(Exception) as refused:
        log_import(data=json.dumps(document), by=gm)

    assert "out of range" in str(refused.value)
