"""Experience: the per-person ledger and the GM's signed session sheets."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .append_only import AppendOnlyModel
from .characters import Character
from .tables import GameSession, Table


class ExperienceEntry(AppendOnlyModel):
    """One line of a person's experience ledger at a table: an award, a spending or a fix.

    Experience belongs to the person, not to a character. Rows are never edited: a mistake
    is fixed by a correction entry, and each row carries the balance after it.
    """

    class Kind(models.TextChoices):
        AWARD = "award", _("Award")
        SPEND = "spend", _("Spending")
        CORRECTION = "correction", _("Correction")

    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="experience_entries",
    )
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("person"),
        on_delete=models.PROTECT,
        related_name="experience_entries",
    )
    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="experience_entries",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    amount = models.IntegerField(_("amount"))
    reason = models.CharField(_("reason"), max_length=200)
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="experience_entries",
    )
    growth = models.JSONField(
        _("growth"),
        default=dict,
        blank=True,
        help_text=_("What a spending bought: catalogue item, judgement value, change."),
    )
    balance_after = models.IntegerField(_("balance after"))
    corrects = models.ForeignKey(
        "self",
        verbose_name=_("corrects"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="corrections",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("written by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("experience entry")
        verbose_name_plural = _("experience entries")
        ordering = ["table_id", "person_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance_after__gte=0), name="experience_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=~Q(kind="award") | Q(amount__gt=0), name="experience_award_positive"
            ),
            models.CheckConstraint(
                condition=~Q(kind="spend") | Q(amount__lt=0, character__isnull=False),
                name="experience_spend_on_a_character",
            ),
            models.CheckConstraint(
                condition=~Q(kind="correction") | ~Q(amount=0),
                name="experience_correction_not_zero",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} {self.amount:+d} ({self.reason})"


class SessionSignoff(AppendOnlyModel):
    """The GM's stamp on a session sheet: the experience written there is confirmed."""

    session = models.OneToOneField(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="signoff",
    )
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("signed by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    # The name as it read on the day: the stamp must not change if the account is renamed.
    signer_name = models.CharField(_("name on the stamp"), max_length=150)
    signed_at = models.DateTimeField(_("signed"), default=timezone.now)

    class Meta:
        verbose_name = _("session sheet sign-off")
        verbose_name_plural = _("session sheet sign-offs")
        ordering = ["-signed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.session} ({self.signer_name})"
