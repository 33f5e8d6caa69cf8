from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import RulesProfile
from .services.timeline import CHAT_MAX_LENGTH


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class TableForm(forms.Form):
    name = forms.CharField(label=_("Table name"), max_length=120)


class SessionForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160)
    scheduled_for = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    rules_profile = forms.ModelChoiceField(
        label=_("Rules profile"), queryset=RulesProfile.objects.none(), empty_label=None
    )

    def __init__(self, *args, profiles=None, **kwargs):
        super().__init__(*args, **kwargs)
        if profiles is not None:
            self.fields["rules_profile"].queryset = profiles
            standard = profiles.filter(table__isnull=True, name="SRS standard").first()
            self.fields["rules_profile"].initial = standard or profiles.first()
        self.fields["scheduled_for"].initial = timezone.localdate


class ChatForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=CHAT_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    gm_only = forms.BooleanField(label=_("GM only"), required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "chat_%s")
        super().__init__(*args, **kwargs)


def _value_name_choices(profile, characters=()) -> list[tuple[str, str]]:
    """Judgement value names from the profile, then any extra names on the sheets."""
    from .judgement import display_name

    names = list(profile.judgement_value_names or [])
    for character in characters:
        for name in character.judgement_values:
            if name not in names:
                names.append(name)
    return [("", _("— type a number —"))] + [(name, display_name(name)) for name in names]


class CharacterChoiceField(forms.ModelChoiceField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("empty_label", _("— choose a character —"))
        super().__init__(*args, **kwargs)

    def label_from_instance(self, obj):
        return obj.name if obj.kind == "npc" else f"{obj.name} ({obj.owner.get_username()})"


class CheckRequestForm(forms.Form):
    character = CharacterChoiceField(label=_("Character"), queryset=None)
    label = forms.CharField(label=_("What for"), max_length=160)
    value_name = forms.ChoiceField(label=_("Judgement value"), required=False)
    value = forms.IntegerField(label=_("or a number"), required=False, min_value=-99, max_value=99)
    difficulty = forms.IntegerField(
        label=_("Difficulty"), required=False, min_value=0, max_value=99
    )
    difficulty_secret = forms.BooleanField(
        label=_("Secret difficulty (players see only their achievement)"), required=False
    )
    gm_modifier = forms.IntegerField(label=_("GM modifier"), initial=0)
    secret = forms.BooleanField(label=_("Secret roll (GM only)"), required=False)
    critical = forms.IntegerField(
        label=_("Critical value"), required=False, min_value=2, max_value=12
    )
    fumble = forms.IntegerField(label=_("Fumble value"), required=False, min_value=2, max_value=12)

    def __init__(self, *args, session, characters, **kwargs):
        kwargs.setdefault("auto_id", "check_%s")
        super().__init__(*args, **kwargs)
        profile = session.rules_profile
        self.fields["character"].queryset = characters
        self.fields["value_name"].choices = _value_name_choices(profile, characters)
        limit = profile.modifier_limit
        self.fields["gm_modifier"].widget.attrs.update({"min": -limit, "max": limit})
        self.fields["gm_modifier"].help_text = _("From -%(limit)d to +%(limit)d.") % {
            "limit": limit
        }
        self.fields["difficulty"].help_text = _(
            "Guide: %(easy)d–%(ordinary_below)d easy, %(ordinary)d–%(hard_below)d ordinary, "
            "%(hard)d–%(extreme_below)d hard, %(extreme)d+ extreme. Empty: ask for the achievement."
        ) % {
            "easy": profile.easy_from,
            "ordinary_below": profile.ordinary_from - 1,
            "ordinary": profile.ordinary_from,
            "hard_below": profile.hard_from - 1,
            "hard": profile.hard_from,
            "extreme_below": profile.extreme_from - 1,
            "extreme": profile.extreme_from,
        }
        self.fields["critical"].widget.attrs["placeholder"] = profile.critical
        self.fields["fumble"].widget.attrs["placeholder"] = profile.fumble


class NpcRollForm(forms.Form):
    character = CharacterChoiceField(label=_("NPC"), queryset=None)
    label = forms.CharField(label=_("What for"), max_length=160)
    value_name = forms.ChoiceField(label=_("Judgement value"), required=False)
    value = forms.IntegerField(label=_("or a number"), required=False, min_value=-99, max_value=99)
    modifier = forms.IntegerField(label=_("Modifier"), initial=0)
    difficulty = forms.IntegerField(
        label=_("Difficulty"), required=False, min_value=0, max_value=99
    )
    secret = forms.BooleanField(label=_("Secret roll (GM only)"), required=False)

    def __init__(self, *args, session, characters, **kwargs):
        kwargs.setdefault("auto_id", "npc_%s")
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = characters
        self.fields["value_name"].choices = _value_name_choices(session.rules_profile, characters)


class ContestForm(forms.Form):
    label = forms.CharField(label=_("What for"), max_length=160)
    action_character = CharacterChoiceField(label=_("Action side"), queryset=None)
    action_value_name = forms.ChoiceField(label=_("Judgement value"), required=False)
    action_value = forms.IntegerField(
        label=_("or a number"), required=False, min_value=-99, max_value=99
    )
    action_modifier = forms.IntegerField(label=_("GM modifier"), initial=0)
    reaction_character = CharacterChoiceField(label=_("Reaction side"), queryset=None)
    reaction_value_name = forms.ChoiceField(label=_("Judgement value"), required=False)
    reaction_value = forms.IntegerField(
        label=_("or a number"), required=False, min_value=-99, max_value=99
    )
    reaction_modifier = forms.IntegerField(label=_("GM modifier"), initial=0)
    reaction_cannot_roll = forms.BooleanField(
        label=_("The reaction side cannot roll (value + modifier only)"), required=False
    )

    def __init__(self, *args, session, characters, **kwargs):
        kwargs.setdefault("auto_id", "contest_%s")
        super().__init__(*args, **kwargs)
        choices = _value_name_choices(session.rules_profile, characters)
        for side in ("action", "reaction"):
            self.fields[f"{side}_character"].queryset = characters
            self.fields[f"{side}_value_name"].choices = choices
            limit = session.rules_profile.modifier_limit
            self.fields[f"{side}_modifier"].widget.attrs.update({"min": -limit, "max": limit})


class RollBoxForm(forms.Form):
    text = forms.CharField(
        label=_("Roll box"),
        max_length=200,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "2D6+2>=10"}
        ),
        help_text=_("e.g. 2D6+2>=10, 2D6@11#3>=9, 2D6>=10[11,3], S2D6>=9 (secret), 1D6+1"),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "roll_%s")
        super().__init__(*args, **kwargs)


class CharacterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    concept = forms.CharField(label=_("Concept"), max_length=200, required=False)
    extra_values = forms.CharField(
        label=_("Other judgement values"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One per line, as name = number."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 4})
    )

    def __init__(self, *args, value_names, character=None, **kwargs):
        from .judgement import display_name

        super().__init__(*args, **kwargs)
        self.value_names = list(value_names)
        current = dict(character.judgement_values) if character else {}
        for index, name in enumerate(self.value_names):
            self.fields[f"value_{index}"] = forms.IntegerField(
                label=display_name(name),
                required=False,
                min_value=-99,
                max_value=99,
                initial=current.pop(name, None),
            )
        self.order_fields(
            ["name", "concept"]
            + [f"value_{index}" for index in range(len(self.value_names))]
            + ["extra_values", "notes"]
        )
        if character is not None:
            self.fields["name"].initial = character.name
            self.fields["concept"].initial = character.concept
            self.fields["notes"].initial = character.notes
            self.fields["extra_values"].initial = "\n".join(
                f"{name} = {number}" for name, number in current.items()
            )

    def clean_extra_values(self):
        values = {}
        for number, line in enumerate(self.cleaned_data["extra_values"].splitlines(), 1):
            if not line.strip():
                continue
            name, sep, raw = line.partition("=")
            try:
                values[name.strip()] = int(raw.strip())
            except ValueError:
                raise forms.ValidationError(
                    _("Line %(line)d: write it as name = number.") % {"line": number}
                ) from None
            if not sep or not name.strip():
                raise forms.ValidationError(
                    _("Line %(line)d: write it as name = number.") % {"line": number}
                )
        return values

    def judgement_values(self) -> dict[str, int]:
        values = {
            name: self.cleaned_data[f"value_{index}"]
            for index, name in enumerate(self.value_names)
            if self.cleaned_data.get(f"value_{index}") is not None
        }
        values.update(self.cleaned_data["extra_values"])
        return values


class RulesProfileForm(forms.ModelForm):
    judgement_value_lines = forms.CharField(
        label=_("Judgement values"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One name per line, in the order the sheets list them."),
        required=False,
    )

    class Meta:
        model = RulesProfile
        fields = [
            "name",
            "critical",
            "fumble",
            "modifier_limit",
            "easy_from",
            "ordinary_from",
            "hard_from",
            "extreme_from",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["judgement_value_lines"].initial = "\n".join(
            self.instance.judgement_value_names or []
        )
        for name in ("critical", "fumble"):
            self.fields[name].widget.attrs.update({"min": 2, "max": 12})

    def clean_judgement_value_lines(self):
        names = [line.strip() for line in self.cleaned_data["judgement_value_lines"].splitlines()]
        names = [name for name in names if name]
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each judgement value name may appear once."))
        return names


class LogImportForm(forms.Form):
    """Upload of a session log exported as JSON."""

    file = forms.FileField(
        label=_("Session log (JSON)"),
        help_text=_("A file exported from a session's review page, at most 5 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
