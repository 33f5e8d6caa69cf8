"""Secrets of a scripted scene never reach a socket whose user may not see them."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from sessions_app.models import Phase, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.play import handout_reveal, phase_advance, session_scenario_set
from sessions_app.services.scenes import scene_end, scene_start
from tests.clients import session_cookie as _session_cookie
from tests.clients import socket_frames as _frames
from tests.factories import (
    HandoutFactory,
    MembershipFactory,
    PlannedSceneFactory,
    ScenarioFactory,
    UserFactory,
    cast_member,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SCENARIO_NOTE = "MARK-scenario-note-7f3a"
PLANNED_NOTE = "MARK-planned-note-91bc"
WHISPER_TO_A = "MARK-whisper-gm-to-a-2d4e"
WHISPER_FROM_B = "MARK-whisper-b-to-gm-5a0f"
BACKSTAGE = "MARK-backstage-c81d"
HANDOUT_A = "MARK-handout-a-66e2"
HANDOUT_NEVER = "MARK-handout-never-0b97"


async def _joined(user, session):
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", (await _session_cookie(user)).encode()),
    ]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session.pk}/", headers=headers
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data=json.dumps({"type": "sync", "last_seq": 0}))
    return communicator


@sync_to_async
def _cast(session, gm, player):
    second = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    aki = cast_member(session, player, name="Aki", slot=1)
    cast_member(session, second, name="Ren", slot=2)
    scenario = ScenarioFactory(owner=gm, gm_notes=SCENARIO_NOTE)
    planned = PlannedSceneFactory(
        scenario=scenario, title="Bell tower", scene_player_slot=1, gm_notes=PLANNED_NOTE
    )
    revealed = HandoutFactory(scenario=scenario, slot=1, title="Aki's letter", body=HANDOUT_A)
    never = HandoutFactory(scenario=scenario, slot=2, title="Ren's secret", body=HANDOUT_NEVER)
    return second, aki, scenario, planned, revealed, never


@sync_to_async
def _play_the_scene(session, gm, player, second, scenario, planned, revealed) -> dict:
    """Run the script through the services; return the seq of each secret event."""
    session_scenario_set(session=session, by=gm, scenario=scenario)
    session.refresh_from_db()
    phase_advance(session=session, by=gm, from_phase=Phase.PRE_PLAY)
    session.refresh_from_db()
    scene_start(session=session, by=gm, planned=planned)
    chat_post(session=session, by=gm, text="The bell rings.", mode="narration")
    to_a = chat_post(session=session, by=gm, text=WHISPER_TO_A, mode="whisper", to=player)
    from_b = chat_post(session=session, by=second, text=WHISPER_FROM_B, mode="whisper")
    scene_end(session=session, by=gm, backstage_notes=BACKSTAGE)
    handout_reveal(session=session, by=gm, handout=revealed)
    events = TimelineEvent.objects.filter(session=session)
    return {
        "scenario": events.get(kind="scenario_chosen").seq,
        "to_a": to_a.seq,
        "from_b": from_b.seq,
        "backstage": events.get(kind="backstage_note").seq,
        "handout": events.get(kind="handout_revealed").seq,
        "last": events.order_by("-seq").first().seq,
    }


def _seqs(frames: list[str]) -> set[int]:
    return {int(seq) for seq in re.findall(r'id="event-(\d+)"', "".join(frames))}


async def test_scene_secrets_reach_only_those_who_may_see_them(session, gm, player):
    second, _aki, scenario, planned, revealed, _never = await _cast(session, gm, player)
    sockets = {"gm": await _joined(gm, session)}
    sockets["a"] = await _joined(player, session)
    sockets["b"] = await _joined(second, session)

    seq = await _play_the_scene(session, gm, player, second, scenario, planned, revealed)
    frames = {name: await _frames(socket) for name, socket in sockets.items()}
    for socket in sockets.values():
        await socket.disconnect()

    text = {name: "".join(found) for name, found in frames.items()}
    seen = {name: _seqs(found) for name, found in frames.items()}
    public = set(range(1, seq["last"] + 1)) - {
        seq["scenario"],
        seq["to_a"],
        seq["from_b"],
        seq["backstage"],
        seq["handout"],
    }
    # Every socket followed the whole scene: what it lacks was filtered, not lost.
    assert public <= seen["gm"] and public <= seen["a"] and public <= seen["b"]
    assert {seq["scenario"], seq["to_a"], seq["from_b"], seq["backstage"]} <= seen["gm"]
    assert seen["a"] - public == {seq["to_a"], seq["handout"]}
    assert seen["b"] - public == {seq["from_b"]}
    for marker in (SCENARIO_NOTE, PLANNED_NOTE, BACKSTAGE):
        assert marker not in text["a"] and marker not in text["b"]
    assert WHISPER_FROM_B not in text["a"] and HANDOUT_A not in text["b"]
    assert WHISPER_TO_A not in text["b"]
    assert not any(HANDOUT_NEVER in found for found in text.values())


async def test_scene_secret_events_carry_their_text(session, gm, player):
    """The events filtered above do hold the marked text: the filter is what keeps it out."""
    second, _aki, scenario, planned, revealed, _never = await _cast(session, gm, player)

    await _play_the_scene(session, gm, player, second, scenario, planned, revealed)

    payloads = await sync_to_async(
        lambda: json.dumps(
            list(TimelineEvent.objects.filter(session=session).values_list("payload", flat=True))
        )
    )()
    for marker in (WHISPER_TO_A, WHISPER_FROM_B, BACKSTAGE, HANDOUT_A):
        assert marker in payloads
    for marker in (SCENARIO_NOTE, PLANNED_NOTE, HANDOUT_NEVER):
        assert marker not in payloads
