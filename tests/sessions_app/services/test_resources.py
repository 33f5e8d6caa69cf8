"""A character's resources in play: the service, the chat and roll-box commands, the ±
buttons, and who sees each change."""

import json
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from sessions_app import log_export
from sessions_app.kinds.registry import Panel, panels_changed
from sessions_app.models import Character, Phase, TimelineEvent
from sessions_app.selectors.tables import table_profile
from sessions_app.selectors.timeline import events_after
from sessions_app.services.logs import log_import
from sessions_app.services.palette import box_send, chat_send
from sessions_app.services.resources import resource_change, resource_command
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory, cast_member

HTMX = {"HTTP_HX_REQUEST": "true"}


# The pc fixture's Aki (tests/sessions_app/conftest.py) has HP and MP and takes part without
# a PC slot.
pytestmark = pytest.mark.pc_fields(
    slot=None, resources={"HP": {"current": 10, "max": 10}, "MP": {"current": 4, "max": 8}}
)


def _hp(character):
    character.refresh_from_db()
    return character.resources["HP"]["current"]


def test_resource_command_takes_from_the_current_value(session, player, pc):
    event = resource_command(session=session, by=player, character=pc, text=":HP-3")

    assert _hp(pc) == 7
    assert event.kind == "resource_changed"
    assert event.visibility == TimelineEvent.Visibility.EVERYONE
    assert event.payload == {
        "character": "Aki",
        "character_id": pc.pk,
        "resource": "HP",
        "op": "-",
        "amount": "3",
        "faces": [],
        "before": 10,
        "after": 7,
        "max": 10,
    }


def test_resource_command_sets_and_adds_within_the_maximum(session, player, pc):
    resource_command(session=session, by=player, character=pc, text=":HP=4")
    resource_command(session=session, by=player, character=pc, text=":HP+9")

    assert _hp(pc) == 10


def test_resource_command_rolls_a_dice_amount_with_the_injected_rng(session, player, pc):
    event = resource_command(
        session=session, by=player, character=pc, text=":MP+1D6", rng=random.Random(5)
    )

    (face,) = event.payload["faces"]
    assert 1 <= face <= 6
    assert event.payload["after"] == min(8, 4 + face)


def test_resource_change_by_the_gm_is_allowed(session, gm, pc):
    resource_change(session=session, by=gm, character=pc, name="HP", op="-", amount="2")

    assert _hp(pc) == 8


def test_resource_change_by_another_player_refused(session, second_player, pc):
    with pytest.raises(PermissionDenied):
        resource_change(
            session=session, by=second_player, character=pc, name="HP", op="-", amount="2"
        )

    assert _hp(pc) == 10
    assert not TimelineEvent.objects.filter(kind="resource_changed").exists()


def test_resource_change_unknown_resource_refused_naming_those_it_has(session, player, pc):
    with pytest.raises(ValidationError) as raised:
        resource_command(session=session, by=player, character=pc, text=":SAN-1")

    assert "HP, MP" in str(raised.value)
    assert not TimelineEvent.objects.filter(kind="resource_changed").exists()


def test_resource_change_of_a_pc_not_taking_part_refused(session, player):
    elsewhere = CharacterFactory(
        table=session.table, owner=player, resources={"HP": {"current": 5, "max": 5}}
    )

    with pytest.raises(ValidationError):
        resource_command(session=session, by=player, character=elsewhere, text=":HP-1")

    elsewhere.refresh_from_db()
    assert elsewhere.resources["HP"]["current"] == 5


def test_resource_change_in_a_closed_session_refused(session, player, pc):
    session.phase = Phase.CLOSED
    session.save(update_fields=["phase"])

    with pytest.raises(ValidationError):
        resource_command(session=session, by=player, character=pc, text=":HP-1")

    assert _hp(pc) == 10


@pytest.mark.parametrize("amount", ["", "abc", "1000", "3D0", "D"])
def test_resource_change_bad_amount_refused(session, player, pc, amount):
    with pytest.raises(ValidationError):
        resource_change(session=session, by=player, character=pc, name="HP", op="-", amount=amount)

    assert _hp(pc) == 10


def test_hidden_resource_change_is_seen_by_its_player_and_the_gm_only(
    session, gm, player, second_player, pc
):
    pc.resources = {"HP": {"current": 10, "max": 10, "hidden": True}}
    pc.save()

    resource_command(session=session, by=player, character=pc, text=":HP-3")

    def seen_by(user, is_gm):
        return [
            event.kind
            for event in events_after(session_id=session.pk, user=user, is_gm=is_gm, after_seq=0)
        ]

    assert "resource_changed" in seen_by(player, False)
    assert "resource_changed" in seen_by(gm, True)
    assert "resource_changed" not in seen_by(second_player, False)


def test_chat_resource_command_changes_the_players_only_pc(session, player, pc):
    chat_send(session=session, by=player, text=":HP-3")

    assert _hp(pc) == 7
    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_resource_command_with_two_pcs_asks_which(session, player, pc):
    cast_member(session, player, name="Second", resources={"HP": {"current": 3, "max": 3}})

    with pytest.raises(ValidationError):
        chat_send(session=session, by=player, text=":HP-3")

    assert _hp(pc) == 10


def test_gm_only_line_that_looks_like_a_command_stays_a_note(session, gm, pc):
    chat_send(session=session, by=gm, text=":HP-3", gm_only=True)

    assert _hp(pc) == 10
    assert TimelineEvent.objects.get(kind="chat").payload["text"] == ":HP-3"


def test_roll_box_resource_command_as_a_chosen_character(session, player, pc):
    box_send(session=session, by=player, text=":MP-2", character=pc)

    pc.refresh_from_db()
    assert pc.resources["MP"]["current"] == 2


def test_chat_view_resource_command_changes_hp(session, player, pc):
    response = _client(player).post(
        reverse("chat_post", args=[session.pk]), {"text": ":HP-3", "say_as": "ooc"}, **HTMX
    )

    assert response.status_code == 204
    assert _hp(pc) == 7


def _resource_adjusted(session, user, character, **fields):
    """`user` adjusts a resource of `character` from the room (a button's `resource` and
    `change`, or a typed `command`): the answer."""
    return _client(user).post(
        reverse("resource_adjust", args=[session.pk]),
        {"character": character.pk, **fields},
        **HTMX,
    )


def test_plus_minus_buttons_step_the_resource(session, player, pc):
    response = _resource_adjusted(session, player, pc, resource="HP", change="-1")

    assert response.status_code == 200
    assert _hp(pc) == 9
    # The panel comes back out of band with the new value.
    assert 'id="characters"' in response.content.decode()
    assert "9/10" in response.content.decode()


def test_plus_minus_buttons_of_another_players_pc_refused(session, second_player, pc):
    response = _resource_adjusted(session, second_player, pc, resource="HP", change="-1")

    assert "error" in response.content.decode()
    assert _hp(pc) == 10


def test_plus_minus_buttons_bad_step_refused(session, player, pc):
    response = _client(player).post(
        reverse("resource_adjust", args=[session.pk]),
        {"character": pc.pk, "resource": "HP", "change": "-50"},
    )

    assert response.status_code == 400
    assert _hp(pc) == 10


def test_room_panel_hides_a_hidden_resource_from_other_players(
    session, gm, player, second_player, pc
):
    pc.resources = {
        "HP": {"current": 10, "max": 10},
        "秘密": {"current": 3, "max": 5, "hidden": True},
    }
    pc.save()
    url = reverse("session_room", args=[session.pk])

    assert "秘密" in _client(player).get(url).content.decode()
    assert "秘密" in _client(gm).get(url).content.decode()
    other = _client(second_player).get(url).content.decode()
    assert "秘密" not in other
    assert "10/10" in other


def test_room_panel_shows_controls_only_to_those_who_may_change(session, player, second_player, pc):
    url = reverse("session_room", args=[session.pk])
    adjust = reverse("resource_adjust", args=[session.pk])

    assert adjust in _client(player).get(url).content.decode()
    assert adjust not in _client(second_player).get(url).content.decode()


def test_entry_cost_and_resource_changes_name_the_character_panel():
    for kind in ("resource_changed", "entry_condition", "after_scene", "sheet_changed"):
        assert Panel.CHARACTERS in panels_changed([kind])


def test_hidden_flag_saved_from_the_sheet_form(session, player, pc):
    profile = table_profile(table=session.table)
    names = list(profile.resource_names or [])
    assert names, "the shipped profile names resources"
    data = {"name": "Aki", "concept": "", "extra_values": "", "notes": "", "entries": ""}
    for index, _name in enumerate(names):
        data[f"resource_{index}_current"] = "3"
        data[f"resource_{index}_max"] = "5"
    data["resource_0_hidden"] = "on"

    response = _client(player).post(reverse("character_edit", args=[pc.pk]), data)

    assert response.status_code == 302
    pc = Character.objects.get(pk=pc.pk)
    assert pc.resources[names[0]] == {"current": 3, "max": 5, "hidden": True}


def test_resource_changes_survive_the_log_export_and_import(session, gm, player, second_player, pc):
    pc.resources = {**pc.resources, "秘密": {"current": 3, "max": 5, "hidden": True}}
    pc.save()
    resource_command(session=session, by=player, character=pc, text=":HP-3")
    resource_command(session=session, by=player, character=pc, text=":秘密-1")

    first = log_export.export_json(viewer=log_export.log_viewer(session=session, user=gm))
    imported = log_import(data=json.dumps(first).encode(), by=second_player)
    second = log_export.export_json(
        viewer=log_export.log_viewer(session=imported, user=second_player)
    )

    assert second == first
    kinds = [event["kind"] for event in first["events"]]
    assert kinds.count("resource_changed") == 2
    others = log_export.export_json(
        viewer=log_export.log_viewer(session=session, user=second_player)
    )
    assert "秘密" not in json.dumps(others, ensure_ascii=False)


def test_gm_types_a_command_for_a_players_pc(session, gm, pc):
    response = _resource_adjusted(session, gm, pc, command=":HP-12")

    assert "0/10" in response.content.decode()
    assert _hp(pc) == 0


def test_player_cannot_type_a_command_for_another_players_pc(session, second_player, pc):
    response = _resource_adjusted(session, second_player, pc, command=":HP-12")

    assert "error" in response.content.decode()
    assert _hp(pc) == 10
