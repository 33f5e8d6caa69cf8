"""Guests: players who join a table through a guest invite with a display name alone.

A guest's account belongs to that one table. It is a player there with every right a
player has, and nothing anywhere else: it creates no table and accepts no other invite
(``access.require_not_guest``), and a membership elsewhere would not count
(``selectors.tables.membership_get``). Setting a password keeps the account for good and
lifts the restriction.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..models import GuestAccount, Membership
from .tables import InviteError, invite_resolve

User = get_user_model()

DISPLAY_NAME_MAX = 30


def display_name_clean(name: str, *, field: str = "display_name") -> str:
    """Return the display name to use as the account's name, or refuse it saying why."""
    name = unicodedata.normalize("NFC", (name or "").strip())
    if not name:
        raise ValidationError({field: _("Write the name the others will see.")})
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in name):
        raise ValidationError({field: _("A name cannot contain control or invisible characters.")})
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(
            {field: _("A name can be at most %(limit)d characters.") % {"limit": DISPLAY_NAME_MAX}}
        )
    try:
        User.username_validator(name)
    except ValidationError:
        raise ValidationError(
            {field: _("Use letters, digits and @ . + - _ only, without spaces.")}
        ) from None
    if User.objects.filter(username__iexact=name).exists():
        raise ValidationError(
            {
                field: _(
                    "The name “%(name)s” is already taken here. Add a letter or a number "
                    "to make it yours."
                )
                % {"name": name}
            }
        )
    return name


def guest_join(*, token: str, display_name: str) -> tuple:
    """Make an account from a display name and join the guest invite's table as a player."""
    with transaction.atomic():
        invite = invite_resolve(token=token)
        if not invite.allows_guests:
            raise InviteError(
                _("This invite link does not let guests join: sign up or log in instead.")
            )
        name = display_name_clean(display_name)
        user = User(username=name)
        user.set_unusable_password()
        user.full_clean(exclude=["password"])
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            # The same name taken a moment ago by someone joining at the same time.
            display_name_clean(name)
            raise
        GuestAccount.objects.create(user=user, table=invite.table, invite=invite)
        membership = Membership.objects.create(
            table=invite.table, user=user, role=Membership.Role.PLAYER
        )
    return user, membership


def guest_keep(*, user, password: str, username: str = "") -> None:
    """Turn a guest's account into an ordinary one: a password, and a new name if wished."""
    with transaction.atomic():
        guest = GuestAccount.objects.select_for_update().filter(user_id=user.pk).first()
        if guest is None:
            raise PermissionDenied(_("Only a guest account can be kept this way."))
        username = (username or "").strip()
        if username and username != user.get_username():
            user.username = display_name_clean(username, field="username")
        validate_password(password, user)
        user.set_password(password)
        user.save()
        guest.delete()
