"""The session timeline: its append-only events, who is in the room, imported logs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .append_only import AppendOnlyModel
from .tables import GameSession


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
    # What the socket's page is rendered in: a live event is rendered once for each
    # language and zone that the room's open sockets use, not once per socket.
    language = models.CharField(_("language"), max_length=16, default="", blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="", blank=True)

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        ordering = ["session_id", "connected_at"]

    def __str__(self) -> str:
        return f"{self.user} in {self.session}"


class SpectatorPresence(models.Model):
    """One open spectator socket of a session's room: nobody's account, never a member.

    Only its page's language and time zone matter: a live event is rendered once for each
    pair the room's spectators use, however many sockets share it.
    """

    session = models.ForeignKey(
        GameSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="spectator_presences",
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    connected_at = models.DateTimeField(_("connected"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)
    language = models.CharField(_("language"), max_length=16, default="", blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="", blank=True)

    class Meta:
        verbose_name = _("spectator presence")
        verbose_name_plural = _("spectator presences")
        ordering = ["session_id", "connected_at"]

    def __str__(self) -> str:
        return f"spectator in {self.session}"


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
    # The file's pictures ("face:<id>" → stored name): its lines name faces by the ids they
    # had where the log was written, and are shown with these.
    pictures = models.JSONField(_("pictures"), default=dict, blank=True)

    class Meta:
        verbose_name = _("imported log")
        verbose_name_plural = _("imported logs")
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return str(self.session)
