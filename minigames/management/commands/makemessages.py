"""Django's makemessages, also collecting the message ids the game engines name.

The engines import nothing from Django (see ``minigames.game``), so they cannot mark their
messages with ``gettext_noop``; they name them through these calls instead, and Django's
documented way to teach ``makemessages`` other names is this subclass.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=IllegalAction",
        "--keyword=message",
        "--keyword=message_plural:1,2",
    ]
