"""A seat's private setting (Actual's Counter mode) reaches that seat and nobody else."""

import pytest
from asgiref.sync import sync_to_async

from minigames import services
from minigames.actual.rules import engine
from minigames.models import Match, MatchMove
from sessions_app.services.chat import chat_post
from tests.clients import LINE_AFTER, frames_before
from tests.matches import actual_set_up_alike, ren_joins_a_match_with_aki
from tests.sessions_app.live.test_consumers import _joined


def _playing_match(session, player):
    match, ren = ren_joins_a_match_with_aki(
        session, player, by=player, seed=5, options={"first_player": 0}
    )
    actual_set_up_alike(match, player, ren)
    return Match.objects.get(pk=match.pk), ren


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_counter_mode_change_is_sent_to_its_seat_alone(session, gm, player):
    match, ren = await sync_to_async(_playing_match)(session, player)
    sockets = {}
    for name, user in (("aki", player), ("ren", ren), ("gm", gm)):
        sockets[name], _initial = await _joined(user, session)

    await sync_to_async(services.match_move)(
        match_id=match.pk,
        by=ren,
        action={"type": "counter_mode", "value": "never"},
        version=match.version,
    )
    # Whatever the change sent each socket came before the line posted after it.
    await sync_to_async(chat_post)(session=session, by=gm, text=LINE_AFTER)
    frames = {name: await frames_before(socket, LINE_AFTER) for name, socket in sockets.items()}
    for socket in sockets.values():
        await socket.disconnect()

    assert any(f'id="match-{match.pk}"' in frame for frame in frames["ren"])
    assert any('value="never" class="button small primary"' in frame for frame in frames["ren"])
    for name in ("aki", "gm"):
        assert not [frame for frame in frames[name] if f"match-{match.pk}" in frame]
    changed = await Match.objects.aget(pk=match.pk)
    assert changed.version == match.version


def test_counter_mode_change_is_replayed_from_the_move_log(session, player):
    match, ren = _playing_match(session, player)
    services.match_move(
        match_id=match.pk, by=ren, action={"type": "counter_mode", "value": "never"}, version=0
    )
    state = engine.from_dict(Match.objects.get(pk=match.pk).state)
    attack = next(a for a in engine.legal_actions(state, 0) if a["type"] == "use")
    services.match_move(
        match_id=match.pk,
        by=player,
        action={k: v for k, v in attack.items() if k != "player"},
        version=match.version,
    )
    match.refresh_from_db()

    assert engine.to_dict(services.match_replay(match)) == match.state
    numbers = list(MatchMove.objects.filter(match=match).values_list("number", flat=True))
    assert numbers == sorted(set(numbers))
