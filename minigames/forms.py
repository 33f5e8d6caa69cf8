from django import forms
from django.utils.translation import gettext_lazy as _

from sessions_app.forms import CharacterChoiceField

GAME_CHOICES = [("actual", _("Actual")), ("acticsx", _("Actics X"))]


class MatchForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=GAME_CHOICES, initial="actual", required=False
    )
    seat0 = CharacterChoiceField(label=_("First character"), queryset=None)
    seat1 = CharacterChoiceField(label=_("Second character"), queryset=None)
    computer = forms.BooleanField(
        label=_("The computer plays the second character (NPCs only)"), required=False
    )
    level = forms.ChoiceField(
        label=_("Computer strength"),
        choices=[("search", _("Strong (searches ahead)")), ("random", _("Casual (random)"))],
        initial="search",
    )
    diagonal_attack = forms.BooleanField(
        label=_("Actual: attacks may also go diagonally"), required=False
    )
    turn_limit = forms.IntegerField(
        label=_("Turn limit"), required=False, min_value=2, max_value=500
    )
    first_player = forms.ChoiceField(
        label=_("Who starts"),
        choices=[
            ("random", _("Random")),
            ("0", _("First character")),
            ("1", _("Second character")),
        ],
        initial="random",
    )

    def __init__(self, *args, characters, **kwargs):
        kwargs.setdefault("auto_id", "match_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat0"].queryset = characters
        self.fields["seat1"].queryset = characters

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or "actual"

    def options(self) -> dict:
        return {
            "diagonal_attack": self.cleaned_data["diagonal_attack"],
            "turn_limit": self.cleaned_data["turn_limit"],
            "first_player": self.cleaned_data["first_player"],
        }


class PracticeForm(forms.Form):
    game = MatchForm.base_fields["game"]

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or "actual"

    level = MatchForm.base_fields["level"]
    diagonal_attack = MatchForm.base_fields["diagonal_attack"]
