"""Experience: the per-person ledger, growth asked of a GM, and the signed session sheets."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .append_only import AppendOnlyModel
from .characters import Character
from .tables import GameSession, Table


class ExperienceAccount(models.Model):
    """A person's experience in one game: the row their ledger is written under.

    Experience belongs to the person, not to a table or a character: points earned at any
    table of a game are spent on any of the person's PCs of that game. Every ledger line is
    written while this row is locked, so two spendings at once cannot share the same points.
    """

    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("person"),
        on_delete=models.CASCADE,
        related_name="experience_accounts",
    )
    game = models.CharField(_("game"), max_length=100)

    class Meta:
        verbose_name = _("experience account")
        verbose_name_plural = _("experience accounts")
        ordering = ["person_id", "game"]
        constraints = [
            models.UniqueConstraint(fields=["person", "game"], name="experience_account_once"),
        ]

    def __str__(self) -> str:
        return f"{self.person} ({self.game})"


class ExperienceEntry(AppendOnlyModel):
    """One line of a person's experience ledger in a game: an award, a spending or a fix.

    The person's balance in the game is one, whichever table wrote the line; `table` and
    `session` say where the points came from or went. Rows are never edited: a mistake is
    fixed by a correction entry, and each row carries the person's balance after it.
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
    game = models.CharField(_("game"), max_length=100)
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
        ordering = ["person_id", "game", "id"]
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


class GrowthRequest(models.Model):
    """A player's spending waiting for the GM: the rules have the GM rewrite the sheet.

    Nothing is spent and nothing on the sheet changes until the GM of the character's table
    confirms; then the spending is written on the ledger and the request points at it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the GM")
        CONFIRMED = "confirmed", _("Confirmed")
        DECLINED = "declined", _("Declined")

    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="growth_requests",
    )
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("person"),
        on_delete=models.CASCADE,
        related_name="growth_requests",
    )
    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="growth_requests",
    )
    reason = models.CharField(_("growth"), max_length=200)
    cost = models.PositiveIntegerField(_("cost"))
    growth = models.JSONField(
        _("growth"),
        default=dict,
        blank=True,
        help_text=_("What the spending buys: catalogue item, judgement value, change."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    requested_at = models.DateTimeField(_("asked"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    entry = models.OneToOneField(
        ExperienceEntry,
        verbose_name=_("ledger entry"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="request",
    )

    class Meta:
        verbose_name = _("growth request")
        verbose_name_plural = _("growth requests")
        ordering = ["requested_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(cost__gt=0), name="growth_request_costs_points"),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(entry__isnull=False),
                name="growth_request_confirmed_has_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.reason} ({self.get_status_display()})"


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
