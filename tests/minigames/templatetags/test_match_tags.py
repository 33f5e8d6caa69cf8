from django.template.loader import render_to_string
from django.utils import translation

from minigames.templatetags.match_tags import GENERIC_WON_TEMPLATE, game_label, won_template


def test_game_label_names_a_shipped_game_in_the_reader_s_language():
    with translation.override("ja"):
        assert game_label("actual") == "アクチュアル"
    assert game_label("acticsx") == "Actics X"


def test_game_label_keeps_the_key_of_a_game_no_longer_shipped():
    assert game_label("chess") == "chess"


def test_won_template_is_the_game_s_own_sentence_or_the_plain_one():
    assert won_template("actual") == "minigames/kinds/actual_won.html"
    assert won_template("acticsx") == GENERIC_WON_TEMPLATE
    assert won_template("chess") == GENERIC_WON_TEMPLATE


def test_a_won_match_of_an_unknown_game_still_reads():
    payload = {"game": "chess", "winner_name": "Aki", "loser_name": "Ren"}
    html = render_to_string(won_template("chess"), {"p": payload})
    assert html == "Aki beat Ren at chess."
