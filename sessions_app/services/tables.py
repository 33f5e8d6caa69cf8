"""Services for tables, memberships, invites and sessions."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import GameSession, Invite, Membership, RulesProfile, Table, TableBar
from ..selectors.access import guest_table_id, is_gm
from .access import require_gm, require_member, require_not_guest
from .dice import dice_commit_ahead
from .signals import membership_ended, send_on_commit
from .timeline import timeline_append

User = get_user_model()


class InviteError(ValidationError):
    """An invite that cannot be used; the message says why."""


def table_create(*, gm, name: str) -> Table:
    """Create a table run by `gm`, who becomes its first member."""
    require_not_guest(
        user=gm, message=_("A guest account cannot create tables. Set a password first.")
    )
    name = (name or "").strip()
    table = Table(name=name, gm=gm)
    table.full_clean()
    with transaction.atomic():
        table.save()
        Membership.objects.create(table=table, user=gm, role=Membership.Role.GM)
    return table


def invite_create(
    *,
    table: Table,
    by,
    lifetime: datetime.timedelta | None = None,
    allows_guests: bool = False,
) -> Invite:
    """Create an invitation link for `table`; only its GM may. A guest invite also lets
    players join with a display name alone."""
    require_gm(user=by, table_id=table.pk, message=_("Only the table's GM can invite players."))
    if lifetime is None:
        lifetime = datetime.timedelta(days=settings.INVITE_LIFETIME_DAYS)
    return Invite.objects.create(
        table=table,
        created_by=by,
        expires_at=timezone.now() + lifetime,
        allows_guests=bool(allows_guests),
    )


def invite_withdraw(*, invite: Invite, by) -> Invite:
    """Withdraw an invite link so nobody joins with it any more; only the table's GM may."""
    require_gm(
        user=by, table_id=invite.table_id, message=_("Only the table's GM can withdraw invites.")
    )
    if not invite.revoked:
        invite.revoked = True
        invite.save(update_fields=["revoked"])
    return invite


def _member_end(membership: Membership) -> None:
    """End a membership; once that commits, the person's open sockets at the table close."""
    table_id, user_id = membership.table_id, membership.user_id
    membership.delete()
    send_on_commit(membership_ended, table_id=table_id, user_id=user_id)


def member_remove(*, table: Table, by, user) -> None:
    """The GM removes a player from the table: nobody is to be harmed with the game, and a
    table is to stay one where everyone enjoys it. The player's sheets stay with the table's
    record; they see nothing more of it, and no invite of the table lets them back in until
    the GM lifts the bar."""
    require_gm(user=by, table_id=table.pk, message=_("Only the table's GM can remove members."))
    with transaction.atomic():
        membership = (
            Membership.objects.select_for_update().filter(table=table, user_id=user.pk).first()
        )
        if membership is None:
            raise ValidationError(_("That person is not a member of this table."))
        if is_gm(membership):
            raise ValidationError(_("The GM cannot be removed from their own table."))
        TableBar.objects.get_or_create(table=table, user_id=user.pk, defaults={"barred_by": by})
        _member_end(membership)


def member_bar_lift(*, table: Table, by, user) -> None:
    """The GM lets a removed person join again through the table's invites."""
    require_gm(
        user=by, table_id=table.pk, message=_("Only the table's GM can let someone join again.")
    )
    TableBar.objects.filter(table=table, user_id=user.pk).delete()


def table_leave(*, table: Table, by) -> None:
    """A player leaves the table on their own."""
    with transaction.atomic():
        membership = require_member(user=by, table_id=table.pk)
        if is_gm(membership):
            raise PermissionDenied(_("The GM cannot leave their own table."))
        _member_end(membership)


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
        guest_table = guest_table_id(user)
        if guest_table is not None and guest_table != invite.table_id:
            raise PermissionDenied(
                _("A guest account plays at its own table only. Set a password first.")
            )
        barred = TableBar.objects.filter(table_id=invite.table_id, user_id=user.pk).exists()
        if barred and not Membership.objects.filter(table_id=invite.table_id, user=user).exists():
            raise PermissionDenied(
                _("The GM removed you from this table: only they can let you join again.")
            )
        membership, _created = Membership.objects.get_or_create(
            table=invite.table, user=user, defaults={"role": Membership.Role.PLAYER}
        )
    return membership


def user_signup_and_accept(*, token: str, username: str, password: str) -> tuple:
    """Create an account and join the invite's table in one step; nothing is kept on failure."""
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
    require_gm(user=by, table_id=table.pk, message=_("Only the table's GM can create sessions."))
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
        # Committed before anyone can roll, so the first roll's dice were fixed in advance.
        dice_commit_ahead(session=session)
    return session


def table_profile_save(*, table: Table, by, form) -> RulesProfile:
    """Save the table's own rules profile from a bound, valid form (GM only).

    A shipped profile is never changed: the first edit makes the table its own copy.
    """
    require_gm(
        user=by, table_id=table.pk, message=_("Only the table's GM can change its rules profile.")
    )
    profile = form.save(commit=False)
    if profile.table_id != table.pk:
        profile.pk = None
        profile.table = table
    profile.judgement_value_names = form.cleaned_data["judgement_value_lines"]
    profile.full_clean()
    with transaction.atomic():
        profile.save()
        Table.objects.filter(pk=table.pk).update(rules_profile=profile)
        table.rules_profile = profile
    return profile
