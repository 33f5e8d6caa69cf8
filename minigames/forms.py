from django import forms
from django.utils.translation import gettext_lazy as _

from sessions_app.forms import CharacterChoiceField

from .registry import DEFAULT_GAME, GAMES, game_choices

LEVEL_CHOICES = [("search", _("Strong (searches ahead)")), ("random", _("Casual (random)"))]


def _add_game_fields(form: forms.Form, form_class_of, user) -> None:
    """Add every game's option fields to ``form``; a field two games share appears once."""
    for spec in GAMES.values():
        for name, field in form_class_of(spec)(user=user).fields.items():
            form.fields.setdefault(name, field)


class MatchForm(forms.Form):
    """The room's form that seats two characters at a match of any game."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices, required=False)
    seat0 = CharacterChoiceField(label=_("First character"), queryset=None)
    seat1 = CharacterChoiceField(label=_("Second character"), queryset=None)
    computer = forms.BooleanField(
        label=_("The computer plays the second character (NPCs only)"), required=False
    )
    level = forms.ChoiceField(label=_("Computer strength"), choices=LEVEL_CHOICES, initial="search")

    def __init__(self, *args, characters, user=None, **kwargs):
        kwargs.setdefault("auto_id", "match_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat0"].queryset = characters
        self.fields["seat1"].queryset = characters
        _add_game_fields(self, lambda spec: spec.options_form, user)

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or DEFAULT_GAME

    def options(self) -> dict:
        """The chosen game's options, as its own options form reads them."""
        return GAMES[self.cleaned_data["game"]].options_form.options_from(self.cleaned_data)


class PracticeForm(forms.Form):
    """A game against the computer outside any session."""

    game = MatchForm.base_fields["game"]
    level = MatchForm.base_fields["level"]

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        _add_game_fields(self, lambda spec: spec.practice_form, user)

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or DEFAULT_GAME

    def options(self) -> dict:
        return GAMES[self.cleaned_data["game"]].practice_form.options_from(self.cleaned_data)


class DeckForm(forms.Form):
    name = forms.CharField(label=_("Deck name"), max_length=80)
