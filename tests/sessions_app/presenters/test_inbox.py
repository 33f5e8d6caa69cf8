"""The GM's inbox: every request that waits for the GM's answer is listed, and leaves the
list once answered; players have none; the room answers it in place."""

import re

import pytest
from django.urls import reverse

from sessions_app.kinds.registry import Panel, kind_folds
from sessions_app.live import hooks, render
from sessions_app.models import (
    GameSession,
    GrowthRequest,
    Phase,
    SceneRequest,
    StageRequest,
    TimelineEvent,
)
from sessions_app.presenters.inbox import inbox_context, inbox_items
from sessions_app.presenters.panels import member_panels_html
from sessions_app.services.experience import AwardLine, experience_award_session, growth_request
from sessions_app.services.play import sheet_review
from sessions_app.services.scenes import (
    companion_answer,
    companion_propose,
    entry_request,
    scene_end,
    scene_request_create,
    scene_request_decide,
    stage_request_decide,
)
from sessions_app.services.timeline import presence_enter
from tests.clients import signed_in_client as _client
from tests.factories import GameSessionFactory


def _anchors(session) -> list[str]:
    session.refresh_from_db()
    return [item.anchor for item in inbox_items(session)]


def test_inbox_lists_an_entry_request_until_the_gm_decides(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    assert _anchors(opening) == [f"inbox-stage-{request.pk}"]

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)

    assert _anchors(opening) == []


def test_inbox_lists_a_companion_only_once_its_player_agreed(
    scene, opening, gm, player, second_player, pc2
):
    request = companion_propose(session=opening, by=player, character=pc2)

    assert _anchors(opening) == []

    companion_answer(session=opening, by=second_player, request_id=request.pk, accept=True)

    assert _anchors(opening) == [f"inbox-stage-{request.pk}"]


def test_inbox_drops_the_requests_of_an_ended_scene(scene, opening, gm, second_player, pc2):
    entry_request(session=opening, by=second_player, character=pc2)

    scene_end(session=opening, by=gm)

    assert not any(anchor.startswith("inbox-stage-") for anchor in _anchors(opening))


def test_inbox_lists_a_scene_request_until_kept_for_later(opening, gm, player, pc):
    wish = scene_request_create(session=opening, by=player, place="Clock tower")

    assert _anchors(opening) == [f"inbox-scene-{wish.pk}"]

    scene_request_decide(session=opening, by=gm, request_id=wish.pk, keep=True)

    assert SceneRequest.objects.get().status == SceneRequest.Status.KEPT
    assert _anchors(opening) == []


def test_inbox_lists_unchecked_sheets_in_preplay_until_checked(session, gm, pc):
    assert _anchors(session) == [f"inbox-sheet-{pc.pk}"]

    sheet_review(session=session, by=gm, character=pc, ok=True)

    assert _anchors(session) == []


def test_inbox_lists_growth_on_the_session_sheet_until_decided(session, gm, player, pc):
    GameSession.objects.filter(pk=session.pk).update(phase=Phase.AFTER_PLAY)
    session.refresh_from_db()
    experience_award_session(session=session, by=gm, awards={player.pk: [AwardLine(12, "Goal")]})
    asked = growth_request(
        character=pc, by=player, description="A new contact", cost=1, session=session
    )

    assert _anchors(session) == [f"inbox-growth-{asked.pk}"]
    event = session.events.get(kind="growth_requested")
    assert event.payload["request_id"] == asked.pk

    client = _client(gm)
    response = client.post(
        reverse("growth_decide", args=[session.table_id, asked.pk]),
        {"action": "confirm"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert 'id="inbox-status"' in response.content.decode()
    assert GrowthRequest.objects.get().status == GrowthRequest.Status.CONFIRMED
    assert _anchors(session) == []


@pytest.fixture
def earned_last_month(session, gm, player, pc):
    """Experience the player earned in an earlier session, to spend between sessions."""
    earlier = GameSessionFactory(table=session.table, phase=Phase.AFTER_PLAY)
    earlier.characters.add(pc)
    experience_award_session(session=earlier, by=gm, awards={player.pk: [AwardLine(12, "Goal")]})


def test_inbox_lists_growth_asked_between_sessions_in_the_table_s_rooms(
    session, player, pc, earned_last_month
):
    asked = growth_request(character=pc, by=player, description="A new contact", cost=1)

    assert _anchors(session) == [f"inbox-sheet-{pc.pk}", f"inbox-growth-{asked.pk}"]


def test_growth_asked_between_sessions_pushes_the_gms_inbox(
    session, gm, player, pc, earned_last_month, monkeypatch
):
    for user in (gm, player):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{user.pk}", language="en")
    asked = growth_request(character=pc, by=player, description="A new contact", cost=1)
    sent = []
    monkeypatch.setattr(hooks, "send_all", sent.extend)
    monkeypatch.setattr(hooks, "broadcast", lambda group, message: None)

    hooks.ledger_to_the_pages(None, table_id=session.table_id)

    pushed = {group: message["html"] for group, message in sent if message["type"] == "room.panels"}
    assert list(pushed) == [group for group in pushed if f".u{gm.pk}." in group] != []
    assert f'id="inbox-growth-{asked.pk}"' in next(iter(pushed.values()))


def test_inbox_is_the_gms_alone(scene, opening, player, second_player, pc2):
    entry_request(session=opening, by=second_player, character=pc2)

    assert inbox_context(opening, player, False)["inbox"] == []
    assert member_panels_html(opening, player, False, {Panel.INBOX}) == ""


def test_inbox_pushed_to_the_gm_names_the_request(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    html = member_panels_html(opening, gm, True, {Panel.INBOX})

    assert f'id="inbox-stage-{request.pk}"' in html
    assert 'hx-swap-oob="true"' in html


def test_room_answers_an_inbox_item_under_the_inbox(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    response = _client(gm).post(
        reverse("stage_action", args=[opening.pk]),
        {"action": "decide", "request": request.pk, "allow": "0", "reply": "inbox"},
        HTTP_HX_REQUEST="true",
    )

    assert response["X-Action-Ok"] == "1"
    assert 'id="inbox-status"' in response.content.decode()
    request.refresh_from_db()
    assert request.status == StageRequest.Status.REFUSED


def test_player_notice_names_the_request_it_waits_on(scene, opening, second_player, pc2):
    response = _client(second_player).post(
        reverse("stage_action", args=[opening.pk]),
        {"action": "entry_request", "character": pc2.pk},
        HTTP_HX_REQUEST="true",
    )

    request = StageRequest.objects.get()
    page = response.content.decode()
    assert "Entry requested: the GM decides." in page
    assert f'data-awaits="stage-request-{request.pk}"' in page


def test_room_line_of_a_request_links_to_the_gms_inbox_item(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)
    link = f'href="#inbox-stage-{request.pk}"'

    gm_page = _client(gm).get(reverse("session_room", args=[opening.pk])).content.decode()
    player_page = (
        _client(second_player).get(reverse("session_room", args=[opening.pk])).content.decode()
    )

    assert link in gm_page
    assert f'id="inbox-stage-{request.pk}"' in gm_page
    assert link not in player_page
    assert 'id="inbox"' not in player_page


def test_experience_page_tells_a_gm_why_there_is_no_pc(session, gm):
    page = _client(gm).get(reverse("experience_ledger", args=[session.table_id])).content.decode()

    assert "You have no PC at this table yet." not in page
    assert "You are this table's GM" in page


def test_bookkeeping_lines_fold_and_talk_does_not():
    assert kind_folds("stage_requested") and kind_folds("character_entered")
    assert not kind_folds("chat") and not kind_folds("check_rolled")


def test_a_request_pushes_the_inbox_to_the_gm_and_never_to_a_player(
    scene, opening, gm, player, second_player, pc2
):
    for user in (gm, player, second_player):
        presence_enter(session_id=opening.pk, user=user, channel_name=f"c{user.pk}", language="en")
    request = entry_request(session=opening, by=second_player, character=pc2)
    event = TimelineEvent.objects.select_related("actor", "session").get(
        session=opening, kind="stage_requested"
    )

    panels = {
        group: message["html"]
        for group, message in render.event_messages(event=event)
        if message["type"] == "room.panels"
    }

    with_inbox = [group for group, html in panels.items() if 'id="inbox"' in html]
    assert with_inbox == [group for group in panels if f".u{gm.pk}." in group]
    assert f'id="inbox-stage-{request.pk}"' in panels[with_inbox[0]]


def test_room_marks_bookkeeping_lines_for_folding(scene, opening, gm, second_player, pc2):
    entry_request(session=opening, by=second_player, character=pc2)

    page = _client(gm).get(reverse("session_room", args=[opening.pk])).content.decode()

    assert re.search(r'class="event event-stage_requested[^"]* event-folds"', page)
    assert not re.search(r'class="event event-scene_started[^"]* event-folds', page)
