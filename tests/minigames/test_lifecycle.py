"""Matches and the session around them: one open match per pair, none after main play."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from minigames import services
from minigames.models import Match, MatchMove
from minigames.services import SeatSpec
from sessions_app.models import GameSession, Phase, TimelineEvent
from sessions_app.services.experience import session_close
from sessions_app.services.play import phase_advance
from tests.matches import dealt

SETUP = {
    "type": "setup",
    "deck": {"move": 10, "attack": 9, "counter": 1},
    "pieces": [{"column": 2, "life": 5}],
}


# pcs, Aki and Ren taking part in the session, is tests/conftest.py's.


def _match(session, by, pcs):
    return dealt(
        services.match_create(session=session, by=by, seats=[SeatSpec(pcs[0]), SeatSpec(pcs[1])])
    )


def _set_phase(session, phase, **fields):
    GameSession.objects.filter(pk=session.pk).update(phase=phase, **fields)
    session.refresh_from_db()


def test_leaving_main_play_ends_its_open_matches(session, gm, player, pcs):
    match = _match(session, player, pcs)
    _set_phase(session, Phase.ENDING)

    phase_advance(session=session, by=gm, from_phase=Phase.ENDING)

    match.refresh_from_db()
    assert (match.status, match.result) == ("finished", {"winner": None, "reason": "stopped"})
    ended = TimelineEvent.objects.get(kind="match_finished")
    assert ended.payload["reason"] == "stopped"
    assert ended.seq > TimelineEvent.objects.get(kind="phase_changed").seq


def test_closing_a_session_ends_its_open_matches(session, gm, player, pcs):
    # A match left open in after-play (say, from before the phase change ended matches).
    match = _match(session, player, pcs)
    _set_phase(session, Phase.AFTER_PLAY, experience_confirmed_at=timezone.now())

    session_close(session=session, by=gm)

    match.refresh_from_db()
    assert match.status == "finished" and services.match_stopped(match)
    kinds = list(TimelineEvent.objects.order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["match_finished", "session_closed"]
    with pytest.raises(ValidationError):
        services.match_move(match_id=match.pk, by=player, action=SETUP, version=match.version)


def test_the_log_says_how_a_stopped_match_ended(session, gm, player, pcs):
    match = _match(session, player, pcs)
    _set_phase(session, Phase.ENDING)
    phase_advance(session=session, by=gm, from_phase=Phase.ENDING)
    client = Client()
    client.force_login(player)

    room = client.get(reverse("session_room", args=[session.pk])).content.decode()
    board = client.get(reverse("match_detail", args=[match.pk])).content.decode()

    assert "was stopped when main play ended; nobody won." in room
    assert "main play ended: nobody won." in board
    assert "setup-form" not in board


def test_no_match_move_after_play(session, gm, player, pcs):
    match = _match(session, player, pcs)
    _set_phase(session, Phase.AFTER_PLAY)

    with pytest.raises(ValidationError, match="main play is over"):
        services.match_move(match_id=match.pk, by=player, action=SETUP, version=match.version)

    assert not MatchMove.objects.exists()


def test_no_new_match_after_play(session, player, pcs):
    _set_phase(session, Phase.AFTER_PLAY)

    with pytest.raises(ValidationError, match="main play is over"):
        _match(session, player, pcs)

    assert not Match.objects.exists()


def test_stopped_match_decides_no_outcome(session, gm, player, pcs):
    match = _match(session, player, pcs)
    _set_phase(session, Phase.ENDING)
    phase_advance(session=session, by=gm, from_phase=Phase.ENDING)

    with pytest.raises(ValidationError, match="decides nothing"):
        services.match_outcome_record(match=match, by=gm, label="Who gets the key")


def test_one_open_match_between_two_characters(session, gm, player, pcs):
    first = _match(session, player, pcs)

    with pytest.raises(services.MatchUnderWay) as refused:
        dealt(
            services.match_create(
                session=session, by=gm, seats=[SeatSpec(pcs[1]), SeatSpec(pcs[0])]
            )
        )

    assert refused.value.match == first
    assert "already under way" in refused.value.message
    assert Match.objects.count() == 1


def test_a_new_match_once_the_last_one_is_over(session, player, pcs):
    first = _match(session, player, pcs)
    services.match_move(match_id=first.pk, by=player, action={"type": "resign"}, version=0)

    assert _match(session, player, pcs).pk != first.pk


def test_a_second_match_request_links_the_one_under_way(session, player, pcs):
    first = _match(session, player, pcs)
    client = Client()
    client.force_login(player)
    data = {"seat0": pcs[0].pk, "seat1": pcs[1].pk, "level": "random", "first_player": "random"}

    response = client.post(reverse("match_create", args=[session.pk]), data, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert "already under way" in page
    assert f'href="{reverse("match_detail", args=[first.pk])}"' in page
    assert Match.objects.count() == 1
