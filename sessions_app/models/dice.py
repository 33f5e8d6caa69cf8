"""The server's side of verifiable dice: each epoch's secret and its published commitment."""

from __future__ import annotations

from django.conf import settings
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


class DiceReservation(models.Model):
    """A roll key set aside for one user's next roll before their browser draws its value,
    so that the server cannot choose the key after seeing the value. Published when made;
    used by that user's roll, or published with its key as skipped once it expires."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        USED = "used", _("used")
        SKIPPED = "skipped", _("skipped")

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="dice_reservations",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE
    )
    epoch = models.PositiveIntegerField(_("epoch"))
    index = models.PositiveIntegerField(_("index"))
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))

    class Meta:
        verbose_name = _("dice reservation")
        verbose_name_plural = _("dice reservations")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "epoch", "index"], name="dice_reservation_unique_key"
            ),
        ]
        indexes = [models.Index(fields=["session", "state"], name="dice_reservation_open")]

    def __str__(self) -> str:
        return f"{self.session} {self.epoch}/{self.index} {self.state}"
