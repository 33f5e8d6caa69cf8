"""Services: every change to tables, memberships, invites, sessions and the timeline.

Each service runs in one transaction, validates, and announces timeline events only once the
transaction has committed, so a rolled-back action is never broadcast.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import (
    GameSession,
    Invite,
    Membership,
    Presence,
    RulesProfile,
    Table,
    TimelineEvent,
)
from .selectors import is_gm, membership_get

User = get_user_model()

CHAT_MAX_LENGTH = 2000


class InviteError(ValidationError):
    """An invite that cannot be used; the message says why."""


def _broadcast(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_create(*, gm, name: str) -> Table:
    """Create a table run by `gm`, who becomes its first member."""
    name = (name or "").strip()
    table = Table(name=name, gm=gm)
    table.full_clean()
    with transaction.atomic():
        table.save()
        Membership.objects.create(table=table, user=gm, role=Membership.Role.GM)
    return table


def invite_create(*, table: Table, by, lifetime: datetime.timedelta | None = None) -> Invite:
    """Create an invitation link for `table`; only its GM may."""
    if not is_gm(by, table):
        raise PermissionDenied(_("Only the table's GM can invite players."))
    if lifetime is None:
        lifetime = datetime.timedelta(days=settings.INVITE_LIFETIME_DAYS)
    return Invite.objects.create(table=table, created_by=by, expires_at=timezone.now() + lifetime)


def invite_resolve(*, token: str) -> Invite:
    """Return the usable invite for `token`, or raise InviteError saying why not."""
    invite = Invite.objects.select_related("table").filter(token=token or "").first()
    if invite is None:
        raise InviteError(_("This invite link is not known. Ask your GM for a new one."))
    if invite.revoked:
        raise InviteError(_("This invite link was withdrawn. Ask your GM for a new one."))
    if not invite.is_usable():
        raise InviteError(_("This invite link has expired. Ask your GM for a new one."))
    return invite


def invite_accept(*, token: str, user) -> Membership:
    """Make `user` a player of the invite's table; joining twice keeps the first membership."""
    with transaction.atomic():
        invite = invite_resolve(token=token)
        membership, _created = Membership.objects.get_or_create(
            table=invite.table, user=user, defaults={"role": Membership.Role.PLAYER}
        )
    return membership


def user_signup_and_accept(*, token: str, username: str, password: str) -> tuple:
    """Create an account and join the invite's table in one step; nothing is kept on failure."""
    from django.contrib.auth.password_validation import validate_password

    with transaction.atomic():
        invite_resolve(token=token)
        user = User(username=(username or "").strip())
        user.full_clean(exclude=["password"])
        validate_password(password, user)
        user.set_password(password)
        user.save()
        membership = invite_accept(token=token, user=user)
    return user, membership


def session_create(
    *, table: Table, by, title: str, scheduled_for: datetime.date, rules_profile: RulesProfile
) -> GameSession:
    """Create a session of `table`; only its GM may."""
    if not is_gm(by, table):
        raise PermissionDenied(_("Only the table's GM can create sessions."))
    if rules_profile.table_id not in (None, table.pk):
        raise ValidationError({"rules_profile": _("That rules profile belongs to another table.")})
    session = GameSession(
        table=table,
        title=(title or "").strip(),
        scheduled_for=scheduled_for,
        rules_profile=rules_profile,
    )
    session.full_clean()
    with transaction.atomic():
        session.save()
        timeline_append(
            session=session,
            kind="session_created",
            actor=by,
            payload={"title": session.title},
        )
    return session


def timeline_append(
    *,
    session: GameSession,
    kind: str,
    actor=None,
    payload: dict | None = None,
    visibility: str = TimelineEvent.Visibility.EVERYONE,
    audience: Iterable = (),
) -> TimelineEvent:
    """Append one event to the session's timeline and announce it once committed.

    The session row is locked while the next sequence number is taken, so concurrent
    appends (from any process) get distinct, gapless numbers in commit order.
    """
    audience = list(audience)
    if visibility == TimelineEvent.Visibility.USERS and not audience:
        raise ValidationError(_("An event for listed users needs at least one user."))
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().only("id", "last_seq").get(pk=session.pk)
        seq = locked.last_seq + 1
        GameSession.objects.filter(pk=session.pk).update(last_seq=seq)
        session.last_seq = seq
        event = TimelineEvent.objects.create(
            session_id=session.pk,
            seq=seq,
            kind=kind,
            actor=actor,
            payload=payload or {},
            visibility=visibility,
        )
        if audience:
            event.audience.set(audience)
        message = {"type": "timeline.event", "event_id": event.pk, "seq": seq}
        transaction.on_commit(lambda: _broadcast(f"session.{session.pk}", message))
    return event


def chat_post(*, session: GameSession, by, text: str, gm_only: bool = False) -> TimelineEvent:
    """Post a chat line to the session; a GM may keep a line to themselves (a GM note)."""
    membership = membership_get(user=by, table_id=session.table_id)
    if membership is None:
        raise PermissionDenied(_("Only members of this table can write in its sessions."))
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": _("Write something first.")})
    if len(text) > CHAT_MAX_LENGTH:
        raise ValidationError(
            {"text": _("A line can be at most %(limit)d characters.") % {"limit": CHAT_MAX_LENGTH}}
        )
    if gm_only and membership.role != Membership.Role.GM:
        raise PermissionDenied(_("Only the GM can write GM-only notes."))
    visibility = TimelineEvent.Visibility.GM if gm_only else TimelineEvent.Visibility.EVERYONE
    return timeline_append(
        session=session, kind="chat", actor=by, payload={"text": text}, visibility=visibility
    )


def presence_enter(*, session_id: int, user, channel_name: str) -> None:
    """Record an open socket of `user` in the room and tell the room."""
    with transaction.atomic():
        Presence.objects.update_or_create(
            channel_name=channel_name, defaults={"session_id": session_id, "user": user}
        )
        transaction.on_commit(
            lambda: _broadcast(f"session.{session_id}", {"type": "presence.changed"})
        )


def presence_leave(*, channel_name: str) -> None:
    """Forget a closed socket and tell its room."""
    with transaction.atomic():
        presence = Presence.objects.filter(channel_name=channel_name).first()
        if presence is None:
            return
        session_id = presence.session_id
        presence.delete()
        transaction.on_commit(
            lambda: _broadcast(f"session.{session_id}", {"type": "presence.changed"})
        )
