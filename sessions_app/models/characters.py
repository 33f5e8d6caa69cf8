"""Character sheets: PCs belong to their players, NPCs to the GM."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import Table


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
        help_text=_(
            "Resource name → {current, max, hidden}, such as HP; a hidden one is shown to its "
            "player and the GM only."
        ),
    )
    notes = models.TextField(_("notes"), blank=True)
    # What a sheet site exports beside the judgement values (skills, items, anything with a
    # label): shown on the sheet and usable as {label} in the chat palette.
    sheet_entries = models.JSONField(
        _("sheet entries"),
        default=list,
        blank=True,
        help_text=_("Further labelled values of the sheet: [{label, value}]."),
    )
    palette = models.TextField(
        _("chat palette"),
        blank=True,
        help_text=_(
            "One command or line of chat per line; {name} stands for the sheet's value. "
            "Empty: made from the sheet."
        ),
    )
    initiative = models.IntegerField(_("initiative"), default=0)
    external_url = models.URLField(_("sheet address"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["table_id", "kind", "name", "id"]

    def __str__(self) -> str:
        return self.name


class CharacterFace(models.Model):
    """A picture of a character: its portrait (the default face) or one of its expressions.

    The file is a re-encoded copy under an unguessable name (see services/images.py); it is
    served by a view that checks who may see the character, never from a public address.
    """

    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="faces"
    )
    label = models.CharField(_("label"), max_length=60)
    image = models.FileField(_("image"), max_length=200)
    is_portrait = models.BooleanField(_("portrait"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("face")
        verbose_name_plural = _("faces")
        ordering = ["character_id", "-is_portrait", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["character"],
                condition=models.Q(is_portrait=True),
                name="face_one_portrait_per_character",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.label}"
