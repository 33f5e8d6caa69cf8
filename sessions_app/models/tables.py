"""Tables (play groups), their rules profiles, members, invitations and sessions."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from ..shipped_names import shown_name


class EntryCondition(models.TextChoices):
    NONE = "none", _("None")
    CHECK = "check", _("A successful check")
    COST = "cost", _("A cost")


class Phase(models.TextChoices):
    """Where a session stands: pre-play, the four phases of main play, after-play."""

    PRE_PLAY = "preplay", _("Pre-play")
    OPENING = "opening", _("Opening")
    MIDDLE = "middle", _("Middle")
    CLIMAX = "climax", _("Climax")
    ENDING = "ending", _("Ending")
    AFTER_PLAY = "afterplay", _("After-play")
    CLOSED = "closed", _("Closed")


MAIN_PLAY_PHASES = (Phase.OPENING, Phase.MIDDLE, Phase.CLIMAX, Phase.ENDING)


PHASE_ORDER = (Phase.PRE_PLAY, *MAIN_PLAY_PHASES, Phase.AFTER_PLAY, Phase.CLOSED)


# Stored in English and translated on display, like the shipped judgement value names.
SHIPPED_EXPERIENCE_LABELS = [
    gettext_noop("Attended the session"),
    gettext_noop("Reached the scenario's goal"),
    gettext_noop("Good roleplay"),
    gettext_noop("Helped the game run"),
    gettext_noop("GM's award"),
]


# The profiles shipped with the app (no table): their names are translated on display too.
SHIPPED_PROFILE_NAMES = [gettext_noop("SRS standard"), gettext_noop("Akashic Recorder")]


def default_experience_lines() -> list[dict]:
    """Return the after-play lines a profile offers unless its designer says otherwise.

    The rules leave amounts to each game; one point a line is a neutral start.
    """
    return [{"label": label, "amount": 1} for label in SHIPPED_EXPERIENCE_LABELS]


class EntryConditionFields(models.Model):
    """What a PC must do to enter a scene it was not in: a profile's rule, which each
    scene copies when it starts (so changing the profile never rewrites a past scene)."""

    entry_condition = models.CharField(
        _("entry condition"),
        max_length=10,
        choices=EntryCondition.choices,
        default=EntryCondition.NONE,
        help_text=_("What a PC must do to enter a scene it was not in."),
    )
    entry_check_value_name = models.CharField(
        _("entry check: judgement value"), max_length=60, blank=True
    )
    entry_check_difficulty = models.SmallIntegerField(
        _("entry check: difficulty"), null=True, blank=True
    )
    entry_cost_resource = models.CharField(_("entry cost: resource"), max_length=60, blank=True)
    entry_cost_amount = models.CharField(
        _("entry cost: amount"),
        max_length=40,
        blank=True,
        help_text=_("A number or a dice expression such as 1D6."),
    )

    class Meta:
        abstract = True


class RulesProfile(EntryConditionFields):
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
    resource_names = models.JSONField(
        _("resource names"),
        default=list,
        blank=True,
        help_text=_("Named resources of its character sheets (current/max), such as HP."),
    )
    # The rules call play without scenes "not recommended"; it stays possible.
    scenes_enabled = models.BooleanField(
        _("play in scenes"),
        default=True,
        help_text=_("Off: main play is one continuous scene, without entries or exits."),
    )
    after_scene_resource = models.CharField(
        _("after a scene: resource"),
        max_length=60,
        blank=True,
        help_text=_("Recovered by the PCs who did not appear in the scene; empty for none."),
    )
    after_scene_amount = models.CharField(
        _("after a scene: amount"),
        max_length=40,
        blank=True,
        help_text=_("A number or a dice expression such as 1D6."),
    )
    experience_lines = models.JSONField(
        _("standard experience lines"),
        default=default_experience_lines,
        blank=True,
        help_text=_("The lines the GM ticks in after-play: [{label, amount}]."),
    )
    # The rules allow a game without growth but call it "not recommended".
    growth_enabled = models.BooleanField(
        _("growth"),
        default=True,
        help_text=_("Off: experience cannot be spent (the rules call this not recommended)."),
    )
    growth_catalogue = models.JSONField(
        _("growth catalogue"),
        default=list,
        blank=True,
        help_text=_("What experience buys: [{label, cost, value_name, delta, limit}]."),
    )
    free_growth_allowed = models.BooleanField(
        _("free-form growth"),
        default=True,
        help_text=_("Players may also spend on growth they describe themselves, at a cost."),
    )
    # The rules have the player ask the GM to rewrite the sheet; a game may trust its players.
    growth_self_service = models.BooleanField(
        _("self-service growth"),
        default=False,
        help_text=_(
            "On: a player's spending changes the sheet at once. Off: the GM confirms it first."
        ),
    )
    # Experience is spent on any PC of the same game. A table's profile is a copy of a shipped
    # one and keeps its stored name here, whatever the table renames its copy to.
    game = models.CharField(
        _("game"),
        max_length=100,
        blank=True,
        editable=False,
        help_text=_(
            "The shipped profile this one derives from: experience earned under it is "
            "spent on PCs of the same game."
        ),
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
        return self.display_name

    def save(self, *args, **kwargs):
        # A profile that derives from none (a shipped one, an imported one) is its own game.
        if not self.game:
            self.game = self.name
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        """The name in the reader's language for a shipped profile; a table's own as written."""
        if self.table_id is not None:
            return self.name
        return shown_name(self.name, SHIPPED_PROFILE_NAMES)

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


def _new_invite_token() -> str:
    return secrets.token_urlsafe(24)


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
    # Spectators (観戦) follow the room read-only through a link; a new token kills the old.
    spectators_allowed = models.BooleanField(_("spectators allowed"), default=False)
    spectator_token = models.CharField(
        _("spectator token"), max_length=64, unique=True, default=_new_invite_token
    )
    # A critical or a fumble of a check shows a cut-in over everyone's room.
    cut_ins_on_rolls = models.BooleanField(_("cut-ins on criticals and fumbles"), default=False)

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
    allows_guests = models.BooleanField(
        _("allows guests"),
        default=False,
        help_text=_("Players may join with a display name only, without signing up."),
    )

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.table} ({self.expires_at:%Y-%m-%d})"

    def is_usable(self, *, now=None) -> bool:
        return not self.revoked and (now or timezone.now()) < self.expires_at


class TableBar(models.Model):
    """An account the GM removed from a table: no invite of that table lets it back in
    until the GM lifts the bar (a link the person still holds would otherwise undo the
    removal)."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="bars"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    barred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("barred by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    barred_at = models.DateTimeField(_("barred"), default=timezone.now)

    class Meta:
        verbose_name = _("barred account")
        verbose_name_plural = _("barred accounts")
        ordering = ["table_id", "barred_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_bar_once_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} barred from {self.table}"


class GuestAccount(models.Model):
    """An account made from a display name alone through a guest invite: a player at that
    one table and nowhere else, until its owner sets a password and keeps it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="guest_account",
    )
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="guest_accounts"
    )
    invite = models.ForeignKey(
        Invite,
        verbose_name=_("invite"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="guest_accounts",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("guest account")
        verbose_name_plural = _("guest accounts")
        ordering = ["table_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user} @ {self.table}"


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
        through="Participation",
    )
    phase = models.CharField(
        _("phase"), max_length=10, choices=Phase.choices, default=Phase.PRE_PLAY
    )
    scenario = models.ForeignKey(
        "Scenario",
        verbose_name=_("scenario"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sessions",
    )
    # User ids in seating order: the online form of where everyone sits at the table.
    player_order = models.JSONField(_("player order"), default=list, blank=True)
    # The GM's own preparation ticks (rulebook read, scenario chosen, tools ready).
    preparation = models.JSONField(_("GM preparation"), default=dict, blank=True)
    # After-play: experience is confirmed once, then the cleanup is ticked and it closes.
    experience_confirmed_at = models.DateTimeField(_("experience confirmed"), null=True, blank=True)
    cleanup = models.JSONField(_("cleanup"), default=dict, blank=True)

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["-scheduled_for", "-id"]

    def __str__(self) -> str:
        return f"{self.title} ({self.scheduled_for:%Y-%m-%d})"

    @property
    def group_name(self) -> str:
        return f"session.{self.pk}"
