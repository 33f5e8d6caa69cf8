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


@pytest.mark.django_db
def test_the_timeline_has_one_index_for_lookups_by_session():
    from django.db import connection

    from sessions_app.models import TimelineEvent

    table = TimelineEvent._meta.db_table
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
        by_session = [
            name
            for name, constraint in constraints.items()
            if constraint["index"] or constraint["unique"]
            if constraint["columns"][:1] == ["session_id"]
        ]
        assert by_session == ["timeline_seq_unique"]
        if connection.vendor == "sqlite":
            cursor.execute(
                f"EXPLAIN QUERY PLAN SELECT id FROM {table} WHERE session_id = %s ORDER BY seq",  # noqa: S608 - name from the model
                [1],
            )
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "timeline_seq_unique" in plan or "sqlite_autoindex" in plan
