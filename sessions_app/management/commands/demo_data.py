"""Load the demo table: a GM, two players and one session. Safe to run again."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from sessions_app import services
from sessions_app.models import Character, GameSession, Membership, RulesProfile, Table

DEMO_TABLE = "Demo table"
DEMO_SESSION = "The Akashic Library"
# Printed on start-up so a first-time user can log in at once; demo accounts only.
DEMO_USERS = [
    ("gm", "srs-gm-demo", Membership.Role.GM),
    ("aki", "srs-aki-demo", Membership.Role.PLAYER),
    ("ren", "srs-ren-demo", Membership.Role.PLAYER),
]

STANDARD = ["Strength", "Reflexes", "Senses", "Intellect", "Spirit", "Empathy"]
DEMO_CHARACTERS = [
    (
        "aki",
        Character.Kind.PC,
        "Aki Tsukishiro",
        "Archive diver",
        dict(zip(STANDARD, [2, 4, 5, 3, 3, 2], strict=True)),
    ),
    (
        "ren",
        Character.Kind.PC,
        "Ren Kagami",
        "Wandering swordsman",
        dict(zip(STANDARD, [5, 4, 2, 1, 3, 2], strict=True)),
    ),
    (
        "gm",
        Character.Kind.NPC,
        "The Librarian",
        "Keeper of the stacks",
        dict(zip(STANDARD, [1, 2, 6, 6, 4, 3], strict=True)),
    ),
]


class Command(BaseCommand):
    help = "Create the demo table, its GM and players, and one session (idempotent)."

    def handle(self, *args, **options):
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for username, password, _role in DEMO_USERS:
                user, _created = User.objects.get_or_create(username=username)
                user.set_password(password)
                user.save()
                users[username] = user
            table = Table.objects.filter(name=DEMO_TABLE, gm=users["gm"]).first()
            if table is None:
                table = services.table_create(gm=users["gm"], name=DEMO_TABLE)
            for username, _password, role in DEMO_USERS:
                Membership.objects.get_or_create(
                    table=table, user=users[username], defaults={"role": role}
                )
            session = GameSession.objects.filter(table=table, title=DEMO_SESSION).first()
            if session is None:
                session = services.session_create(
                    table=table,
                    by=users["gm"],
                    title=DEMO_SESSION,
                    scheduled_for=timezone.localdate() + datetime.timedelta(days=1),
                    rules_profile=RulesProfile.objects.get(table=None, name="SRS standard"),
                )
            for owner, kind, name, concept, values in DEMO_CHARACTERS:
                character = Character.objects.filter(table=table, name=name).first()
                if character is None:
                    character = services.character_create(
                        table=table,
                        by=users[owner],
                        kind=kind,
                        name=name,
                        concept=concept,
                        judgement_values=values,
                    )
                if kind == Character.Kind.PC:
                    session.characters.add(character)
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:<4} / {password}   ({role})")
