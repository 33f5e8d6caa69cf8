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


def _slot_choices(player_count: int, empty_label) -> list[tuple[str, str]]:
    return [("", empty_label)] + [(str(n), f"PC{n}") for n in range(1, player_count + 1)]


class ScenarioForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160)
    player_count = forms.IntegerField(
        label=_("Number of players"), min_value=1, max_value=12, initial=3
    )
    summary = forms.CharField(
        label=_("Summary"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=MARKUP_HELP,
    )
    gm_notes = forms.CharField(
        label=_("GM notes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=MARKUP_HELP,
    )

    def __init__(self, *args, scenario=None, **kwargs):
        kwargs.setdefault("auto_id", "scenario_%s")
        super().__init__(*args, **kwargs)
        if scenario is not None:
            for name in self.fields:
                self.fields[name].initial = getattr(scenario, name)


class PlannedSceneForm(forms.Form):
    phase = forms.ChoiceField(label=_("Phase"), choices=())
    title = forms.CharField(label=_("Title"), max_length=160)
    scene_player_slot = forms.TypedChoiceField(
        label=_("Scene player"), required=False, coerce=int, empty_value=None, choices=()
    )
    place = forms.CharField(label=_("Place"), max_length=160, required=False)
    purpose = forms.CharField(label=_("Purpose"), max_length=300, required=False)
    gm_notes = forms.CharField(
        label=_("GM notes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=MARKUP_HELP,
    )

    def __init__(self, *args, scenario, planned_scene=None, **kwargs):
        kwargs.setdefault("auto_id", "scene_%s")
        super().__init__(*args, **kwargs)
        self.fields["phase"].choices = [(phase.value, phase.label) for phase in MAIN_PLAY_PHASES]
        self.fields["scene_player_slot"].choices = _slot_choices(
            scenario.player_count, _("Master scene (no scene player)")
        )
        if planned_scene is not None:
            for name in self.fields:
                self.fields[name].initial = getattr(planned_scene, name)


class PreparedCheckForm(forms.Form):
    label = forms.CharField(label=_("What for"), max_length=160)
    value_name = forms.CharField(label=_("Judgement value"), max_length=60)
    difficulty = forms.IntegerField(
        label=_("Difficulty"), required=False, min_value=0, max_value=99
    )
    secret = forms.BooleanField(label=_("Secret roll (GM only)"), required=False)

    def __init__(self, *args, value_names=(), prepared_check=None, **kwargs):
        kwargs.setdefault("auto_id", "check_%s")
        super().__init__(*args, **kwargs)
        # A free text field with suggestions: a scenario is not tied to one rules profile.
        self.value_name_options = [(name, display_name(name)) for name in value_names]
        self.datalist_id = self.auto_id % "value_names"
        self.fields["value_name"].widget.attrs["list"] = self.datalist_id
        if prepared_check is not None:
            for name in self.fields:
                self.fields[name].initial = getattr(prepared_check, name)


class ScenarioNpcForm(CharacterForm):
    """The character sheet form: an NPC of a scenario has the same name, values and notes."""

    def __init__(self, *args, value_names=(), npc=None, **kwargs):
        kwargs.setdefault("auto_id", "npc_%s")
        super().__init__(*args, value_names=value_names, character=npc, **kwargs)


class HandoutForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160)
    slot = forms.TypedChoiceField(
        label=_("For"), required=False, coerce=int, empty_value=None, choices=()
    )
    body = forms.CharField(
        label=_("Text"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=MARKUP_HELP,
    )

    def __init__(self, *args, scenario, handout=None, **kwargs):
        kwargs.setdefault("auto_id", "handout_%s")
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = _slot_choices(scenario.player_count, _("Everyone"))
        if handout is not None:
            for name in self.fields:
                self.fields[name].initial = getattr(handout, name)
