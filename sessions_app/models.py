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
        ]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """A play group: one GM and the players who join through invitations."""

    name = models.CharField(_("name"), max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("GM"),
        on_delete=models.PROTECT,
        related_name="tables_run",
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
        raise ValueError("Timeline events are append-only.")

    def delete(self):
        raise ValueError("Timeline events are append-only.")


class TimelineEvent(models.Model):
    """One append-only entry of a session's history; there is no update or delete path."""

    class Visibility(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        GM = "gm", _("GM only")
        USERS = "users", _("Listed users")

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

    objects = AppendOnlyQuerySet.as_manager()

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

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("Timeline events are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Timeline events are append-only.")


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

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        ordering = ["session_id", "connected_at"]

    def __str__(self) -> str:
        return f"{self.user} in {self.session}"
