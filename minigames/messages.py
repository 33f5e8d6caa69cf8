"""The engines' messages in the reader's language.

An engine words nothing (see ``minigames.game``): its refusals and narration are message ids
with parameters. Here they go through gettext, so the catalogue holds every game's Japanese.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, ngettext

from .game import Message, TermWords, render


def reader_language() -> str:
    """The language the games' own data is read in: "ja" or "en"."""
    return "ja" if (get_language() or "").startswith("ja") else "en"


def translate(msg: Message, *, terms: dict[str, TermWords] | None = None) -> str:
    """Word a message for the reader; ``terms`` words what only the match knows."""
    return render(msg, language=reader_language(), gettext=gettext, ngettext=ngettext, terms=terms)


def seat_name(seat: dict) -> str:
    """The name a seat goes by; the computer's is worded for the reader, not its creator."""
    if seat.get("computer") and not seat.get("character_id"):
        return gettext("Computer")
    return seat.get("name", "?")
