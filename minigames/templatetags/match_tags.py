"""Template filters that name a game through the registry, so templates never test which
game a match is."""

from django import template

from ..registry import GAMES

register = template.Library()

GENERIC_WON_TEMPLATE = "minigames/kinds/_won.html"


@register.filter
def game_label(key: str) -> str:
    """The game's name in the reader's language; the bare key for a game no longer shipped
    (an imported log may name one)."""
    spec = GAMES.get(key)
    return key if spec is None else str(spec.label)


@register.filter
def won_template(key: str) -> str:
    """How a won match of this game reads: its presenter's sentence, which may name what the
    winner had left, or the plain one."""
    spec = GAMES.get(key)
    return (
        getattr(spec.presenter, "WON_TEMPLATE", GENERIC_WON_TEMPLATE)
        if spec
        else GENERIC_WON_TEMPLATE
    )
