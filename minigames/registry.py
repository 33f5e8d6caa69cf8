"""The games a match can be played at: one spec per game, all the match framework knows.

The framework (``services``, ``views``, ``forms``, ``room``) asks a game's spec for its rules,
its computer player, how its board is shown and which options it takes; it never tests which
game it is running. Adding a game is one spec here and the modules it names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .acticsx import options as acticsx_options
from .acticsx import presenter as acticsx_presenter
from .acticsx.rules import bot as acticsx_bot
from .acticsx.rules import engine as acticsx_engine
from .actual import options as actual_options
from .actual import presenter as actual_presenter
from .actual.rules import bot as actual_bot
from .actual.rules import engine as actual_engine


@dataclass(frozen=True)
class GameSpec:
    """One game as the match framework sees it.

    ``engine``: the pure rules (``minigames.game.GameEngine``).
    ``computer(state, seat, *, level, seed)``: the computer player's next action, or None.
    ``presenter``: a module with ``TEMPLATE``, ``board_context(match, user, *, params,
    refused)`` (one viewer's board) and ``action_from_post(post)`` (a move from its forms).
    ``options_form`` / ``practice_form``: the option fields of the room's match form and of
    the practice form; each takes ``user=`` and turns cleaned data into options with
    ``options_from(data)``.
    ``clean_options(options, *, players)``: the options a match keeps, or ValidationError.
    ``auto_planning``: whether a seat may hand its planning to the computer (AUTO).
    ``private_actions``: action types that change only what their own seat sees (a setting
    kept secret): applied at any version, without raising it, and sent to that seat alone.
    """

    key: str
    label: str | Promise
    engine: ModuleType
    computer: Callable[..., dict[str, Any] | None]
    presenter: ModuleType
    options_form: type[forms.Form]
    practice_form: type[forms.Form]
    clean_options: Callable[..., dict[str, Any]]
    auto_planning: bool = False
    private_actions: frozenset[str] = frozenset()


GAMES: dict[str, GameSpec] = {
    spec.key: spec
    for spec in (
        GameSpec(
            key="actual",
            label=gettext_lazy("Actual"),
            engine=actual_engine,
            computer=actual_bot.computer_action,
            presenter=actual_presenter,
            options_form=actual_options.OptionsForm,
            practice_form=actual_options.PracticeForm,
            clean_options=actual_options.clean_options,
            private_actions=frozenset({"counter_mode"}),
        ),
        GameSpec(
            key="acticsx",
            label=gettext_lazy("Actics X"),
            engine=acticsx_engine,
            computer=acticsx_bot.computer_action,
            presenter=acticsx_presenter,
            options_form=acticsx_options.OptionsForm,
            practice_form=acticsx_options.PracticeForm,
            clean_options=acticsx_options.clean_options,
            auto_planning=True,
        ),
    )
}
DEFAULT_GAME = "actual"


def game_spec(key: str) -> GameSpec:
    """Return the spec of the game called ``key``; ValidationError for an unknown game."""
    try:
        return GAMES[key]
    except KeyError:
        raise ValidationError(_("Unknown game.")) from None


def game_choices() -> list[tuple[str, str | Promise]]:
    return [(spec.key, spec.label) for spec in GAMES.values()]
