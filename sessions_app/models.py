"""Tables (play groups), their members and invitations, sessions and the session timeline."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RulesProfile(models.Model):
    """The designer-set numbers of one SRS game; shipped profiles have no table."""

    table = models.ForeignKey(
        "Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rules_profiles",
        help_text=_("Empty for the profiles shipped with the app, which every table may use."),
    )
    name = models.CharField(_("name"), max_length=100)
    critical = models.PositiveSmallIntegerField(_("critical value"), default=12)
    fumble = models.PositiveSmallIntegerField(_("fumble value"), default=2)
    modifier_limit = models.PositiveSmallIntegerField(_("GM modifier limit"), default=3)
    # Lowest difficulty of each band of the seed's guide table (6–8 easy, 9–11 ordinary,
    # 12–15 hard, 16+ extreme); games that rebalance numbers change these.
    easy_from = models.PositiveSmallIntegerField(_("easy from"), default=6)
    ordinary_from = models.PositiveSmallIntegerField(_("ordinary from"), default=9)
    hard_from = models.PositiveSmallIntegerField(_("hard from"), default=12)
    extreme_from = models.PositiveSmallIntegerField(_("extreme from"), default=16)
    judgement_value_names = models.JSONField(
        _("judgement value names"),
        default=list,
        blank=True,
        help_text=_("The judgement values its character sheets use, in order."),
    )

    class Meta:
        verbose_name = _("rules profile")
        verbose_name_plural = _("rules profiles")
        ordering = ["table_id", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(critical__gte=2, critical__lte=12),
                name="rules_profile_critical_2d6",
            ),
            models.CheckConstraint(
                condition=Q(fumble__gte=2, fumble__lte=12),
                name="rules_profile_fumble_2d6",
            ),
            models.CheckConstraint(
                condition=Q(
                    easy_from__lt=models.F("ordinary_from"),
                    ordinary_from__lt=models.F("hard_from"),
                    hard_from__lt=models.F("extreme_from"),
                ),
                name="rules_profile_difficulty_bands_ascending",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def difficulty_band(self, difficulty: int | None) -> str | None:
        """Name the band of the guide table a difficulty falls in."""
        if difficulty is None:
            return None
        for band, lowest in [
            ("extreme", self.extreme_from),
            ("hard", self.hard_from),
            ("ordinary", self.ordinary_from),
            ("easy", self.easy_from),
        ]:
            if difficulty >= lowest:
                return band
        return "trivial"


class Table(models.Model):
    """A play group: one GM and the players who join through invitations."""

    name = models.CharField(_("name"), max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("GM"),
        on_delete=models.PROTECT,
        related_name="tables_run",
    )
    rules_profile = models.ForeignKey(
        RulesProfile,
        verbose_name=_("rules profile"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Used for new sessions and for the judgement values of character sheets."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("GM")
        PLAYER = "player", _("Player")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["table_id", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="membership_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.table} ({self.get_role_display()})"


def _new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link that makes whoever opens it a player of the table, until it expires."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="invites"
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=_new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked = models.BooleanField(_("revoked"), default=False)

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.table} ({self.expires_at:%Y-%m-%d})"

    def is_usable(self, *, now=None) -> bool:
        return not self.revoked and (now or timezone.now()) < self.expires_at


class GameSession(models.Model):
    """One evening (or afternoon) of play at a table: the room and its timeline."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="sessions"
    )
    title = models.CharField(_("title"), max_length=160)
    scheduled_for = models.DateField(_("date"))
    rules_profile = models.ForeignKey(
        RulesProfile,
        verbose_name=_("rules profile"),
        on_delete=models.PROTECT,
        related_name="sessions",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # The last sequence number handed out; bumped under a row lock so numbers stay gapless.
    last_seq = models.PositiveIntegerField(_("last sequence number"), default=0, editable=False)
    characters = models.ManyToManyField(
        "Character",
        verbose_name=_("characters taking part"),
        blank=True,
        related_name="sessions",
    )

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["-scheduled_for", "-id"]

    def __str__(self) -> str:
        return f"{self.title} ({self.scheduled_for:%Y-%m-%d})"

    @property
    def group_name(self) -> str:
        return f"session.{self.pk}"


class AppendOnlyQuerySet(models.QuerySet):
    """Refuse bulk edits: history is corrected by appending, never by rewriting."""

    def update(self, **kwargs):
        raise ValueError(f"{self.model._meta.verbose_name_plural} are append-only.")

    def delete(self):
        raise ValueError(f"{self.model._meta.verbose_name_plural} are append-only.")


class AppendOnlyModel(models.Model):
    """A record that is written once: no save of an existing row, no delete, no bulk edit."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError(f"{self._meta.verbose_name_plural} are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self._meta.verbose_name_plural} are append-only.")


class TimelineEvent(AppendOnlyModel):
    """One append-only entry of a session's history; there is no update or delete path."""

    class Visibility(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        GM = "gm", _("GM only")
        USERS = "users", _("Listed users")
        # The redacted twin of a GM-only event: what players may know ("a secret roll
        # happened"), while the GM sees the full event instead.
        PLAYERS = "players", _("Players only")

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="events",
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=40)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.EVERYONE
    )
    audience = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("audience"),
        blank=True,
        related_name="+",
        help_text=_("Who may see the event when its visibility is 'listed users'."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("timeline event")
        verbose_name_plural = _("timeline events")
        ordering = ["session_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="timeline_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="timeline_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class Presence(models.Model):
    """One open websocket of a user in a session's room; the row lives as long as the socket.

    Kept in the database rather than in one process's memory so that several server
    processes show the same room.
    """

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="presences",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    connected_at = models.DateTimeField(_("connected"), default=timezone.now)
    # Refreshed by the page's periodic ping: a socket of a server process that died without
    # closing it stops counting once this grows old.
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        ordering = ["session_id", "connected_at"]

    def __str__(self) -> str:
        return f"{self.user} in {self.session}"


class Character(models.Model):
    """A character sheet: a PC belongs to a player of the table, an NPC to its GM."""

    class Kind(models.TextChoices):
        PC = "pc", _("PC")
        NPC = "npc", _("NPC")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="characters"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.PROTECT,
        related_name="characters",
    )
    kind = models.CharField(_("kind"), max_length=3, choices=Kind.choices, default=Kind.PC)
    name = models.CharField(_("name"), max_length=120)
    concept = models.CharField(_("concept"), max_length=200, blank=True)
    judgement_values = models.JSONField(
        _("judgement values"),
        default=dict,
        blank=True,
        help_text=_("Judgement value name → number."),
    )
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["table_id", "kind", "name", "id"]

    def __str__(self) -> str:
        return self.name


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
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        ordering = ["session_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.label or self.command} {self.faces}"
