from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import GameSession, RulesProfile
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


__all__ = ["ChatForm", "GameSession", "SessionForm", "SignupForm", "TableForm"]
