"""The project's rows the plain room reads and writes, as plain unmanaged models: the plain
room posts into the very sessions the project serves, in the same database."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Session(models.Model):
    table_id = models.BigIntegerField()
    last_seq = models.PositiveIntegerField()

    class Meta:
        managed = False
        db_table = "sessions_app_gamesession"

    def __str__(self) -> str:
        return f"session {self.pk}"


class Membership(models.Model):
    table_id = models.BigIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.DO_NOTHING)
    role = models.CharField(max_length=10)

    class Meta:
        managed = False
        db_table = "sessions_app_membership"

    def __str__(self) -> str:
        return f"{self.role} of table {self.table_id}"


class Event(models.Model):
    session = models.ForeignKey(Session, on_delete=models.DO_NOTHING)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.DO_NOTHING)
    payload = models.JSONField(default=dict)
    visibility = models.CharField(max_length=20, default="everyone")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        managed = False
        db_table = "sessions_app_timelineevent"

    def __str__(self) -> str:
        return f"event {self.seq} of session {self.session_id}"


def role_in_session(user, session_id: int) -> str | None:
    """The user's role at the session's table, in one query; None for outsiders."""
    if not user.is_authenticated:
        return None
    tables = Session.objects.filter(pk=session_id).values("table_id")[:1]
    return (
        Membership.objects.filter(user_id=user.pk, table_id=models.Subquery(tables))
        .values_list("role", flat=True)
        .first()
    )
