from django.contrib.auth.models import AnonymousUser

from sessions_app.selectors.tables import membership_get, tables_for_user
from tests.factories import TableFactory


def test_tables_for_user_lists_only_own_tables(table, player_membership, player):
    TableFactory(name="Elsewhere")

    assert list(tables_for_user(user=player)) == [table]


def test_membership_get_reads_the_row(table, gm, player, player_membership):
    assert membership_get(user=player, table_id=table.pk) == player_membership
    assert membership_get(user=gm, table_id=table.pk).role == "gm"


def test_membership_get_none_for_outsider_and_anonymous(table, outsider):
    assert membership_get(user=outsider, table_id=table.pk) is None
    assert membership_get(user=AnonymousUser(), table_id=table.pk) is None
    assert membership_get(user=None, table_id=table.pk) is None
