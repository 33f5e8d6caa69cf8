import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.models import Handout, PlannedScene, PreparedCheck, Scenario, ScenarioNpc
from tests.factories import (
    HandoutFactory,
    PlannedSceneFactory,
    PreparedCheckFactory,
    ScenarioFactory,
    ScenarioNpcFactory,
    TableFactory,
    UserFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def other_gm_client(db):
    other = UserFactory(username="other_gm")
    TableFactory(gm=other)
    client = Client()
    client.force_login(other)
    return client


@pytest.fixture
def player_client(player_client, player_membership):
    """tests/conftest.py's player_client, its player a member of the GM's table."""
    return player_client


def _scenario_urls(scenario):
    """Every URL under a scenario, each with an item of the kind it needs (the same list as
    SCENARIO_URLS in tests/test_access_table.py: a URL added here belongs there too)."""
    scene = PlannedSceneFactory(scenario=scenario)
    check = PreparedCheckFactory(planned_scene=scene)
    npc = ScenarioNpcFactory(scenario=scenario)
    handout = HandoutFactory(scenario=scenario)
    pk = scenario.pk
    return [
        reverse("scenario_detail", args=[pk]),
        reverse("scenario_edit", args=[pk]),
        reverse("scenario_delete", args=[pk]),
        reverse("planned_scene_create", args=[pk]),
        reverse("planned_scene_edit", args=[pk, scene.pk]),
        reverse("planned_scene_delete", args=[pk, scene.pk]),
        reverse("planned_scene_move", args=[pk, scene.pk]),
        reverse("prepared_check_create", args=[pk, scene.pk]),
        reverse("prepared_check_edit", args=[pk, check.pk]),
        reverse("prepared_check_delete", args=[pk, check.pk]),
        reverse("scenario_npc_create", args=[pk]),
        reverse("scenario_npc_edit", args=[pk, npc.pk]),
        reverse("scenario_npc_delete", args=[pk, npc.pk]),
        reverse("handout_create", args=[pk]),
        reverse("handout_edit", args=[pk, handout.pk]),
        reverse("handout_delete", args=[pk, handout.pk]),
    ]


# Who may see what


def test_scenario_list_shows_only_own_scenarios(gm_client, scenario, outsider):
    ScenarioFactory(owner=outsider, title="Someone else's plot")

    response = gm_client.get(reverse("scenario_list"))

    assert response.status_code == 200
    assert "The Akashic Library" in response.content.decode()
    assert "Someone else" not in response.content.decode()


def test_scenario_pages_owner_gets_200(gm_client, scenario):
    urls = _scenario_urls(scenario)
    pages = [url for url in urls if "/delete/" not in url and not url.endswith("/move/")]
    pages = [
        url for url in pages if not url.endswith(("/scenes/", "/checks/", "/npcs/", "/handouts/"))
    ]
    pages.append(reverse("scenario_delete", args=[scenario.pk]))

    assert {url: gm_client.get(url).status_code for url in pages} == {url: 200 for url in pages}
    assert len(pages) == 7


def test_scenario_urls_other_gm_gets_404_on_get_and_post(other_gm_client, scenario):
    urls = _scenario_urls(scenario)

    answers = {
        (method, url): getattr(other_gm_client, method)(url).status_code
        for url in urls
        for method in ("get", "post")
    }

    assert set(answers.values()) == {404}
    assert Scenario.objects.filter(pk=scenario.pk).exists()
    assert PlannedScene.objects.count() == 1
    assert Handout.objects.count() == 1


def test_scenario_post_only_url_get_by_owner_not_allowed(gm_client, scenario):
    scene = PlannedSceneFactory(scenario=scenario)

    response = gm_client.get(reverse("planned_scene_delete", args=[scenario.pk, scene.pk]))

    assert response.status_code == 405
    assert PlannedScene.objects.filter(pk=scene.pk).exists()


def test_base_navigation_links_to_scenarios(gm_client, scenario):
    response = gm_client.get(reverse("home"))

    assert f'href="{reverse("scenario_list")}"' in response.content.decode()


# The scenario itself


def test_scenario_list_post_creates_and_redirects(gm_client, gm):
    response = gm_client.post(reverse("scenario_list"), {"title": "Night train", "player_count": 3})

    scenario = Scenario.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("scenario_detail", args=[scenario.pk])
    assert scenario.owner == gm


def test_scenario_list_post_blank_title_shows_error(gm_client):
    response = gm_client.post(reverse("scenario_list"), {"title": "", "player_count": 3})

    assert response.status_code == 400
    assert not Scenario.objects.exists()


def test_scenario_list_post_by_user_without_table_creates(client, outsider):
    client.force_login(outsider)

    client.post(reverse("scenario_list"), {"title": "First try", "player_count": 2})

    assert Scenario.objects.get().owner == outsider


def test_scenario_edit_lowering_players_below_slot_shows_error(gm_client, scenario):
    HandoutFactory(scenario=scenario, slot=2)

    response = gm_client.post(
        reverse("scenario_edit", args=[scenario.pk]), {"title": "Fewer", "player_count": 1}
    )

    assert response.status_code == 400
    assert "PC2" in response.content.decode()
    scenario.refresh_from_db()
    assert scenario.player_count == 2


def test_scenario_delete_post_deletes_and_redirects_to_list(gm_client, scenario):
    response = gm_client.post(reverse("scenario_delete", args=[scenario.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("scenario_list")
    assert not Scenario.objects.exists()


def test_scenario_detail_shows_scenes_in_phase_order(gm_client, scenario):
    PlannedSceneFactory(scenario=scenario, phase="climax", position=1, title="Showdown")
    PlannedSceneFactory(scenario=scenario, phase="opening", position=2, title="Second opening")
    PlannedSceneFactory(scenario=scenario, phase="opening", position=1, title="First opening")

    page = gm_client.get(reverse("scenario_detail", args=[scenario.pk])).content.decode()

    assert page.index("First opening") < page.index("Second opening") < page.index("Showdown")


# Hostile text


def test_scenario_detail_escapes_hostile_text(gm_client, gm):
    hostile = '<script>alert("x")</script> <img src=x onerror=alert(1)>'
    scenario = ScenarioFactory(owner=gm, title=hostile, summary=hostile, gm_notes=hostile)
    PlannedSceneFactory(scenario=scenario, title=hostile, gm_notes=hostile, place=hostile)
    ScenarioNpcFactory(scenario=scenario, name=hostile, notes=hostile)
    HandoutFactory(scenario=scenario, title=hostile, body=hostile)

    page = gm_client.get(reverse("scenario_detail", args=[scenario.pk])).content.decode()

    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "&lt;script&gt;" in page


def test_scenario_detail_markup_rendered_in_summary(gm_client, gm):
    scenario = ScenarioFactory(owner=gm, summary="**Bold** and https://example.org/")

    page = gm_client.get(reverse("scenario_detail", args=[scenario.pk])).content.decode()

    assert "<strong>Bold</strong>" in page
    assert '<a href="https://example.org/" rel="noopener noreferrer nofollow">' in page


def test_scenario_detail_javascript_link_not_clickable(gm_client, gm):
    scenario = ScenarioFactory(owner=gm, gm_notes="javascript:alert(1)")

    page = gm_client.get(reverse("scenario_detail", args=[scenario.pk])).content.decode()

    assert 'href="javascript:' not in page


# Planned scenes


def test_planned_scene_create_plain_post_redirects_to_plan(gm_client, scenario):
    response = gm_client.post(
        reverse("planned_scene_create", args=[scenario.pk]),
        {"phase": "opening", "title": "A letter", "scene_player_slot": "1"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("scenario_detail", args=[scenario.pk]) + "#plan"
    assert scenario.scenes.get().scene_player_slot == 1


def test_planned_scene_create_htmx_returns_plan_partial(gm_client, scenario):
    response = gm_client.post(
        reverse("planned_scene_create", args=[scenario.pk]),
        {"phase": "middle", "title": "Stacks", "scene_player_slot": ""},
        **HTMX,
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="plan"')
    assert "Stacks" in page
    assert "<html" not in page
    assert scenario.scenes.get().is_master


def test_planned_scene_create_htmx_slot_out_of_range_shows_error(gm_client, scenario):
    response = gm_client.post(
        reverse("planned_scene_create", args=[scenario.pk]),
        {"phase": "opening", "title": "PC3", "scene_player_slot": "3"},
        **HTMX,
    )

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert not PlannedScene.objects.exists()


def test_planned_scene_create_plain_post_invalid_shows_page_400(gm_client, scenario):
    response = gm_client.post(
        reverse("planned_scene_create", args=[scenario.pk]), {"phase": "opening", "title": ""}
    )

    assert response.status_code == 400
    assert "<html" in response.content.decode()


def test_planned_scene_move_htmx_reorders_and_returns_plan(gm_client, scenario):
    PlannedSceneFactory(scenario=scenario, position=1, title="Alpha")
    second = PlannedSceneFactory(scenario=scenario, position=2, title="Beta")

    response = gm_client.post(
        reverse("planned_scene_move", args=[scenario.pk, second.pk]), {"direction": "up"}, **HTMX
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert page.index("Beta") < page.index("Alpha")


def test_planned_scene_move_plain_post_redirects(gm_client, scenario):
    first = PlannedSceneFactory(scenario=scenario, position=1, title="Alpha")
    PlannedSceneFactory(scenario=scenario, position=2, title="Beta")

    response = gm_client.post(
        reverse("planned_scene_move", args=[scenario.pk, first.pk]), {"direction": "down"}
    )

    assert response.status_code == 302
    titles = list(scenario.scenes.order_by("position").values_list("title", flat=True))
    assert titles == ["Beta", "Alpha"]


def test_planned_scene_edit_post_saves_and_redirects(gm_client, scenario):
    scene = PlannedSceneFactory(scenario=scenario, title="Old")

    response = gm_client.post(
        reverse("planned_scene_edit", args=[scenario.pk, scene.pk]),
        {"phase": "ending", "title": "New", "scene_player_slot": "", "place": "Dawn"},
    )

    assert response.status_code == 302
    scene.refresh_from_db()
    assert (scene.phase, scene.title, scene.place, scene.is_master) == (
        "ending",
        "New",
        "Dawn",
        True,
    )


def test_planned_scene_delete_htmx_returns_plan_without_it(gm_client, scenario):
    scene = PlannedSceneFactory(scenario=scenario, title="Doomed scene")

    response = gm_client.post(reverse("planned_scene_delete", args=[scenario.pk, scene.pk]), **HTMX)

    assert response.status_code == 200
    assert "planned-scene-" not in response.content.decode().split("Plan a scene")[0]
    assert not PlannedScene.objects.exists()


def test_planned_scene_of_another_scenario_gets_404(gm_client, scenario, gm):
    other_scene = PlannedSceneFactory(scenario=ScenarioFactory(owner=gm))

    response = gm_client.post(reverse("planned_scene_delete", args=[scenario.pk, other_scene.pk]))

    assert response.status_code == 404
    assert PlannedScene.objects.filter(pk=other_scene.pk).exists()


# Prepared checks, NPCs, handouts


def test_prepared_check_create_htmx_adds_secret_check(gm_client, scenario):
    scene = PlannedSceneFactory(scenario=scenario)

    response = gm_client.post(
        reverse("prepared_check_create", args=[scenario.pk, scene.pk]),
        {"label": "Notice the shelves", "value_name": "Senses", "difficulty": "10", "secret": "on"},
        **HTMX,
    )

    assert response.status_code == 200
    assert "Notice the shelves" in response.content.decode()
    check = PreparedCheck.objects.get()
    assert (check.value_name, check.difficulty, check.secret) == ("Senses", 10, True)


def test_prepared_check_edit_post_saves(gm_client, scenario):
    check = PreparedCheckFactory(planned_scene__scenario=scenario)

    response = gm_client.post(
        reverse("prepared_check_edit", args=[scenario.pk, check.pk]),
        {"label": "Renamed", "value_name": "Spirit", "difficulty": ""},
    )

    assert response.status_code == 302
    check.refresh_from_db()
    assert (check.label, check.value_name, check.difficulty) == ("Renamed", "Spirit", None)


def test_scenario_npc_create_htmx_returns_npcs_partial(gm_client, scenario):
    response = gm_client.post(
        reverse("scenario_npc_create", args=[scenario.pk]),
        {"name": "Index Ghost", "value_3": "6", "extra_values": "Library lore = 4"},
        **HTMX,
    )

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="npcs"')
    assert ScenarioNpc.objects.get().judgement_values == {"Intellect": 6, "Library lore": 4}


def test_scenario_npc_create_bad_value_line_shows_error(gm_client, scenario):
    response = gm_client.post(
        reverse("scenario_npc_create", args=[scenario.pk]),
        {"name": "Ghost", "extra_values": "just words"},
    )

    assert response.status_code == 400
    assert not ScenarioNpc.objects.exists()


def test_handout_create_plain_post_for_slot(gm_client, scenario):
    response = gm_client.post(
        reverse("handout_create", args=[scenario.pk]),
        {"title": "Aki's secret", "slot": "1", "body": "**Keeper**"},
    )

    assert response.status_code == 302
    assert Handout.objects.get().slot == 1


def test_handout_create_htmx_slot_out_of_range_shows_error(gm_client, scenario):
    response = gm_client.post(
        reverse("handout_create", args=[scenario.pk]), {"title": "PC5", "slot": "5"}, **HTMX
    )

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="handouts"')
    assert 'class="error"' in response.content.decode()
    assert not Handout.objects.exists()


def test_handout_delete_htmx_returns_handouts_partial(gm_client, scenario):
    handout = HandoutFactory(scenario=scenario, title="Gone soon")

    response = gm_client.post(reverse("handout_delete", args=[scenario.pk, handout.pk]), **HTMX)

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="handouts"')
    assert not Handout.objects.exists()


# What every kind of item shares: its own edit page, a redirect to its place, a message

ITEM_KINDS = [
    # URL names' start, the item, the field naming it, a valid edit, its place, deleted
    ("planned_scene", lambda s: PlannedSceneFactory(scenario=s, title="Stacks"), "title",
     {"phase": "middle", "title": "Stacks", "scene_player_slot": ""}, "planned-scene-{scene}",
     "The scene “Stacks” was deleted."),
    ("prepared_check", lambda s: PreparedCheckFactory(planned_scene__scenario=s, label="Look"),
     "label", {"label": "Look", "value_name": "Senses"}, "planned-scene-{scene}",
     "The check “Look” was deleted."),
    ("scenario_npc", lambda s: ScenarioNpcFactory(scenario=s, name="Ghost"), "name",
     {"name": "Ghost"}, "npc-{pk}", "Ghost was deleted."),
    ("handout", lambda s: HandoutFactory(scenario=s, title="Letter"), "title",
     {"title": "Letter", "slot": ""}, "handout-{pk}", "The handout “Letter” was deleted."),
]  # fmt: skip
ITEM_PARAMETERS = ("kind", "make", "field", "data", "anchor", "deleted")


def _place(anchor, item):
    scene = getattr(item, "planned_scene_id", item.pk)
    return anchor.format(pk=item.pk, scene=scene)


@pytest.mark.parametrize(ITEM_PARAMETERS, ITEM_KINDS)
def test_scenario_item_edit_page_shows_item(
    gm_client, scenario, kind, make, field, data, anchor, deleted
):
    item = make(scenario)

    response = gm_client.get(reverse(f"{kind}_edit", args=[scenario.pk, item.pk]))

    page = response.content.decode()
    heading = page.split("<h1>")[1].split("</h1>")[0]
    detail = reverse("scenario_detail", args=[scenario.pk])
    assert response.status_code == 200
    assert heading.startswith("Edit the ")
    assert getattr(item, field) in heading
    assert f'value="{getattr(item, field)}"' in page
    assert f'href="{detail}#{_place(anchor, item)}"' in page


@pytest.mark.parametrize(ITEM_PARAMETERS, ITEM_KINDS)
def test_scenario_item_edit_post_saves_and_goes_back_to_it(
    gm_client, scenario, kind, make, field, data, anchor, deleted
):
    item = make(scenario)

    response = gm_client.post(
        reverse(f"{kind}_edit", args=[scenario.pk, item.pk]), {**data, field: "Renamed"}
    )

    item.refresh_from_db()
    detail = reverse("scenario_detail", args=[scenario.pk])
    assert getattr(item, field) == "Renamed"
    assert response.status_code == 302
    assert response["Location"] == f"{detail}#{_place(anchor, item)}"
    assert " was saved." in gm_client.get(detail).content.decode()


@pytest.mark.parametrize(ITEM_PARAMETERS, ITEM_KINDS)
def test_scenario_item_edit_post_blank_name_shows_page_400(
    gm_client, scenario, kind, make, field, data, anchor, deleted
):
    item = make(scenario)
    name = getattr(item, field)

    response = gm_client.post(
        reverse(f"{kind}_edit", args=[scenario.pk, item.pk]), {**data, field: ""}
    )

    item.refresh_from_db()
    assert response.status_code == 400
    assert 'class="error"' in response.content.decode()
    assert getattr(item, field) == name


@pytest.mark.parametrize(ITEM_PARAMETERS, ITEM_KINDS)
def test_scenario_item_delete_plain_post_redirects_with_message(
    gm_client, scenario, kind, make, field, data, anchor, deleted
):
    item = make(scenario)

    response = gm_client.post(reverse(f"{kind}_delete", args=[scenario.pk, item.pk]))

    detail = reverse("scenario_detail", args=[scenario.pk])
    assert response.status_code == 302
    assert response["Location"].startswith(f"{detail}#")
    assert not type(item).objects.filter(pk=item.pk).exists()
    assert deleted in gm_client.get(detail).content.decode()


def test_prepared_check_create_htmx_invalid_reopens_the_form_of_its_scene(gm_client, scenario):
    scene = PlannedSceneFactory(scenario=scenario)
    other = PlannedSceneFactory(scenario=scenario)

    response = gm_client.post(
        reverse("prepared_check_create", args=[scenario.pk, scene.pk]),
        {"label": "", "value_name": "Senses"},
        **HTMX,
    )

    page = response.content.decode()
    opened = page.split('<details class="add-item" open>')
    assert response.status_code == 200
    assert len(opened) == 2
    assert (
        f'action="{reverse("prepared_check_create", args=[scenario.pk, scene.pk])}"'
        in (opened[1].split("</details>")[0])
    )
    assert f'id="check{other.pk}_label"' in page
    assert not PreparedCheck.objects.exists()
