"""Give the shipped rules profiles the judgement values their character sheets use.

The names are English message ids translated on display (see sessions_app.judgement), so
a Japanese table reads 筋力, 反射… while stored data stays one list.
"""

from django.db import migrations

SHIPPED_VALUES = {
    "SRS standard": ["Strength", "Reflexes", "Senses", "Intellect", "Spirit", "Empathy"],
    "Akashic Recorder": ["Strength", "Reflexes", "Senses", "Intellect", "Spirit", "Empathy"],
}


def add_values(apps, schema_editor):
    RulesProfile = apps.get_model("sessions_app", "RulesProfile")
    for name, values in SHIPPED_VALUES.items():
        RulesProfile.objects.filter(table=None, name=name).update(judgement_value_names=values)


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0003_characters_checks_rolls")]

    operations = [migrations.RunPython(add_values, migrations.RunPython.noop)]
