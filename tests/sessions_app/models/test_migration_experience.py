"""Migration 0011: ledgers kept per table become one ledger per person and game."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("sessions_app", "0010_timeline_session_index_in_unique")]
AFTER = [("sessions_app", "0011_experience_per_person")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_migration_keeps_every_ledger_line_and_counts_balances_per_person():
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")
    Table = apps.get_model("sessions_app", "Table")
    Entry = apps.get_model("sessions_app", "ExperienceEntry")
    gm, aki = User.objects.create(username="gm"), User.objects.create(username="aki")
    standard = RulesProfile.objects.get_or_create(table=None, name="SRS standard")[0]
    akashic = RulesProfile.objects.get_or_create(table=None, name="Akashic Recorder")[0]
    friday = Table.objects.create(name="Friday", gm=gm, rules_profile=standard)
    sunday = Table.objects.create(name="Sunday", gm=gm)
    renamed = RulesProfile.objects.create(table=sunday, name="Sunday house rules")
    sunday.rules_profile = renamed
    sunday.save()
    library = Table.objects.create(name="Library", gm=gm, rules_profile=akashic)
    old = [
        # table, person, kind, amount, per-table balance after
        (friday, aki, "award", 5, 5),
        (sunday, aki, "award", 3, 3),
        (friday, aki, "correction", -2, 3),
        (library, aki, "award", 4, 4),
        (sunday, gm, "award", 2, 2),
        (friday, aki, "award", 1, 4),
    ]
    for table, person, kind, amount, balance in old:
        Entry.objects.create(
            table=table,
            person=person,
            kind=kind,
            amount=amount,
            reason="Line",
            balance_after=balance,
            created_by=gm,
        )

    apps = _migrate(AFTER)
    Entry = apps.get_model("sessions_app", "ExperienceEntry")
    Account = apps.get_model("sessions_app", "ExperienceAccount")
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")

    rows = list(
        Entry.objects.order_by("id").values_list(
            "table__name", "person__username", "amount", "game", "balance_after"
        )
    )
    assert rows == [
        ("Friday", "aki", 5, "SRS standard", 5),
        ("Sunday", "aki", 3, "SRS standard", 8),
        ("Friday", "aki", -2, "SRS standard", 6),
        ("Library", "aki", 4, "Akashic Recorder", 4),
        ("Sunday", "gm", 2, "SRS standard", 2),
        ("Friday", "aki", 1, "SRS standard", 7),
    ]
    assert set(Account.objects.values_list("person__username", "game")) == {
        ("aki", "SRS standard"),
        ("aki", "Akashic Recorder"),
        ("gm", "SRS standard"),
    }
    assert RulesProfile.objects.get(name="Sunday house rules").game == "SRS standard"
    assert RulesProfile.objects.get(table=None, name="Akashic Recorder").game == "Akashic Recorder"

    apps = _migrate(BEFORE)
    Entry = apps.get_model("sessions_app", "ExperienceEntry")
    assert [balance for *_rest, balance in old] == list(
        Entry.objects.order_by("id").values_list("balance_after", flat=True)
    )
    # Leave the database as every other test expects it: fully migrated.
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
