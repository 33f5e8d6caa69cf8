"""Ship the rules profiles every table can use."""

from django.db import migrations

SHIPPED = [
    {"name": "SRS standard", "critical": 12, "fumble": 2, "modifier_limit": 3},
    {"name": "Akashic Recorder", "critical": 12, "fumble": 2, "modifier_limit": 3},
]


def add_profiles(apps, schema_editor):
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")
    for profile in SHIPPED:
        RulesProfile.objects.get_or_create(table=None, name=profile["name"], defaults=profile)


def remove_profiles(apps, schema_editor):
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")
    RulesProfile.objects.filter(table=None, name__in=[p["name"] for p in SHIPPED]).delete()


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0001_initial")]

    operations = [migrations.RunPython(add_profiles, remove_profiles)]
