"""The stage endpoint, the chat's voices and the "show earlier lines" endpoint over HTTP."""

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.models import Appearance, GameSession, Scene, StageRequest, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.play import phase_advance
from sessions_app.services.scenes import stage_take_out
from tests.clients import signed_in_client as _client
from tests.factories import (
    CharacterFactory,
    MembershipFactory,
    PlannedSceneFactory,
    PreparedCheckFactory,
    ScenarioFactory,
    UserFactory,
    scene_started,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


# The pc fixture's Aki (tests/sessions_app/conftest.py) takes part without a PC slot.
pytestmark = pytest.mark.pc_fields(slot=None)


@pytest.fixture
def other_pc(session):
    other = UserFactory(username="ren")
    MembershipFactory(table=session.table, user=other)
    character = CharacterFactory(table=session.table, owner=other, name="Ren")
    session.characters.add(character)
    return character


def _stage(client, session, **data):
    return client.post(reverse("stage_action", args=[session.pk]), data, **HTMX)


def _gm_starts_a_scene(session, gm, **fields):
    """The GM starts a scene from the room's stage with `fields`: the answer."""
    return _stage(_client(gm), session, action="scene_start", **fields)


@pytest.fixture
def scene_running(session, gm, pc):
    return scene_started(
        session, gm, scene_player=pc, title="Letter", place="The inn", purpose="To meet the contact"
    )


def test_stage_action_gm_starts_main_play(session, gm, player_membership):
    response = _stage(_client(gm), session, action="phase_advance", from_phase="preplay")

    assert response["X-Action-Ok"] == "1"
    assert "The session moved on." in response.content.decode()
    session.refresh_from_db()
    assert session.phase == "opening"


def test_stage_action_player_cannot_start_main_play(session, player, player_membership):
    response = _stage(_client(player), session, action="phase_advance", from_phase="preplay")

    assert response["X-Action-Ok"] == "0"
    assert "Only the GM" in response.content.decode()
    assert GameSession.objects.get(pk=session.pk).phase == "preplay"


def test_stage_action_unknown_action_refused(session, gm):
    response = _stage(_client(gm), session, action="explode")

    assert response["X-Action-Ok"] == "0"
    assert "Unknown action." in response.content.decode()


def test_stage_action_without_htmx_redirects_or_explains(session, gm, player, player_membership):
    ok = _client(gm).post(
        reverse("stage_action", args=[session.pk]),
        {"action": "phase_advance", "from_phase": "preplay"},
    )
    refused = _client(player).post(
        reverse("stage_action", args=[session.pk]),
        {"action": "phase_advance", "from_phase": "opening"},
    )

    assert ok.status_code == 302
    assert refused.status_code == 400
    assert "Only the GM" in refused.content.decode()


def test_stage_action_character_of_another_table_refused(session, gm, scene_running):
    stranger = CharacterFactory(name="Stranger")

    response = _stage(_client(gm), session, action="bring_in", character=stranger.pk)

    assert "not at this table" in response.content.decode()
    assert not Appearance.objects.filter(character=stranger).exists()


def test_stage_action_player_cannot_ask_entry_for_another_players_pc(
    session, player, player_membership, scene_running, other_pc
):
    response = _stage(_client(player), session, action="entry_request", character=other_pc.pk)

    assert response["X-Action-Ok"] == "0"
    assert not StageRequest.objects.exists()


def test_stage_action_companion_flow(
    session, gm, player, player_membership, scene_running, other_pc
):
    _stage(_client(player), session, action="companion_propose", character=other_pc.pk)
    request = StageRequest.objects.get()
    _stage(
        _client(other_pc.owner), session, action="companion_answer", request=request.pk, accept="1"
    )
    response = _stage(_client(gm), session, action="decide", request=request.pk, allow="1")

    assert "Allowed." in response.content.decode()
    assert Appearance.objects.filter(
        scene=scene_running, character=other_pc, exited_at__isnull=True
    ).exists()


def test_stage_action_prepared_check_of_another_scenario_refused(session, gm, scene_running, pc):
    from sessions_app.models import PlannedScene, PreparedCheck, Scenario

    foreign = Scenario.objects.create(owner=UserFactory(), title="Not yours")
    planned = PlannedScene.objects.create(scenario=foreign, title="Elsewhere")
    prepared = PreparedCheck.objects.create(planned_scene=planned, label="Peek", value_name="X")

    response = _stage(
        _client(gm), session, action="prepared_check", prepared=prepared.pk, character=pc.pk
    )

    assert "not part of this session" in response.content.decode()


def test_room_shows_stage_to_player(session, player, player_membership, scene_running):
    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert 'id="stage"' in page
    assert "Scene player: Aki" in page
    assert 'aria-current="step"' in page


def test_chat_in_character_for_own_pc_on_stage(
    session, player, player_membership, scene_running, pc
):
    _client(player).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "I open the letter.", "say_as": f"ic:{pc.pk}"},
        **HTMX,
    )

    event = TimelineEvent.objects.get(kind="chat")
    assert event.payload == {
        "text": "I open the letter.",
        "mode": "ic",
        "character": "Aki",
        "character_id": pc.pk,
    }


def test_chat_in_character_for_off_stage_pc_refused(
    session, gm, player, player_membership, scene_running, pc
):
    stage_take_out(session=session, by=gm, character=pc)

    response = _client(player).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "Wait for me!", "say_as": f"ic:{pc.pk}"},
        **HTMX,
    )

    assert "not on stage" in response.content.decode()
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_gm_whispers_to_one_player(session, gm, player, player_membership, other_pc):
    _client(gm).post(
        reverse("chat_post", args=[session.pk]),
        {"text": "The letter is forged.", "say_as": f"whisper:{player.pk}"},
        **HTMX,
    )

    event = TimelineEvent.objects.get(kind="whisper")
    assert event.visibility == "users"
    assert list(event.audience.all()) == [player]
    other_page = _client(other_pc.owner).get(reverse("session_room", args=[session.pk]))
    assert "The letter is forged." not in other_page.content.decode()
    assert "The letter is forged." in (
        _client(player).get(reverse("session_room", args=[session.pk])).content.decode()
    )


def test_chat_malformed_voice_refused(session, player, player_membership):
    response = _client(player).post(
        reverse("chat_post", args=[session.pk]), {"text": "hi", "say_as": "ic:abc"}, **HTMX
    )

    assert "Choose how to say it." in response.content.decode()
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_room_shows_latest_lines_and_offers_earlier(session, gm, player, player_membership):
    for number in range(1, 46):
        chat_post(session=session, by=gm, text=f"Line {number:02d}")
    client = _client(player)

    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    oldest_shown = TimelineEvent.objects.order_by("-seq")[39].seq
    earlier = client.get(
        reverse("earlier_events", args=[session.pk]), {"before": oldest_shown}, **HTMX
    ).content.decode()

    assert "Line 45" in page and "Line 06" in page and "Line 05" not in page
    assert "Show earlier lines" in page
    assert "Line 05" in earlier and "Line 01" in earlier and "Line 06" not in earlier
    assert "Show earlier lines" not in earlier


def test_earlier_events_hide_what_the_player_may_not_see(session, gm, player, player_membership):
    chat_post(session=session, by=gm, text="Secret plan", gm_only=True)
    chat_post(session=session, by=gm, text="Hello all")
    last = GameSession.objects.get(pk=session.pk).last_seq + 1

    earlier = (
        _client(player)
        .get(reverse("earlier_events", args=[session.pk]), {"before": last}, **HTMX)
        .content.decode()
    )

    assert "Hello all" in earlier
    assert "Secret plan" not in earlier


def test_scene_end_through_stage_keeps_notes_gm_only(
    session, gm, player, player_membership, scene_running
):
    _stage(_client(gm), session, action="scene_end", notes="The villain moves.")

    assert Scene.objects.get().status == "ended"
    player_page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()
    gm_page = _client(gm).get(reverse("session_room", args=[session.pk])).content.decode()
    assert "The villain moves." not in player_page
    assert "The villain moves." in gm_page


def test_stage_after_using_a_scenario_shows_scenario_chosen_ticked(session, gm):
    scenario = ScenarioFactory(owner=gm, title="The Drowned Bell")

    client = _client(gm)
    _stage(client, session, action="scenario_set", scenario=scenario.pk)

    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    ticked = '<li class="is-done"><span class="tick" aria-hidden="true">✓</span> Scenario chosen'
    assert ticked in page
    assert "in the app: “The Drowned Bell”" in page


def test_prepared_checks_show_the_value_name_in_the_readers_language(session, gm):
    scenario = ScenarioFactory(owner=gm, title="The Drowned Bell")
    planned = PlannedSceneFactory(scenario=scenario, title="The belfry")
    PreparedCheckFactory(planned_scene=planned, label="Hear the bell", value_name="Senses")
    client = Client(headers={"accept-language": "ja"})
    client.force_login(gm)
    _stage(client, session, action="scenario_set", scenario=scenario.pk)

    page = client.get(reverse("session_room", args=[session.pk])).content.decode()

    checks = page.split('class="item-list prepared-checks"', 1)[1].split("</ul>", 1)[0]
    assert "Hear the bell" in checks
    assert "感覚" in checks
    assert "Senses" not in checks


# ------------------------------------------------- scenes say where and why (seed 003)


@pytest.fixture
def opening_with_scenario(session, gm, pc):
    scenario = ScenarioFactory(owner=gm, title="The Drowned Bell")
    planned = PlannedSceneFactory(
        scenario=scenario, title="The belfry", place="Bell tower", purpose="Hear the bell"
    )
    _stage(_client(gm), session, action="scenario_set", scenario=scenario.pk)
    _stage(_client(gm), session, action="slot_assign", character=pc.pk, slot=1)
    phase_advance(session=session, by=gm, from_phase="preplay")
    return planned


def test_scene_start_without_place_or_purpose_is_refused_with_a_message(session, gm, pc):
    phase_advance(session=session, by=gm, from_phase="preplay")

    response = _gm_starts_a_scene(session, gm, scene_player=pc.pk, place=" ", purpose="")

    text = response.content.decode()
    assert "Say where the scene takes place" in text
    assert "Say what the scene is for" in text
    assert not Scene.objects.exists()
    assert not TimelineEvent.objects.filter(kind="scene_started").exists()


def test_scene_start_shows_place_and_purpose_to_everyone_before_anyone_enters(
    session, gm, player, pc, other_pc
):
    phase_advance(session=session, by=gm, from_phase="preplay")
    _gm_starts_a_scene(
        session,
        gm,
        scene_player=pc.pk,
        place="Harbour",
        purpose="Meet the smuggler",
    )
    ren = UserFactory._meta.model.objects.get(username="ren")

    for user in (gm, player, ren):
        page = _client(user).get(reverse("session_room", args=[session.pk])).content.decode()
        stage = page.split('class="scene-card', 1)[1].split("</div>", 1)[0]
        line = page.split('class="event-text scene-start"', 1)[1].split("</span>", 1)[0]
        for text in (stage, line):
            assert "Harbour" in text and "Meet the smuggler" in text


def test_scene_start_from_a_planned_scene_offers_its_place_and_purpose(
    session, gm, opening_with_scenario
):
    page = _client(gm).get(reverse("session_room", args=[session.pk])).content.decode()

    assert 'data-place="Bell tower" data-purpose="Hear the bell"' in page


def test_scene_start_from_a_planned_scene_takes_the_gm_s_edits(
    session, gm, pc, opening_with_scenario
):
    _gm_starts_a_scene(
        session,
        gm,
        planned=opening_with_scenario.pk,
        place="Bell tower, at night",
        purpose="",
    )

    scene = Scene.objects.get()
    assert (scene.place, scene.purpose) == ("Bell tower, at night", "Hear the bell")


def test_planned_scene_played_is_marked_as_played_in_the_gm_s_list(
    session, gm, pc, opening_with_scenario
):
    client = _client(gm)
    before = client.get(reverse("session_room", args=[session.pk])).content.decode()
    _stage(client, session, action="scene_start", planned=opening_with_scenario.pk)
    _stage(client, session, action="scene_end")

    after = client.get(reverse("session_room", args=[session.pk])).content.decode()

    option = after.split('data-title="The belfry"', 1)[1].split("</option>")[0]
    assert "Opening: The belfry (PC1) — played" in " ".join(option.split())
    assert "— played" not in before
