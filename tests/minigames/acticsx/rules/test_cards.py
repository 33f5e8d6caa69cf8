"""Card data tests: the data file is valid, and every card's text does what it says."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from minigames.acticsx.rules import cards, effects, engine
from tests.minigames.acticsx.rules.test_engine import act, at, build, card, move, plan, run, steps

COVERED: set[str] = set()


def covers(*card_ids):
    """Mark a test as exercising the text of these cards (checked by the coverage test)."""
    COVERED.update(card_ids)

    def mark(fn):
        return fn

    return mark


def view_power(state, square):
    for actor in engine.player_view(state, None)["actors"]:
        if actor["square"] == square:
            return actor["power"]
    raise AssertionError(f"no actor on {square}")


# -- the data file -----------------------------------------------------------------------------


def test_card_data_file_has_no_problems():
    data = json.loads(cards.DATA_PATH.read_text(encoding="utf-8"))
    assert cards.data_problems(data) == []


def test_card_set_has_24_actors_over_every_attribute_level_and_rarity():
    actors = [c for c in cards.CARDS.values() if c["kind"] == "actor"]
    assert len(actors) >= 24
    assert {c["attribute"] for c in actors} == {"water", "fire", "wood", "none"}
    assert {c["level"] for c in actors} == {1, 2, 3}
    assert {c["rarity"] for c in actors} == {"Common", "Uncommon", "Rare"}


def test_card_set_movement_shapes_vary_over_the_8_directions():
    actors = [c for c in cards.CARDS.values() if c["kind"] == "actor"]
    shapes = {tuple(c["range"][d] for d in cards.DIRECTIONS) for c in actors}
    assert len(shapes) >= 8
    for direction in cards.DIRECTIONS:
        assert any(c["range"][direction] for c in actors), direction


def test_card_set_every_actor_has_an_awakening_bonus():
    for c in cards.CARDS.values():
        if c["kind"] == "actor":
            awakening = c["awakening"]
            assert awakening["power"] or any(awakening["range"].values()), c["id"]


@pytest.mark.parametrize(
    ("kind", "speed"),
    [
        ("deploy", None),
        ("trigger", None),
        ("trait", None),
        ("action", 1),
        ("action", 2),
        ("jump", None),
    ],
)
def test_card_set_has_each_text_kind_on_two_cards(kind, speed):
    holders = [
        c["id"]
        for c in cards.CARDS.values()
        if any(t["kind"] == kind and t.get("speed") == speed for t in c["texts"])
    ]
    assert len(holders) >= 2


def test_card_set_has_8_ex_cards_normal_and_counter():
    ex = Counter(c["ex_kind"] for c in cards.CARDS.values() if c["kind"] == "ex")
    assert sum(ex.values()) >= 8
    assert ex["normal"] >= 2 and ex["counter"] >= 2


def test_card_set_every_card_has_the_fields_card_art_needs():
    needed = {"id", "name", "kind", "attribute", "level", "rarity", "power", "range", "texts"}
    for c in cards.CARDS.values():
        assert needed <= set(c), c["id"]
        assert set(c["name"]) == {"en", "ja"}


def test_card_texts_use_registered_effects_with_their_wording():
    for c in cards.CARDS.values():
        for text in c["texts"]:
            assert text["effect"] in effects.REGISTRY
            assert text["text"] == effects.describe(text), c["id"]


def test_card_problems_reports_an_unknown_effect():
    broken = json.loads(json.dumps(cards.CARDS["tide_sprite"]))
    broken["texts"][0]["effect"] = "teleport"
    assert cards.card_problems(broken) == [
        "tide_sprite: text 0: effect 'teleport' is not in the registry"
    ]


def test_card_problems_reports_a_bad_parameter():
    broken = json.loads(json.dumps(cards.CARDS["tide_sprite"]))
    broken["texts"][0]["params"]["count"] = 9
    assert cards.card_problems(broken) == [
        "tide_sprite: text 0: parameter 'count' of 'draw' must be at most 3"
    ]


def test_card_problems_reports_a_text_kind_the_effect_does_not_allow():
    broken = json.loads(json.dumps(cards.CARDS["coral_guard"]))
    broken["texts"][0]["kind"] = "deploy"
    assert "cannot be used by a deploy text" in cards.card_problems(broken)[0]


def test_card_problems_reports_an_action_without_speed():
    broken = json.loads(json.dumps(cards.CARDS["flame_wolf"]))
    del broken["texts"][0]["speed"]
    assert cards.card_problems(broken) == ["flame_wolf: text 0: an action text needs speed 1 or 2"]


def test_card_problems_reports_a_missing_direction():
    broken = json.loads(json.dumps(cards.CARDS["ember_fox"]))
    del broken["range"]["BL"]
    assert "range must give all 8 directions" in cards.card_problems(broken)[0]


def test_card_problems_reports_an_ex_card_with_power():
    broken = json.loads(json.dumps(cards.CARDS["pitfall"]))
    broken["power"] = 3
    assert cards.card_problems(broken) == ["pitfall: an EX card has no power"]


def test_data_problems_reports_a_duplicate_id():
    data = json.loads(cards.DATA_PATH.read_text(encoding="utf-8"))
    data["cards"].append(data["cards"][0])
    assert "tide_sprite: the id is used twice" in cards.data_problems(data)


def test_load_cards_rejects_a_broken_file(tmp_path):
    data = json.loads(cards.DATA_PATH.read_text(encoding="utf-8"))
    data["cards"][0]["level"] = 4
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(cards.CardDataError, match="level must be 1, 2 or 3"):
        cards.load_cards(path)


def test_new_card_is_a_data_entry(tmp_path):
    data = json.loads(cards.DATA_PATH.read_text(encoding="utf-8"))
    new = json.loads(json.dumps(cards.CARDS["ember_fox"]))
    new["id"] = "storm_fox"
    new["name"] = {"en": "Storm Fox", "ja": "嵐の狐"}
    text = {"kind": "action", "effect": "snipe", "params": {"reach": 2, "max_power": 2}, "speed": 2}
    new["texts"] = [{**text, "text": effects.describe(text)}]
    data["cards"].append(new)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded, _decks = cards.load_cards(path)
    assert loaded["storm_fox"]["texts"][0]["effect"] == "snipe"


# -- decks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("deck_id", sorted(cards.DECKS))
def test_ready_made_deck_is_legal(deck_id):
    assert cards.validate_deck(cards.deck_list(deck_id)) == []


def test_ready_made_decks_are_two():
    assert len(cards.DECKS) == 2


def test_validate_deck_too_many_copies():
    ids = cards.deck_list("tide_grove")
    ids[ids.index("tide_sprite") + 2 :] = []
    ids += ["tide_sprite"] * (20 - len(ids))
    reasons = cards.validate_deck(ids)
    assert any(r.startswith("At most 2 copies of a card: Tide Sprite has") for r in reasons)


def test_validate_deck_wrong_size():
    assert cards.validate_deck(cards.deck_list("tide_grove")[:19]) == [
        "A deck needs exactly 20 cards; this one has 19."
    ]


def test_validate_deck_unknown_card():
    ids = cards.deck_list("tide_grove")[:19] + ["dragon_king"]
    assert cards.validate_deck(ids) == ["There is no card 'dragon_king' in the card set."]


# -- every card's text ----------------------------------------------------------------------------


@covers("tide_sprite")
def test_tide_sprite_trigger_draws_a_card():
    state = build(actors=[(0, "tide_sprite", "A1"), (1, "seed_scout", "B4")])
    after = run(state, plan(move("A1", "F")))
    assert after["players"][0]["discard"] == ["tide_sprite"]
    assert len(after["players"][0]["hand"]) == 2


@covers("coral_guard")
def test_coral_guard_gets_power_when_defending():
    state = build(actors=[(0, "coral_guard", "A1"), (1, "wandering_monk", "B4")])
    after = run(state, plan(), plan(move("B4", "F")))
    assert at(after, "A1") == (0, "coral_guard")
    assert steps(after, "battle")[0]["power"] == [2, 4]


@covers("bubble_courier", "seed_scout")
@pytest.mark.parametrize("cid", ["bubble_courier", "seed_scout"])
def test_deploy_draw_cards_draw_on_deployment(cid):
    after = run(build(hands=([cid], [])), plan(play=[card(cid, "A9")]))
    assert len(after["players"][0]["hand"]) == 2
    assert steps(after, "deploy_text")


@covers("mist_heron", "shadow_runner")
@pytest.mark.parametrize("cid", ["mist_heron", "shadow_runner"])
def test_jump_forward_three_passes_over_own_and_enemy_actors(cid):
    state = build(actors=[(0, cid, "A9"), (0, "seed_scout", "A5"), (1, "ember_fox", "A1")])
    after = run(state, plan(move("A9", "F", 3)))
    assert at(after, "B4") == (0, cid)
    assert at(after, "A1") == (1, "ember_fox")


@covers("cinder_imp", "forest_stag")
@pytest.mark.parametrize("cid", ["cinder_imp", "forest_stag"])
def test_jump_diagonal_passes_over_an_actor(cid):
    state = build(actors=[(0, cid, "A9"), (0, "seed_scout", "A6")])
    after = run(state, plan(move("A9", "FR", 2)))
    assert at(after, "A3") == (0, cid)


@covers("river_archer")
def test_river_archer_shoots_power_3_within_3_ahead():
    state = build(actors=[(0, "river_archer", "A5"), (1, "ember_fox", "B8")])
    after = run(state, plan(act("A5")))
    assert at(after, "B8") is None


@covers("river_archer")
def test_river_archer_does_not_shoot_power_4():
    state = build(actors=[(0, "river_archer", "A5"), (1, "flame_wolf", "B8")])
    after = run(state, plan(act("A5")))
    assert at(after, "B8") == (1, "flame_wolf")


@covers("frost_maiden", "bramble_witch")
@pytest.mark.parametrize("cid", ["frost_maiden", "bramble_witch"])
def test_bind_stops_the_first_enemy_within_2_ahead(cid):
    state = build(actors=[(0, cid, "A5"), (1, "ember_fox", "B4")])
    after = run(state, plan(act("A5")), plan(move("B4", "F")))
    assert at(after, "B4") == (1, "ember_fox")
    assert steps(after, "cancel")


@covers("leviathan_pup")
def test_leviathan_pup_gets_power_against_wood():
    # Wood doubles the stag to 6; the pup's 6 + 3 still wins.
    state = build(actors=[(0, "leviathan_pup", "A1"), (1, "forest_stag", "B4")])
    after = run(state, plan(move("A1", "F")))
    assert steps(after, "battle")[0]["power"] == [9, 6]
    assert at(after, "B4") == (0, "leviathan_pup")


@covers("ember_fox")
def test_ember_fox_awakening_adds_power_and_side_range():
    state = build(actors=[(0, "ember_fox", "B4")])
    assert view_power(state, "B4") == 3
    after = run(state, plan(move("B4", "R", 2)))
    assert at(after, "B2") == (0, "ember_fox")


@covers("torch_bearer", "elder_treant")
@pytest.mark.parametrize("cid", ["torch_bearer", "elder_treant"])
def test_aura_raises_adjacent_own_actors_only(cid):
    state = build(
        actors=[
            (0, cid, "A2"),
            (0, "ember_fox", "A1"),
            (0, "seed_scout", "A4"),
            (1, "cinder_imp", "A3"),
        ]
    )
    assert view_power(state, "A1") == 3
    assert view_power(state, "A4") == 2
    assert view_power(state, "A3") == 2
    assert view_power(state, "A2") == cards.CARDS[cid]["power"]


@covers("flame_wolf")
def test_flame_wolf_powers_up_before_the_opposing_move():
    state = build(actors=[(0, "flame_wolf", "A1"), (1, "blaze_knight", "B4")])
    after = run(state, plan(act("A1")), plan(move("B4", "F")))
    assert steps(after, "battle")[0]["power"] == [6, 6]
    assert after["actors"] == []


@covers("ash_gunner")
def test_ash_gunner_shoots_power_4_within_2_ahead():
    state = build(actors=[(0, "ash_gunner", "A1"), (1, "flame_wolf", "B8")])
    after = run(state, plan(act("A1")))
    assert at(after, "B8") is None


@covers("phoenix_chick")
def test_phoenix_chick_returns_to_hand_when_beaten():
    state = build(actors=[(0, "phoenix_chick", "A1"), (1, "tide_sprite", "B4")])
    after = run(state, plan(move("A1", "F")))
    assert "phoenix_chick" in after["players"][0]["hand"]
    assert after["players"][0]["discard"] == []


@covers("blaze_knight")
def test_blaze_knight_deploy_shoots_power_2_within_2_ahead():
    state = build(actors=[(1, "cinder_imp", "A5")], hands=(["blaze_knight"], []))
    after = run(state, plan(play=[card("blaze_knight", "A9")]))
    assert at(after, "A5") is None
    assert after["players"][1]["discard"] == ["cinder_imp"]


@covers("thorn_sprout")
def test_thorn_sprout_takes_its_winner_along():
    state = build(actors=[(0, "thorn_sprout", "A1"), (1, "ember_fox", "B4")])
    after = run(state, plan(), plan(move("B4", "F")))
    assert after["actors"] == []
    assert after["players"][1]["discard"] == ["ember_fox"]


@covers("moss_golem")
def test_moss_golem_gets_power_when_defending():
    state = build(actors=[(0, "moss_golem", "A1"), (1, "iron_sentinel", "A2")])
    after = run(state, plan(), plan(move("A2", "R")))
    assert steps(after, "battle")[0]["power"] == [4, 6]
    assert at(after, "A1") == (0, "moss_golem")


@covers("vine_lasher")
def test_vine_lasher_pushes_the_enemy_in_front_back():
    state = build(actors=[(0, "vine_lasher", "A4"), (1, "ember_fox", "B1")])
    after = run(state, plan(act("A4")))
    assert at(after, "B5") == (1, "ember_fox")


@covers("vine_lasher")
def test_vine_lasher_cannot_push_into_an_occupied_square():
    state = build(
        actors=[(0, "vine_lasher", "A4"), (1, "ember_fox", "B1"), (1, "seed_scout", "B5")]
    )
    after = run(state, plan(act("A4")))
    assert at(after, "B1") == (1, "ember_fox")


@covers("wandering_monk")
def test_wandering_monk_action_draws_a_card():
    after = run(build(actors=[(0, "wandering_monk", "A5")]), plan(act("A5")))
    assert len(after["players"][0]["hand"]) == 2


@covers("iron_sentinel")
def test_iron_sentinel_is_stronger_on_its_own_side():
    state = build(actors=[(0, "iron_sentinel", "A1"), (0, "iron_sentinel", "B4")])
    assert view_power(state, "A1") == 5
    assert view_power(state, "B4") == 4


@covers("war_drummer")
def test_war_drummer_rallies_before_the_next_actor_acts():
    state = build(
        actors=[(0, "war_drummer", "A2"), (0, "ember_fox", "A1"), (1, "wandering_monk", "B4")]
    )
    after = run(state, plan(act("A2"), move("A1", "F")))
    assert at(after, "B4") == (0, "ember_fox")


@covers("clockwork_titan")
def test_clockwork_titan_trigger_draws_two():
    state = build(actors=[(0, "clockwork_titan", "A1"), (1, "blaze_knight", "A2")])
    after = run(state, plan(), plan(move("A2", "R")))
    assert after["actors"] == []
    assert len(after["players"][0]["hand"]) == 3


@covers("supply_drop")
def test_supply_drop_draws_two():
    after = run(build(hands=(["supply_drop"], [])), plan(play=[card("supply_drop", "A10")]))
    assert len(after["players"][0]["hand"]) == 3


@covers("battle_cry")
def test_battle_cry_raises_every_own_actor_this_turn():
    state = build(
        actors=[(0, "ember_fox", "A1"), (1, "wandering_monk", "B4")], hands=(["battle_cry"], [])
    )
    after = run(state, plan(move("A1", "F"), play=[card("battle_cry", "A9")]))
    assert at(after, "B4") == (0, "ember_fox")


@covers("ballista")
def test_ballista_shoots_down_its_column():
    state = build(actors=[(1, "flame_wolf", "B8")], hands=(["ballista"], []))
    after = run(state, plan(play=[card("ballista", "A9")]))
    assert at(after, "B8") is None


@covers("banner_of_valor")
def test_banner_of_valor_raises_own_actors_in_its_column():
    state = build(
        actors=[(0, "ember_fox", "A2"), (0, "seed_scout", "A1")], hands=(["banner_of_valor"], [])
    )
    after = run(state, plan(play=[card("banner_of_valor", "A10")]))
    fox = next(a["uid"] for a in state["actors"] if a["card"] == "ember_fox")
    assert [(s["uid"], s["power"]) for s in steps(after, "power")] == [(fox, 4)]


@covers("pitfall")
def test_pitfall_discards_the_first_enemy_entering():
    state = build(actors=[(1, "ember_fox", "B4")], hands=(["pitfall"], []))
    after = run(state, plan(play=[card("pitfall", "A1")]), plan(move("B4", "F", 2)))
    assert after["actors"] == []
    assert after["players"][1]["discard"] == ["ember_fox"]


@covers("pitfall")
def test_pitfall_spares_a_level_3_actor():
    state = build(actors=[(1, "blaze_knight", "B4")], hands=(["pitfall"], []))
    after = run(state, plan(play=[card("pitfall", "A1")]), plan(move("B4", "F")))
    assert at(after, "A1") == (1, "blaze_knight")


@covers("ambush")
def test_ambush_weakens_the_first_enemy_entering():
    state = build(actors=[(0, "ember_fox", "A1"), (1, "flame_wolf", "B4")], hands=(["ambush"], []))
    after = run(state, plan(play=[card("ambush", "A1")]), plan(move("B4", "F")))
    assert steps(after, "battle")[0]["power"] == [2, 2]
    assert after["actors"] == []


@covers("iron_wall")
def test_iron_wall_raises_own_actor_when_revealed():
    state = build(
        actors=[(0, "ember_fox", "A1"), (1, "flame_wolf", "B4")], hands=(["iron_wall"], [])
    )
    after = run(state, plan(play=[card("iron_wall", "A1")]), plan(move("B4", "F")))
    assert at(after, "A1") == (0, "ember_fox")


@covers("binding_seal")
def test_binding_seal_stops_the_enemy_actor_on_its_square():
    state = build(actors=[(1, "ember_fox", "B4")], hands=(["binding_seal"], []))
    after = run(state, plan(play=[card("binding_seal", "B4")]), plan(move("B4", "F")))
    assert at(after, "B4") == (1, "ember_fox")


def test_every_card_has_a_test_of_its_text():
    assert set(cards.CARDS) - COVERED == set()
