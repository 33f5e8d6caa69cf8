"""The standing pictures (立ち絵): who stands on the stage, with which face, who in front; the
same for every viewer, and pushed live once per language when someone speaks."""

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.live import render
from sessions_app.models import Character, TimelineEvent
from sessions_app.presenters.live import GM, PLAYERS, SPECTATORS
from sessions_app.presenters.stage import standing_context
from sessions_app.services.chat import chat_post
from sessions_app.services.faces import face_add, face_delete
from sessions_app.services.scenes import stage_take_out
from sessions_app.services.spectators import spectator_enter, spectators_allow
from sessions_app.services.timeline import presence_enter
from tests.factories import CharacterFactory, cast_member, on_stage
from tests.pictures import picture_bytes
from tests.sessions_app.presenters.test_panels import _Elements, _page, _same


@pytest.fixture
def pair_on_stage(session, gm, player):
    """Aki (a PC with a portrait and a smile) and a clerk NPC with a portrait, on stage."""
    aki = cast_member(session, player, name="Aki")
    face_add(character=aki, by=player, data=picture_bytes("PNG"), label="calm")
    smile = face_add(character=aki, by=player, data=picture_bytes("PNG"), label="smile")
    clerk = CharacterFactory(table=session.table, owner=gm, name="Clerk", kind=Character.Kind.NPC)
    face_add(character=clerk, by=gm, data=picture_bytes("PNG"), label="stern")
    on_stage(session, gm, aki, clerk)
    session.refresh_from_db()
    return session, aki, clerk, smile


def _figures(session):
    return standing_context(session)["standing"]


def _said(session, by, character, text, **options):
    return chat_post(session=session, by=by, text=text, mode="ic", character=character, **options)


@pytest.mark.django_db
def test_standing_shows_portraits_in_order_of_entrance_before_anyone_speaks(pair_on_stage):
    session, aki, clerk, _smile = pair_on_stage

    figures = _figures(session)

    assert [figure.character.name for figure in figures] == ["Aki", "Clerk"]
    assert [figure.expression for figure in figures] == ["calm", "stern"]
    assert all(figure.portrait_id and not figure.speaking for figure in figures)


@pytest.mark.django_db
def test_standing_puts_the_last_speaker_in_front_with_the_face_of_the_line(
    pair_on_stage, gm, player
):
    session, aki, clerk, smile = pair_on_stage
    _said(session, player, aki, "Found it!", face_id=smile.pk)
    _said(session, gm, clerk, "Quiet, please.")
    _said(session, player, aki, "Sorry.", face_id=smile.pk)

    figures = _figures(session)

    assert [figure.character.name for figure in figures] == ["Clerk", "Aki"]
    front = figures[-1]
    assert front.speaking and front.face_id == smile.pk and front.expression == "smile"
    assert not figures[0].speaking and figures[0].expression == "stern"


@pytest.mark.django_db
def test_standing_ignores_gm_only_and_offtopic_lines(pair_on_stage, gm, player):
    session, aki, clerk, smile = pair_on_stage
    _said(session, player, aki, "Found it!", face_id=smile.pk)
    _said(session, gm, clerk, "A secret aside.", gm_only=True)
    _said(session, gm, clerk, "Off we go.", channel="offtopic")

    figures = _figures(session)

    assert figures[-1].character == aki and figures[-1].speaking


@pytest.mark.django_db
def test_standing_falls_back_to_the_portrait_when_the_expression_is_deleted(pair_on_stage, player):
    session, aki, _clerk, smile = pair_on_stage
    _said(session, player, aki, "Found it!", face_id=smile.pk)
    face_delete(face=smile, by=player)

    front = _figures(session)[-1]

    assert front.speaking and front.face_id is None and front.expression == "calm"


@pytest.mark.django_db
def test_standing_shows_a_character_without_pictures_by_name(session, gm, player):
    bare = cast_member(session, player, name="Bare")
    on_stage(session, gm, bare)
    session.refresh_from_db()

    (figure,) = _figures(session)
    page = _room(player, session)

    assert figure.face_id is None and figure.portrait_id is None
    assert 'class="standing-placeholder" role="img" aria-label="Bare (no picture)"' in page


@pytest.mark.django_db
def test_standing_leaves_out_who_exited(pair_on_stage, gm):
    session, aki, clerk, _smile = pair_on_stage
    stage_take_out(session=session, by=gm, character=clerk)

    assert [figure.character for figure in _figures(session)] == [aki]


def _room(user, session) -> str:
    client = Client()
    client.force_login(user)
    return client.get(
        reverse("session_room", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()


@pytest.mark.django_db
def test_room_gives_each_picture_alt_text_with_name_and_expression(pair_on_stage, player):
    session, aki, _clerk, smile = pair_on_stage
    _said(session, player, aki, "Found it!", face_id=smile.pk)

    page = _room(player, session)

    assert f'src="/sessions/{session.pk}/faces/{smile.pk}/" alt="Aki: smile"' in page
    assert 'alt="Clerk: stern"' in page
    assert 'aria-current="true"' in page


def _everyone_in_the_room(session, gm, player) -> None:
    """The GM, the player and a spectator have the room open, in English."""
    spectators_allow(table=session.table, by=gm, allowed=True)
    session.table.refresh_from_db()
    for user in (gm, player):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{user.pk}", language="en")
    spectator_enter(session_id=session.pk, channel_name="watching", language="en", time_zone="")


def _panels(messages):
    return [(group, message) for group, message in messages if message["type"] == "room.panels"]


@pytest.mark.django_db
def test_a_line_in_character_pushes_the_standing_once_per_language_to_everyone(
    pair_on_stage, gm, player
):
    session, aki, _clerk, smile = pair_on_stage
    _everyone_in_the_room(session, gm, player)
    event = _said(session, player, aki, "Found it!", face_id=smile.pk)
    event = TimelineEvent.objects.select_related("actor", "session").get(pk=event.pk)

    pushed = _panels(render.event_messages(event=event))

    audiences = sorted(group.split(".")[2] for group, _message in pushed)
    assert audiences == sorted([GM, PLAYERS, SPECTATORS])
    for _group, message in pushed:
        assert message["html"].startswith('<section id="standing"')
        assert 'aria-current="true"' in message["html"] and "Aki: smile" in message["html"]


@pytest.mark.django_db
def test_a_line_out_of_character_pushes_no_panel(pair_on_stage, gm, player):
    session, *_rest = pair_on_stage
    presence_enter(session_id=session.pk, user=player, channel_name="c", language="en")
    event = chat_post(session=session, by=player, text="Brb")
    event = TimelineEvent.objects.select_related("actor", "session").get(pk=event.pk)

    assert _panels(render.event_messages(event=event)) == []


@pytest.mark.django_db
def test_the_standing_pushed_to_everyone_equals_a_fresh_page_of_each(pair_on_stage, gm, player):
    session, aki, _clerk, smile = pair_on_stage
    _everyone_in_the_room(session, gm, player)
    event = _said(session, player, aki, "Found it!", face_id=smile.pk)
    event = TimelineEvent.objects.select_related("actor", "session").get(pk=event.pk)
    pushed = {
        group.split(".")[2]: message["html"]
        for group, message in _panels(render.event_messages(event=event))
    }

    room_url = reverse("session_room", args=[session.pk])
    watch_url = reverse("watch_session", args=[session.table.spectator_token, session.pk])
    _same(pushed[GM], _page(gm, room_url), ["standing"])
    _same(pushed[PLAYERS], _page(player, room_url), ["standing"])
    _same(pushed[SPECTATORS], _page(None, watch_url), ["standing"])


@pytest.mark.django_db
def test_a_picture_changed_on_the_sheet_reaches_every_open_room_without_a_reload(
    pair_on_stage, gm, player, monkeypatch, django_capture_on_commit_callbacks
):
    from sessions_app.live import hooks

    session, aki, _clerk, _smile = pair_on_stage
    _everyone_in_the_room(session, gm, player)
    sent = []
    monkeypatch.setattr(hooks, "send_all", sent.extend)

    with django_capture_on_commit_callbacks(execute=True):
        grin = face_add(
            character=aki, by=player, data=picture_bytes("PNG"), label="grin", portrait=True
        )

    pushed = {group.split(".")[2]: message["html"] for group, message in _panels(sent)}
    assert sorted(pushed) == sorted([f"u{gm.pk}", f"u{player.pk}", SPECTATORS])
    room_url = reverse("session_room", args=[session.pk])
    watch_url = reverse("watch_session", args=[session.table.spectator_token, session.pk])
    assert "Aki: grin" in pushed[f"u{gm.pk}"]
    for audience, page in (
        (f"u{gm.pk}", _page(gm, room_url)),
        (f"u{player.pk}", _page(player, room_url)),
        (SPECTATORS, _page(None, watch_url)),
    ):
        partials = _Elements(pushed[audience]).top
        assert "standing" in partials and (audience == SPECTATORS or "stage" in partials)
        _same(pushed[audience], page, partials)
    assert grin.is_portrait
