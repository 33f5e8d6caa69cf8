"""Checks the GM asks for, contests between two sides, and the rolls that answer them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .append_only import AppendOnlyModel
from .characters import Character
from .tables import GameSession


class Contest(models.Model):
    """An opposed check (対決): the action side rolls first, then the reaction side."""

    class Status(models.TextChoices):
        ACTION = "action", _("Waiting for the action side")
        REACTION = "reaction", _("Waiting for the reaction side")
        DONE = "done", _("Decided")

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="contests"
    )
    label = models.CharField(_("label"), max_length=160)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTION
    )
    reaction_can_roll = models.BooleanField(_("reaction side can roll"), default=True)
    secret = models.BooleanField(_("secret"), default=False)
    winner = models.CharField(_("winner"), max_length=10, blank=True)
    reason = models.CharField(_("reason"), max_length=40, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("opened by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("contest")
        verbose_name_plural = _("contests")
        ordering = ["session_id", "created_at", "id"]

    def __str__(self) -> str:
        return self.label


class CheckRequest(models.Model):
    """A check the GM asks for: rolled exactly once by the character's owner."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for its turn")
        PENDING = "pending", _("Waiting for the roll")
        ROLLED = "rolled", _("Rolled")
        SKIPPED = "skipped", _("Not needed")
        CANCELLED = "cancelled", _("Cancelled")

    class Side(models.TextChoices):
        ACTION = "action", _("Action side")
        REACTION = "reaction", _("Reaction side")

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="check_requests",
    )
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.PROTECT,
        related_name="check_requests",
    )
    label = models.CharField(_("label"), max_length=160)
    value_name = models.CharField(_("judgement value name"), max_length=60, blank=True)
    value = models.SmallIntegerField(_("judgement value"))
    difficulty = models.SmallIntegerField(_("difficulty"), null=True, blank=True)
    difficulty_secret = models.BooleanField(_("secret difficulty"), default=False)
    gm_modifier = models.SmallIntegerField(_("GM modifier"), default=0)
    critical = models.PositiveSmallIntegerField(_("critical value"))
    fumble = models.PositiveSmallIntegerField(_("fumble value"))
    secret = models.BooleanField(_("secret"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    contest = models.ForeignKey(
        Contest,
        verbose_name=_("contest"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="requests",
    )
    side = models.CharField(_("side"), max_length=10, choices=Side.choices, blank=True)
    # Set for the check a character rolls to enter a scene: its result decides the entry.
    for_entry = models.BooleanField(_("entry check"), default=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("check request")
        verbose_name_plural = _("check requests")
        ordering = ["session_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "side"],
                condition=Q(contest__isnull=False),
                name="check_request_one_per_contest_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.label}"


class Roll(AppendOnlyModel):
    """One roll of the dice, stored once and shown identically to all who may see it.

    Append-only like the timeline: a mistaken roll is voided by a new event, never edited.
    """

    class Source(models.TextChoices):
        REQUEST = "request", _("Requested by the GM")
        GM = "gm", _("Rolled by the GM")
        COMMAND = "command", _("Roll box (not requested by the GM)")

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="rolls"
    )
    request = models.OneToOneField(
        CheckRequest,
        verbose_name=_("check request"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="roll",
    )
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rolls",
    )
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("rolled by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    label = models.CharField(_("label"), max_length=200, blank=True)
    command = models.CharField(_("command"), max_length=200, blank=True)
    faces = models.JSONField(_("faces"), default=list)
    modifiers = models.JSONField(
        _("modifiers"), default=list, blank=True, help_text=_("Each modifier's label and amount.")
    )
    result = models.JSONField(_("result"), default=dict)
    secret = models.BooleanField(_("secret"), default=False)
    difficulty_secret = models.BooleanField(_("secret difficulty"), default=False)
    # Where the faces came from: roll `dice_index` of epoch `dice_epoch`, with the roller's
    # value. Empty for rolls made before dice were verifiable (and faces typed in by tests).
    dice_epoch = models.PositiveIntegerField(_("dice epoch"), null=True, blank=True)
    dice_index = models.PositiveIntegerField(_("dice index"), null=True, blank=True)
    dice_value = models.CharField(_("roller's value"), max_length=128, blank=True)
    dice_value_source = models.CharField(
        _("roller's value from"),
        max_length=10,
        blank=True,
        choices=[("browser", _("the roller's browser")), ("server", _("the server"))],
    )
    dice_draws = models.JSONField(_("dice drawn"), default=list, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        ordering = ["session_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.label or self.command} {self.faces}"

    def key_place(self) -> dict | None:
        """Which key the roll used, without the key: what players learn of a secret roll,
        so that every index of an epoch is accounted for and none can be skipped unseen."""
        if self.dice_epoch is None:
            return None
        return {"epoch": self.dice_epoch, "index": self.dice_index}


class ActionKey(models.Model):
    """The key a page sent with an action that must happen once: a chat line, a roll.

    A connection that drops after the server acted but before the page heard back leaves
    the page to send the same form again; with its key already here, the server answers
    with what it stored instead of rolling (or speaking) a second time.
    """

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(_("key"), max_length=64)
    roll = models.ForeignKey(
        Roll,
        verbose_name=_("roll"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("action key")
        verbose_name_plural = _("action keys")
        constraints = [
            models.UniqueConstraint(fields=["session", "user", "key"], name="action_key_unique"),
        ]

    def __str__(self) -> str:
        return self.key
