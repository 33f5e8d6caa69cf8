"""Names the app ships are stored in English and shown in the reader's language.

A group's own names (a judgement value, an experience reason, a profile) are shown as typed.
"""

from django.utils.translation import gettext


def shown_name(name: str, shipped) -> str:
    """Return `name` in the current language when it is one of the `shipped` names."""
    return gettext(name) if name in shipped else name
