"""Tables (play groups), their members and invitations, sessions and the session timeline."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from .shipped_names import shown_name


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
        # The unique (session, seq) index serves every lookup by session; a second index
        # of its own would only be one more to write on every event.
        db_index=False,
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
    resources = models.JSONField(
        _("resources"),
        default=dict,
        blank=True,
        help_text=_("Resource name → {current, max}, such as HP."),
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
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        ordering = ["session_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.label or self.command} {self.faces}"


class Participation(models.Model):
    """A character taking part in a session, with its pre-play checks and introduction."""

    class SheetStatus(models.TextChoices):
        UNCHECKED = "unchecked", _("Not checked yet")
        CHECKED = "checked", _("Checked by the GM")
        RETURNED = "returned", _("Sent back for changes")

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="participations",
    )
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="participations",
    )
    # Which PC slot of the scenario (PC1, PC2, …) the character plays: handouts and
    # planned scenes name slots, not characters.
    slot = models.PositiveSmallIntegerField(_("PC slot"), null=True, blank=True)
    sheet_status = models.CharField(
        _("sheet check"),
        max_length=10,
        choices=SheetStatus.choices,
        default=SheetStatus.UNCHECKED,
    )
    sheet_comment = models.TextField(_("GM's comment on the sheet"), blank=True)
    intro = models.TextField(_("self-introduction"), blank=True)
    intro_done = models.BooleanField(_("introduced"), default=False)

    class Meta:
        verbose_name = _("participation")
        verbose_name_plural = _("participations")
        ordering = ["session_id", "slot", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "character"], name="participation_once_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} in {self.session}"


class Scenario(models.Model):
    """A GM's prepared adventure, playable with any of their tables; players never see it."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("GM"),
        on_delete=models.CASCADE,
        related_name="scenarios",
    )
    title = models.CharField(_("title"), max_length=160)
    summary = models.TextField(_("summary"), blank=True)
    player_count = models.PositiveSmallIntegerField(_("number of players"), default=3)
    gm_notes = models.TextField(_("GM notes"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("scenario")
        verbose_name_plural = _("scenarios")
        ordering = ["owner_id", "title", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(player_count__gte=1, player_count__lte=12),
                name="scenario_player_count_range",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class PlannedScene(models.Model):
    """A scene the GM means to play, in a phase, with its prepared checks."""

    scenario = models.ForeignKey(
        Scenario, verbose_name=_("scenario"), on_delete=models.CASCADE, related_name="scenes"
    )
    phase = models.CharField(
        _("phase"),
        max_length=10,
        choices=[(phase.value, phase.label) for phase in MAIN_PLAY_PHASES],
        default=Phase.OPENING,
    )
    position = models.PositiveSmallIntegerField(_("order"), default=1)
    title = models.CharField(_("title"), max_length=160)
    # Empty slot means a master scene: the GM alone decides who appears.
    scene_player_slot = models.PositiveSmallIntegerField(
        _("scene player (PC slot)"),
        null=True,
        blank=True,
        help_text=_("Empty for a master scene."),
    )
    place = models.CharField(_("place"), max_length=160, blank=True)
    purpose = models.CharField(_("purpose"), max_length=300, blank=True)
    gm_notes = models.TextField(_("GM notes"), blank=True)

    class Meta:
        verbose_name = _("planned scene")
        verbose_name_plural = _("planned scenes")
        ordering = ["scenario_id", "position", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_master(self) -> bool:
        return self.scene_player_slot is None


class PreparedCheck(models.Model):
    """A check written in advance that the GM fires in one click during the scene."""

    planned_scene = models.ForeignKey(
        PlannedScene,
        verbose_name=_("planned scene"),
        on_delete=models.CASCADE,
        related_name="checks",
    )
    label = models.CharField(_("label"), max_length=160)
    value_name = models.CharField(_("judgement value name"), max_length=60)
    difficulty = models.SmallIntegerField(_("difficulty"), null=True, blank=True)
    secret = models.BooleanField(_("secret"), default=False)

    class Meta:
        verbose_name = _("prepared check")
        verbose_name_plural = _("prepared checks")
        ordering = ["planned_scene_id", "id"]

    def __str__(self) -> str:
        return self.label


class ScenarioNpc(models.Model):
    """An NPC written into a scenario; becomes a character of the table when it is run."""

    scenario = models.ForeignKey(
        Scenario, verbose_name=_("scenario"), on_delete=models.CASCADE, related_name="npcs"
    )
    name = models.CharField(_("name"), max_length=120)
    concept = models.CharField(_("concept"), max_length=200, blank=True)
    judgement_values = models.JSONField(_("judgement values"), default=dict, blank=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("scenario NPC")
        verbose_name_plural = _("scenario NPCs")
        ordering = ["scenario_id", "name", "id"]

    def __str__(self) -> str:
        return self.name


class Handout(models.Model):
    """Text the GM reveals during play, to everyone or to the player of one PC slot."""

    scenario = models.ForeignKey(
        Scenario, verbose_name=_("scenario"), on_delete=models.CASCADE, related_name="handouts"
    )
    title = models.CharField(_("title"), max_length=160)
    body = models.TextField(_("text"), blank=True)
    slot = models.PositiveSmallIntegerField(
        _("for PC slot"), null=True, blank=True, help_text=_("Empty for everyone.")
    )

    class Meta:
        verbose_name = _("handout")
        verbose_name_plural = _("handouts")
        ordering = ["scenario_id", "slot", "id"]

    def __str__(self) -> str:
        return self.title


class HandoutReveal(models.Model):
    """A handout given out in a session: from then on its readers see it."""

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="handout_reveals",
    )
    handout = models.ForeignKey(
        Handout, verbose_name=_("handout"), on_delete=models.CASCADE, related_name="reveals"
    )
    readers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("readers"),
        blank=True,
        related_name="+",
        help_text=_("Empty when the handout is for everyone."),
    )
    revealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revealed by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    revealed_at = models.DateTimeField(_("revealed"), default=timezone.now)

    class Meta:
        verbose_name = _("revealed handout")
        verbose_name_plural = _("revealed handouts")
        ordering = ["session_id", "revealed_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "handout"], name="handout_reveal_once"),
        ]

    def __str__(self) -> str:
        return f"{self.handout} in {self.session}"


class Scene(EntryConditionFields):
    """One scene of main play: a scene player (or none, for a master scene), place, purpose."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        ENDED = "ended", _("Ended")

    session = models.ForeignKey(
        GameSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="scenes"
    )
    phase = models.CharField(_("phase"), max_length=10, choices=Phase.choices)
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=160, blank=True)
    scene_player = models.ForeignKey(
        Character,
        verbose_name=_("scene player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="scenes_led",
    )
    place = models.CharField(_("place"), max_length=160, blank=True)
    purpose = models.CharField(_("purpose"), max_length=300, blank=True)
    planned = models.ForeignKey(
        PlannedScene,
        verbose_name=_("planned scene"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # No-scene mode: the whole of main play as one scene, without entries or exits.
    continuous = models.BooleanField(_("continuous"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    backstage_notes = models.TextField(_("backstage notes"), blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="scene_number_unique"),
            # One scene at a time: a second "start" in another tab fails in the database.
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(status="running"),
                name="scene_one_running_per_session",
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"#{self.number}"

    @property
    def is_master(self) -> bool:
        return self.scene_player_id is None and not self.continuous


class Appearance(models.Model):
    """A character's time on stage in a scene: from entering until exiting (or the end)."""

    class Way(models.TextChoices):
        SCENE_PLAYER = "scene_player", _("Scene player")
        COMPANION = "companion", _("Companion")
        ENTRY = "entry", _("Entry request")
        GM = "gm", _("Brought in by the GM")

    scene = models.ForeignKey(
        Scene, verbose_name=_("scene"), on_delete=models.CASCADE, related_name="appearances"
    )
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="appearances",
    )
    way = models.CharField(_("how"), max_length=20, choices=Way.choices)
    entered_at = models.DateTimeField(_("entered"), default=timezone.now)
    exited_at = models.DateTimeField(_("exited"), null=True, blank=True)

    class Meta:
        verbose_name = _("appearance")
        verbose_name_plural = _("appearances")
        ordering = ["scene_id", "entered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "character"],
                condition=Q(exited_at__isnull=True),
                name="appearance_once_on_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} in {self.scene}"


class StageRequest(models.Model):
    """A companion proposal, an entry request or an exit request, and where it stands."""

    class Kind(models.TextChoices):
        COMPANION = "companion", _("Companion")
        ENTRY = "entry", _("Entry request")
        EXIT = "exit", _("Exit request")

    class Status(models.TextChoices):
        ASKED = "asked", _("Waiting for the character's player")
        PENDING = "pending", _("Waiting for the GM")
        CHECKING = "checking", _("Waiting for the entry check")
        ALLOWED = "allowed", _("Allowed")
        REFUSED = "refused", _("Refused by the GM")
        DECLINED = "declined", _("Declined by the player")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        FAILED = "failed", _("Condition not met")

    OPEN_STATUSES = (Status.ASKED, Status.PENDING, Status.CHECKING)

    scene = models.ForeignKey(
        Scene, verbose_name=_("scene"), on_delete=models.CASCADE, related_name="requests"
    )
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="stage_requests",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    check_request = models.OneToOneField(
        CheckRequest,
        verbose_name=_("entry check"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="stage_request",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("stage request")
        verbose_name_plural = _("stage requests")
        ordering = ["scene_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "character", "kind"],
                condition=Q(status__in=["asked", "pending", "checking"]),
                name="stage_request_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.character}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


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


class ImportedLog(AppendOnlyModel):
    """Where an imported session came from: the people and sheets its file named.

    The people of another server have no account here, so their names are kept as text
    rather than turned into logins; exporting the session again gives back the same file.
    """

    session = models.OneToOneField(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="imported_log",
    )
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("imported by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    imported_at = models.DateTimeField(_("imported"), default=timezone.now)
    complete = models.BooleanField(
        _("complete"),
        default=True,
        help_text=_("Off when the file was a player's export: only what that player saw."),
    )
    view_of = models.CharField(
        _("view of"),
        max_length=150,
        blank=True,
        help_text=_("Whose view a partial file holds."),
    )
    members = models.JSONField(_("members"), default=list, blank=True)
    characters = models.JSONField(_("characters"), default=list, blank=True)
    # {"<seq>": {"actor": name, "audience": [names]}}: who did and who saw each event.
    event_people = models.JSONField(_("people of the events"), default=dict, blank=True)

    class Meta:
        verbose_name = _("imported log")
        verbose_name_plural = _("imported logs")
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return str(self.session)
