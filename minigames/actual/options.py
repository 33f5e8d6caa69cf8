"""Actual's match options: the fields a match form shows, and the options a match keeps."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# A practice game against the computer ends (in a draw, if nobody has won) after this many turns.
PRACTICE_TURN_LIMIT = 100


class OptionsForm(forms.Form):
    """The fields of Actual's options in the room's match form."""

    diagonal_attack = forms.BooleanField(
        label=gettext_lazy("Actual: attacks may also go diagonally"), required=False
    )
    turn_limit = forms.IntegerField(
        label=gettext_lazy("Turn limit"), required=False, min_value=2, max_value=500
    )
    first_player = forms.ChoiceField(
        label=gettext_lazy("Who starts"),
        choices=[
            ("random", gettext_lazy("Random")),
            ("0", gettext_lazy("First character")),
            ("1", gettext_lazy("Second character")),
        ],
        initial="random",
    )

    # Every game's options form is given the viewer; Actual's fields do not depend on them.
    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)

    @staticmethod
    def options_from(data: dict[str, Any]) -> dict[str, Any]:
        """The match options in a valid form's cleaned data."""
        return {
            "diagonal_attack": data["diagonal_attack"],
            "turn_limit": data["turn_limit"],
            "first_player": data["first_player"],
        }


class PracticeForm(forms.Form):
    """The fields of Actual's options when practising against the computer."""

    diagonal_attack = OptionsForm.base_fields["diagonal_attack"]

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)

    @staticmethod
    def options_from(data: dict[str, Any]) -> dict[str, Any]:
        return {"diagonal_attack": data["diagonal_attack"], "turn_limit": PRACTICE_TURN_LIMIT}


def clean_options(options: dict[str, Any], *, players: list) -> dict[str, Any]:
    """Check the options a match is started with; return what the engine takes."""
    cleaned: dict[str, Any] = {"diagonal_attack": bool(options.get("diagonal_attack"))}
    turn_limit = options.get("turn_limit")
    if turn_limit not in (None, ""):
        try:
            turn_limit = int(turn_limit)
        except (TypeError, ValueError):
            raise ValidationError({"turn_limit": _("The turn limit is a whole number.")}) from None
        if not 2 <= turn_limit <= 500:
            raise ValidationError({"turn_limit": _("The turn limit is from 2 to 500 turns.")})
        cleaned["turn_limit"] = turn_limit
    else:
        cleaned["turn_limit"] = None
    first = options.get("first_player")
    cleaned["first_player"] = None if first in (None, "", "random") else int(first)
    if cleaned["first_player"] not in (None, 0, 1):
        raise ValidationError({"first_player": _("The first player is seat 1, seat 2 or random.")})
    return cleaned
