"""Rolling and speaking as a character: the roll box, the chat and the palette's lines."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from sessions_app.models import Roll, TimelineEvent
from sessions_app.selectors.stats import dice_rows_for_session
from sessions_app.services.palette import box_send, palette_send
from sessions_app.services.scenes import scene_start
from tests.clients import signed_in_client as _client
from tests.factories import (
    MembershipFactory,
    UserFactory,
    cast_member,
    main_play_start,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


# The pc fixture's Aki (tests/sessions_app/conftest.py) has a sheet of Japanese names and
# takes part without a PC slot.
pytestmark = pytest.mark.pc_fields(
    slot=None,
    judgement_values={"筋力": 3},
    resources={"HP": {"current": 10, "max": 10}},
    sheet_entries=[{"label": "武器", "value": "ナイフ"}],
)


@pytest.fixture
def ren_pc(session):
    ren = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    return cast_member(session, ren, name="Ren")


def test_roll_box_as_a_character_names_it_on_the_card(session, player, pc):
    roll = box_send(session=session, by=player, text="2D6+{筋力}>=8", character=pc, faces=(3, 4))

    assert roll.character == pc
    event = TimelineEvent.objects.get(kind="command_rolled")
    assert event.payload["character"] == "Aki"
    assert event.payload["command"].startswith("2D6+3>=8")
    assert event.payload["achievement"] == 10


def test_roll_box_as_a_character_counts_for_it_in_the_dice_statistics(session, player, pc):
    box_send(session=session, by=player, text="2D6+1", character=pc, faces=(6, 6))

    (row,) = dice_rows_for_session(session=session, user=player, is_gm=False)
    assert (row.character, row.character_id) == ("Aki", pc.pk)


def test_roll_box_as_the_user_names_nobody(session, player, pc):
    roll = box_send(session=session, by=player, text="2D6", faces=(1, 2))

    assert roll.character is None
    assert TimelineEvent.objects.get(kind="command_rolled").payload["character"] == ""


def test_roll_box_as_another_players_character_refused(session, player, ren_pc):
    with pytest.raises(PermissionDenied):
        box_send(session=session, by=player, text="2D6", character=ren_pc, faces=(1, 2))

    assert not Roll.objects.exists()


def test_roll_box_unknown_reference_refused(session, player, pc):
    with pytest.raises(ValidationError) as raised:
        box_send(session=session, by=player, text="2D6+{知力}>=8", character=pc, faces=(1, 2))

    assert "知力" in str(raised.value)
    assert not Roll.objects.exists()


def test_roll_box_as_a_character_off_stage_in_main_play_refused(session, gm, player, pc, ren_pc):
    main_play_start(session, gm)
    scene_start(
        session=session, by=gm, scene_player=ren_pc, place="The inn", purpose="To meet the contact"
    )

    with pytest.raises(ValidationError):
        box_send(session=session, by=player, text="2D6", character=pc, faces=(1, 2))

    assert not Roll.objects.exists()


def test_palette_send_roll_line_rolls_as_the_character(session, player, pc):
    palette_send(session=session, by=player, character=pc, text="2D6+{筋力}>=5")

    assert Roll.objects.get().character == pc


def test_palette_send_incomplete_check_is_refused_not_said(session, player, pc):
    with pytest.raises(ValidationError):
        palette_send(session=session, by=player, character=pc, text="2D6+{筋力}>=")

    assert not TimelineEvent.objects.filter(kind__in=["chat", "command_rolled"]).exists()


def test_palette_send_words_are_said_in_character_with_references(session, player, pc):
    palette_send(session=session, by=player, character=pc, text="{武器}を構える")

    payload = TimelineEvent.objects.get(kind="chat").payload
    assert payload == {
        "text": "ナイフを構える",
        "mode": "ic",
        "character": "Aki",
        "character_id": pc.pk,
    }


def test_palette_send_resource_line_changes_it(session, player, pc):
    palette_send(session=session, by=player, character=pc, text=":HP-2")

    pc.refresh_from_db()
    assert pc.resources["HP"]["current"] == 8


def test_palette_send_incomplete_resource_line_refused(session, player, pc):
    with pytest.raises(ValidationError):
        palette_send(session=session, by=player, character=pc, text=":HP-")

    pc.refresh_from_db()
    assert pc.resources["HP"]["current"] == 10


def test_palette_send_view_reports_the_refusal(session, player, ren_pc):
    response = _client(player).post(
        reverse("palette_send", args=[session.pk]),
        {"character": ren_pc.pk, "text": "2D6"},
        **HTMX,
    )

    assert 'class="check-status error"' in response.content.decode()
    assert not Roll.objects.exists()


def test_roll_box_view_rolls_as_the_chosen_character_and_keeps_the_choice(session, player, pc):
    response = _client(player).post(
        reverse("roll_box", args=[session.pk]),
        {"text": "2D6+{筋力}", "roll_as": str(pc.pk)},
        **HTMX,
    )

    assert Roll.objects.get().character == pc
    # The page keeps its form, and with it the character chosen.
    assert (response.status_code, response["X-Action-Ok"]) == (204, "1")


def test_roll_box_view_refuses_a_character_not_offered(session, player, ren_pc):
    response = _client(player).post(
        reverse("roll_box", args=[session.pk]),
        {"text": "2D6", "roll_as": str(ren_pc.pk)},
        **HTMX,
    )

    assert 'role="alert"' in response.content.decode()
    assert not Roll.objects.exists()


def test_gm_speaks_as_an_npc_outside_main_play(session, gm, npc):
    client = _client(gm)
    page = client.get(reverse("session_room", args=[session.pk])).content.decode()
    assert f'value="ic:{npc.pk}"' in page

    client.post(
        reverse("chat_post", args=[session.pk]),
        {"text": "Quiet, please.", "say_as": f"ic:{npc.pk}"},
        **HTMX,
    )

    assert TimelineEvent.objects.get(kind="chat").payload["character"] == "Librarian"


def test_player_speaks_as_own_pc_in_pre_play(session, player, pc, ren_pc):
    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert f'value="ic:{pc.pk}"' in page
    assert f'value="ic:{ren_pc.pk}"' not in page


def test_room_page_offers_the_palette_of_own_characters_only(session, player, pc, ren_pc):
    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert 'data-line="2D6+{筋力}&gt;="' in page
    assert f'data-character="{pc.pk}"' in page
    assert f'data-character="{ren_pc.pk}"' not in page


def test_room_page_shows_the_characters_own_palette_text(session, player, pc):
    pc.palette = "2D6+{筋力}>= 力比べ\nおはよう"
    pc.save()

    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert 'data-line="おはよう"' in page
    assert 'data-line=":HP-"' not in page


def test_reference_to_a_shipped_value_works_in_either_language(session, player):
    character = cast_member(session, player, name="Mio", judgement_values={"Strength": 4})

    box_send(session=session, by=player, text="2D6+{筋力}", character=character, faces=(1, 1))
    box_send(session=session, by=player, text="2D6+{Strength}", character=character, faces=(1, 1))

    totals = [roll.result["total"] for roll in Roll.objects.order_by("pk")]
    assert totals == [6, 6]


def test_generated_palette_names_shipped_values_in_the_readers_language(session, player):
    cast_member(session, player, name="Mio", judgement_values={"Strength": 4})
    client = _client(player)
    client.cookies["django_language"] = "ja"

    page = client.get(reverse("session_room", args=[session.pk])).content.decode()

    assert 'data-line="2D6+{筋力}&gt;="' in page
