import re

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .judgement import display_name
from .models import RulesProfile
from .models.chat import CHAT_TAB_PREFIX
from .rules.palette_text import PALETTE_MAX_CHARS
from .services.chat import CHAT_MAX_LENGTH
from .services.experience import AwardLine
from .templatetags.srs_tags import experience_label


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class GuestJoinForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        help_text=_("What the others see. Letters, digits and @ . + - _, up to 30 characters."),
    )


class GuestKeepForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=60,
        help_text=_("You log in with it; keep your display name or choose another."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("password1") and cleaned.get("password1") != cleaned.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return cleaned


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


_TAB_CHANNEL = re.compile(rf"^{CHAT_TAB_PREFIX}[0-9]{{1,18}}$")


class ChatForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=CHAT_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    gm_only = forms.BooleanField(label=_("GM only"), required=False)
    say_as = forms.CharField(label=_("Say as"), required=False, widget=forms.Select)
    # Rendered by its own include (_chat_expression.html), grouped by character.
    face = forms.TypedChoiceField(
        label=_("Expression"), required=False, coerce=int, empty_value=None, choices=()
    )
    # The timeline tab the line goes to. The room's script keeps it on the tab shown; without
    # a script it is the one way to choose.
    # A GM tab is checked by the chat service, which reads that one tab: a post does not
    # read the session's every tab to build the list (the page keeps its own, hx-preserve).
    channel = forms.CharField(
        label=_("Channel"),
        required=False,
        widget=forms.Select(choices=[("main", _("Main")), ("offtopic", _("Off-topic"))]),
    )

    def __init__(
        self, data=None, *args, speakers=(), expressions=(), voice=None, tabs=(), **kwargs
    ):
        """`speakers` and `expressions` ((character, faces) for each character the viewer
        may speak as) are what the form offers. A posted line names one character at most:
        `voice`, that character as selectors.scenes.voice_get read it, and the face is
        checked against that character's alone. `tabs` are the GM's open chat tabs."""
        kwargs.setdefault("auto_id", "chat_%s")
        if data is not None and voice is None and "face" in data:
            # Only a character speaking in character shows a face: other lines ignore it.
            data = data.copy()
            data.pop("face")
        super().__init__(data, *args, **kwargs)
        if voice is not None:
            expressions = [(voice.character, [voice.face] if voice.face else [])]
        self.offer(speakers, expressions, tabs)

    def offer(self, speakers, expressions, tabs=()) -> None:
        """Offer these voices, expressions and GM tabs (a form answered with its errors
        shows the viewer's every choice again)."""
        self.fields["say_as"].widget.choices = list(speakers) or [("ooc", _("Out of character"))]
        self.expression_groups = [(character, faces) for character, faces in expressions if faces]
        self.fields["face"].choices = [("", _("Portrait"))] + [
            (character.name, [(face.pk, face.label) for face in faces])
            for character, faces in self.expression_groups
        ]
        self.fields["channel"].widget.choices = [
            ("main", _("Main")),
            ("offtopic", _("Off-topic")),
            *((tab.key, tab.name) for tab in tabs),
        ]

    def clean_channel(self) -> str:
        channel = self.cleaned_data.get("channel") or "main"
        if channel not in ("main", "offtopic") and not _TAB_CHANNEL.match(channel):
            raise forms.ValidationError(_("Choose the main channel, off-topic or a tab."))
        return channel

    def clean_say_as(self) -> dict:
        """The chat service's arguments (the service decides who may say what)."""
        parsed = say_as_parse(self.cleaned_data.get("say_as"))
        if parsed is None:
            raise forms.ValidationError(_("Choose how to say it."))
        return parsed


def say_as_parse(value: str | None) -> dict | None:
    """Turn "ooc", "narration", "ic:<character>" or "whisper:<user|gm>" (empty: "ooc") into
    the chat service's arguments; None for anything else."""
    mode, _sep, target = (value or "ooc").partition(":")
    if mode in ("ooc", "narration") and not target:
        return {"mode": mode}
    if mode == "ic" and target.isdecimal():
        return {"mode": mode, "character_id": int(target)}
    if mode == "whisper" and (target.isdecimal() or target == "gm"):
        return {"mode": mode, "to_id": int(target) if target.isdecimal() else None}
    return None


def _value_name_choices(profile, characters=()) -> list[tuple[str, str]]:
    """Judgement value names from the profile, then any extra names on the sheets."""
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
    action_critical = forms.IntegerField(
        label=_("Critical value"), required=False, min_value=2, max_value=12
    )
    action_fumble = forms.IntegerField(
        label=_("Fumble value"), required=False, min_value=2, max_value=12
    )
    reaction_character = CharacterChoiceField(label=_("Reaction side"), queryset=None)
    reaction_value_name = forms.ChoiceField(label=_("Judgement value"), required=False)
    reaction_value = forms.IntegerField(
        label=_("or a number"), required=False, min_value=-99, max_value=99
    )
    reaction_modifier = forms.IntegerField(label=_("GM modifier"), initial=0)
    reaction_critical = forms.IntegerField(
        label=_("Critical value"), required=False, min_value=2, max_value=12
    )
    reaction_fumble = forms.IntegerField(
        label=_("Fumble value"), required=False, min_value=2, max_value=12
    )
    reaction_cannot_roll = forms.BooleanField(
        label=_(
            "The reaction side cannot roll (judgement value + GM modifier + its player's modifiers)"
        ),
        required=False,
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
            # Empty keeps the table's values, shown as the placeholder.
            self.fields[f"{side}_critical"].widget.attrs["placeholder"] = (
                session.rules_profile.critical
            )
            self.fields[f"{side}_fumble"].widget.attrs["placeholder"] = session.rules_profile.fumble


class RollBoxForm(forms.Form):
    text = forms.CharField(
        label=_("Roll box"),
        max_length=200,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "2D6+2>=10"}
        ),
        help_text=_(
            "e.g. 2D6+2>=10, 2D6>=10[11,3], 3D6/2, 5B6>=4, 3U6[6], D66, C(10*3+2), "
            "choice[a,b,c], x3 2D6+1>=8, S2D6>=9 (secret)"
        ),
    )

    roll_as = forms.TypedChoiceField(
        label=_("Roll as"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, characters=(), user=None, **kwargs):
        kwargs.setdefault("auto_id", "roll_%s")
        super().__init__(*args, **kwargs)
        self.offer(characters, user)

    def offer(self, characters, user) -> None:
        """Offer to roll as the user or as one of `characters`."""
        yourself = user.get_username() if user is not None else _("yourself")
        self.fields["roll_as"].choices = [("", yourself)] + [
            (character.pk, character.name) for character in characters
        ]


# The GM's forms of the room, by their names in the page's context.
GM_ROOM_FORMS = {
    "check_form": CheckRequestForm,
    "contest_form": ContestForm,
    "npc_form": NpcRollForm,
}


def gm_room_form(name: str, *, session, characters, data=None) -> forms.Form:
    """One of the GM's room forms: empty for the page, bound to `data` when posted."""
    return GM_ROOM_FORMS[name](data, session=session, characters=characters)


def room_forms(
    *, session, user, speakers, expressions, tabs, voices, gm_characters=None, npcs=None
) -> dict:
    """The session room's empty forms for one viewer, by their names in the page's context;
    the GM's check, contest and NPC roll forms come with `gm_characters` and `npcs`."""
    room = {
        "chat_form": ChatForm(speakers=speakers, expressions=expressions, tabs=tabs),
        "roll_box_form": RollBoxForm(characters=voices, user=user),
    }
    if gm_characters is not None:
        room["check_form"] = gm_room_form("check_form", session=session, characters=gm_characters)
        room["contest_form"] = gm_room_form(
            "contest_form", session=session, characters=gm_characters
        )
        room["npc_form"] = gm_room_form("npc_form", session=session, characters=npcs)
    return room


class PaletteSendForm(forms.Form):
    character = forms.IntegerField(widget=forms.HiddenInput)
    text = forms.CharField(max_length=CHAT_MAX_LENGTH)


class ResourceAdjustForm(forms.Form):
    """A ± step of one resource, or a typed command (`:HP-3`) for the chosen character."""

    character = forms.IntegerField(label=_("Character"))
    resource = forms.CharField(max_length=60, required=False)
    change = forms.TypedChoiceField(
        choices=[("1", "+1"), ("-1", "-1")], coerce=int, required=False, empty_value=None
    )
    command = forms.CharField(
        label=_("Command"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": ":HP-3", "autocomplete": "off"}),
    )

    def clean(self):
        data = super().clean()
        has_step = bool(data.get("resource")) and data.get("change") is not None
        if not has_step and not data.get("command"):
            raise forms.ValidationError(_("Choose a resource and + or −, or type :HP-3."))
        return data


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
    entries = forms.CharField(
        label=_("Other sheet entries"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Skills, items and the like, one per line as label = value."),
    )
    palette = forms.CharField(
        label=_("Chat palette"),
        required=False,
        max_length=PALETTE_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            "One roll, resource command or line of chat per line, as in Ccfolia; {name} is "
            "replaced by the sheet's value when sent (2D6+{Reflexes}>=, :HP-1). Leave it "
            "empty to have it made from the sheet."
        ),
    )

    def __init__(self, *args, value_names, resource_names=(), character=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.value_names = list(value_names)
        self.resource_names = list(resource_names)
        self.kept_resources = dict(getattr(character, "resources", None) or {})
        resource_fields = []
        for index, name in enumerate(self.resource_names):
            held = self.kept_resources.pop(name, {}) or {}
            for part, label in [("current", _("%(name)s now")), ("max", _("%(name)s max"))]:
                key = f"resource_{index}_{part}"
                self.fields[key] = forms.IntegerField(
                    label=label % {"name": name},
                    required=False,
                    min_value=0,
                    max_value=9999,
                    initial=held.get(part),
                )
                resource_fields.append(key)
            key = f"resource_{index}_hidden"
            self.fields[key] = forms.BooleanField(
                label=_("Hide %(name)s from the other players") % {"name": name},
                required=False,
                initial=bool(held.get("hidden")),
            )
            resource_fields.append(key)
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
            + resource_fields
            + ["extra_values", "entries", "notes", "palette"]
        )
        if character is not None:
            self.fields["name"].initial = character.name
            self.fields["concept"].initial = character.concept
            self.fields["notes"].initial = character.notes
            self.fields["palette"].initial = getattr(character, "palette", "")
            self.fields["entries"].initial = "\n".join(
                f"{entry['label']} = {entry['value']}"
                for entry in getattr(character, "sheet_entries", None) or []
            )
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

    def clean_entries(self) -> list[dict[str, str]]:
        entries = []
        for number, line in enumerate(self.cleaned_data.get("entries", "").splitlines(), 1):
            if not line.strip():
                continue
            label, sep, value = line.partition("=")
            if not sep or not label.strip():
                raise forms.ValidationError(
                    _("Line %(line)d: write it as label = value.") % {"line": number}
                )
            entries.append({"label": label.strip(), "value": value.strip()})
        return entries

    def resources(self) -> dict[str, dict[str, int]]:
        """The profile's resources as typed, plus any the sheet held beyond the profile."""
        resources = dict(self.kept_resources)
        for index, name in enumerate(self.resource_names):
            current = self.cleaned_data.get(f"resource_{index}_current")
            maximum = self.cleaned_data.get(f"resource_{index}_max")
            if current is None and maximum is None:
                continue
            maximum = maximum if maximum is not None else current
            resources[name] = {
                "current": current if current is not None else maximum,
                "max": maximum,
            }
            if self.cleaned_data.get(f"resource_{index}_hidden"):
                resources[name]["hidden"] = True
        return resources

    def judgement_values(self) -> dict[str, int]:
        values = {
            name: self.cleaned_data[f"value_{index}"]
            for index, name in enumerate(self.value_names)
            if self.cleaned_data.get(f"value_{index}") is not None
        }
        values.update(self.cleaned_data["extra_values"])
        return values


class CcfoliaImportForm(forms.Form):
    ccfolia = forms.CharField(
        label=_("Ccfolia character JSON"),
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=_(
            "Paste what a character sheet site (キャラクター保管所, ゆとシート…) copies for "
            "Ccfolia: judgement values, resources, other entries and the chat palette are "
            "filled from it."
        ),
    )


class RulesProfileForm(forms.ModelForm):
    judgement_value_lines = forms.CharField(
        label=_("Judgement values"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One name per line, in the order the sheets list them."),
        required=False,
    )
    experience_line_text = forms.CharField(
        label=_("Standard experience lines"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "What the GM ticks in after-play. One per line, as reason = points, "
            "e.g. <code>Attended the session = 1</code>."
        ),
        required=False,
    )
    growth_catalogue_text = forms.CharField(
        label=_("Growth catalogue"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "What experience buys. One per line, as name | cost | judgement value | change "
            "| limit per character; the last three may be left out. "
            "e.g. <code>+1 Strength | 10 | Strength | 1 | 3</code> or <code>New skill | 5</code>."
        ),
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
            "growth_enabled",
            "free_growth_allowed",
            "growth_self_service",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["judgement_value_lines"].initial = "\n".join(
            self.instance.judgement_value_names or []
        )
        self.fields["experience_line_text"].initial = experience_lines_text(
            self.instance.experience_lines or []
        )
        self.fields["growth_catalogue_text"].initial = growth_catalogue_text(
            self.instance.growth_catalogue or []
        )
        for name in ("critical", "fumble"):
            self.fields[name].widget.attrs.update({"min": 2, "max": 12})

    def clean_judgement_value_lines(self):
        names = [line.strip() for line in self.cleaned_data["judgement_value_lines"].splitlines()]
        names = [name for name in names if name]
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each judgement value name may appear once."))
        return names

    def clean_experience_line_text(self):
        lines = []
        for number, raw in enumerate(self.cleaned_data["experience_line_text"].splitlines(), 1):
            if not raw.strip():
                continue
            label, sep, amount = raw.rpartition("=")
            label = label.strip()
            try:
                amount = int(amount.strip())
            except ValueError:
                amount = None
            if not sep or not label or amount is None or not 0 <= amount <= 1000:
                raise forms.ValidationError(
                    _("Line %(line)d: write it as reason = points (0 to 1000).") % {"line": number}
                )
            if len(label) > 200:
                raise forms.ValidationError(
                    _("Line %(line)d: a reason can be at most 200 characters.") % {"line": number}
                )
            lines.append({"label": label, "amount": amount})
        return lines

    def clean_growth_catalogue_text(self):
        items = []
        labels = set()
        for number, raw in enumerate(self.cleaned_data["growth_catalogue_text"].splitlines(), 1):
            if not raw.strip():
                continue
            parts = [part.strip() for part in raw.split("|")]
            parts += [""] * (5 - len(parts))
            label, cost, value_name, delta, limit = parts[:5]
            problem = len(parts) > 5 or not label or len(label) > 200
            try:
                cost = int(cost)
                delta = int(delta) if delta else (1 if value_name else 0)
                limit = int(limit) if limit else None
            except ValueError:
                problem = True
            else:
                problem = (
                    problem
                    or not 1 <= cost <= 1000
                    or (limit is not None and limit < 1)
                    or (value_name and delta == 0)
                    or len(value_name) > 60
                )
            if problem:
                raise forms.ValidationError(
                    _(
                        "Line %(line)d: write it as name | cost | judgement value | change | "
                        "limit, with a cost from 1 to 1000."
                    )
                    % {"line": number}
                )
            if label in labels:
                raise forms.ValidationError(
                    _("Line %(line)d: each name may appear once.") % {"line": number}
                )
            labels.add(label)
            items.append(
                {
                    "label": label,
                    "cost": cost,
                    "value_name": value_name,
                    "delta": delta,
                    "limit": limit,
                }
            )
        return items

    def clean(self):
        cleaned = super().clean()
        names = cleaned.get("judgement_value_lines")
        for item in cleaned.get("growth_catalogue_text") or []:
            if names is not None and item["value_name"] and item["value_name"] not in names:
                self.add_error(
                    "growth_catalogue_text",
                    _("%(item)s raises %(name)s, which is not one of the judgement values.")
                    % {"item": item["label"], "name": item["value_name"]},
                )
        return cleaned

    def save(self, commit=True):
        self.instance.experience_lines = self.cleaned_data["experience_line_text"]
        self.instance.growth_catalogue = self.cleaned_data["growth_catalogue_text"]
        return super().save(commit=commit)


def experience_lines_text(lines: list[dict]) -> str:
    return "\n".join(f"{line['label']} = {line['amount']}" for line in lines)


def growth_catalogue_text(items: list[dict]) -> str:
    rows = []
    for item in items:
        parts = [item["label"], str(item["cost"])]
        if item.get("value_name") or item.get("limit"):
            parts += [item.get("value_name") or "", str(item.get("delta") or 0)]
        if item.get("limit"):
            parts.append(str(item["limit"]))
        rows.append(" | ".join(parts))
    return "\n".join(rows)


class AwardForm(forms.Form):
    """The after-play form: for each person the standard lines (ticked, amount editable)
    and a few free lines."""

    FREE_LINES = 2

    def __init__(self, *args, people, lines, **kwargs):
        kwargs.setdefault("auto_id", "award_%s")
        super().__init__(*args, **kwargs)
        self.people = list(people)
        self.lines = list(lines)
        for person in self.people:
            for index, line in enumerate(self.lines):
                label = experience_label(line["label"])
                self.fields[f"p{person.pk}_line{index}"] = forms.BooleanField(
                    label=label, required=False, initial=True
                )
                self.fields[f"p{person.pk}_amount{index}"] = forms.IntegerField(
                    label=_("Points for “%(line)s”") % {"line": label},
                    min_value=0,
                    max_value=1000,
                    initial=line["amount"],
                )
            for index in range(self.FREE_LINES):
                self.fields[f"p{person.pk}_free{index}_reason"] = forms.CharField(
                    label=_("Other reason"), max_length=200, required=False
                )
                self.fields[f"p{person.pk}_free{index}_amount"] = forms.IntegerField(
                    label=_("Points"), min_value=0, max_value=1000, required=False
                )

    def blocks(self):
        """Return per person the bound fields, in the order the page shows them."""
        for person in self.people:
            yield {
                "person": person,
                "lines": [
                    (self[f"p{person.pk}_line{i}"], self[f"p{person.pk}_amount{i}"])
                    for i in range(len(self.lines))
                ],
                "free": [
                    (self[f"p{person.pk}_free{i}_reason"], self[f"p{person.pk}_free{i}_amount"])
                    for i in range(self.FREE_LINES)
                ],
            }

    def clean(self):
        cleaned = super().clean()
        for person in self.people:
            for index in range(self.FREE_LINES):
                reason = cleaned.get(f"p{person.pk}_free{index}_reason")
                amount = cleaned.get(f"p{person.pk}_free{index}_amount")
                if amount and not reason:
                    self.add_error(
                        f"p{person.pk}_free{index}_reason", _("Give a reason for these points.")
                    )
        return cleaned

    def awards(self):
        """Return {user id: [AwardLine]} from the ticked and filled-in lines."""
        awards = {}
        for person in self.people:
            lines = []
            for index, line in enumerate(self.lines):
                amount = self.cleaned_data.get(f"p{person.pk}_amount{index}") or 0
                if self.cleaned_data.get(f"p{person.pk}_line{index}") and amount:
                    lines.append(AwardLine(amount=amount, reason=line["label"]))
            for index in range(self.FREE_LINES):
                amount = self.cleaned_data.get(f"p{person.pk}_free{index}_amount") or 0
                reason = self.cleaned_data.get(f"p{person.pk}_free{index}_reason") or ""
                if amount:
                    lines.append(AwardLine(amount=amount, reason=reason))
            awards[person.pk] = lines
        return awards


class CleanupForm(forms.Form):
    def __init__(self, *args, items, **kwargs):
        kwargs.setdefault("auto_id", "cleanup_%s")
        super().__init__(*args, **kwargs)
        for key, label in items.items():
            self.fields[key] = forms.BooleanField(label=gettext(label), required=False)

    def done(self) -> dict[str, bool]:
        return {key: bool(self.cleaned_data.get(key)) for key in self.fields}


class GrowthForm(forms.Form):
    character = forms.ModelChoiceField(label=_("PC"), queryset=None, empty_label=None)
    item = forms.ChoiceField(label=_("Growth"), required=False)
    description = forms.CharField(label=_("Describe the growth"), max_length=200, required=False)
    cost = forms.IntegerField(label=_("Cost"), min_value=1, max_value=1000, required=False)
    session = forms.ModelChoiceField(
        label=_("Write it on the session sheet of"),
        queryset=None,
        required=False,
        empty_label=_("— no session —"),
    )

    def __init__(self, *args, characters, profile, sessions, **kwargs):
        kwargs.setdefault("auto_id", "growth_%s")
        super().__init__(*args, **kwargs)
        self.profile = profile
        self.fields["character"].queryset = characters
        choices = [
            (
                item["label"],
                _("%(label)s (cost %(cost)d)") % {"label": item["label"], "cost": item["cost"]},
            )
            for item in profile.growth_catalogue or []
        ]
        if profile.free_growth_allowed:
            choices.append(("", _("Something else (describe it and give the cost)")))
        else:
            del self.fields["description"]
            del self.fields["cost"]
        self.fields["item"].choices = choices
        self.fields["session"].queryset = sessions
        self.fields["session"].initial = sessions.first()

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("item") and "description" in self.fields:
            if not cleaned.get("description"):
                self.add_error("description", _("Describe the growth."))
            if not cleaned.get("cost"):
                self.add_error("cost", _("Give the cost."))
        return cleaned


class CorrectionForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Points"),
        min_value=-1000,
        max_value=1000,
        help_text=_("Negative to take points away; the balance never goes below zero."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)
    corrects = forms.ModelChoiceField(
        label=_("Corrects the entry"),
        queryset=None,
        required=False,
        empty_label=_("— none —"),
    )

    def __init__(self, *args, entries, **kwargs):
        kwargs.setdefault("auto_id", "correction_%s")
        super().__init__(*args, **kwargs)
        self.fields["corrects"].queryset = entries
        # The entry's line as the ledger shows it: a reason the app ships in the reader's language.
        self.fields["corrects"].label_from_instance = lambda entry: (
            f"{entry.created_at:%Y-%m-%d} {entry.amount:+d} {experience_label(entry.reason)}"
        )


class CcfoliaRoomForm(forms.Form):
    """Upload of a room exported from Ccfolia's room menu (a zip)."""

    file = forms.FileField(
        label=_("Ccfolia room export (zip)"),
        help_text=_("The zip Ccfolia's room menu exports, at most 10 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}),
    )


class LogImportForm(forms.Form):
    """Upload of a session log exported as JSON."""

    file = forms.FileField(
        label=_("Session log (JSON)"),
        help_text=_("A file exported from a session's review page, at most 25 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )


_PICTURE_TYPES = "image/png,image/jpeg,image/webp,image/gif"


class PictureField(forms.FileField):
    """A picture upload; its content is checked by services/images.py, not by the name."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "help_text", _("PNG, JPEG, WebP or GIF, at most 5 MB and 4096×4096 pixels.")
        )
        kwargs.setdefault("widget", forms.ClearableFileInput(attrs={"accept": _PICTURE_TYPES}))
        super().__init__(**kwargs)


class FaceUploadForm(forms.Form):
    label = forms.CharField(
        label=_("Label"),
        max_length=60,
        help_text=_("How the expression is called when you speak: “smile”, “angry”…"),
    )
    image = PictureField(
        label=_("Picture"), widget=forms.FileInput(attrs={"accept": _PICTURE_TYPES})
    )
    portrait = forms.BooleanField(label=_("Use as the portrait"), required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "face_%s")
        super().__init__(*args, **kwargs)


class FaceLabelForm(forms.Form):
    label = forms.CharField(label=_("Label"), max_length=60)
