"""The server's side of verifiable dice: each epoch's secret and its published commitment."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import GameSession


class DiceEpoch(models.Model):
    """A batch of per-roll keys of one session, committed (its Merkle root published)
    before any of its rolls is made. The master secret never leaves the server: players
    receive each roll's own key, and only once they may see that roll."""

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="dice_epochs"
    )
    number = models.PositiveIntegerField(_("epoch"))
    size = models.PositiveIntegerField(_("rolls in the epoch"))
    master = models.BinaryField(_("master secret"), editable=False)
    root = models.CharField(_("commitment"), max_length=64)
    used = models.PositiveIntegerField(_("rolls used"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("dice epoch")
        verbose_name_plural = _("dice epochs")
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="dice_epoch_unique_number"),
            models.CheckConstraint(
                condition=Q(used__lte=F("size")), name="dice_epoch_used_le_size"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} #{self.number} ({self.used}/{self.size})"
