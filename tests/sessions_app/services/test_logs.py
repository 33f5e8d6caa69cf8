"""A session's own export always imports: whatever the app wrote, of every event kind, with
every roll-box command family and both games played to their end."""

import datetime
import json

import pytest

from minigames import services as games
from minigames.services import SeatSpec
from sessions_app import log_export
from sessions_app.kinds.registry import kinds_all
from sessions_app.services import dice as dice_service
from sessions_app.services.checks import (
    check_request,
    check_roll,
    command_roll,
    gm_roll,
    roll_reveal,
)
from sessions_app.services.dice import dice_commit_ahead, dice_reserve
from sessions_app.services.logs import log_import
from sessions_app.services.palette import box_send
from sessions_app.services.scenes import scene_end, stage_bring_in
from sessions_app.services.timeline import timeline_append
from tests.factories import (
    CharacterFactory,
    MembershipFactory,
    RulesProfileFactory,
    UserFactory,
    cast_member,
    contest_rolled,
    scene_started,
)
from tests.matches import dealt

BROWSER_VALUE = "7e" * 16
# One command of each family the roll box knows (rules/srs_commands.py, rules/dice_commands.py).
COMMAND_FAMILIES = [
    "2D6+1>=8",  # SRS check
    "2D6@11#3",  # SRS check with critical and fumble
    "3D6+2",  # sum
    "1D100<=50",  # comparison
    "5B6>=4",  # barabara
    "3U6[6]",  # upper (rerolls)
    "D66",
    "C(10*3+2)",  # calculation: no dice
    "choice[north,south,east]",
    "x3 2D6",  # repeat
    "S2D6>=9",  # secret
    "2D6*99999",  # a large total, still one a log keeps
]


@pytest.fixture
def played(session, gm, player, monkeypatch):
    """A session that used every part of the app that draws dice, and both games."""
    ren_player = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    aki = cast_member(
        session,
        player,
        name="Aki",
        slot=1,
        judgement_values={"Strength": 5},
        resources={
            "MP": {"current": 3, "max": 30},
            "Curse": {"current": 1, "max": 9, "hidden": True},
        },
    )
    ren = cast_member(
        session, ren_player, name="Ren", slot=2, resources={"HP": {"current": 2, "max": 40}}
    )
    # Off stage all scene: the after-scene rule rolls her HP back.
    cast_member(session, player, name="Mio", resources={"HP": {"current": 1, "max": 40}})
    npc = CharacterFactory(
        table=session.table, owner=gm, kind="npc", name="Guard", judgement_values={"Senses": 4}
    )
    profile = RulesProfileFactory(
        table=session.table, after_scene_resource="HP", after_scene_amount="1D6"
    )
    session.rules_profile = profile
    session.save(update_fields=["rules_profile"])
    dice_commit_ahead(session=session)
    scene_started(session, gm, scene_player=aki)
    request = check_request(
        session=session, by=gm, character=aki, label="Climb", value_name="Strength", difficulty=9
    )
    check_roll(request_id=request.pk, by=player, dice_value=BROWSER_VALUE)
    secret = gm_roll(session=session, by=gm, character=npc, label="Ambush", value=4, secret=True)
    roll_reveal(roll=secret, by=gm)
    stage_bring_in(session=session, by=gm, character=npc)
    stage_bring_in(session=session, by=gm, character=ren)
    contest_rolled(
        session,
        gm,
        player,
        label="Arm wrestling",
        action=aki,
        reaction=npc,
        action_dice_value=BROWSER_VALUE,
    )
    for text in COMMAND_FAMILIES:
        reservation = dice_reserve(session=session, by=player)
        command_roll(
            session=session,
            by=player,
            text=text,
            dice_value=BROWSER_VALUE,
            dice_reservation=reservation.pk,
        )
    # A reservation left unused: published as skipped, with its key, at the next roll.
    monkeypatch.setattr(dice_service, "RESERVATION_LIFETIME", datetime.timedelta(0))
    dice_reserve(session=session, by=player)
    monkeypatch.undo()
    box_send(session=session, by=player, text=":MP+2D6", character=aki, dice_value=BROWSER_VALUE)
    box_send(session=session, by=player, text=":Curse+1D6", character=aki)
    for game in ("actual", "acticsx"):
        match = dealt(
            games.match_create(
                session=session,
                by=player,
                seats=[SeatSpec(aki), SeatSpec(ren)],
                game=game,
                dice_value=BROWSER_VALUE,
            )
        )
        games.match_move(match_id=match.pk, by=player, action={"type": "resign"}, version=0)
    scene_end(session=session, by=gm)
    return session


def _export(session, user) -> str:
    return log_export.export_json_text(viewer=log_export.log_viewer(session=session, user=user))


def _with_every_kind(session, gm) -> None:
    """Append each kind the session has not used yet, as the app writes it (its declared
    sample, through the timeline's own append), so that every kind is in the export."""
    used = set(session.events.values_list("kind", flat=True))
    for kind in kinds_all():
        if kind.name in used:
            continue
        for sample in kind.samples:
            # A sample's proof names no real key: the real ones come from the rolls above.
            payload = {key: value for key, value in sample.items() if key != "proof"}
            timeline_append(
                session=session, kind=kind.name, actor=gm, payload=payload, allow_closed=True
            )


def _owners_forgotten(value):
    """The events as an import keeps them: an `owner_id` named an account of the exporting
    server, which the imported log does not carry over."""
    if isinstance(value, dict):
        return {
            key: None if key == "owner_id" else _owners_forgotten(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_owners_forgotten(item) for item in value]
    return value


def test_session_export_of_every_kind_command_family_and_game_imports(played, gm, player):
    kinds_rolled = set(played.events.values_list("kind", flat=True))
    assert {
        "match_finished",
        "after_scene",
        "hidden_roll",
        "resource_changed",
        "dice_reserved",
        "dice_skipped",
    } <= kinds_rolled
    games_played = set(
        played.events.filter(kind="match_finished").values_list("payload__game", flat=True)
    )
    assert games_played == {"actual", "acticsx"}
    _with_every_kind(played, gm)
    exported = _export(played, gm)
    assert {event["kind"] for event in json.loads(exported)["events"]} == {
        kind.name for kind in kinds_all()
    }

    imported = log_import(data=exported, by=gm)

    again = json.loads(_export(imported, gm))
    assert _owners_forgotten(again["events"]) == _owners_forgotten(json.loads(exported)["events"])


@pytest.mark.parametrize("username", ["player", "ren"])
def test_each_players_export_of_a_played_session_imports(played, gm, username):
    user = played.table.memberships.get(user__username=username).user
    document = json.loads(_export(played, user))
    kinds = {event["kind"] for event in document["events"]}
    # Aki's player sees the hidden roll itself; Ren sees only which key it used.
    assert ("hidden_roll" in kinds) == (username == "ren")

    imported = log_import(data=json.dumps(document), by=gm)

    assert imported.events.count() == len(document["events"])
