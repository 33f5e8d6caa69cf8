"""Character sheets: named resources (current/max) beside the judgement values."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from sessions_app.models import Character
from sessions_app.services.characters import character_create, character_update


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
