"""Check requests, rolls, secret rolls, the roll box, reveal/void and contests."""

import json
from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from sessions_app.models import CheckRequest, Contest, Roll, TimelineEvent
from sessions_app.rules import srs_checks, srs_odds
from sessions_app.selectors.stats import dice_rows_for_session
from sessions_app.selectors.timeline import visible_events
from sessions_app.services import checks as check_services
from sessions_app.services.checks import (
    ContestSide,
    check_cancel,
    check_request,
    check_roll,
    command_roll,
    contest_answer,
    contest_open,
    gm_roll,
    roll_reveal,
    roll_void,
)
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    RulesProfileFactory,
)

STATEMENT_VERBS = {"SELECT", "INSERT", "UPDATE", "DELETE"}


@pytest.fixture
def pc(session, player):
    character = CharacterFactory(
        table=session.table, owner=player, name="Aki", judgement_values={"Strength": 5, "Senses": 3}
    )
    session.characters.add(character)
    return character


@pytest.fixture
def npc(session, gm):
    return CharacterFactory(
        table=session.table, owner=gm, kind="npc", name="Innkeeper", judgement_values={"Senses": 4}
    )


@pytest.fixture
def pc2(session, second_player):
    character = CharacterFactory(
        table=session.table, owner=second_player, name="Ren", judgement_values={"Reflexes": 4}
    )
    session.characters.add(character)
    return character


def _request(session, gm, pc, **overrides):
    arguments = {"label": "Climb the wall", "value_name": "Strength", "difficulty": 10}
    arguments.update(overrides)
    return check_request(session=session, by=gm, character=pc, **arguments)


def _player_view_text(session, user) -> str:
    events = visible_events(session_id=session.pk, user=user, is_gm=False)
    return json.dumps([[e.kind, e.payload] for e in events], ensure_ascii=False)


def test_check_request_takes_value_from_sheet(session, gm, pc):
    request = _request(session, gm, pc)

    assert (request.value_name, request.value, request.status) == ("Strength", 5, "pending")
    assert (request.critical, request.fumble) == (12, 2)


def test_check_request_by_player_refused(session, player, pc):
    with pytest.raises(PermissionDenied):
        _request(session, player, pc)

    assert not CheckRequest.objects.exists()


def test_check_request_character_not_taking_part_refused(session, gm, pc):
    session.characters.remove(pc)

    with pytest.raises(ValidationError, match="not taking part"):
        _request(session, gm, pc)


def test_check_request_unknown_value_name_refused(session, gm, pc):
    with pytest.raises(ValidationError, match="no Empathy"):
        _request(session, gm, pc, value_name="Empathy")


def test_check_request_modifier_beyond_limit_refused_with_reason(session, gm, pc):
    with pytest.raises(ValidationError, match="beyond this profile's limit of ±3"):
        _request(session, gm, pc, gm_modifier=4)

    assert not CheckRequest.objects.exists()
    assert not TimelineEvent.objects.filter(kind="check_requested").exists()


def test_check_request_modifier_at_limit_accepted(session, gm, pc):
    assert _request(session, gm, pc, gm_modifier=-3).gm_modifier == -3


def test_check_request_critical_override(session, gm, pc):
    assert _request(session, gm, pc, critical=11).critical == 11


def test_check_roll_in_japanese_stores_the_gm_modifier_label_in_english(session, gm, player, pc):
    request = _request(session, gm, pc, gm_modifier=1)

    with translation.override("ja"):
        roll = check_roll(request_id=request.pk, by=player, dice=(3, 1))

    assert roll.modifiers == [{"label": "GM modifier", "amount": 1}]


def test_check_request_secret_difficulty_needs_difficulty(session, gm, pc):
    with pytest.raises(ValidationError):
        _request(session, gm, pc, difficulty=None, difficulty_secret=True)


def test_check_roll_by_owner_follows_rules(session, gm, player, pc):
    request = _request(session, gm, pc, gm_modifier=1)

    roll = check_roll(
        request_id=request.pk, by=player, declared_modifiers=[("Climbing gear", 2)], dice=(3, 1)
    )

    expected = srs_checks.check(5, (3, 1), modifier=3, difficulty=10)
    assert roll.result == expected.to_dict()
    assert roll.result["achievement"] == 12
    assert [m["amount"] for m in roll.modifiers] == [1, 2]
    request.refresh_from_db()
    assert request.status == CheckRequest.Status.ROLLED


def test_check_roll_event_shows_same_numbers_to_everyone(session, gm, player, pc, second_player):
    request = _request(session, gm, pc)
    check_roll(request_id=request.pk, by=player, dice=(6, 5))

    payloads = [
        [
            e.payload
            for e in visible_events(session_id=session.pk, user=u, is_gm=gm_)
            if e.kind == "check_rolled"
        ]
        for u, gm_ in [(gm, True), (player, False), (second_player, False)]
    ]

    assert payloads[0] == payloads[1] == payloads[2]
    assert payloads[0][0]["faces"] == [6, 5]


def test_check_roll_takes_one_statement_per_step(session, gm, player, pc):
    # The hottest write of a session: the locked read carries the membership check, and
    # nothing is read twice (roll, status, sequence number, event).
    request = _request(session, gm, pc)

    with CaptureQueriesContext(connection) as queries:
        check_roll(request_id=request.pk, session_id=session.pk, by=player, dice=(3, 3))

    statements = [
        q["sql"] for q in queries.captured_queries if q["sql"].split()[0] in STATEMENT_VERBS
    ]
    # Where rows can be locked, an entry check first queues behind the end of its scene.
    scene_lock = 1 if connection.features.has_select_for_update else 0
    assert len(statements) == 5 + scene_lock, statements


def test_check_roll_loads_fields_as_the_orm_would(session, gm, player, pc):
    request = _request(session, gm, pc, secret=True)

    roll = check_roll(request_id=request.pk, by=player, dice=(3, 3))

    assert roll.secret is True
    assert roll.character == pc and roll.character.name == "Aki"
    assert roll.session == session
    event = TimelineEvent.objects.get(kind="check_rolled")
    assert event.payload["secret"] is True
    assert event.payload["difficulty_secret"] is False


def test_check_roll_by_owner_who_left_the_table_refused(session, gm, player, pc):
    request = _request(session, gm, pc)
    session.table.memberships.filter(user=player).delete()

    with pytest.raises(PermissionDenied, match="Only members"):
        check_roll(request_id=request.pk, by=player, dice=(3, 3))
    assert not Roll.objects.exists()


def test_check_roll_of_another_session_does_not_exist(session, gm, player, pc):
    request = _request(session, gm, pc)
    other = GameSessionFactory(table=session.table)

    with pytest.raises(ValidationError, match="does not exist"):
        check_roll(request_id=request.pk, session_id=other.pk, by=player, dice=(3, 3))


def test_check_roll_by_other_player_refused(session, gm, pc, second_player):
    request = _request(session, gm, pc)

    with pytest.raises(PermissionDenied):
        check_roll(request_id=request.pk, by=second_player, dice=(3, 3))

    assert not Roll.objects.exists()


def test_check_roll_by_gm_for_players_pc_refused(session, gm, pc):
    request = _request(session, gm, pc)

    with pytest.raises(PermissionDenied):
        check_roll(request_id=request.pk, by=gm, dice=(3, 3))


def test_check_roll_double_submit_makes_one_roll(session, gm, player, pc):
    request = _request(session, gm, pc)

    first = check_roll(request_id=request.pk, by=player, dice=(2, 2))
    second = check_roll(request_id=request.pk, by=player, dice=(6, 6))

    assert first.pk == second.pk
    assert second.faces == [2, 2]
    assert Roll.objects.count() == 1
    assert TimelineEvent.objects.filter(kind="check_rolled").count() == 1


def test_check_roll_cancelled_request_refused(session, gm, player, pc):
    request = _request(session, gm, pc)
    check_cancel(request=request, by=gm)

    with pytest.raises(ValidationError, match="no longer waiting"):
        check_roll(request_id=request.pk, by=player, dice=(3, 3))


def test_check_roll_invalid_declared_modifier_refused(session, gm, player, pc):
    request = _request(session, gm, pc)

    with pytest.raises(ValidationError):
        check_roll(request_id=request.pk, by=player, declared_modifiers=[("Sword", "x")])

    assert not Roll.objects.exists()


def test_check_roll_uses_the_wired_dice(session, gm, player, pc, monkeypatch):
    monkeypatch.setattr(check_services, "roll_dice", lambda rng=None: (4, 2))
    request = _request(session, gm, pc)

    assert check_roll(request_id=request.pk, by=player).faces == [4, 2]


def test_secret_check_numbers_never_reach_players(session, gm, player, pc, second_player):
    request = _request(session, gm, pc, secret=True, label="Notice the assassin")
    check_roll(request_id=request.pk, by=player, dice=(5, 4))

    gm_kinds = [e.kind for e in visible_events(session_id=session.pk, user=gm, is_gm=True)]
    rolled_for_player = _player_view_text(session, player)
    other_player = _player_view_text(session, second_player)

    assert "check_rolled" in gm_kinds and "secret_roll" not in gm_kinds
    assert '"faces"' not in rolled_for_player and '"achievement"' not in rolled_for_player
    assert "secret_roll" in rolled_for_player
    assert "assassin" not in other_player


def test_secret_difficulty_players_see_achievement_only(session, gm, player, pc):
    request = _request(session, gm, pc, difficulty=13, difficulty_secret=True)
    check_roll(request_id=request.pk, by=player, dice=(3, 4))

    text = _player_view_text(session, player)
    rolled = [
        e.payload
        for e in visible_events(session_id=session.pk, user=player, is_gm=False)
        if e.kind == "check_rolled"
    ]

    assert '"difficulty": 13' not in text
    assert rolled[0]["achievement"] == 12
    assert (rolled[0]["outcome"], rolled[0]["success"], rolled[0]["difficulty"]) == (
        "achieved",
        None,
        None,
    )


def test_roll_is_append_only(session, gm, player, pc):
    roll = check_roll(request_id=_request(session, gm, pc).pk, by=player, dice=(1, 2))

    with pytest.raises(ValueError, match="append-only"):
        roll.save()
    with pytest.raises(ValueError, match="append-only"):
        roll.delete()
    with pytest.raises(ValueError, match="append-only"):
        Roll.objects.update(label="changed")
    with pytest.raises(ValueError, match="append-only"):
        Roll.objects.all().delete()


def test_gm_roll_for_npc_public(session, gm, npc):
    roll = gm_roll(
        session=session, by=gm, character=npc, label="Spot", value_name="Senses", dice=(3, 3)
    )

    assert roll.source == Roll.Source.GM
    assert roll.result["achievement"] == 10


def test_gm_roll_secret_hidden_from_players(session, gm, player, npc):
    gm_roll(session=session, by=gm, character=npc, label="Lie", value=6, secret=True, dice=(6, 4))

    assert '"faces"' not in _player_view_text(session, player)


def test_gm_roll_for_pc_refused(session, gm, pc):
    with pytest.raises(ValidationError):
        gm_roll(session=session, by=gm, character=pc, label="x", value=3)


def test_command_roll_check_marked_not_requested(session, player):
    roll = command_roll(session=session, by=player, text="2D6+2>=9 jump", faces=(4, 3))

    event = TimelineEvent.objects.get(kind="command_rolled")
    assert roll.source == Roll.Source.COMMAND
    assert (event.payload["outcome"], event.payload["total"], event.payload["label"]) == (
        "success",
        9,
        "jump",
    )


def test_roll_box_uses_the_table_profile_critical_and_fumble(session, player):
    session.rules_profile = RulesProfileFactory(critical=11, fumble=3)
    session.save()

    critical = command_roll(session=session, by=player, text="2D6>=20", faces=(5, 6))
    fumble = command_roll(session=session, by=player, text="2D6>=2", faces=(1, 2))

    assert (critical.result["outcome"], critical.result["success"]) == ("critical", True)
    assert (fumble.result["outcome"], fumble.result["success"]) == ("fumble", False)
    assert critical.command == "2D6>=20[11,3]"


def test_roll_box_explicit_critical_and_fumble_win_over_the_profile(session, player):
    session.rules_profile = RulesProfileFactory(critical=11, fumble=3)
    session.save()

    at_sharp = command_roll(session=session, by=player, text="2D6@12#2>=20", faces=(5, 6))
    brackets = command_roll(session=session, by=player, text="2D6>=2[12,2]", faces=(1, 2))
    half = command_roll(session=session, by=player, text="2D6>=20[,2]", faces=(5, 6))

    assert at_sharp.result["outcome"] == "failure"
    assert brackets.result["outcome"] == "success"
    assert (half.result["outcome"], half.command) == ("critical", "2D6>=20[11,2]")


def test_command_roll_sum(session, player):
    roll = command_roll(session=session, by=player, text="3D6+1", faces=(1, 2, 3))

    assert roll.result["total"] == 7


def test_command_roll_malformed_refused_and_nothing_stored(session, player):
    with pytest.raises(ValidationError):
        command_roll(session=session, by=player, text="2D6>=")

    assert not Roll.objects.exists()


def test_command_roll_secret_seen_by_roller_and_gm_only(session, gm, player, second_player):
    command_roll(session=session, by=player, text="S2D6>=9", faces=(6, 1))

    roller_view = _player_view_text(session, player)
    other_view = _player_view_text(session, second_player)

    assert '"faces": [6, 1]' in roller_view
    assert '"faces"' not in other_view and "secret_roll" in other_view
    assert "command_rolled" in [
        e.kind for e in visible_events(session_id=session.pk, user=gm, is_gm=True)
    ]


def test_command_roll_by_outsider_refused(session, outsider):
    with pytest.raises(PermissionDenied):
        command_roll(session=session, by=outsider, text="2D6")


def test_roll_reveal_makes_numbers_public(session, gm, player, npc):
    roll = gm_roll(
        session=session, by=gm, character=npc, label="Lie", value=6, secret=True, dice=(6, 4)
    )

    roll_reveal(roll=roll, by=gm)

    assert '"faces": [6, 4]' in _player_view_text(session, player)


def test_roll_reveal_twice_refused(session, gm, npc):
    roll = gm_roll(
        session=session, by=gm, character=npc, label="Lie", value=6, secret=True, dice=(6, 4)
    )
    roll_reveal(roll=roll, by=gm)

    with pytest.raises(ValidationError):
        roll_reveal(roll=roll, by=gm)


def test_roll_reveal_by_player_of_requested_roll_refused(session, gm, player, pc):
    roll = check_roll(request_id=_request(session, gm, pc, secret=True).pk, by=player, dice=(1, 6))

    with pytest.raises(PermissionDenied):
        roll_reveal(roll=roll, by=player)


def test_roll_reveal_own_secret_command(session, player, second_player):
    roll = command_roll(session=session, by=player, text="S1D6", faces=(5,))

    roll_reveal(roll=roll, by=player)

    assert '"faces": [5]' in _player_view_text(session, second_player)


def test_roll_void_appends_event_and_keeps_roll(session, gm, player, pc):
    roll = check_roll(request_id=_request(session, gm, pc).pk, by=player, dice=(1, 6))

    roll_void(roll=roll, by=gm, reason="Wrong judgement value")

    assert Roll.objects.filter(pk=roll.pk).exists()
    kinds = [e.kind for e in TimelineEvent.objects.filter(session=session)]
    assert kinds[-2:] == ["check_rolled", "roll_voided"]


def test_roll_void_needs_reason_and_gm(session, gm, player, pc):
    roll = check_roll(request_id=_request(session, gm, pc).pk, by=player, dice=(1, 6))

    with pytest.raises(ValidationError):
        roll_void(roll=roll, by=gm, reason=" ")
    with pytest.raises(PermissionDenied):
        roll_void(roll=roll, by=player, reason="I don't like it")


def _contest(session, gm, pc, pc2, **overrides):
    arguments = {
        "label": "Arm wrestling",
        "action": ContestSide(character=pc, value_name="Strength"),
        "reaction": ContestSide(character=pc2, value_name="Reflexes"),
    }
    arguments.update(overrides)
    return contest_open(session=session, by=gm, **arguments)


def _side(contest, side):
    return contest.requests.get(side=side)


def test_contest_open_asks_action_side_first(session, gm, pc, pc2):
    contest = _contest(session, gm, pc, pc2)

    assert _side(contest, "action").status == "pending"
    assert _side(contest, "reaction").status == "waiting"
    opened = TimelineEvent.objects.get(kind="contest_opened")
    expected = srs_odds.contest_chance(5, 4)
    assert opened.payload["action_chance"] == f"{expected.numerator}/{expected.denominator}"


def test_contest_reaction_cannot_roll_before_action(session, gm, pc, pc2, second_player):
    contest = _contest(session, gm, pc, pc2)

    with pytest.raises(ValidationError):
        check_roll(request_id=_side(contest, "reaction").pk, by=second_player, dice=(3, 3))


def test_contest_full_flow_higher_achievement_wins(session, gm, player, second_player, pc, pc2):
    contest = _contest(session, gm, pc, pc2)

    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(4, 4))
    assert _side(contest, "reaction").status == "pending"
    check_roll(request_id=_side(contest, "reaction").pk, by=second_player, dice=(3, 3))

    contest.refresh_from_db()
    assert (contest.status, contest.winner, contest.reason) == (
        "done",
        "action",
        srs_checks.REASON_HIGHER_ACHIEVEMENT,
    )
    assert TimelineEvent.objects.get(kind="contest_decided").payload["winner_character"] == "Aki"


def test_contest_tie_goes_to_reaction(session, gm, player, second_player, pc, pc2):
    contest = _contest(session, gm, pc, pc2)

    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(3, 3))
    check_roll(request_id=_side(contest, "reaction").pk, by=second_player, dice=(3, 4))

    contest.refresh_from_db()
    assert (contest.winner, contest.reason) == ("reaction", srs_checks.REASON_TIE_REACTION_PRIORITY)


def test_contest_action_fumble_ends_without_reaction_roll(session, gm, player, pc, pc2):
    contest = _contest(session, gm, pc, pc2)

    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(1, 1))

    contest.refresh_from_db()
    assert (contest.winner, contest.reason) == ("reaction", srs_checks.REASON_ACTION_FUMBLE)
    assert _side(contest, "reaction").status == "skipped"


def test_contest_reaction_cannot_roll_uses_value_and_modifier(session, gm, player, pc, pc2):
    contest = _contest(
        session,
        gm,
        pc,
        pc2,
        reaction=ContestSide(character=pc2, value=10, gm_modifier=1),
        reaction_can_roll=False,
    )

    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(3, 3))
    contest_answer(request_id=_side(contest, "reaction").pk, by=pc2.owner)

    contest.refresh_from_db()
    decided = TimelineEvent.objects.get(kind="contest_decided").payload
    assert decided["reaction"]["achievement"] == 11 and decided["reaction"]["dice"] is None
    assert contest.winner == "reaction"


def _cannot_roll_contest(session, gm, pc, reacting, **reaction):
    return _contest(
        session,
        gm,
        pc,
        reacting,
        reaction=ContestSide(character=reacting, **({"value": 4} | reaction)),
        reaction_can_roll=False,
    )


def test_reaction_side_that_cannot_roll_adds_declared_modifiers(
    session, gm, player, second_player, pc, pc2
):
    contest = _cannot_roll_contest(session, gm, pc, pc2, gm_modifier=1)
    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(3, 4))  # 5 + 7 = 12
    assert _side(contest, "reaction").status == "pending"
    assert not TimelineEvent.objects.filter(kind="contest_decided").exists()

    contest = contest_answer(
        request_id=_side(contest, "reaction").pk,
        by=second_player,
        declared_modifiers=[("Parrying dagger", 5), ("Guard stance", 2)],
    )

    decided = TimelineEvent.objects.get(kind="contest_decided").payload
    assert decided["reaction"]["achievement"] == 4 + 1 + 5 + 2
    assert decided["reaction"]["dice"] is None
    assert [row["amount"] for row in decided["reaction_modifiers"]] == [1, 5, 2]
    assert (contest.status, contest.winner) == ("done", "reaction")
    assert not Roll.objects.filter(request__side="reaction").exists()


def test_reaction_side_that_cannot_roll_refuses_dice(session, gm, player, second_player, pc, pc2):
    contest = _cannot_roll_contest(session, gm, pc, pc2)
    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(3, 4))

    with pytest.raises(ValidationError):
        check_roll(request_id=_side(contest, "reaction").pk, by=second_player, dice=(6, 6))

    assert Contest.objects.get(pk=contest.pk).status == "reaction"


def test_reaction_side_that_cannot_roll_answers_only_after_the_action_side(
    session, gm, second_player, pc, pc2
):
    contest = _cannot_roll_contest(session, gm, pc, pc2)

    with pytest.raises(ValidationError):
        contest_answer(request_id=_side(contest, "reaction").pk, by=second_player)


def test_reaction_side_that_cannot_roll_answered_by_its_player_only(session, gm, player, pc, pc2):
    contest = _cannot_roll_contest(session, gm, pc, pc2)
    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(3, 4))

    with pytest.raises(PermissionDenied):
        contest_answer(request_id=_side(contest, "reaction").pk, by=player)


def test_gm_answers_for_an_npc_reaction_side_that_cannot_roll(session, gm, player, pc, npc):
    contest = _cannot_roll_contest(session, gm, pc, npc, value_name="Senses", value=None)
    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(2, 3))  # 5 + 5 = 10

    contest = contest_answer(
        request_id=_side(contest, "reaction").pk, by=gm, declared_modifiers=[("Watchdog", 6)]
    )

    assert (contest.winner, contest.reason) == ("reaction", srs_checks.REASON_TIE_REACTION_PRIORITY)


def test_rolled_check_cannot_be_answered_without_dice(session, gm, player, pc):
    with pytest.raises(ValidationError):
        contest_answer(request_id=_request(session, gm, pc).pk, by=player)


def test_contest_side_overrides_critical_and_fumble(session, gm, player, second_player, pc, pc2):
    contest = _contest(
        session,
        gm,
        pc,
        pc2,
        action=ContestSide(character=pc, value_name="Strength", critical=11, fumble=3),
        reaction=ContestSide(character=pc2, value_name="Reflexes", fumble=4),
    )

    action, reaction = _side(contest, "action"), _side(contest, "reaction")
    assert (action.critical, action.fumble, reaction.critical, reaction.fumble) == (11, 3, 12, 4)
    opened = TimelineEvent.objects.get(kind="contest_opened").payload
    assert (opened["action"]["critical"], opened["reaction"]["fumble"]) == (11, 4)
    expected = srs_odds.contest_chance(
        5, 4, action_critical=11, action_fumble=3, reaction_critical=12, reaction_fumble=4
    )
    assert opened["action_chance"] == f"{expected.numerator}/{expected.denominator}"

    check_roll(request_id=action.pk, by=player, dice=(5, 6))
    check_roll(request_id=reaction.pk, by=second_player, dice=(2, 2))

    contest.refresh_from_db()
    assert (contest.winner, contest.reason) == ("action", srs_checks.REASON_REACTION_FUMBLE)


def test_contest_uses_the_table_profile_critical_and_fumble(session, gm, player, pc, pc2):
    session.rules_profile = RulesProfileFactory(critical=11, fumble=3)
    session.save()
    contest = _contest(session, gm, pc, pc2)

    check_roll(request_id=_side(contest, "action").pk, by=player, dice=(1, 2))

    contest.refresh_from_db()
    assert (contest.winner, contest.reason) == ("reaction", srs_checks.REASON_ACTION_FUMBLE)


def test_contest_side_critical_beyond_2d6_refused(session, gm, pc, pc2):
    with pytest.raises(ValidationError):
        _contest(session, gm, pc, pc2, action=ContestSide(character=pc, value=3, critical=13))

    assert not Contest.objects.exists()


def test_contest_same_character_twice_refused(session, gm, pc):
    with pytest.raises(ValidationError):
        contest_open(
            session=session,
            by=gm,
            label="x",
            action=ContestSide(character=pc, value=3),
            reaction=ContestSide(character=pc, value=3),
        )

    assert not Contest.objects.exists()


def test_rng_wiring_gives_uniform_ordered_pairs():
    """36,000 rolls from the dice the services use: every ordered pair within chi-square bounds."""
    rolls = 36_000
    counts = Counter(check_services.roll_dice() for _ in range(rolls))
    expected = rolls / 36

    chi_square = sum(
        (counts[(a, b)] - expected) ** 2 / expected for a in range(1, 7) for b in range(1, 7)
    )

    # Upper bound of chi-square with 35 degrees of freedom at p = 1e-6 (Wilson–Hilferty).
    assert len(counts) == 36
    assert chi_square < 90.5


@pytest.mark.parametrize(
    ("text", "faces", "counted_as_2d6"),
    [
        ("D66", (3, 5), True),
        ("1D6+1D6", (3, 5), True),
        ("1D6+1D8", (3, 5), False),
        ("1U6[6]", (6, 2), False),
        ("choice[a,b]", (2,), False),
    ],
)
def test_command_roll_counts_as_2d6_only_with_two_plain_d6(
    session, player, text, faces, counted_as_2d6
):
    command_roll(session=session, by=player, text=text, faces=faces)

    (row,) = dice_rows_for_session(session=session, user=player, is_gm=False)
    assert row.is_2d6 is counted_as_2d6


def test_command_roll_stores_bcdice_results_for_the_card(session, player):
    roll = command_roll(session=session, by=player, text="S5B6>=4 ambush", faces=(1, 4, 6, 2, 5))

    assert roll.secret and roll.command == "S5B6>=4" and roll.label == "ambush"
    assert (roll.result["kind"], roll.result["successes"]) == ("barabara", 3)
    assert roll.result["groups"] == [{"notation": "5B6", "sides": 6, "faces": [1, 4, 6, 2, 5]}]
    event = TimelineEvent.objects.get(kind="command_rolled")
    assert event.visibility == TimelineEvent.Visibility.USERS
    assert list(event.audience.values_list("pk", flat=True)) == [player.pk]


def test_revealing_a_secret_bcdice_roll_shows_its_card_to_everyone(session, player):
    roll = command_roll(session=session, by=player, text="Sx2 2U6[6]>=7", faces=(6, 1, 2, 3, 4))

    roll_reveal(roll=roll, by=player)

    event = TimelineEvent.objects.get(kind="roll_revealed")
    assert event.visibility == TimelineEvent.Visibility.EVERYONE
    assert [each["successes"] for each in event.payload["rolls"]] == [1, 0]


def _room_line(session, user, kind: str) -> str:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(user)
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    start = page.index(f"event-{kind}")
    return page[start : page.index("</li>", start)]


def test_gm_roll_box_roll_is_tagged_a_gm_roll_not_an_unrequested_one(session, gm, player):
    command_roll(session=session, by=gm, text="2D6", faces=(3, 4))

    line = _room_line(session, player, "command_rolled")

    assert "GM roll" in line
    assert "not requested by the GM" not in line


def test_player_roll_box_roll_is_tagged_not_requested(session, player):
    command_roll(session=session, by=player, text="2D6", faces=(3, 4))

    assert "not requested by the GM" in _room_line(session, player, "command_rolled")


def test_secret_roll_notice_to_the_other_players_is_not_tagged_private(
    session, player, second_player
):
    command_roll(session=session, by=player, text="S2D6>=9", faces=(6, 1))

    line = _room_line(session, second_player, "secret_roll")

    assert "made a secret roll" in line
    assert "Private" not in line
