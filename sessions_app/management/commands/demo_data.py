"""Load the demo table: a GM, two players and one session. Safe to run again."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from sessions_app import services
from sessions_app.models import GameSession, Membership, RulesProfile, Table

DEMO_TABLE = "Demo table"
DEMO_SESSION = "The Akashic Library"
# Printed on start-up so a first-time user can log in at once; demo accounts only.
DEMO_USERS = [
    ("gm", "srs-gm-demo", Membership.Role.GM),
    ("aki", "srs-aki-demo", Membership.Role.PLAYER),
    ("ren", "srs-ren-demo", Membership.Role.PLAYER),
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
            if not GameSession.objects.filter(table=table, title=DEMO_SESSION).exists():
                services.session_create(
                    table=table,
                    by=users["gm"],
                    title=DEMO_SESSION,
                    scheduled_for=timezone.localdate() + datetime.timedelta(days=1),
                    rules_profile=RulesProfile.objects.get(table=None, name="SRS standard"),
                )
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:<4} / {password}   ({role})")
