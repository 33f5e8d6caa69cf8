"""Delete stored pictures nothing names any more; safe to run at any time (e.g. daily)."""

from django.core.management.base import BaseCommand

from sessions_app.services.images import pictures_prune


class Command(BaseCommand):
    help = "Delete uploaded pictures that no character, scene, handout or log names any more."

    def handle(self, *args, **options):
        deleted = pictures_prune()
        self.stdout.write(f"Deleted {len(deleted)} unused picture(s).")
