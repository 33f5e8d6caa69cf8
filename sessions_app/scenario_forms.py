"""Forms for writing scenarios; the services validate again, these only parse input."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .forms import CharacterForm
from .judgement import display_name
from .models import MAIN_PLAY_PHASES

MARKUP_HELP = _(
    "Blank line: new paragraph. **bold**, *italic*, lines starting with - are a list, "
    "# or ## a heading; web addresses become links."
)


def _markup_field(label, *, rows: int) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        widget=forms.Textarea(attrs={"rows": rows}),
        help_text=MARKUP_HELP,
    )


class _SlotField(forms.TypedChoiceField):
    """One of the scenario's PC slots, or none (`empty_label` says what none means)."""

    def __init__(self, *, label, empty_label):
        super().__init__(label=label, required=False, coerce=int, empty_value=None, choices=())
        self.empty_label = empty_label

    def offer_slots(self, player_count: int) -> None:
        self.choices = [("", self.empty_label)] + [
            (str(n), f"PC{n}") for n in range(1, player_count + 1)
        ]


class _ItemForm(forms.Form):
    """A form whose fields are attributes of the item it edits and arguments of its services.

    Every scenario item form is built the same way, `Form(data, scenario=…, item=…,
    parent=…, value_names=…)`, so that one set of views serves every kind of item.
    """

    id_prefix = "item"
    # Whether the form offers the GM's judgement value names (reading them costs a query).
    takes_value_names = False

    def __init__(self, data=None, *, scenario=None, item=None, parent=None, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(data, **kwargs)
        for field in self.fields.values():
            if isinstance(field, _SlotField):
                field.offer_slots(scenario.player_count)
        if item is not None:
            for name in self.fields:
                self.fields[name].initial = getattr(item, name)

    def service_fields(self) -> dict:
        """Return the keyword arguments the kind's create and update services take."""
        return self.cleaned_data


class ScenarioForm(_ItemForm):
    id_prefix = "scenario"

    title = forms.CharField(label=_("Title"), max_length=160)
    player_count = forms.IntegerField(
        label=_("Number of players"), min_value=1, max_value=12, initial=3
    )
    summary = _markup_field(_("Summary"), rows=4)
    gm_notes = _markup_field(_("GM notes"), rows=6)


class PlannedSceneForm(_ItemForm):
    id_prefix = "scene"

    phase = forms.ChoiceField(
        label=_("Phase"), choices=[(phase.value, phase.label) for phase in MAIN_PLAY_PHASES]
    )
    title = forms.CharField(label=_("Title"), max_length=160)
    scene_player_slot = _SlotField(
        label=_("Scene player"), empty_label=_("Master scene (no scene player)")
    )
    place = forms.CharField(label=_("Place"), max_length=160, required=False)
    purpose = forms.CharField(label=_("Purpose"), max_length=300, required=False)
    gm_notes = _markup_field(_("GM notes"), rows=3)


class PreparedCheckForm(_ItemForm):
    id_prefix = "check"
    takes_value_names = True

    label = forms.CharField(label=_("What for"), max_length=160)
    value_name = forms.CharField(label=_("Judgement value"), max_length=60)
    difficulty = forms.IntegerField(
        label=_("Difficulty"), required=False, min_value=0, max_value=99
    )
    secret = forms.BooleanField(label=_("Secret roll (GM only)"), required=False)

    def __init__(self, *args, value_names=(), parent=None, **kwargs):
        if parent is not None:
            # One add form per planned scene on the same page: their ids must differ.
            kwargs.setdefault("auto_id", f"check{parent.pk}_%s")
        super().__init__(*args, parent=parent, **kwargs)
        # A free text field with suggestions: a scenario is not tied to one rules profile.
        self.value_name_options = [(name, display_name(name)) for name in value_names]
        self.datalist_id = self.auto_id % "value_names"
        self.fields["value_name"].widget.attrs["list"] = self.datalist_id


class ScenarioNpcForm(CharacterForm):
    """The character sheet form: an NPC of a scenario has the same name, values and notes."""

    takes_value_names = True

    def __init__(
        self, data=None, *, value_names=(), scenario=None, item=None, parent=None, **kwargs
    ):
        kwargs.setdefault("auto_id", "npc_%s")
        super().__init__(data, value_names=value_names, character=item, **kwargs)
        # A scenario's NPC is a sketch the GM copies into play: it has no palette nor
        # entries of its own until then.
        del self.fields["entries"]
        del self.fields["palette"]

    def service_fields(self) -> dict:
        """Return the keyword arguments of the NPC services: the sheet's values in one dict."""
        return {
            "name": self.cleaned_data["name"],
            "concept": self.cleaned_data["concept"],
            "judgement_values": self.judgement_values(),
            "notes": self.cleaned_data["notes"],
        }


class HandoutForm(_ItemForm):
    id_prefix = "handout"

    title = forms.CharField(label=_("Title"), max_length=160)
    slot = _SlotField(label=_("For"), empty_label=_("Everyone"))
    body = _markup_field(_("Text"), rows=4)
