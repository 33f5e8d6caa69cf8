"""Names of judgement values: shipped names are translated, a group's own names shown as typed."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from .shipped_names import shown_name

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
    return shown_name(name, SHIPPED_NAMES)


def name_variants(name: str) -> set[str]:
    """The name as stored and, for a shipped name, as each language shows it: a sheet made
    in Japanese writes 筋力 where the profile stores Strength."""
    variants = {name}
    if name in SHIPPED_NAMES:
        for code, _label in settings.LANGUAGES:
            with translation.override(code):
                variants.add(display_name(name))
    return variants
