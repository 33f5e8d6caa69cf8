"""Scenes: start and end, who is on stage, companions, entry and exit requests, entry
conditions, the after-scene rule, no-scene mode, prepared checks and who may speak."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from sessions_app.models import (
    Appearance,
    Character,
    CheckRequest,
    Phase,
    Scene,
    StageRequest,
    TimelineEvent,
)
from sessions_app.selectors.timeline import visible_events
from sessions_app.services.chat import chat_post
from sessions_app.services.checks import check_roll
from sessions_app.services.play import phase_advance, session_scenario_set
from sessions_app.services.scenes import (
    companion_answer,
    companion_propose,
    entry_request,
    exit_request,
    prepared_check_fire,
    scene_end,
    scene_start,
    stage_bring_in,
    stage_request_decide,
    stage_request_withdraw,
    stage_take_out,
)
from tests.factories import (
    CharacterFactory,
    PlannedSceneFactory,
    PreparedCheckFactory,
    RulesProfileFactory,
    ScenarioFactory,
    cast_member,
    main_play_start,
)
from tests.sessions_app.dice_proofs import verified


class FixedRng:
    """Every die shows the same face."""

    def __init__(self, face: int):
        self.face = face

    def randint(self, low: int, high: int) -> int:
        assert low <= self.face <= high
        return self.face


def _profile(session, **fields):
    """Give the session its own rules profile with these designer options."""
    profile = RulesProfileFactory(table=session.table, **fields)
    session.rules_profile = profile
    session.save(update_fields=["rules_profile"])
    return profile


def _on_stage(scene) -> set[str]:
    return set(
        Appearance.objects.filter(scene=scene, exited_at__isnull=True).values_list(
            "character__name", flat=True
        )
    )


def _events(session, *kinds) -> list[TimelineEvent]:
    return list(TimelineEvent.objects.filter(session=session, kind__in=kinds).order_by("seq"))


def _visible_kinds(session, user, is_gm=False) -> list[str]:
    return [event.kind for event in visible_events(session_id=session.pk, user=user, is_gm=is_gm)]


# --------------------------------------------------------------------------- scene start


def test_scene_start_scene_player_appears_at_once(opening, gm, pc):
    scene = scene_start(
        session=opening, by=gm, scene_player=pc, place="Tower", purpose="Find the bell"
    )

    appearance = Appearance.objects.get(scene=scene)
    assert (scene.number, scene.phase, scene.status) == (1, Phase.OPENING, "running")
    assert (appearance.character, appearance.way) == (pc, Appearance.Way.SCENE_PLAYER)


def test_scene_start_appends_events_with_the_gm_as_actor(opening, gm, pc):
    scene_start(session=opening, by=gm, scene_player=pc, place="Tower", purpose="Find the bell")

    started, entered = _events(opening, "scene_started", "character_entered")
    assert (started.actor, started.payload["scene_player"], started.payload["place"]) == (
        gm,
        "Aki",
        "Tower",
    )
    assert (entered.actor, entered.payload["character"], entered.payload["way"]) == (
        gm,
        "Aki",
        "scene_player",
    )


def test_scene_start_by_player_refused(opening, player, pc):
    with pytest.raises(PermissionDenied):
        scene_start(
            session=opening,
            by=player,
            scene_player=pc,
            place="The inn",
            purpose="To meet the contact",
        )

    assert not Scene.objects.exists()


def test_scene_start_in_preplay_refused(session, gm, pc):
    with pytest.raises(ValidationError):
        scene_start(
            session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
        )

    assert not Scene.objects.exists()


def test_scene_start_while_one_runs_refused(scene, opening, gm, pc2):
    with pytest.raises(ValidationError):
        scene_start(
            session=opening, by=gm, scene_player=pc2, place="The inn", purpose="To meet the contact"
        )

    assert Scene.objects.count() == 1


def test_scene_start_without_scene_player_or_master_refused(opening, gm):
    with pytest.raises(ValidationError):
        scene_start(session=opening, by=gm, place="The inn", purpose="To meet the contact")


def test_scene_start_scene_player_not_taking_part_refused(opening, gm, player):
    absent = CharacterFactory(table=opening.table, owner=player, name="Absent")

    with pytest.raises(ValidationError):
        scene_start(
            session=opening,
            by=gm,
            scene_player=absent,
            place="The inn",
            purpose="To meet the contact",
        )

    assert not Scene.objects.exists()


def test_scene_start_master_scene_puts_nobody_on_stage(opening, gm):
    scene = scene_start(
        session=opening,
        by=gm,
        master=True,
        title="Meanwhile",
        place="The inn",
        purpose="To meet the contact",
    )

    assert scene.is_master
    assert _on_stage(scene) == set()


def test_scene_start_from_planned_scene_takes_its_slot_and_text(opening, gm, pc2):
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=opening, by=gm, scenario=scenario)
    planned = PlannedSceneFactory(
        scenario=scenario, title="Docks", place="Pier 3", purpose="Meet Ren", scene_player_slot=2
    )

    scene = scene_start(session=opening, by=gm, planned=planned)

    assert (scene.scene_player, scene.title, scene.place, scene.purpose) == (
        pc2,
        "Docks",
        "Pier 3",
        "Meet Ren",
    )
    assert _on_stage(scene) == {"Ren"}


def test_scene_start_from_planned_master_scene(opening, gm):
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=opening, by=gm, scenario=scenario)
    planned = PlannedSceneFactory(scenario=scenario, scene_player_slot=None)

    scene = scene_start(session=opening, by=gm, planned=planned)

    assert scene.is_master


def test_scene_start_from_planned_scene_of_another_scenario_refused(opening, gm):
    planned = PlannedSceneFactory(scenario=ScenarioFactory(owner=gm))

    with pytest.raises(ValidationError):
        scene_start(session=opening, by=gm, planned=planned)


def test_scene_start_copies_the_profiles_entry_condition(session, gm, pc, pc2):
    _profile(session, entry_condition="cost", entry_cost_resource="HP", entry_cost_amount="2")
    main_play_start(session, gm)

    scene = scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )

    assert (scene.entry_condition, scene.entry_cost_resource, scene.entry_cost_amount) == (
        "cost",
        "HP",
        "2",
    )


def test_scene_start_numbers_scenes_in_order(scene, opening, gm, pc2):
    scene_end(session=opening, by=gm)

    second = scene_start(
        session=opening, by=gm, scene_player=pc2, place="The inn", purpose="To meet the contact"
    )

    assert second.number == 2


# --------------------------------------------------------------------------- scene end


def test_scene_end_clears_the_stage_and_lapses_requests(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    scene_end(session=opening, by=gm)

    scene.refresh_from_db()
    request.refresh_from_db()
    assert scene.status == Scene.Status.ENDED
    assert _on_stage(scene) == set()
    assert request.status == StageRequest.Status.WITHDRAWN


def test_scene_end_backstage_notes_are_gm_only(scene, opening, gm, player):
    scene_end(session=opening, by=gm, backstage_notes="The bell is cracked.")

    (note,) = _events(opening, "backstage_note")
    assert (note.actor, note.visibility, note.payload["text"]) == (
        gm,
        "gm",
        "The bell is cracked.",
    )
    assert "backstage_note" not in _visible_kinds(opening, player)
    assert "scene_ended" in _visible_kinds(opening, player)


def test_scene_end_by_player_refused(scene, opening, player):
    with pytest.raises(PermissionDenied):
        scene_end(session=opening, by=player)

    scene.refresh_from_db()
    assert scene.status == Scene.Status.RUNNING


def test_scene_end_without_running_scene_refused(opening, gm):
    with pytest.raises(ValidationError):
        scene_end(session=opening, by=gm)


# --------------------------------------------------------------------------- after-scene rule


@pytest.fixture
def recovering(session, gm, player, second_player):
    """Four PCs with HP; the profile gives back HP to those who did not appear."""
    _profile(session, after_scene_resource="HP", after_scene_amount="2")
    cast = {}
    for name, owner, current in [
        ("Aki", player, 5),
        ("Ren", second_player, 5),
        ("Mio", player, 9),
        ("Sora", second_player, 4),
    ]:
        cast[name] = cast_member(
            session, owner, name=name, resources={"HP": {"current": current, "max": 10}}
        )
    main_play_start(session, gm)
    return cast


def _hp(character: Character) -> int:
    character.refresh_from_db()
    return character.resources["HP"]["current"]


def test_scene_end_after_scene_rule_touches_exactly_those_who_did_not_appear(
    session, gm, recovering
):
    scene_start(
        session=session,
        by=gm,
        scene_player=recovering["Aki"],
        place="The inn",
        purpose="To meet the contact",
    )
    # Ren appears and leaves before the end: appearing at all is what counts.
    stage_bring_in(session=session, by=gm, character=recovering["Ren"])
    stage_take_out(session=session, by=gm, character=recovering["Ren"])

    scene_end(session=session, by=gm)

    (event,) = _events(session, "after_scene")
    assert {name: _hp(character) for name, character in recovering.items()} == {
        "Aki": 5,
        "Ren": 5,
        "Mio": 10,
        "Sora": 6,
    }
    assert sorted(row["character"] for row in event.payload["rows"]) == ["Mio", "Sora"]
    assert event.actor == gm


def test_scene_end_after_scene_rule_rolls_with_injected_rng(session, gm, recovering):
    session.rules_profile.after_scene_amount = "1D6"
    session.rules_profile.save()
    scene_start(
        session=session,
        by=gm,
        scene_player=recovering["Aki"],
        place="The inn",
        purpose="To meet the contact",
    )

    scene_end(session=session, by=gm, rng=FixedRng(4))

    (event,) = _events(session, "after_scene")
    rows = {row["character"]: row for row in event.payload["rows"]}
    assert (rows["Ren"]["faces"], rows["Ren"]["rolled"], rows["Ren"]["after"]) == ([4], 4, 9)
    assert _hp(recovering["Sora"]) == 8
    assert _hp(recovering["Aki"]) == 5


def test_scene_end_after_scene_rule_rolls_verifiable_dice(session, gm, recovering):
    session.rules_profile.after_scene_amount = "1D6"
    session.rules_profile.save()
    scene_start(
        session=session,
        by=gm,
        scene_player=recovering["Aki"],
        place="The inn",
        purpose="To meet the contact",
    )

    scene_end(session=session, by=gm)

    (event,) = _events(session, "after_scene")
    faces = [face for row in event.payload["rows"] for face in row["faces"]]
    assert len(faces) == 3
    assert verified(session, event) == faces


def test_scene_end_without_after_scene_rule_changes_no_resource(opening, gm, player, pc):
    resting = cast_member(opening, player, name="Mio", resources={"HP": {"current": 1, "max": 9}})
    scene_start(
        session=opening, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )

    scene_end(session=opening, by=gm)

    assert _hp(resting) == 1
    assert not _events(opening, "after_scene")


# --------------------------------------------------------------------------- GM in and out


def test_stage_bring_in_by_gm(scene, opening, gm, pc2):
    stage_bring_in(session=opening, by=gm, character=pc2)

    (entered,) = _events(opening, "character_entered")[1:]
    assert _on_stage(scene) == {"Aki", "Ren"}
    assert (entered.actor, entered.payload["way"]) == (gm, "gm")


def test_stage_bring_in_npc(scene, opening, gm, npc):
    stage_bring_in(session=opening, by=gm, character=npc)

    assert "Librarian" in _on_stage(scene)


def test_stage_bring_in_by_player_refused(scene, opening, second_player, pc2):
    with pytest.raises(PermissionDenied):
        stage_bring_in(session=opening, by=second_player, character=pc2)

    assert _on_stage(scene) == {"Aki"}


def test_stage_bring_in_already_on_stage_refused(scene, opening, gm, pc):
    with pytest.raises(ValidationError):
        stage_bring_in(session=opening, by=gm, character=pc)


def test_stage_bring_in_lapses_the_characters_entry_request(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    stage_bring_in(session=opening, by=gm, character=pc2)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.WITHDRAWN


def test_stage_take_out_mid_scene(scene, opening, gm, pc):
    stage_take_out(session=opening, by=gm, character=pc)

    (exited,) = _events(opening, "character_exited")
    assert _on_stage(scene) == set()
    assert (exited.actor, exited.payload["asked"]) == (gm, False)


def test_stage_take_out_off_stage_refused(scene, opening, gm, pc2):
    with pytest.raises(ValidationError):
        stage_take_out(session=opening, by=gm, character=pc2)


def test_stage_take_out_by_player_refused(scene, opening, player, pc):
    with pytest.raises(PermissionDenied):
        stage_take_out(session=opening, by=player, character=pc)

    assert _on_stage(scene) == {"Aki"}


# --------------------------------------------------------------------------- companions


def test_companion_propose_asks_the_pcs_player(scene, opening, player, pc2):
    request = companion_propose(session=opening, by=player, character=pc2)

    (event,) = _events(opening, "stage_requested")
    assert (request.kind, request.status) == ("companion", "asked")
    assert (event.actor, event.payload["character"]) == (player, "Ren")


def test_companion_propose_npc_goes_straight_to_the_gm(scene, opening, player, npc):
    request = companion_propose(session=opening, by=player, character=npc)

    assert request.status == StageRequest.Status.PENDING


def test_companion_propose_by_other_player_refused(scene, opening, second_player, pc2):
    with pytest.raises(PermissionDenied):
        companion_propose(session=opening, by=second_player, character=pc2)

    assert not StageRequest.objects.exists()


def test_companion_declined_does_not_appear(scene, opening, gm, player, second_player, pc2):
    request = companion_propose(session=opening, by=player, character=pc2)

    companion_answer(session=opening, by=second_player, request_id=request.pk, accept=False)

    request.refresh_from_db()
    (answered,) = _events(opening, "stage_request_answered")
    assert request.status == StageRequest.Status.DECLINED
    assert (answered.actor, answered.payload["status"]) == (second_player, "declined")
    with pytest.raises(ValidationError):
        stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)
    assert _on_stage(scene) == {"Aki"}


def test_companion_accepted_and_allowed_appears(scene, opening, gm, player, second_player, pc2):
    request = companion_propose(session=opening, by=player, character=pc2)
    companion_answer(session=opening, by=second_player, request_id=request.pk, accept=True)

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)

    assert Appearance.objects.get(scene=scene, character=pc2).way == Appearance.Way.COMPANION


def test_companion_answer_for_another_players_pc_refused(scene, opening, gm, player, pc2):
    request = companion_propose(session=opening, by=player, character=pc2)

    for someone in (player, gm):
        with pytest.raises(PermissionDenied):
            companion_answer(session=opening, by=someone, request_id=request.pk, accept=True)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.ASKED


def test_companion_accepted_then_refused_by_gm_does_not_appear(
    scene, opening, gm, player, second_player, pc2
):
    request = companion_propose(session=opening, by=player, character=pc2)
    companion_answer(session=opening, by=second_player, request_id=request.pk, accept=True)

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=False)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.REFUSED
    assert _on_stage(scene) == {"Aki"}


def test_companion_propose_in_master_scene_refused(opening, gm, player, pc2):
    scene_start(session=opening, by=gm, master=True, place="The inn", purpose="To meet the contact")

    with pytest.raises(ValidationError):
        companion_propose(session=opening, by=player, character=pc2)


# --------------------------------------------------------------------------- entry requests


def test_entry_request_allowed_enters_with_events(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)

    request.refresh_from_db()
    # The first "character_entered" is the scene player's, at the start.
    asked, decided, entered = _events(
        opening, "stage_requested", "stage_request_decided", "character_entered"
    )[1:]
    assert (request.status, request.decided_by) == (StageRequest.Status.ALLOWED, gm)
    assert Appearance.objects.get(scene=scene, character=pc2).way == Appearance.Way.ENTRY
    assert (asked.kind, asked.actor) == ("stage_requested", second_player)
    assert (decided.kind, decided.actor, decided.payload["status"]) == (
        "stage_request_decided",
        gm,
        "allowed",
    )
    assert (entered.kind, entered.actor, entered.payload["way"]) == (
        "character_entered",
        gm,
        "entry",
    )


def test_entry_request_refused_does_not_enter(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=False)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.REFUSED
    assert _on_stage(scene) == {"Aki"}


def test_entry_request_approved_by_player_refused(scene, opening, player, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    for someone in (player, second_player):
        with pytest.raises(PermissionDenied):
            stage_request_decide(session=opening, by=someone, request_id=request.pk, allow=True)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.PENDING
    assert _on_stage(scene) == {"Aki"}


def test_entry_request_for_another_players_pc_refused(scene, opening, player, pc2):
    with pytest.raises(PermissionDenied):
        entry_request(session=opening, by=player, character=pc2)

    assert not StageRequest.objects.exists()


def test_entry_request_already_on_stage_refused(scene, opening, player, pc):
    with pytest.raises(ValidationError):
        entry_request(session=opening, by=player, character=pc)


def test_entry_request_twice_refused(scene, opening, second_player, pc2):
    entry_request(session=opening, by=second_player, character=pc2)

    with pytest.raises(ValidationError):
        entry_request(session=opening, by=second_player, character=pc2)

    assert StageRequest.objects.count() == 1


def test_entry_request_without_running_scene_refused(opening, second_player, pc2):
    with pytest.raises(ValidationError):
        entry_request(session=opening, by=second_player, character=pc2)


def test_entry_request_in_master_scene_refused_but_gm_brings_in(opening, gm, second_player, pc2):
    scene = scene_start(
        session=opening, by=gm, master=True, place="The inn", purpose="To meet the contact"
    )

    with pytest.raises(ValidationError):
        entry_request(session=opening, by=second_player, character=pc2)
    stage_bring_in(session=opening, by=gm, character=pc2)

    assert not StageRequest.objects.exists()
    assert _on_stage(scene) == {"Ren"}


def test_stage_request_withdraw_by_requester(scene, opening, gm, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    stage_request_withdraw(session=opening, by=second_player, request_id=request.pk)

    request.refresh_from_db()
    (event,) = _events(opening, "stage_request_withdrawn")
    assert request.status == StageRequest.Status.WITHDRAWN
    assert event.actor == second_player
    with pytest.raises(ValidationError):
        stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)
    assert _on_stage(scene) == {"Aki"}


def test_stage_request_withdraw_by_other_player_refused(scene, opening, player, second_player, pc2):
    request = entry_request(session=opening, by=second_player, character=pc2)

    with pytest.raises(PermissionDenied):
        stage_request_withdraw(session=opening, by=player, request_id=request.pk)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.PENDING


def test_stage_request_decide_of_another_session_refused(scene, opening, gm, second_player, pc2):
    from tests.factories import GameSessionFactory

    request = entry_request(session=opening, by=second_player, character=pc2)
    other = GameSessionFactory(table=opening.table)

    with pytest.raises(ValidationError):
        stage_request_decide(session=other, by=gm, request_id=request.pk, allow=True)


# --------------------------------------------------------------------------- exit requests


def test_exit_request_allowed_leaves_the_stage(scene, opening, gm, player, pc):
    request = exit_request(session=opening, by=player, character=pc)

    stage_request_decide(session=opening, by=gm, request_id=request.pk, allow=True)

    (exited,) = _events(opening, "character_exited")
    assert _on_stage(scene) == set()
    assert exited.payload["asked"] is True


def test_exit_request_for_another_players_pc_refused(scene, opening, second_player, pc):
    with pytest.raises(PermissionDenied):
        exit_request(session=opening, by=second_player, character=pc)


def test_exit_request_off_stage_refused(scene, opening, second_player, pc2):
    with pytest.raises(ValidationError):
        exit_request(session=opening, by=second_player, character=pc2)


# --------------------------------------------------------------------------- entry conditions


@pytest.fixture
def check_scene(session, gm, pc, pc2):
    _profile(
        session,
        entry_condition="check",
        entry_check_value_name="Strength",
        entry_check_difficulty=10,
    )
    main_play_start(session, gm)
    return scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )


def _entry_checked(session, gm, second_player, pc2) -> StageRequest:
    request = entry_request(session=session, by=second_player, character=pc2)
    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)
    request.refresh_from_db()
    return request


def test_entry_check_allowed_asks_the_player_for_the_check(
    check_scene, session, gm, second_player, pc2
):
    request = _entry_checked(session, gm, second_player, pc2)

    check = request.check_request
    assert request.status == StageRequest.Status.CHECKING
    assert (check.character, check.value, check.difficulty, check.for_entry) == (pc2, 3, 10, True)
    assert "Ren" not in _on_stage(check_scene)


def test_entry_check_failed_does_not_enter(check_scene, session, gm, second_player, pc2):
    request = _entry_checked(session, gm, second_player, pc2)

    check_roll(request_id=request.check_request_id, by=second_player, dice=(2, 3))

    request.refresh_from_db()
    (event,) = _events(session, "entry_condition")
    assert request.status == StageRequest.Status.FAILED
    assert (event.payload["met"], event.actor) == (False, second_player)
    assert _on_stage(check_scene) == {"Aki"}


def test_entry_check_passed_enters(check_scene, session, gm, second_player, pc2):
    request = _entry_checked(session, gm, second_player, pc2)

    check_roll(request_id=request.check_request_id, by=second_player, dice=(6, 5))

    request.refresh_from_db()
    assert request.status == StageRequest.Status.ALLOWED
    assert _on_stage(check_scene) == {"Aki", "Ren"}


def test_entry_check_cancelled_when_scene_ends(check_scene, session, gm, second_player, pc2):
    request = _entry_checked(session, gm, second_player, pc2)

    scene_end(session=session, by=gm)

    request.refresh_from_db()
    request.check_request.refresh_from_db()
    assert request.status == StageRequest.Status.WITHDRAWN
    assert request.check_request.status == CheckRequest.Status.CANCELLED


@pytest.fixture
def cost_session(session, gm, player, second_player):
    def make(amount: str, current: int = 3):
        _profile(
            session, entry_condition="cost", entry_cost_resource="HP", entry_cost_amount=amount
        )
        aki = cast_member(session, player, name="Aki")
        ren = cast_member(
            session, second_player, name="Ren", resources={"HP": {"current": current, "max": 10}}
        )
        main_play_start(session, gm)
        scene = scene_start(
            session=session, by=gm, scene_player=aki, place="The inn", purpose="To meet the contact"
        )
        request = entry_request(session=session, by=second_player, character=ren)
        return scene, request, ren

    return make


def test_entry_cost_paid_enters(session, gm, cost_session):
    scene, request, ren = cost_session("2")

    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)

    (event,) = _events(session, "entry_condition")
    assert _hp(ren) == 1
    assert (event.payload["before"], event.payload["after"], event.payload["met"]) == (3, 1, True)
    assert "Ren" in _on_stage(scene)


def test_entry_cost_rolled_with_verifiable_dice(session, gm, cost_session):
    scene, request, ren = cost_session("1D6", current=10)

    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)

    (event,) = _events(session, "entry_condition")
    assert verified(session, event) == event.payload["faces"]
    assert event.payload["rolled"] == event.payload["faces"][0]


def test_entry_cost_too_little_refused_and_nothing_changes(session, gm, cost_session):
    scene, request, ren = cost_session("5")
    events_before = TimelineEvent.objects.count()

    with pytest.raises(ValidationError):
        stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)

    request.refresh_from_db()
    assert (request.status, request.decided_by) == (StageRequest.Status.PENDING, None)
    assert _hp(ren) == 3
    assert _on_stage(scene) == {"Aki"}
    assert TimelineEvent.objects.count() == events_before


def test_entry_cost_rolled_beyond_the_resource_fails_without_paying(session, gm, cost_session):
    scene, request, ren = cost_session("1D6")

    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True, rng=FixedRng(6))

    request.refresh_from_db()
    (event,) = _events(session, "entry_condition")
    assert request.status == StageRequest.Status.FAILED
    assert (event.payload["rolled"], event.payload["met"]) == (6, False)
    assert _hp(ren) == 3
    assert _on_stage(scene) == {"Aki"}


def test_entry_cost_rolled_with_injected_rng_is_paid(session, gm, cost_session):
    scene, request, ren = cost_session("1D6")

    stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True, rng=FixedRng(2))

    assert _hp(ren) == 1
    assert "Ren" in _on_stage(scene)


def test_entry_cost_without_the_resource_refused(session, gm, cost_session):
    scene, request, ren = cost_session("1")
    Character.objects.filter(pk=ren.pk).update(resources={})

    with pytest.raises(ValidationError):
        stage_request_decide(session=session, by=gm, request_id=request.pk, allow=True)

    request.refresh_from_db()
    assert request.status == StageRequest.Status.PENDING


def test_companion_pays_no_entry_cost(session, gm, player, cost_session):
    scene, request, ren = cost_session("2")
    stage_request_withdraw(session=session, by=ren.owner, request_id=request.pk)
    companion = companion_propose(session=session, by=player, character=ren)
    companion_answer(session=session, by=ren.owner, request_id=companion.pk, accept=True)

    stage_request_decide(session=session, by=gm, request_id=companion.pk, allow=True)

    assert _hp(ren) == 3
    assert "Ren" in _on_stage(scene)


# --------------------------------------------------------------------------- no-scene mode


@pytest.fixture
def continuous(session, gm, pc, pc2):
    _profile(session, scenes_enabled=False, after_scene_resource="HP", after_scene_amount="1")
    main_play_start(session, gm)
    return Scene.objects.get(session=session)


def test_no_scene_mode_opens_one_scene_with_the_whole_cast(continuous):
    assert continuous.continuous
    assert (continuous.status, continuous.phase) == ("running", Phase.OPENING)
    assert _on_stage(continuous) == {"Aki", "Ren"}


def test_no_scene_mode_refuses_entry_and_exit_requests(
    continuous, session, player, second_player, pc
):
    late = cast_member(session, second_player, name="Late")

    with pytest.raises(ValidationError):
        entry_request(session=session, by=second_player, character=late)
    with pytest.raises(ValidationError):
        exit_request(session=session, by=player, character=pc)

    assert not StageRequest.objects.exists()


def test_no_scene_mode_refuses_scene_start(continuous, session, gm, pc):
    with pytest.raises(ValidationError):
        scene_start(
            session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
        )


def test_no_scene_mode_scene_ends_at_after_play(continuous, session, gm):
    for phase in ["opening", "middle", "climax", "ending"]:
        phase_advance(session=session, by=gm, from_phase=phase)

    continuous.refresh_from_db()
    assert continuous.status == Scene.Status.ENDED
    assert _on_stage(continuous) == set()
    assert not _events(session, "after_scene")


def test_no_scene_mode_scene_runs_through_the_phases(continuous, session, gm):
    phase_advance(session=session, by=gm, from_phase=Phase.OPENING)

    continuous.refresh_from_db()
    assert continuous.status == Scene.Status.RUNNING


# --------------------------------------------------------------------------- prepared checks


@pytest.fixture
def prepared(opening, gm):
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=opening, by=gm, scenario=scenario)
    opening.refresh_from_db()
    return PreparedCheckFactory(
        planned_scene=PlannedSceneFactory(scenario=scenario),
        label="Hear the bell",
        value_name="Strength",
        difficulty=11,
        secret=True,
    )


def test_prepared_check_fire_uses_the_scenarios_values(scene, opening, gm, pc, prepared):
    request = prepared_check_fire(session=opening, by=gm, prepared=prepared, character=pc)

    assert (request.label, request.value_name, request.value) == ("Hear the bell", "Strength", 3)
    assert (request.difficulty, request.secret, request.character) == (11, True, pc)


def test_prepared_check_fire_off_stage_refused(scene, opening, gm, pc2, prepared):
    with pytest.raises(ValidationError):
        prepared_check_fire(session=opening, by=gm, prepared=prepared, character=pc2)

    assert not CheckRequest.objects.exists()


def test_prepared_check_fire_of_another_scenario_refused(scene, opening, gm, pc):
    foreign = PreparedCheckFactory(planned_scene=PlannedSceneFactory(scenario=ScenarioFactory()))

    with pytest.raises(ValidationError):
        prepared_check_fire(session=opening, by=gm, prepared=foreign, character=pc)


def test_prepared_check_fire_by_player_refused(scene, opening, player, pc, prepared):
    with pytest.raises(PermissionDenied):
        prepared_check_fire(session=opening, by=player, prepared=prepared, character=pc)


# --------------------------------------------------------------------------- who may speak


def test_chat_in_character_for_own_pc_on_stage(scene, opening, player, pc):
    event = chat_post(session=opening, by=player, text="Ring!", mode="ic", character=pc)

    assert event.payload == {
        "text": "Ring!",
        "mode": "ic",
        "character": "Aki",
        "character_id": pc.pk,
    }


def test_chat_in_character_off_stage_refused(scene, opening, second_player, pc2):
    with pytest.raises(ValidationError):
        chat_post(session=opening, by=second_player, text="Hi", mode="ic", character=pc2)

    assert not _events(opening, "chat")


def test_chat_in_character_as_another_players_pc_refused(scene, opening, second_player, pc):
    with pytest.raises(PermissionDenied):
        chat_post(session=opening, by=second_player, text="Hi", mode="ic", character=pc)


def test_chat_in_character_gm_cannot_speak_as_a_pc(scene, opening, gm, pc):
    with pytest.raises(PermissionDenied):
        chat_post(session=opening, by=gm, text="Hi", mode="ic", character=pc)


def test_chat_in_character_gm_speaks_as_npc_on_stage(scene, opening, gm, npc):
    stage_bring_in(session=opening, by=gm, character=npc)

    event = chat_post(session=opening, by=gm, text="Quiet!", mode="ic", character=npc)

    assert (event.actor, event.payload["character"]) == (gm, "Librarian")


def test_chat_in_character_npc_off_stage_refused(scene, opening, gm, npc):
    with pytest.raises(ValidationError):
        chat_post(session=opening, by=gm, text="Quiet!", mode="ic", character=npc)


def test_chat_in_character_without_character_refused(scene, opening, player):
    with pytest.raises(ValidationError):
        chat_post(session=opening, by=player, text="Hi", mode="ic")


def test_chat_narration_by_gm(opening, gm):
    event = chat_post(session=opening, by=gm, text="Night falls.", mode="narration")

    assert (event.payload["mode"], event.visibility) == ("narration", "everyone")


def test_chat_narration_by_player_refused(opening, player):
    with pytest.raises(PermissionDenied):
        chat_post(session=opening, by=player, text="Night falls.", mode="narration")

    assert not _events(opening, "chat")


def test_chat_unknown_mode_refused(opening, player):
    with pytest.raises(ValidationError):
        chat_post(session=opening, by=player, text="Hi", mode="shout")


def test_chat_whisper_from_gm_reaches_only_that_player(opening, gm, player, second_player):
    event = chat_post(session=opening, by=gm, text="psst", mode="whisper", to=player)

    assert list(event.audience.all()) == [player]
    assert "whisper" in _visible_kinds(opening, player)
    assert "whisper" in _visible_kinds(opening, gm, is_gm=True)
    assert "whisper" not in _visible_kinds(opening, second_player)


def test_chat_whisper_from_player_reaches_only_the_gm(opening, gm, player, second_player):
    event = chat_post(session=opening, by=second_player, text="psst", mode="whisper")

    assert event.payload["to_gm"] is True
    assert "whisper" in _visible_kinds(opening, gm, is_gm=True)
    assert "whisper" not in _visible_kinds(opening, player)


def test_chat_whisper_from_gm_needs_a_player(opening, gm, outsider):
    for to in (None, gm, outsider):
        with pytest.raises(ValidationError):
            chat_post(session=opening, by=gm, text="psst", mode="whisper", to=to)

    assert not _events(opening, "whisper")


def test_entry_check_cancelled_when_gm_brings_the_character_in(
    check_scene, session, gm, second_player, pc2
):
    request = _entry_checked(session, gm, second_player, pc2)

    stage_bring_in(session=session, by=gm, character=pc2)

    request.refresh_from_db()
    request.check_request.refresh_from_db()
    assert request.status == StageRequest.Status.WITHDRAWN
    assert request.check_request.status == CheckRequest.Status.CANCELLED
    assert Appearance.objects.filter(scene=check_scene, character=pc2).count() == 1


# ------------------------------------------------- scenes say where and why (seed 003)


def test_scene_start_without_a_place_is_refused(opening, gm, pc):
    with pytest.raises(ValidationError) as refused:
        scene_start(session=opening, by=gm, scene_player=pc, place="  ", purpose="Find the bell")

    assert "Say where the scene takes place" in refused.value.message_dict["place"][0]
    assert not Scene.objects.exists()


def test_scene_start_without_a_purpose_is_refused(opening, gm, pc):
    with pytest.raises(ValidationError) as refused:
        scene_start(session=opening, by=gm, master=True, place="Tower")

    assert "Say what the scene is for" in refused.value.message_dict["purpose"][0]
    assert not _events(opening, "scene_started")


def test_scene_start_from_a_planned_scene_without_a_place_asks_for_one(opening, gm):
    scenario = ScenarioFactory(owner=gm)
    session_scenario_set(session=opening, by=gm, scenario=scenario)
    planned = PlannedSceneFactory(scenario=scenario, scene_player_slot=None, place="")

    with pytest.raises(ValidationError):
        scene_start(session=opening, by=gm, planned=planned)
    scene = scene_start(session=opening, by=gm, planned=planned, place="The crypt")

    assert (scene.place, scene.purpose) == ("The crypt", "Find the letter")
