import pytest
from django.utils import translation

from sessions_app.models import RulesProfile
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "language", "shown"),
    [
        ("SRS standard", "en", "SRS standard"),
        ("SRS standard", "ja", "SRS標準"),
        ("Akashic Recorder", "ja", "アカシックレコーダー"),
    ],
)
def test_shipped_profile_name_is_shown_in_the_readers_language(name, language, shown):
    profile = RulesProfile.objects.get(table=None, name=name)

    with translation.override(language):
        assert profile.display_name == shown
        assert str(profile) == shown


def test_a_tables_own_profile_keeps_the_name_its_gm_wrote():
    profile = RulesProfile.objects.create(table=TableFactory(), name="SRS standard")

    with translation.override("ja"):
        assert profile.display_name == "SRS standard"
