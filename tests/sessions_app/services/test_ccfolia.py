"""Ccfolia's clipboard character JSON: reading it into a sheet, writing a sheet back out,
and refusing what is not a character."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from sessions_app.models import Character
from sessions_app.services.ccfolia import (
    CCFOLIA_MAX_CHARS,
    ccfolia_read,
    character_ccfolia_export,
    character_ccfolia_import,
)
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory, MembershipFactory, UserFactory

VALUE_NAMES = ["Strength", "Reflexes", "Senses", "Intellect", "Spirit", "Empathy"]

# Shaped like what a sheet site copies for Ccfolia (written for these tests): numbers as
# strings in params, a status value given as a string, commands a newline-separated text,
# and the board fields Ccfolia keeps that a sheet has no use for.
YUTO_SHEET_SAMPLE = {
    "kind": "character",
    "data": {
        "name": "天城 アキ",
        "memo": "PL:あき\n図書館の司書。",
        "initiative": 9,
        "externalUrl": "https://yutorize.2-d.jp/ytsheet/srs/?id=abc123",
        "status": [
            {"label": "HP", "value": 24, "max": 24},
            {"label": "MP", "value": "12", "max": 15},
            {"label": "因果力", "value": 3, "max": 0},
        ],
        "params": [
            {"label": "筋力", "value": "4"},
            {"label": "反射", "value": "6"},
            {"label": "感覚", "value": "5"},
            {"label": "知力", "value": "7"},
            {"label": "精神", "value": "5"},
            {"label": "共感", "value": "3"},
            {"label": "武器", "value": "ナイフ"},
            {"label": "行動値", "value": "9"},
        ],
        "iconUrl": "",
        "faces": [],
        "x": 0,
        "y": 0,
        "angle": 0,
        "width": 4,
        "height": 4,
        "active": True,
        "secret": False,
        "invisible": False,
        "hideStatus": False,
        "color": "#888888",
        "commands": "2D6+{筋力}>= 筋力判定\n2D6+{反射}>= 反射判定\n:HP-\n{武器}で斬りかかる",
        "owner": None,
    },
}

# キャラクター保管所 writes English-named values too, and numbers as numbers.
HOKANJO_SAMPLE = {
    "kind": "character",
    "data": {
        "name": "Ren",
        "memo": "",
        "initiative": 0,
        "externalUrl": "",
        "status": [{"label": "HP", "value": 18, "max": 20}],
        "params": [{"label": "Strength", "value": 3}, {"label": "Luck", "value": 2}],
        "commands": "",
    },
}


def _paste(document) -> str:
    return json.dumps(document, ensure_ascii=False)


def test_read_fills_judgement_values_by_label_in_either_language():
    fields = ccfolia_read(_paste(YUTO_SHEET_SAMPLE), value_names=VALUE_NAMES)

    assert fields["judgement_values"] == {
        "Strength": 4,
        "Reflexes": 6,
        "Senses": 5,
        "Intellect": 7,
        "Spirit": 5,
        "Empathy": 3,
    }


def test_read_keeps_other_params_as_sheet_entries():
    fields = ccfolia_read(_paste(YUTO_SHEET_SAMPLE), value_names=VALUE_NAMES)

    assert fields["sheet_entries"] == [
        {"label": "武器", "value": "ナイフ"},
        {"label": "行動値", "value": "9"},
    ]


def test_read_turns_status_into_resources_raising_a_maximum_below_the_value():
    fields = ccfolia_read(_paste(YUTO_SHEET_SAMPLE), value_names=VALUE_NAMES)

    assert fields["resources"] == {
        "HP": {"current": 24, "max": 24},
        "MP": {"current": 12, "max": 15},
        "因果力": {"current": 3, "max": 3},
    }


def test_read_takes_name_memo_palette_initiative_and_address():
    fields = ccfolia_read(_paste(YUTO_SHEET_SAMPLE), value_names=VALUE_NAMES)

    assert fields["name"] == "天城 アキ"
    assert fields["notes"] == "PL:あき\n図書館の司書。"
    assert fields["palette"] == YUTO_SHEET_SAMPLE["data"]["commands"]
    assert fields["initiative"] == 9
    assert fields["external_url"].startswith("https://yutorize")


def test_read_hide_status_hides_every_resource():
    document = json.loads(_paste(HOKANJO_SAMPLE))
    document["data"]["hideStatus"] = True

    fields = ccfolia_read(_paste(document), value_names=VALUE_NAMES)

    assert fields["resources"] == {"HP": {"current": 18, "max": 20, "hidden": True}}


def _with(**data):
    document = json.loads(_paste(HOKANJO_SAMPLE))
    document["data"].update(data)
    return _paste(document)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "Paste"),
        ("{not json", "not JSON"),
        ("[1, 2]", "no data object"),
        (_paste({"kind": "item", "data": {"name": "Sword"}}), "item"),
        (_paste({"kind": "character"}), "no data object"),
        (_with(name=""), "empty"),
        (_with(name=["Ren"]), "must be text"),
        (_with(name="R" * 121), "longer than 120"),
        (_with(initiative="fast"), "whole number"),
        (_with(initiative=True), "whole number"),
        (_with(externalUrl="javascript:alert(1)"), "https://"),
        (_with(status={"label": "HP"}), "must be a list"),
        (_with(status=["HP"]), "must be an object"),
        (_with(status=[{"label": "HP", "value": -1, "max": 10}]), "between 0 and 9999"),
        (_with(status=[{"label": "HP", "value": "lots", "max": 10}]), "whole number"),
        (_with(status=[{"label": "HP", "value": 1, "max": 1}] * 51), "more than 50"),
        (_with(params=[{"label": "Strength", "value": "strong"}]), "whole number"),
        (_with(params=[{"label": "Strength", "value": "100"}]), "between -99 and 99"),
        (_with(params=[{"label": "Luck", "value": {"x": 1}}]), "text or a number"),
        (_with(commands=5), "must be text"),
        (_with(commands="2D6\n" * 501), "more than 500 lines"),
        (_with(hideStatus="yes"), "hideStatus"),
        (_with(memo="x" * (CCFOLIA_MAX_CHARS + 1)), "longer than"),
    ],
)
def test_read_refuses_bad_input_with_a_message_saying_what(text, words):
    with pytest.raises(ValidationError) as raised:
        ccfolia_read(text, value_names=VALUE_NAMES)

    assert words in " ".join(raised.value.messages)


def test_read_refuses_deeply_nested_json_without_crashing():
    with pytest.raises(ValidationError):
        ccfolia_read("[" * 100_000 + "]" * 100_000, value_names=VALUE_NAMES)


def test_import_then_export_round_trip_gives_back_the_same_character(session, player):
    first = character_ccfolia_import(table=session.table, by=player, text=_paste(YUTO_SHEET_SAMPLE))
    exported = character_ccfolia_export(first)

    second = character_ccfolia_import(table=session.table, by=player, text=_paste(exported))

    fields = [
        "name",
        "notes",
        "judgement_values",
        "resources",
        "sheet_entries",
        "palette",
        "initiative",
        "external_url",
    ]
    assert {field: getattr(second, field) for field in fields} == {
        field: getattr(first, field) for field in fields
    }
    assert exported["kind"] == "character"
    assert exported["data"]["commands"] == YUTO_SHEET_SAMPLE["data"]["commands"]
    assert {row["label"]: row["value"] for row in exported["data"]["status"]} == {
        "HP": 24,
        "MP": 12,
        "因果力": 3,
    }


@pytest.mark.parametrize("language", ["en", "ja"])
def test_export_names_judgement_values_in_japanese_whatever_the_language(session, player, language):
    from django.utils import translation

    character = CharacterFactory(
        table=session.table, owner=player, judgement_values={"Strength": 4, "Luck": 2}
    )
    with translation.override(language):
        params = character_ccfolia_export(character)["data"]["params"]

    assert params == [{"label": "筋力", "value": "4"}, {"label": "Luck", "value": "2"}]


def test_sheet_page_in_english_offers_the_json_with_japanese_labels(session, player):
    character = CharacterFactory(
        table=session.table, owner=player, judgement_values={"Strength": 4}
    )
    client = _client(player)
    client.cookies["django_language"] = "en"

    response = client.get(reverse("character_ccfolia", args=[character.pk]))

    assert response.json()["data"]["params"] == [{"label": "筋力", "value": "4"}]


def test_import_on_the_new_sheet_page_creates_the_character(session, player):
    response = _client(player).post(
        reverse("character_new", args=[session.table_id]),
        {"ccfolia": _paste(YUTO_SHEET_SAMPLE)},
    )

    character = Character.objects.get(name="天城 アキ")
    assert response.status_code == 302
    assert response.url == reverse("character_edit", args=[character.pk])
    assert character.owner == player
    assert character.judgement_values["Intellect"] == 7


def test_import_on_a_sheet_updates_it_and_keeps_what_the_json_lacks(session, player):
    character = CharacterFactory(
        table=session.table,
        owner=player,
        name="Old",
        concept="Librarian",
        judgement_values={"Strength": 1, "Luck": 2},
    )

    _client(player).post(
        reverse("character_edit", args=[character.pk]), {"ccfolia": _paste(HOKANJO_SAMPLE)}
    )

    character.refresh_from_db()
    assert character.name == "Ren"
    assert character.concept == "Librarian"
    assert character.judgement_values == {"Strength": 3, "Luck": 2}
    assert character.sheet_entries == [{"label": "Luck", "value": "2"}]


def test_bad_import_shows_the_message_and_changes_nothing(session, player):
    character = CharacterFactory(table=session.table, owner=player, name="Old")

    response = _client(player).post(
        reverse("character_edit", args=[character.pk]),
        {"ccfolia": _paste({"kind": "item", "data": {"name": "Sword"}})},
    )

    assert response.status_code == 400
    assert "not a character" in response.content.decode()
    character.refresh_from_db()
    assert character.name == "Old"


def test_import_over_another_players_sheet_refused(session, player):
    other = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    character = CharacterFactory(table=session.table, owner=other, name="Theirs")

    response = _client(player).post(
        reverse("character_edit", args=[character.pk]), {"ccfolia": _paste(HOKANJO_SAMPLE)}
    )

    assert response.status_code == 404
    character.refresh_from_db()
    assert character.name == "Theirs"


def test_export_view_gives_the_json_to_those_who_may_see_the_sheet(session, gm, player):
    character = character_ccfolia_import(
        table=session.table, by=player, text=_paste(HOKANJO_SAMPLE)
    )
    url = reverse("character_ccfolia", args=[character.pk])

    for user in (player, gm):
        response = _client(user).get(url)
        assert response.status_code == 200
        assert response.json()["data"]["name"] == "Ren"
    other = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    assert _client(other).get(url).status_code == 404


def test_sheet_page_offers_the_json_to_copy(session, player):
    character = character_ccfolia_import(
        table=session.table, by=player, text=_paste(HOKANJO_SAMPLE)
    )

    page = _client(player).get(reverse("character_edit", args=[character.pk])).content.decode()

    assert 'id="ccfolia-json"' in page
    assert "&quot;kind&quot;: &quot;character&quot;" in page
