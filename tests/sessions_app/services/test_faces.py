"""A character's pictures on its sheet page, and who may see them."""

import json

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sessions_app import log_export
from sessions_app.models import CharacterFace, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.faces import face_add, face_delete
from sessions_app.services.logs import log_import
from sessions_app.services.scenes import scene_start, stage_bring_in
from sessions_app.services.spectators import spectator_token_renew
from tests.factories import (
    CharacterFactory,
    MembershipFactory,
    UserFactory,
    main_play_start,
    open_to_spectators,
    scene_started,
)
from tests.pictures import picture_bytes


@pytest.fixture
def face(pc, player):
    return face_add(character=pc, by=player, data=picture_bytes("PNG"), label="smile")


def _upload(client, character, data, name="face.png", label="smile"):
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {
            "face_action": "add",
            "label": label,
            "image": SimpleUploadedFile(name, data, content_type="image/png"),
        },
    )


def test_face_add_first_picture_becomes_the_portrait(face):
    assert face.is_portrait


def test_face_add_portrait_takes_over(pc, player, face):
    other = face_add(
        character=pc, by=player, data=picture_bytes("JPEG"), label="angry", portrait=True
    )
    face.refresh_from_db()
    assert other.is_portrait and not face.is_portrait


def test_face_delete_removes_the_file_and_passes_on_the_portrait(
    pc, player, face, django_capture_on_commit_callbacks
):
    other = face_add(character=pc, by=player, data=picture_bytes("PNG"), label="angry")
    name = face.image.name
    with django_capture_on_commit_callbacks(execute=True):
        face_delete(face=face, by=player)
    other.refresh_from_db()
    assert other.is_portrait
    assert not default_storage.exists(name)


def test_character_page_uploads_a_png(client, player, pc):
    client.force_login(player)
    response = _upload(client, pc, picture_bytes("PNG"))
    assert response.status_code == 302
    assert pc.faces.get().label == "smile"


def test_character_page_refuses_a_text_file_with_a_message(client, player, pc, settings):
    client.force_login(player)
    response = _upload(client, pc, b"hello, not a picture", name="notes.png")
    assert response.status_code == 400
    assert "use a PNG, JPEG, WebP or GIF image" in response.content.decode()
    assert not CharacterFace.objects.exists()


def test_character_page_refuses_another_players_upload(client, session, pc):
    from tests.factories import MembershipFactory, UserFactory

    other = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    client.force_login(other)
    response = _upload(client, pc, picture_bytes("PNG"))
    assert response.status_code == 404
    assert not CharacterFace.objects.exists()


def test_face_image_served_to_a_member_with_safe_headers(client, gm, face):
    client.force_login(gm)
    response = client.get(reverse("face_image", args=[face.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"].startswith("private")


@pytest.fixture
def unseen_npc_face(session, gm):
    """A face of the GM's Librarian, an NPC that has not appeared in the session."""
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")
    return face_add(character=npc, by=gm, data=picture_bytes("PNG"), label="calm")


def test_face_image_hidden_from_an_outsider(client, outsider, face):
    client.force_login(outsider)
    assert client.get(reverse("face_image", args=[face.pk])).status_code == 404


def test_npc_face_hidden_from_players_until_the_npc_appears(
    client, session, gm, player, pc, unseen_npc_face
):
    face = unseen_npc_face
    npc = face.character
    client.force_login(player)
    url = reverse("face_image", args=[face.pk])
    assert client.get(url).status_code == 404
    main_play_start(session, gm)
    scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )
    stage_bring_in(session=session, by=gm, character=npc)
    assert client.get(url).status_code == 200


@pytest.fixture
def aki_on_stage(session, gm, pc):
    main_play_start(session, gm)
    scene_start(
        session=session, by=gm, scene_player=pc, place="The inn", purpose="To meet the contact"
    )
    return pc


def _say(client, session, character, face=None):
    data = {"text": "Found it!", "say_as": f"ic:{character.pk}", "action_key": ""}
    if face is not None:
        data["face"] = face.pk
    return client.post(reverse("chat_post", args=[session.pk]), data, HTTP_HX_REQUEST="true")


def test_chat_as_a_character_stores_the_chosen_expression(client, session, player, aki_on_stage):
    face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="calm")
    smile = face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="smile")
    client.force_login(player)
    _say(client, session, aki_on_stage, smile)
    event = TimelineEvent.objects.filter(session=session, kind="chat").get()
    assert event.payload["face_id"] == smile.pk
    assert event.payload["face"] == "smile"


def test_chat_as_a_character_defaults_to_the_portrait(client, session, player, aki_on_stage):
    calm = face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="calm")
    client.force_login(player)
    _say(client, session, aki_on_stage)
    event = TimelineEvent.objects.filter(session=session, kind="chat").get()
    assert event.payload["face_id"] == calm.pk


def test_chat_refuses_another_characters_expression(client, session, gm, player, aki_on_stage):
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")
    other = face_add(character=npc, by=gm, data=picture_bytes("PNG"), label="calm")
    face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="smile")
    client.force_login(player)
    response = _say(client, session, aki_on_stage, other)
    assert "Select a valid choice" in response.content.decode()
    assert not TimelineEvent.objects.filter(session=session, kind="chat").exists()


def test_room_shows_the_face_beside_the_line(client, session, player, aki_on_stage):
    smile = face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="smile")
    client.force_login(player)
    _say(client, session, aki_on_stage, smile)
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert f'class="line-face" src="{reverse("line_face", args=[session.pk, smile.pk])}"' in page
    assert 'alt="Aki: smile"' in page


def test_room_offers_the_speakers_expressions_with_a_label(client, session, player, aki_on_stage):
    face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="smile")
    client.force_login(player)
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert '<label for="chat_face" class="visually-hidden">Expression</label>' in page
    assert f'data-voice="ic:{aki_on_stage.pk}"' in page


def test_spectator_sees_a_pc_face_after_opening_the_room(client, session, gm, face):
    table = open_to_spectators(session.table)
    url = reverse("face_image", args=[face.pk])
    assert client.get(url).status_code == 404

    client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))

    assert client.get(url).status_code == 200


def test_spectator_loses_faces_when_the_link_is_renewed(client, session, gm, face):
    table = open_to_spectators(session.table)
    client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))

    spectator_token_renew(table=table, by=gm)

    assert client.get(reverse("face_image", args=[face.pk])).status_code == 404


def test_spectator_does_not_see_an_npc_face_before_it_appears(client, session, unseen_npc_face):
    face = unseen_npc_face
    table = open_to_spectators(session.table)
    client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))

    assert client.get(reverse("face_image", args=[face.pk])).status_code == 404


def test_gm_who_opened_the_spectator_link_still_sees_an_unseen_npc_face(
    client, session, gm, unseen_npc_face
):
    face = unseen_npc_face
    table = open_to_spectators(session.table)
    client.force_login(gm)
    client.get(reverse("watch_session", args=[table.spectator_token, session.pk]))

    assert client.get(reverse("face_image", args=[face.pk])).status_code == 200


def test_character_page_face_action_with_a_superscript_id_is_not_a_500(client, player, pc):
    client.force_login(player)

    response = client.post(
        reverse("character_edit", args=[pc.pk]), {"face_action": "delete", "face": "²"}
    )

    assert response.status_code < 500


@pytest.fixture
def heir_furious_in_secret(session, gm, pc):
    """The Heir (an NPC) on stage; the GM says a GM-only line with its furious face."""
    heir = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Heir")
    face_add(character=heir, by=gm, data=picture_bytes("PNG"), label="calm")
    furious = face_add(character=heir, by=gm, data=picture_bytes("PNG"), label="furious")
    scene_started(session, gm, scene_player=pc)
    stage_bring_in(session=session, by=gm, character=heir)
    chat_post(
        session=session,
        by=gm,
        text="(plotting)",
        gm_only=True,
        mode="ic",
        character=heir,
        face_id=furious.pk,
    )
    return furious


def test_face_on_gm_only_lines_stays_the_gms_after_its_npc_appears(
    client, session, gm, player, heir_furious_in_secret
):
    urls = [
        reverse("face_image", args=[heir_furious_in_secret.pk]),
        reverse("line_face", args=[session.pk, heir_furious_in_secret.pk]),
    ]

    client.force_login(player)
    assert [client.get(url).status_code for url in urls] == [404, 404]
    client.force_login(gm)
    assert [client.get(url).status_code for url in urls] == [200, 200]


def test_npc_portrait_on_stage_is_served_to_players(
    client, session, player, heir_furious_in_secret
):
    calm = CharacterFace.objects.get(character=heir_furious_in_secret.character, label="calm")

    client.force_login(player)

    assert client.get(reverse("face_image", args=[calm.pk])).status_code == 200


def test_face_on_a_line_players_see_is_served_to_them(
    client, session, gm, player, heir_furious_in_secret
):
    chat_post(
        session=session,
        by=gm,
        text="Enough!",
        mode="ic",
        character=heir_furious_in_secret.character,
        face_id=heir_furious_in_secret.pk,
    )
    client.force_login(player)

    url = reverse("line_face", args=[session.pk, heir_furious_in_secret.pk])
    assert client.get(url).status_code == 200


def test_imported_log_face_served_only_to_readers_of_a_line_with_it(
    client, session, gm, player, outsider, heir_furious_in_secret
):
    document = log_export.export_json(viewer=log_export.log_viewer(session=session, user=gm))
    imported = log_import(data=json.dumps(document), by=outsider)
    reader = MembershipFactory(table=imported.table, user=UserFactory(username="reader")).user
    url = reverse("line_face", args=[imported.pk, heir_furious_in_secret.pk])

    client.force_login(reader)
    assert client.get(url).status_code == 404
    client.force_login(outsider)
    assert client.get(url).status_code == 200
