"""A hidden resource's numbers (an entry cost paid from it, the after-scene rule's gain) are
read by its owner and the GM only: every other audience gets the line without them."""

import json

import pytest
from django.urls import reverse

from sessions_app.live import render
from sessions_app.models import TimelineEvent
from sessions_app.presenters import live
from sessions_app.presenters.spectators import spectator_event_html
from sessions_app.services.logs import log_import
from sessions_app.services.scenes import (
    entry_request,
    scene_end,
    stage_request_decide,
)
from sessions_app.services.timeline import presence_enter
from tests.clients import signed_in_client as _client
from tests.factories import RulesProfileFactory, cast_member, scene_started

SECRET_MP = {"MP": {"current": 7432, "max": 9999, "hidden": True}}


def _committed(event_id: int) -> TimelineEvent:
    """The event as the live wing is handed it: its session and actor attached."""
    return TimelineEvent.objects.select_related("actor", "session").get(pk=event_id)


@pytest.fixture
def aki(session, player):
    return cast_member(session, player, name="Aki")


@pytest.fixture
def kagami(session, second_player):
    return cast_member(session, second_player, name="Ren Kagami", resources=SECRET_MP)


def _profile(session, **fields):
    session.rules_profile = RulesProfileFactory(table=session.table, **fields)
    session.save(update_fields=["rules_profile"])


@pytest.fixture
def entry_paid(session, gm, second_player, aki, kagami):
    """Ren Kagami pays 3 MP (7432 → 7429) from a hidden MP to enter Aki's scene."""
    _profile(session, entry_condition="cost", entry_cost_resource="MP", entry_cost_amount="3")
    scene_started(session, gm, scene_player=aki)
    request = entry_request(session=session, by=second_player, character=kagami)
    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)
    return session.events.get(kind="entry_condition")


@pytest.fixture
def after_scene_gain(session, gm, aki, kagami):
    """Ren Kagami, off stage, gains 1D6 hidden MP when Aki's scene ends."""
    _profile(session, after_scene_resource="MP", after_scene_amount="1D6")
    scene_started(session, gm, scene_player=aki)
    scene_end(session=session, by=gm)
    return session.events.get(kind="after_scene")


def _has_numbers(text: str) -> bool:
    return "7432" in text


def test_hidden_entry_cost_live_numbers_reach_only_its_owner_and_the_gm(
    session, gm, player, second_player, entry_paid
):
    for n, user in enumerate([gm, player, second_player]):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{n}", language="en")

    messages = {
        group: message
        for group, message in render.event_messages(event=_committed(entry_paid.pk))
        if message["type"] == "room.event"
    }

    en = live.Variant("en")
    shared = messages[live.room_group(session.pk, live.PLAYERS, en)]
    assert "Ren Kagami pays the entry cost from MP" in shared["html"]
    assert not _has_numbers(shared["html"])
    assert shared["skip"] == [second_player.pk]
    own = messages[live.room_group(session.pk, live.user_audience(second_player.pk), en)]
    assert "(7432 → 7429)" in own["html"]
    assert "(7432 → 7429)" in messages[live.room_group(session.pk, live.GM, en)]["html"]


def test_hidden_entry_cost_numbers_withheld_from_spectators(entry_paid):
    html = spectator_event_html(entry_paid)

    assert "Ren Kagami pays the entry cost from MP" in html
    assert not _has_numbers(html)


@pytest.mark.parametrize(
    "page", ["session_room", "session_review", "session_export_html", "session_export_markdown"]
)
def test_hidden_entry_cost_numbers_withheld_from_other_players_pages(
    session, gm, player, second_player, entry_paid, page
):
    url = reverse(page, args=[session.pk])

    assert not _has_numbers(_client(player).get(url).getvalue().decode())
    assert _has_numbers(_client(second_player).get(url).getvalue().decode())
    assert _has_numbers(_client(gm).get(url).getvalue().decode())


def test_hidden_after_scene_gain_withheld_from_other_players_exports(
    session, gm, player, second_player, after_scene_gain
):
    url = reverse("session_export_json", args=[session.pk])

    (row,) = [
        event["payload"]["rows"][0]
        for event in json.loads(_client(player).get(url).getvalue())["events"]
        if event["kind"] == "after_scene"
    ]
    assert row == {
        "character": "Ren Kagami",
        "character_id": row["character_id"],
        "resource": "MP",
        "withheld": True,
    }
    others_page = _client(player).get(reverse("session_review", args=[session.pk]))
    assert "Ren Kagami MP (hidden)" in others_page.content.decode()
    own = json.loads(_client(second_player).get(url).getvalue())["events"]
    (own_row,) = [e["payload"]["rows"][0] for e in own if e["kind"] == "after_scene"]
    assert own_row["before"] == 7432
    assert "key" in next(e for e in own if e["kind"] == "after_scene")["payload"]["proof"]


def test_hidden_after_scene_gain_proof_withheld_from_other_players(
    session, player, second_player, after_scene_gain
):
    url = reverse("dice_verify", args=[session.pk, after_scene_gain.seq])

    assert _client(player).get(url).status_code == 404
    assert _client(second_player).get(url).status_code == 200


def test_hidden_numbers_of_an_imported_log_are_the_gms_alone(session, gm, entry_paid):
    document = json.loads(
        _client(gm).get(reverse("session_export_json", args=[session.pk])).getvalue()
    )

    imported = log_import(data=document, by=gm)

    event = TimelineEvent.objects.get(session=imported, kind="entry_condition")
    assert event.payload["owner_id"] is None
    assert event.payload["before"] == 7432
