"""A scripted session with something of every visibility, for the review and export tests."""

from __future__ import annotations

import datetime

from sessions_app.models import GameSession, Phase, Scenario, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.checks import gm_roll, roll_reveal
from sessions_app.services.play import phase_advance, session_scenario_set
from sessions_app.services.scenes import scene_end, scene_start
from tests.factories import CharacterFactory

# What a player must never read, and what everyone may.
SECRETS = {
    "whisper": "The key is under the third gargoyle",
    "backstage": "Backstage: the librarian escapes through the vault",
    "gm_chat": "GM note: the abbot is the culprit",
    "scenario": "The Drowned Abbey of Marrow",
    "secret_roll": "Sense the ambush",
}
PUBLIC = {
    "chat": "Welcome to the library, everyone.",
    "revealed_roll": "Read the runes",
    "ic": "I open the heavy door.",
    "scene_title": "The reading room",
}


def _secret_npc_roll(session, gm, npc, label, *, dice):
    """The GM rolls for the NPC in secret, with its value 4 and these `dice`."""
    return gm_roll(
        session=session, by=gm, character=npc, label=label, value=4, secret=True, dice=dice
    )


def play_scripted_session(session: GameSession, gm, player) -> dict:
    """Play a short session: chat, a whisper, a GM note, a scene with rolls and a note."""
    pc = CharacterFactory(
        table=session.table, owner=player, name="Aki", judgement_values={"Strength": 5}
    )
    npc = CharacterFactory(
        table=session.table,
        owner=gm,
        kind="npc",
        name="Librarian",
        judgement_values={"Strength": 4},
    )
    session.characters.add(pc)
    scenario = Scenario.objects.create(owner=gm, title=SECRETS["scenario"])
    session_scenario_set(session=session, by=gm, scenario=scenario)
    chat_post(session=session, by=gm, text=PUBLIC["chat"])
    chat_post(session=session, by=gm, text=SECRETS["gm_chat"], gm_only=True)
    phase_advance(session=session, by=gm, from_phase=Phase.PRE_PLAY)
    scene_start(
        session=session,
        by=gm,
        scene_player=pc,
        title=PUBLIC["scene_title"],
        place="The inn",
        purpose="To meet the contact",
    )
    chat_post(session=session, by=player, text=PUBLIC["ic"], mode="ic", character=pc)
    chat_post(session=session, by=gm, text=SECRETS["whisper"], mode="whisper", to=player)
    # Two faces nobody would roll by chance together with the secret label: 1 and 3.
    _secret_npc_roll(session, gm, npc, SECRETS["secret_roll"], dice=[1, 3])
    revealed = _secret_npc_roll(session, gm, npc, PUBLIC["revealed_roll"], dice=[5, 4])
    roll_reveal(roll=revealed, by=gm)
    scene_end(session=session, by=gm, backstage_notes=SECRETS["backstage"])
    return {"pc": pc, "npc": npc}


def add_chat_lines(session: GameSession, by, count: int) -> None:
    """Append `count` plain chat lines quickly (the numbers stay gapless)."""
    session.refresh_from_db()
    start = session.last_seq
    moment = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)
    TimelineEvent.objects.bulk_create(
        [
            TimelineEvent(
                session=session,
                seq=start + index,
                kind="chat",
                actor=by,
                payload={"text": f"line {index}"},
                created_at=moment + datetime.timedelta(seconds=index),
            )
            for index in range(1, count + 1)
        ]
    )
    GameSession.objects.filter(pk=session.pk).update(last_seq=start + count)
    session.refresh_from_db()
