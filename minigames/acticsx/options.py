"""Actics X's match options: the fields a match form shows (the seats' decks among them),
and the options a match keeps."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .decks import deck_choices, resolve_deck


class OptionsForm(forms.Form):
    """The fields of Actics X's options in the room's match form."""

    turn_limit = forms.IntegerField(
        label=gettext_lazy("Turn limit"), required=False, min_value=2, max_value=500
    )
    deck0 = forms.ChoiceField(
        label=gettext_lazy("Actics X: first character's deck"), required=False
    )
    deck1 = forms.ChoiceField(
        label=gettext_lazy("Actics X: second character's deck"), required=False
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = deck_choices(user)
        self.fields["deck0"].choices = choices
        self.fields["deck1"].choices = choices
        self.fields["deck1"].initial = "ember_steel"

    @staticmethod
    def options_from(data: dict[str, Any]) -> dict[str, Any]:
        """The match options in a valid form's cleaned data: the decks are still choices."""
        return {
            "turn_limit": data["turn_limit"],
            "decks": [data["deck0"] or None, data["deck1"] or None],
        }


class PracticeForm(forms.Form):
    """The fields of Actics X's options when practising against the computer."""

    deck = forms.ChoiceField(label=gettext_lazy("Actics X: your deck"), required=False)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = deck_choices(user)

    @staticmethod
    def options_from(data: dict[str, Any]) -> dict[str, Any]:
        # The computer brings the first ready-made deck.
        return {"decks": [data["deck"] or None, None]}


def clean_options(options: dict[str, Any], *, players: list) -> dict[str, Any]:
    """Check the options a match is started with; return what the engine takes.

    ``options["decks"]`` holds each seat's deck choice, resolved here against the player
    who sits there: a ready-made deck by name, or one that player saved.
    """
    cleaned: dict[str, Any] = {}
    turn_limit = options.get("turn_limit")
    if turn_limit not in (None, ""):
        try:
            cleaned["turn_limit"] = int(turn_limit)
        except (TypeError, ValueError):
            raise ValidationError({"turn_limit": _("The turn limit is a whole number.")}) from None
        if not 2 <= cleaned["turn_limit"] <= 500:
            raise ValidationError({"turn_limit": _("The turn limit is from 2 to 500 turns.")})
    choices = options.get("decks") or [None, None]
    cleaned["decks"] = [
        resolve_deck(choice, player) for choice, player in zip(choices, players, strict=True)
    ]
    return cleaned
