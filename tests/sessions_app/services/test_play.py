"""Pre-play and the run of a session: scenario, checklist, order, introductions, phases,
handouts and slots."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from sessions_app.models import (
    Character,
    HandoutReveal,
    Participation,
    Phase,
    Scene,
    TimelineEvent,
)
from sessions_app.selectors.play import PREPARATION_ITEMS, preparation_state, preplay_warnings
from sessions_app.selectors.scenes import handouts_for
from sessions_app.selectors.timeline import visible_events
from sessions_app.services.play import (
    handout_reveal,
    intro_present,
    phase_advance,
    player_order_move,
    preparation_tick,
    session_scenario_set,
    sheet_review,
    slot_assign,
)
from sessions_app.services.scenes import scene_start
from tests.factories import (
    HandoutFactory,
    ScenarioFactory,
    ScenarioNpcFactory,
    UserFactory,
    cast_member,
    main_play_start,
)


@pytest.fixture
def scenario(gm):
    return ScenarioFactory(owner=gm, title="The Drowned Bell")


def _visible_kinds(session, user, is_gm=False) -> list[str]:
    return [event.kind for event in visible_events(session_id=session.pk, user=user, is_gm=is_gm)]


def _last_event(session) -> TimelineEvent:
    return TimelineEvent.objects.filter(session=session).order_by("-seq").first()


# --------------------------------------------------------------------------- scenario


def test_session_scenario_set_by_gm_adds_npcs_and_tells_only_the_gm(session, gm, scenario):
    ScenarioNpcFactory(scenario=scenario, name="Bell-ringer", judgement_values={"Wits": 4})

    session_scenario_set(session=session, by=gm, scenario=scenario)

    session.refresh_from_db()
    npc = Character.objects.get(table=session.table, name="Bell-ringer")
    event = _last_event(session)
    assert session.scenario == scenario
    assert (npc.kind, npc.owner, npc.judgement_values) == ("npc", gm, {"Wits": 4})
    assert (event.kind, event.actor, event.visibility) == ("scenario_chosen", gm, "gm")


def test_session_scenario_set_twice_does_not_duplicate_npcs(session, gm, scenario):
    ScenarioNpcFactory(scenario=scenario, name="Bell-ringer")

    session_scenario_set(session=session, by=gm, scenario=scenario)
    session_scenario_set(session=session, by=gm, scenario=scenario)

    assert Character.objects.filter(table=session.table, name="Bell-ringer").count() == 1


def test_session_scenario_set_by_player_refused(session, player, scenario):
    with pytest.raises(PermissionDenied):
        session_scenario_set(session=session, by=player, scenario=scenario)

    session.refresh_from_db()
    assert session.scenario is None


def test_session_scenario_set_someone_elses_scenario_refused(session, gm):
    foreign = ScenarioFactory(owner=UserFactory(username="other-gm"))

    with pytest.raises(PermissionDenied):
        session_scenario_set(session=session, by=gm, scenario=foreign)

    session.refresh_from_db()
    assert session.scenario is None


# --------------------------------------------------------------------------- preparation


def test_preparation_tick_records_item_in_gm_only_event(session, gm):
    preparation_tick(session=session, by=gm, item="rulebook", done=True)

    session.refresh_from_db()
    event = _last_event(session)
    assert session.preparation == {"rulebook": True}
    assert (event.kind, event.actor, event.visibility) == ("preparation_ticked", gm, "gm")


def test_preparation_tick_unknown_item_refused(session, gm):
    with pytest.raises(ValidationError):
        preparation_tick(session=session, by=gm, item="snacks", done=True)

    session.refresh_from_db()
    assert session.preparation == {}


def test_preparation_tick_by_player_refused(session, player):
    with pytest.raises(PermissionDenied):
        preparation_tick(session=session, by=player, item="rulebook", done=True)


def test_choosing_a_scenario_marks_the_scenario_chosen(session, gm, scenario):
    session_scenario_set(session=session, by=gm, scenario=scenario)

    session.refresh_from_db()
    assert preparation_state(session=session)["scenario"] is True
    assert "no scenario is marked as chosen" not in preplay_warnings(session=session)


def test_choosing_no_scenario_leaves_the_scenario_unchosen(session, gm, scenario):
    session_scenario_set(session=session, by=gm, scenario=scenario)
    session_scenario_set(session=session, by=gm, scenario=None)

    session.refresh_from_db()
    assert preparation_state(session=session)["scenario"] is False


def test_ticking_scenario_chosen_without_one_in_the_app_counts(session, gm):
    preparation_tick(session=session, by=gm, item="scenario", done=True)

    session.refresh_from_db()
    assert preparation_state(session=session)["scenario"] is True


def test_unticking_scenario_chosen_while_one_is_chosen_refused(session, gm, scenario):
    session_scenario_set(session=session, by=gm, scenario=scenario)
    preparation_tick(session=session, by=gm, item="scenario", done=True)
    before = TimelineEvent.objects.filter(session=session).count()

    with pytest.raises(ValidationError):
        preparation_tick(session=session, by=gm, item="scenario", done=False)

    session.refresh_from_db()
    assert session.preparation == {"scenario": True}
    assert TimelineEvent.objects.filter(session=session).count() == before


# --------------------------------------------------------------------------- sheet review


def test_sheet_review_ok_marks_checked_for_everyone(session, gm, pc):
    sheet_review(session=session, by=gm, character=pc, ok=True)

    row = Participation.objects.get(session=session, character=pc)
    event = _last_event(session)
    assert row.sheet_status == Participation.SheetStatus.CHECKED
    assert (event.kind, event.actor, event.visibility) == ("sheet_checked", gm, "everyone")


def test_sheet_review_returned_comment_only_for_that_player_and_gm(
    session, gm, player, second_player, pc
):
    sheet_review(session=session, by=gm, character=pc, ok=False, comment="No HP")

    row = Participation.objects.get(session=session, character=pc)
    assert (row.sheet_status, row.sheet_comment) == ("returned", "No HP")
    assert "sheet_returned" in _visible_kinds(session, player)
    assert "sheet_returned" in _visible_kinds(session, gm, is_gm=True)
    assert "sheet_returned" not in _visible_kinds(session, second_player)


def test_sheet_review_return_without_comment_refused(session, gm, pc):
    with pytest.raises(ValidationError):
        sheet_review(session=session, by=gm, character=pc, ok=False, comment="  ")

    assert Participation.objects.get(character=pc).sheet_status == "unchecked"


def test_sheet_review_by_player_refused(session, player, pc):
    with pytest.raises(PermissionDenied):
        sheet_review(session=session, by=player, character=pc, ok=True)

    assert Participation.objects.get(character=pc).sheet_status == "unchecked"


def test_sheet_review_character_not_taking_part_refused(session, gm, player):
    from tests.factories import CharacterFactory

    absent = CharacterFactory(table=session.table, owner=player)

    with pytest.raises(ValidationError):
        sheet_review(session=session, by=gm, character=absent, ok=True)


# --------------------------------------------------------------------------- player order


def test_player_order_move_swaps_and_records_event(session, gm, player, second_player):
    order = player_order_move(session=session, by=gm, user_id=second_player.pk, offset=-1)

    session.refresh_from_db()
    event = _last_event(session)
    assert order == session.player_order == [second_player.pk, player.pk]
    assert (event.kind, event.actor) == ("player_order_changed", gm)
    assert event.payload["players"] == ["ren", "player"]


def test_player_order_move_past_the_end_changes_nothing(session, gm, player, second_player):
    order = player_order_move(session=session, by=gm, user_id=player.pk, offset=-1)

    session.refresh_from_db()
    assert order == [player.pk, second_player.pk]
    assert session.player_order == []
    assert not TimelineEvent.objects.filter(kind="player_order_changed").exists()


def test_player_order_move_more_than_one_place_refused(session, gm, player, second_player):
    with pytest.raises(ValidationError):
        player_order_move(session=session, by=gm, user_id=player.pk, offset=2)


def test_player_order_move_gm_is_not_in_the_order(session, gm, player):
    with pytest.raises(ValidationError):
        player_order_move(session=session, by=gm, user_id=gm.pk, offset=1)


def test_player_order_move_by_player_refused(session, player, second_player):
    with pytest.raises(PermissionDenied):
        player_order_move(session=session, by=player, user_id=player.pk, offset=1)


# --------------------------------------------------------------------------- introductions


def test_intro_present_by_owner_records_text(session, player, pc):
    intro_present(session=session, by=player, character=pc, text="A bell-maker's son.")

    row = Participation.objects.get(character=pc)
    event = _last_event(session)
    assert (row.intro, row.intro_done) == ("A bell-maker's son.", True)
    assert (event.kind, event.actor) == ("self_introduction", player)


def test_intro_present_for_another_players_pc_refused(session, second_player, pc):
    with pytest.raises(PermissionDenied):
        intro_present(session=session, by=second_player, character=pc, text="Hijack")

    assert Participation.objects.get(character=pc).intro_done is False


def test_intro_present_gm_marks_done_without_text(session, gm, pc):
    intro_present(session=session, by=gm, character=pc, text="")

    assert Participation.objects.get(character=pc).intro_done is True


def test_intro_present_empty_text_by_player_refused(session, player, pc):
    with pytest.raises(ValidationError):
        intro_present(session=session, by=player, character=pc, text="   ")


def test_intro_present_too_long_refused(session, player, pc):
    with pytest.raises(ValidationError):
        intro_present(session=session, by=player, character=pc, text="x" * 4001)


def test_intro_present_by_outsider_refused(session, outsider, pc):
    with pytest.raises(PermissionDenied):
        intro_present(session=session, by=outsider, character=pc, text="Hello")


# --------------------------------------------------------------------------- warnings


def test_preplay_warnings_name_what_is_left(session, pc):
    warnings = preplay_warnings(session=session)

    assert "the rulebook is not marked as read" in warnings
    assert "Aki's sheet is not checked" in warnings
    assert "Aki has not been introduced" in warnings


def test_preplay_warnings_empty_when_all_done(session, gm, pc):
    for item in PREPARATION_ITEMS:
        preparation_tick(session=session, by=gm, item=item, done=True)
    sheet_review(session=session, by=gm, character=pc, ok=True)
    intro_present(session=session, by=gm, character=pc, text="")
    session.refresh_from_db()

    assert preplay_warnings(session=session) == []


def test_preplay_warnings_no_cast(session):
    assert "no PC is taking part yet" in preplay_warnings(session=session)


# --------------------------------------------------------------------------- phases


def test_phase_advance_from_preplay_opens_main_play(session, gm):
    following = phase_advance(session=session, by=gm, from_phase=Phase.PRE_PLAY)

    session.refresh_from_db()
    event = _last_event(session)
    assert following == session.phase == Phase.OPENING
    assert (event.kind, event.actor, event.payload) == (
        "phase_changed",
        gm,
        {"from": "preplay", "to": "opening"},
    )


def test_phase_advance_stale_from_phase_refused(session, gm):
    main_play_start(session, gm)

    with pytest.raises(ValidationError):
        phase_advance(session=session, by=gm, from_phase=Phase.PRE_PLAY)

    session.refresh_from_db()
    assert session.phase == Phase.OPENING
    assert TimelineEvent.objects.filter(kind="phase_changed").count() == 1


def test_phase_advance_with_scene_running_refused(session, gm, pc):
    main_play_start(session, gm)
    scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )

    with pytest.raises(ValidationError):
        phase_advance(session=session, by=gm, from_phase=Phase.OPENING)

    session.refresh_from_db()
    assert session.phase == Phase.OPENING


def test_phase_advance_stops_at_after_play(session, gm):
    for phase in ["preplay", "opening", "middle", "climax", "ending"]:
        phase_advance(session=session, by=gm, from_phase=phase)

    with pytest.raises(ValidationError):
        phase_advance(session=session, by=gm, from_phase=Phase.AFTER_PLAY)

    session.refresh_from_db()
    assert session.phase == Phase.AFTER_PLAY


def test_phase_advance_by_player_refused(session, player):
    with pytest.raises(PermissionDenied):
        phase_advance(session=session, by=player, from_phase=Phase.PRE_PLAY)

    session.refresh_from_db()
    assert session.phase == Phase.PRE_PLAY


# --------------------------------------------------------------------------- handouts


@pytest.fixture
def running_scenario(session, gm, scenario):
    session_scenario_set(session=session, by=gm, scenario=scenario)
    session.refresh_from_db()
    return scenario


def test_handout_reveal_for_slot_goes_only_to_that_slots_player(
    session, gm, player, second_player, pc, pc2, running_scenario
):
    handout = HandoutFactory(scenario=running_scenario, slot=1, body="Your father rang it.")

    reveal = handout_reveal(session=session, by=gm, handout=handout)

    assert list(reveal.readers.all()) == [player]
    assert "handout_revealed" in _visible_kinds(session, player)
    assert "handout_revealed" not in _visible_kinds(session, second_player)
    assert handouts_for(session=session, user=player, is_gm=False) == [reveal]
    assert handouts_for(session=session, user=second_player, is_gm=False) == []
    assert handouts_for(session=session, user=gm, is_gm=True) == [reveal]


def test_handout_reveal_without_slot_goes_to_everyone(
    session, gm, second_player, pc, running_scenario
):
    handout = HandoutFactory(scenario=running_scenario, slot=None)

    reveal = handout_reveal(session=session, by=gm, handout=handout)

    event = _last_event(session)
    assert (event.kind, event.actor, event.visibility) == ("handout_revealed", gm, "everyone")
    assert handouts_for(session=session, user=second_player, is_gm=False) == [reveal]


def test_handout_reveal_shows_its_markdown_in_the_players_room(
    client, session, gm, player, pc, running_scenario
):
    handout = HandoutFactory(scenario=running_scenario, slot=1, body="Ask the **Keeper**.")
    handout_reveal(session=session, by=gm, handout=handout)

    client.force_login(player)
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()

    # In the player's handouts and in the timeline's line alike.
    assert page.count("<strong>Keeper</strong>") == 2
    assert "**Keeper**" not in page


def test_handout_reveal_twice_refused(session, gm, pc, running_scenario):
    handout = HandoutFactory(scenario=running_scenario, slot=1)
    handout_reveal(session=session, by=gm, handout=handout)

    with pytest.raises(ValidationError):
        handout_reveal(session=session, by=gm, handout=handout)

    assert HandoutReveal.objects.count() == 1


def test_handout_reveal_of_another_scenario_refused(session, gm, running_scenario):
    foreign = HandoutFactory(scenario=ScenarioFactory(owner=gm))

    with pytest.raises(ValidationError):
        handout_reveal(session=session, by=gm, handout=foreign)

    assert not HandoutReveal.objects.exists()


def test_handout_reveal_for_unplayed_slot_refused(session, gm, pc, running_scenario):
    handout = HandoutFactory(scenario=running_scenario, slot=3)

    with pytest.raises(ValidationError):
        handout_reveal(session=session, by=gm, handout=handout)

    assert not HandoutReveal.objects.exists()


def test_handout_reveal_by_player_refused(session, player, pc, running_scenario):
    handout = HandoutFactory(scenario=running_scenario, slot=1)

    with pytest.raises(PermissionDenied):
        handout_reveal(session=session, by=player, handout=handout)

    assert not HandoutReveal.objects.exists()


# --------------------------------------------------------------------------- slots


def test_slot_assign_sets_slot_and_records_event(session, gm, player):
    character = cast_member(session, player, name="Mio")

    slot_assign(session=session, by=gm, character=character, slot=3)

    event = _last_event(session)
    assert Participation.objects.get(character=character).slot == 3
    assert (event.kind, event.actor, event.payload) == (
        "slot_assigned",
        gm,
        {"character": "Mio", "slot": 3},
    )


def test_slot_assign_taken_slot_refused(session, gm, pc, pc2):
    with pytest.raises(ValidationError):
        slot_assign(session=session, by=gm, character=pc2, slot=1)

    assert Participation.objects.get(character=pc2).slot == 2


def test_slot_assign_out_of_range_refused(session, gm, pc):
    with pytest.raises(ValidationError):
        slot_assign(session=session, by=gm, character=pc, slot=13)


def test_slot_assign_by_player_refused(session, player, pc):
    with pytest.raises(PermissionDenied):
        slot_assign(session=session, by=player, character=pc, slot=4)


def test_phase_advance_in_scene_mode_starts_no_scene(session, gm):
    main_play_start(session, gm)

    assert not Scene.objects.filter(session=session).exists()
