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
    deck0 = forms.ChoiceField(label=_("Actics X: first character's deck"), required=False)
    deck1 = forms.ChoiceField(label=_("Actics X: second character's deck"), required=False)
    first_player = forms.ChoiceField(
        label=_("Who starts"),
        choices=[
            ("random", _("Random")),
            ("0", _("First character")),
            ("1", _("Second character")),
        ],
        initial="random",
    )

    def __init__(self, *args, characters, user=None, **kwargs):
        kwargs.setdefault("auto_id", "match_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat0"].queryset = characters
        self.fields["seat1"].queryset = characters
        choices = deck_choices(user)
        self.fields["deck0"].choices = choices
        self.fields["deck1"].choices = choices
        self.fields["deck1"].initial = "ember_steel"

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
    deck = forms.ChoiceField(label=_("Actics X: your deck"), required=False)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = deck_choices(user)

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or "actual"

    level = MatchForm.base_fields["level"]
    diagonal_attack = MatchForm.base_fields["diagonal_attack"]


def deck_choices(user) -> list[tuple[str, str]]:
    """The ready-made decks, then the decks this user saved."""
    from .models import Deck

    choices = [
        ("tide_grove", _("Tide & Grove (ready-made)")),
        ("ember_steel", _("Ember & Steel (ready-made)")),
    ]
    if user is not None and user.is_authenticated:
        choices += [(f"deck:{deck.pk}", deck.name) for deck in Deck.objects.filter(owner=user)]
    return choices


class DeckForm(forms.Form):
    name = forms.CharField(label=_("Deck name"), max_length=80)
