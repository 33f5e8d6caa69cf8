"""A character's resources in play: HP, MP and whatever the profile names, moved by the
room's ± controls or by a command typed as Ccfolia players type it (`:HP-3`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Character, GameSession, Phase, TimelineEvent
from ..rules import srs_commands
from ..rules.palette_text import resource_apply, resource_command_parse
from ..selectors.access import is_gm
from ..selectors.tables import membership_get
from .checks import twin_append
from .dice import dice_draw, draw_proof
from .timeline import timeline_append

RESOURCE_LIMIT = 9999


def can_change_resources(user, character: Character, *, by_gm: bool) -> bool:
    """The character's player and the GM move its resources; nobody else."""
    return by_gm or (user.is_authenticated and character.owner_id == user.pk)


def resource_visible_to_all(values: dict) -> bool:
    return not values.get("hidden")


def resource_change(
    *,
    session: GameSession,
    by,
    character: Character,
    name: str,
    op: str,
    amount: str,
    rng=None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> TimelineEvent:
    """Add to, take from or set a resource's current value, as a timeline event that those
    who may see the resource see; a hidden resource is its player's and the GM's only.

    A rolled amount (`:MP+1D6`) draws its dice from the session's committed keys like any
    roll, with the roller's browser value if one came (services/dice.py)."""
    membership = membership_get(user=by, table_id=session.table_id)
    if membership is None:
        raise PermissionDenied(_("Only members of this table can do that."))
    by_gm = is_gm(membership)
    if character.table_id != session.table_id:
        raise ValidationError({"character": _("That character belongs to another table.")})
    if not can_change_resources(by, character, by_gm=by_gm):
        raise PermissionDenied(_("Only the character's player or the GM can change its resources."))
    if session.phase == Phase.CLOSED:
        raise ValidationError(_("This session is closed: its record is read-only."))
    if op not in ("+", "-", "="):
        raise ValidationError({"text": _("Write + , - or = after the resource's name.")})
    amount_text = (amount or "").strip().upper()
    parsed = None
    if op == "=" and amount_text.isdecimal():
        # A set is a number the player reads off their sheet, up to a resource's limit.
        number = int(amount_text)
        if number > RESOURCE_LIMIT:
            raise ValidationError(
                {"text": _("A resource is at most %(limit)d.") % {"limit": RESOURCE_LIMIT}}
            )
        rolled, faces = number, ()
    else:
        try:
            parsed = srs_commands.amount_parse(amount_text)
        except srs_commands.CommandError:
            raise ValidationError(
                {
                    "text": _("%(amount)s is not a number or a dice sum such as 1D6.")
                    % {"amount": amount_text or "—"}
                }
            ) from None
        amount_text = parsed.text
    with transaction.atomic():
        draw = None
        if parsed is not None:
            if rng is None and parsed.command is not None:
                draw = dice_draw(
                    session=session, value=dice_value, reservation=dice_reservation, by=by
                )
                rng = draw.source
            rolled, faces = srs_commands.amount_roll(parsed, rng)
        locked = Character.objects.select_for_update().get(pk=character.pk)
        if (
            locked.kind == Character.Kind.PC
            and not session.characters.filter(pk=locked.pk).exists()
        ):
            raise ValidationError(
                {
                    "character": _("%(name)s is not taking part in this session.")
                    % {"name": locked.name}
                }
            )
        resources = dict(locked.resources or {})
        values = resources.get(name)
        if values is None:
            known = ", ".join(resources) or _("none")
            raise ValidationError(
                {
                    "text": _("%(character)s has no resource %(name)s (it has: %(known)s).")
                    % {"character": locked.name, "name": name, "known": known}
                }
            )
        before, maximum = int(values.get("current", 0)), int(values.get("max", 0))
        after = min(RESOURCE_LIMIT, resource_apply(before, maximum, op, rolled))
        resources[name] = {**values, "current": after}
        locked.resources = resources
        locked.save(update_fields=["resources"])
        character.resources = resources
        payload = {
            "character": locked.name,
            "character_id": locked.pk,
            "resource": name,
            "op": op,
            "amount": amount_text,
            "faces": list(faces),
            "before": before,
            "after": after,
            "max": maximum,
        }
        if draw is not None:
            payload["proof"] = draw_proof(session, draw, faces)
        if resource_visible_to_all(values):
            return timeline_append(
                session=session, kind="resource_changed", actor=by, payload=payload
            )
        event = timeline_append(
            session=session,
            kind="resource_changed",
            actor=by,
            payload=payload,
            visibility=TimelineEvent.Visibility.USERS,
            audience=[locked.owner],
        )
        if draw is not None:
            _publish_hidden_roll(session, by, locked, event, draw)
        return event


def _publish_hidden_roll(session, by, character: Character, event, draw) -> None:
    """Tell the other players which key a hidden resource's roll used, without its faces,
    so that every key of the batch is accounted for in their view too."""
    twin_append(
        session,
        by,
        "hidden_roll",
        {
            "character": character.name,
            "shows_seq": event.seq,
            "proof": {"epoch": draw.epoch, "index": draw.index},
        },
        exclude=[character.owner],
    )


def resource_command(
    *,
    session: GameSession,
    by,
    character: Character | None,
    text: str,
    rng=None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> TimelineEvent:
    """Run a typed resource command (`:HP-3`, `:MP+1D6`, `:HP=10`) for a character."""
    command = resource_command_parse(text)
    if command is None:
        raise ValidationError({"text": _("Write a resource command as :HP-3, :MP+1 or :HP=10.")})
    if character is None:
        raise ValidationError(
            {
                "character": _("Choose the character whose %(name)s changes.")
                % {"name": command.name}
            }
        )
    return resource_change(
        session=session,
        by=by,
        character=character,
        name=command.name,
        op=command.op,
        amount=command.amount,
        rng=rng,
        dice_value=dice_value,
        dice_reservation=dice_reservation,
    )
