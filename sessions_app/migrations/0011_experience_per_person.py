"""Experience belongs to the person: one balance per game instead of one per table.

Each rules profile names its game (the shipped profile it derives from); each ledger line
takes the game of its table's profile, and the running balances are counted again per
person and game, oldest line first. No line is added or removed; a table's lines stay in
one game, so merging ledgers can only add points before any spending and no balance goes
below zero. Going back counts the balances per table again.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

# A table's own profile is a copy of a shipped one. A copy renamed before profiles named
# their game most likely started from the default, which every table uses until it changes.
DEFAULT_GAME = "SRS standard"


def _table_games(apps) -> dict[int, str]:
    Table = apps.get_model("sessions_app", "Table")
    return {
        table.pk: (table.rules_profile.game if table.rules_profile_id else DEFAULT_GAME)
        for table in Table.objects.select_related("rules_profile")
    }


def name_games(apps, schema_editor):
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")
    shipped = set(RulesProfile.objects.filter(table=None).values_list("name", flat=True))
    for profile in RulesProfile.objects.all():
        game = profile.name if profile.table_id is None or profile.name in shipped else None
        RulesProfile.objects.filter(pk=profile.pk).update(game=game or DEFAULT_GAME)


def ledgers_per_person(apps, schema_editor):
    ExperienceEntry = apps.get_model("sessions_app", "ExperienceEntry")
    ExperienceAccount = apps.get_model("sessions_app", "ExperienceAccount")
    games = _table_games(apps)
    balances: dict[tuple[int, str], int] = {}
    for entry in ExperienceEntry.objects.order_by("id").iterator():
        key = (entry.person_id, games[entry.table_id])
        balances[key] = balances.get(key, 0) + entry.amount
        ExperienceEntry.objects.filter(pk=entry.pk).update(game=key[1], balance_after=balances[key])
    for person_id, game in balances:
        ExperienceAccount.objects.get_or_create(person_id=person_id, game=game)


def ledgers_per_table(apps, schema_editor):
    ExperienceEntry = apps.get_model("sessions_app", "ExperienceEntry")
    balances: dict[tuple[int, int], int] = {}
    for entry in ExperienceEntry.objects.order_by("id").iterator():
        key = (entry.table_id, entry.person_id)
        balances[key] = balances.get(key, 0) + entry.amount
        ExperienceEntry.objects.filter(pk=entry.pk).update(balance_after=balances[key])


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0010_timeline_session_index_in_unique"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="rulesprofile",
            name="game",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text=(
                    "The shipped profile this one derives from: experience earned under it "
                    "is spent on PCs of the same game."
                ),
                max_length=100,
                verbose_name="game",
            ),
        ),
        migrations.AddField(
            model_name="rulesprofile",
            name="growth_self_service",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "On: a player's spending changes the sheet at once. "
                    "Off: the GM confirms it first."
                ),
                verbose_name="self-service growth",
            ),
        ),
        migrations.AlterModelOptions(
            name="experienceentry",
            options={
                "ordering": ["person_id", "game", "id"],
                "verbose_name": "experience entry",
                "verbose_name_plural": "experience entries",
            },
        ),
        migrations.AddField(
            model_name="experienceentry",
            name="game",
            field=models.CharField(default="", max_length=100, verbose_name="game"),
            preserve_default=False,
        ),
        migrations.CreateModel(
            name="ExperienceAccount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(max_length=100, verbose_name="game")),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="experience_accounts",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="person",
                    ),
                ),
            ],
            options={
                "verbose_name": "experience account",
                "verbose_name_plural": "experience accounts",
                "ordering": ["person_id", "game"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("person", "game"), name="experience_account_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="GrowthRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.CharField(max_length=200, verbose_name="growth")),
                ("cost", models.PositiveIntegerField(verbose_name="cost")),
                (
                    "growth",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        help_text=(
                            "What the spending buys: catalogue item, judgement value, change."
                        ),
                        verbose_name="growth",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the GM"),
                            ("confirmed", "Confirmed"),
                            ("declined", "Declined"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                (
                    "requested_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="asked"),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True, verbose_name="decided")),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="growth_requests",
                        to="sessions_app.character",
                        verbose_name="character",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="decided by",
                    ),
                ),
                (
                    "entry",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="request",
                        to="sessions_app.experienceentry",
                        verbose_name="ledger entry",
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="growth_requests",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="person",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="growth_requests",
                        to="sessions_app.gamesession",
                        verbose_name="session",
                    ),
                ),
            ],
            options={
                "verbose_name": "growth request",
                "verbose_name_plural": "growth requests",
                "ordering": ["requested_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("cost__gt", 0)), name="growth_request_costs_points"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "confirmed"), _negated=True),
                            ("entry__isnull", False),
                            _connector="OR",
                        ),
                        name="growth_request_confirmed_has_entry",
                    ),
                ],
            },
        ),
        # Data last: PostgreSQL refuses to alter a table with row changes pending.
        migrations.RunPython(name_games, migrations.RunPython.noop),
        migrations.RunPython(ledgers_per_person, ledgers_per_table),
    ]
