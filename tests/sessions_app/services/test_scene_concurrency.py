"""Two people acting on the same state at the same moment end in one consistent state.

Each test runs two real threads (each with its own database connection) released together
by a barrier. SQLite lets one writer in at a time; run these on PostgreSQL too
(DATABASE_URL=postgres://…), where the two transactions really overlap.
"""

import pytest
from django.core.exceptions import ValidationError

from sessions_app.models import (
    PHASE_ORDER,
    Appearance,
    GameSession,
    Phase,
    Scene,
    StageRequest,
    TimelineEvent,
)
from sessions_app.services.play import (
    handout_reveal,
    phase_advance,
    session_scenario_set,
    slot_assign,
)
from sessions_app.services.scenes import (
    entry_request,
    scene_end,
    scene_start,
    stage_request_decide,
    stage_request_withdraw,
    stage_take_out,
)
from tests.factories import cast_member, main_play_start
from tests.threads import race

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def _race(**actions) -> dict:
    return race(actions)


def _failed(outcome) -> bool:
    if isinstance(outcome, ValidationError):
        return True
    if isinstance(outcome, Exception):
        raise outcome
    return False


@pytest.fixture
def scene(session, gm, player, second_player):
    aki = cast_member(session, player, name="Aki", slot=1)
    cast_member(session, second_player, name="Ren", slot=2)
    main_play_start(session, gm)
    return scene_start(
        session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
    )


def test_entry_allowed_while_withdrawn_ends_in_one_state(scene, session, gm, second_player):
    ren = session.characters.get(name="Ren")
    for _round in range(ROUNDS):
        request = entry_request(session=session, by=second_player, character=ren)
        entries_before = TimelineEvent.objects.filter(
            kind="character_entered", payload__character="Ren"
        ).count()

        outcome = _race(
            allow=lambda request=request: stage_request_decide(
                session=session, by=gm, request_id=request.pk, allow=True
            ),
            withdraw=lambda request=request: stage_request_withdraw(
                session=session, by=second_player, request_id=request.pk
            ),
        )

        allowed, withdrawn = not _failed(outcome["allow"]), not _failed(outcome["withdraw"])
        request.refresh_from_db()
        on_stage = Appearance.objects.filter(
            scene=scene, character=ren, exited_at__isnull=True
        ).exists()
        entries = TimelineEvent.objects.filter(
            kind="character_entered", payload__character="Ren"
        ).count()
        assert allowed != withdrawn
        if allowed:
            assert (request.status, on_stage, entries) == ("allowed", True, entries_before + 1)
            stage_take_out(session=session, by=gm, character=ren)
        else:
            assert (request.status, on_stage, entries) == ("withdrawn", False, entries_before)


def test_phase_advanced_from_two_tabs_moves_once(session, gm):
    for phase in PHASE_ORDER[:5]:
        changes_before = TimelineEvent.objects.filter(kind="phase_changed").count()

        outcome = _race(
            first=lambda phase=phase: phase_advance(session=session, by=gm, from_phase=phase),
            second=lambda phase=phase: phase_advance(session=session, by=gm, from_phase=phase),
        )

        successes = [name for name, result in outcome.items() if not _failed(result)]
        following = PHASE_ORDER[PHASE_ORDER.index(phase) + 1]
        assert len(successes) == 1
        assert outcome[successes[0]] == following
        assert GameSession.objects.get(pk=session.pk).phase == following
        assert TimelineEvent.objects.filter(kind="phase_changed").count() == changes_before + 1
    assert GameSession.objects.get(pk=session.pk).phase == Phase.AFTER_PLAY


def test_entry_allowed_while_scene_ends_ends_in_one_state(session, gm, player, second_player):
    aki = cast_member(session, player, name="Aki", slot=1)
    ren = cast_member(session, second_player, name="Ren", slot=2)
    main_play_start(session, gm)
    for _round in range(ROUNDS):
        scene = scene_start(
            session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
        )
        request = entry_request(session=session, by=second_player, character=ren)

        outcome = _race(
            allow=lambda request=request: stage_request_decide(
                session=session, by=gm, request_id=request.pk, allow=True
            ),
            end=lambda: scene_end(session=session, by=gm),
        )

        allowed = not _failed(outcome["allow"])
        assert not _failed(outcome["end"])
        request.refresh_from_db()
        scene.refresh_from_db()
        appeared = Appearance.objects.filter(scene=scene, character=ren).exists()
        assert scene.status == Scene.Status.ENDED
        assert not Appearance.objects.filter(scene=scene, exited_at__isnull=True).exists()
        if allowed:
            assert (request.status, appeared) == (StageRequest.Status.ALLOWED, True)
        else:
            assert (request.status, appeared) == (StageRequest.Status.WITHDRAWN, False)


def test_scene_started_from_two_tabs_starts_once(session, gm, player, second_player):
    aki = cast_member(session, player, name="Aki", slot=1)
    ren = cast_member(session, second_player, name="Ren", slot=2)
    main_play_start(session, gm)

    outcome = _race(
        first=lambda: scene_start(
            session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
        ),
        second=lambda: scene_start(
            session=session, by=gm, scene_player=ren, place="The inn", purpose="To meet the contact"
        ),
    )

    successes = [name for name, result in outcome.items() if not _failed(result)]
    assert len(successes) == 1
    assert Scene.objects.filter(session=session).count() == 1
    assert TimelineEvent.objects.filter(kind="scene_started").count() == 1


def test_entry_check_rolled_while_scene_ends_ends_in_one_state(session, gm, player, second_player):
    from sessions_app.services.checks import check_roll
    from tests.factories import RulesProfileFactory

    session.rules_profile = RulesProfileFactory(
        table=session.table,
        entry_condition="check",
        entry_check_value_name="Strength",
        entry_check_difficulty=5,
    )
    session.save(update_fields=["rules_profile"])
    aki = cast_member(session, player, name="Aki", slot=1)
    ren = cast_member(session, second_player, name="Ren", slot=2)
    main_play_start(session, gm)
    for _round in range(ROUNDS):
        scene = scene_start(
            session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
        )
        request = entry_request(session=session, by=second_player, character=ren)
        stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)
        request.refresh_from_db()

        outcome = _race(
            roll=lambda request=request: check_roll(
                request_id=request.check_request_id, by=second_player, dice=(6, 5)
            ),
            end=lambda: scene_end(session=session, by=gm),
        )

        rolled = not _failed(outcome["roll"])
        assert not _failed(outcome["end"])
        request.refresh_from_db()
        scene.refresh_from_db()
        appeared = Appearance.objects.filter(scene=scene, character=ren).exists()
        assert scene.status == Scene.Status.ENDED
        assert not Appearance.objects.filter(scene=scene, exited_at__isnull=True).exists()
        if rolled:
            assert (request.status, appeared) == (StageRequest.Status.ALLOWED, True)
        else:
            assert (request.status, appeared) == (StageRequest.Status.WITHDRAWN, False)
            assert request.check_request.status == "cancelled"


def test_handout_revealed_from_two_tabs_reveals_once(session, gm, player):
    from sessions_app.models import HandoutReveal
    from tests.factories import HandoutFactory, ScenarioFactory

    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=session, by=gm, scenario=scenario)
    session.refresh_from_db()
    cast_member(session, player, name="Aki", slot=1)
    for _round in range(ROUNDS):
        handout = HandoutFactory(scenario=scenario, slot=1)

        outcome = _race(
            first=lambda handout=handout: handout_reveal(session=session, by=gm, handout=handout),
            second=lambda handout=handout: handout_reveal(session=session, by=gm, handout=handout),
        )

        successes = [name for name, result in outcome.items() if not _failed(result)]
        assert len(successes) == 1
        assert HandoutReveal.objects.filter(handout=handout).count() == 1
        assert (
            TimelineEvent.objects.filter(
                kind="handout_revealed", payload__handout_id=handout.pk
            ).count()
            == 1
        )


def test_same_slot_assigned_from_two_tabs_goes_to_one_character(session, gm, player, second_player):
    from sessions_app.models import Participation

    aki = cast_member(session, player, name="Aki")
    ren = cast_member(session, second_player, name="Ren")
    for _round in range(ROUNDS):
        Participation.objects.filter(session=session).update(slot=None)

        outcome = _race(
            aki=lambda: slot_assign(session=session, by=gm, character=aki, slot=1),
            ren=lambda: slot_assign(session=session, by=gm, character=ren, slot=1),
        )

        successes = [name for name, result in outcome.items() if not _failed(result)]
        assert len(successes) == 1
        assert Participation.objects.filter(session=session, slot=1).count() == 1
