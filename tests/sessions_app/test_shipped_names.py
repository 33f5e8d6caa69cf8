from django.utils import translation

from sessions_app.shipped_names import shown_name


def test_a_shipped_name_is_shown_in_the_readers_language():
    with translation.override("ja"):
        assert shown_name("Strength", ["Strength"]) == "筋力"


def test_a_groups_own_name_is_shown_as_typed_even_when_the_app_translates_it_elsewhere():
    with translation.override("ja"):
        assert shown_name("Strength", ["Reflexes"]) == "Strength"
