"""Character sheets: named resources (current/max) beside the judgement values."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from sessions_app.models import Character
from sessions_app.services.characters import character_create, character_update
from tests.clients import signed_in_client as _client


def test_character_create_keeps_resources(table, player, player_membership):
    character = character_create(
        table=table, by=player, name="Aki", resources={"HP": {"current": 12, "max": 20}}
    )

    assert Character.objects.get(pk=character.pk).resources == {"HP": {"current": 12, "max": 20}}


@pytest.mark.parametrize(
    "resources",
    [
        {"HP": {"current": 21, "max": 20}},
        {"HP": {"current": -1, "max": 20}},
        {"HP": {"current": "ten", "max": 20}},
        {"": {"current": 1, "max": 2}},
        {"HP": 5},
    ],
)
def test_character_create_bad_resources_refused(table, player, player_membership, resources):
    with pytest.raises(ValidationError):
        character_create(table=table, by=player, name="Aki", resources=resources)

    assert not Character.objects.exists()


def test_character_update_without_resources_keeps_them(table, player, player_membership):
    character = character_create(
        table=table, by=player, name="Aki", resources={"HP": {"current": 5, "max": 9}}
    )

    character_update(character=character, by=player, name="Aki Tsukishiro")

    assert Character.objects.get(pk=character.pk).resources == {"HP": {"current": 5, "max": 9}}


def test_character_edit_page_saves_profile_resources(table, player, player_membership):
    profile = table.rules_profile or services_profile(table)
    profile_names = list(profile.resource_names)
    assert profile_names[:2] == ["HP", "MP"]
    character = character_create(table=table, by=player, name="Aki")
    client = Client()
    client.force_login(player)

    response = client.post(
        reverse("character_edit", args=[character.pk]),
        {"name": "Aki", "resource_0_current": "7", "resource_0_max": "10"},
    )

    assert response.status_code == 302
    assert Character.objects.get(pk=character.pk).resources == {"HP": {"current": 7, "max": 10}}


def services_profile(table):
    from sessions_app.selectors.tables import table_profile

    return table_profile(table=table)


# Who sees and edits sheets: outsiders find nothing, players their own PCs, the GM all of them
# (the plain refusals, by status alone, are rows of tests/test_access_table.py); table_aki
# and table_npc are tests/conftest.py's, made through the character service.


def test_character_list_player_sees_pcs_only(table, player, table_aki, table_npc):
    response = _client(player).get(reverse("character_list", args=[table.pk]))

    assert response.status_code == 200
    assert "Aki" in response.content.decode()
    assert "Librarian" not in response.content.decode()


def test_character_list_gm_sees_npcs_too(table, gm, table_aki, table_npc):
    response = _client(gm).get(reverse("character_list", args=[table.pk]))

    assert "Aki" in response.content.decode()
    assert "Librarian" in response.content.decode()


def test_character_edit_gm_reads_a_pc_but_may_not_save_it(table_aki, gm):
    client = _client(gm)

    assert client.get(reverse("character_edit", args=[table_aki.pk])).status_code == 200
    response = client.post(reverse("character_edit", args=[table_aki.pk]), {"name": "Renamed"})
    assert response.status_code == 403
    assert Character.objects.get(pk=table_aki.pk).name == "Aki"
