"""A GM's prepared scenarios: planned scenes, prepared checks, NPCs and handouts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import MAIN_PLAY_PHASES, GameSession, Phase


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
    # A re-encoded upload (services/images.py); the scene started from this plan shows it.
    background = models.FileField(_("background image"), max_length=200, blank=True)

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
    image = models.FileField(_("image"), max_length=200, blank=True)

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
