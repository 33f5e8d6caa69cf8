"""Sounds a table's GM uploads (music and effects) and the cut-ins shown over the room."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tables import Table


class TableAudio(models.Model):
    """One uploaded sound of a table: a scene's music (looped) or an effect played once."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="audio"
    )
    title = models.CharField(_("title"), max_length=120)
    # Stored under a name nobody can guess (services/audio.py), served by a view that checks
    # who may hear it.
    file = models.FileField(_("file"), max_length=200)
    content_type = models.CharField(_("content type"), max_length=40)
    duration = models.FloatField(_("length in seconds"))
    size = models.PositiveIntegerField(_("size in bytes"))
    # Players and spectators may fetch a sound once the GM has played it: one still in the
    # GM's preparation stays a surprise.
    heard = models.BooleanField(_("heard"), default=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("uploaded by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    uploaded_at = models.DateTimeField(_("uploaded"), default=timezone.now)

    class Meta:
        verbose_name = _("table audio")
        verbose_name_plural = _("table audio")
        ordering = ["table_id", "title", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(duration__gt=0), name="audio_duration_positive"),
        ]

    def __str__(self) -> str:
        return self.title


class CutIn(models.Model):
    """A picture and a short text shown over everyone's room for a few seconds."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="cut_ins"
    )
    text = models.CharField(_("text"), max_length=80)
    # A re-encoded upload (services/images.py); empty for a cut-in of text alone.
    image = models.FileField(_("image"), max_length=200, blank=True)
    sound = models.ForeignKey(
        TableAudio,
        verbose_name=_("sound"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("cut-in")
        verbose_name_plural = _("cut-ins")
        ordering = ["table_id", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.text
