"""The SRS template filters: the labels the app writes, in the reader's language."""

from django.utils import translation

from sessions_app.templatetags.srs_tags import modifier_label, modifier_list


def test_modifier_label_translates_the_gm_modifier():
    with translation.override("ja"):
        assert modifier_label("GM modifier") == "GMの修正"


def test_modifier_label_shows_a_players_own_label_as_typed():
    with translation.override("ja"):
        assert modifier_label("Climbing gear") == "Climbing gear"


def test_modifier_list_joins_labels_and_signed_amounts():
    rows = [{"label": "GM modifier", "amount": 1}, {"label": "Shield", "amount": -3}]
    assert modifier_list(rows) == "GM modifier +1, Shield -3"
