"""The chat tabs a GM makes for a session (情報, 秘匿, a tab per scene…), as Ccfolia's rooms
have them, beside the built-in Main, Off-topic and Information tabs."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import GameSession

CHAT_TAB_NAME_MAX_LENGTH = 20
# The channel a tab's lines carry is this prefix and the tab's id: stable through a rename.
CHAT_TAB_PREFIX = "tab"


class ChatTab(models.Model):
    """A GM-made chat tab of one session; archived, it leaves the tab bar and the chat form,
    and its lines keep the name they were posted under."""

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="chat_tabs"
    )
    name = models.CharField(_("name"), max_length=CHAT_TAB_NAME_MAX_LENGTH)
    position = models.PositiveIntegerField(_("order"), default=0)
    archived = models.BooleanField(_("archived"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("chat tab")
        verbose_name_plural = _("chat tabs")
        ordering = ["session", "position", "pk"]
        constraints = [
            # Two open tabs of one name would be one tab to the eye.
            models.UniqueConstraint(
                Lower("name"),
                "session",
                condition=Q(archived=False),
                name="chat_tab_open_name_unique",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="chat_tab_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        """The channel its lines carry."""
        return f"{CHAT_TAB_PREFIX}{self.pk}"
