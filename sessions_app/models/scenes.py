"""Who takes part in a session, its scenes, who appears in them and who asks to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .characters import Character
from .checks import CheckRequest
from .scenarios import PlannedScene
from .tables import EntryConditionFields, GameSession, Phase


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
    # When the GM last marked the sheet checked: the changes made since are what they review.
    checked_at = models.DateTimeField(_("sheet checked at"), null=True, blank=True)

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
    # Shown behind the stage while the scene runs; copied from the planned scene's.
    background = models.FileField(_("background image"), max_length=200, blank=True)
    # Looped in every browser of the room while the scene runs; ending the scene stops it.
    music = models.ForeignKey(
        "sessions_app.TableAudio",
        verbose_name=_("music"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
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


class SheetChange(models.Model):
    """A change to a taking-part character's sheet, kept for the session's GM to review.

    A change to anything but a resource's current value (HP and the like, which move in
    play) withdraws the GM's check until they check the sheet again.
    """

    participation = models.ForeignKey(
        Participation,
        verbose_name=_("participation"),
        on_delete=models.CASCADE,
        related_name="sheet_changes",
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed"), default=timezone.now)
    # [{"what": "judgement_value", "name": "Reflexes", "before": "4", "after": "5"}, …]
    changes = models.JSONField(_("changes"), default=list)
    withdrew_check = models.BooleanField(_("withdrew the check"), default=False)
    resources_only = models.BooleanField(_("resources only"), default=False)

    class Meta:
        verbose_name = _("sheet change")
        verbose_name_plural = _("sheet changes")
        ordering = ["participation_id", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.participation} ({self.changed_at:%Y-%m-%d %H:%M})"


class SceneRequest(models.Model):
    """A player's wish for a scene (who, where, what): the GM starts a scene from it,
    declines it, or keeps it for later. The GM has the final say over every scene."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the GM")
        KEPT = "kept", _("Kept for later")
        STARTED = "started", _("Started")
        DECLINED = "declined", _("Declined by the GM")

    OPEN_STATUSES = (Status.PENDING, Status.KEPT)

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="scene_requests",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    scene_player = models.ForeignKey(
        Character,
        verbose_name=_("scene player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    place = models.CharField(_("place"), max_length=160, blank=True)
    purpose = models.CharField(_("what happens"), max_length=300, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    scene = models.ForeignKey(
        Scene,
        verbose_name=_("scene started from it"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("scene request")
        verbose_name_plural = _("scene requests")
        ordering = ["session_id", "created_at", "id"]
        constraints = [
            # A wish says at least who, where or what.
            models.CheckConstraint(
                condition=Q(scene_player__isnull=False) | ~Q(place="") | ~Q(purpose=""),
                name="scene_request_says_something",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}: {self.place or self.purpose or self.scene_player}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES
