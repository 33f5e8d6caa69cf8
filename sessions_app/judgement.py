"""Names of judgement values: shipped names are translated, a group's own names shown as typed."""

from django.utils.translation import gettext, gettext_noop

SHIPPED_NAMES = [
    gettext_noop("Strength"),
    gettext_noop("Reflexes"),
    gettext_noop("Senses"),
    gettext_noop("Intellect"),
    gettext_noop("Spirit"),
    gettext_noop("Empathy"),
]


def display_name(name: str) -> str:
    """Return the name in the current language when it is one the app ships."""
    return gettext(name) if name in SHIPPED_NAMES else name
