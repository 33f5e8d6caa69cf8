"""Character sheets and who takes part in a session."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Character, GameSession, Phase, Table
from ..selectors.scenes import on_stage_ids, running_scene
from ..selectors.tables import membership_get
from .access import is_gm, require_member

JUDGEMENT_VALUE_RANGE = (-99, 99)


def _clean_judgement_values(values: dict) -> dict[str, int]:
    if not isinstance(values, dict):
        raise ValidationError({"judgement_values": _("Judgement values must be name → number.")})
    cleaned: dict[str, int] = {}
    low, high = JUDGEMENT_VALUE_RANGE
    for raw_name, raw_number in values.items():
        name = str(raw_name).strip()
        if not name or len(name) > 60:
            raise ValidationError(
                {"judgement_values": _("Each judgement value needs a name of 1–60 characters.")}
            )
        if isinstance(raw_number, bool) or not isinstance(raw_number, int):
            raise ValidationError(
                {"judgement_values": _("%(name)s must be a whole number.") % {"name": name}}
            )
        if not low <= raw_number <= high:
            raise ValidationError(
                {
                    "judgement_values": _("%(name)s must be between %(low)d and %(high)d.")
                    % {"name": name, "low": low, "high": high}
                }
            )
        cleaned[name] = raw_number
    return cleaned


def _clean_resources(resources: dict) -> dict[str, dict[str, int]]:
    if not isinstance(resources, dict):
        raise ValidationError({"resources": _("Resources must be name → current and max.")})
    cleaned = {}
    for raw_name, values in resources.items():
        name = str(raw_name).strip()
        if not name or len(name) > 60 or not isinstance(values, dict):
            raise ValidationError({"resources": _("Each resource needs a name and numbers.")})
        numbers = {}
        for part in ("current", "max"):
            number = values.get(part)
            if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 9999:
                raise ValidationError(
                    {
                        "resources": _("%(name)s must be a whole number from 0 to 9999.")
                        % {"name": name}
                    }
                )
            numbers[part] = number
        if numbers["current"] > numbers["max"]:
            raise ValidationError(
                {"resources": _("%(name)s cannot be above its maximum.") % {"name": name}}
            )
        cleaned[name] = numbers
    return cleaned


def character_create(
    *,
    table: Table,
    by,
    name: str,
    kind: str = Character.Kind.PC,
    concept: str = "",
    judgement_values: dict | None = None,
    resources: dict | None = None,
    notes: str = "",
) -> Character:
    """Create a sheet: any member may create their own PC; only the GM creates NPCs."""
    membership = require_member(
        user=by, table_id=table.pk, message=_("Only members of this table can create characters.")
    )
    if kind == Character.Kind.NPC and not is_gm(membership):
        raise PermissionDenied(_("Only the GM creates NPCs."))
    character = Character(
        table=table,
        owner=by,
        kind=kind,
        name=(name or "").strip(),
        concept=(concept or "").strip(),
        judgement_values=_clean_judgement_values(judgement_values or {}),
        resources=_clean_resources(resources or {}),
        notes=notes or "",
    )
    character.full_clean()
    character.save()
    return character


def can_edit_character(user, character: Character) -> bool:
    """Owners edit their PCs, the GM edits NPCs; nobody else edits a sheet."""
    if character.kind == Character.Kind.NPC:
        return is_gm(membership_get(user=user, table_id=character.table_id))
    return user.is_authenticated and character.owner_id == user.pk


def character_update(
    *,
    character: Character,
    by,
    name: str,
    concept: str = "",
    judgement_values: dict | None = None,
    resources: dict | None = None,
    notes: str = "",
) -> Character:
    """Change a sheet; refused for anyone who may not edit it (resources stay as they were
    when not given)."""
    if not can_edit_character(by, character):
        raise PermissionDenied(_("You cannot edit this character sheet."))
    character.name = (name or "").strip()
    character.concept = (concept or "").strip()
    character.judgement_values = _clean_judgement_values(judgement_values or {})
    if resources is not None:
        character.resources = _clean_resources(resources)
    character.notes = notes or ""
    character.full_clean()
    character.save()
    return character


def session_character_set(
    *, session: GameSession, character: Character, by, taking_part: bool
) -> None:
    """Add a character to the session's cast or remove it (the GM, or the PC's owner)."""
    if character.table_id != session.table_id:
        raise ValidationError(_("That character belongs to another table."))
    if session.phase == Phase.CLOSED:
        # The cast is part of the record the group signed off.
        raise ValidationError(_("This session is closed: its record is read-only."))
    by_gm = is_gm(membership_get(user=by, table_id=session.table_id))
    if not by_gm and character.owner_id != getattr(by, "pk", None):
        raise PermissionDenied(_("Only the GM or the character's player can change this."))
    with transaction.atomic():
        if taking_part:
            session.characters.add(character)
            return
        scene = running_scene(session_id=session.pk)
        if scene is not None and character.pk in on_stage_ids(scene=scene):
            # Off the cast but on stage would leave the stage and the cast disagreeing.
            raise ValidationError(
                _("%(name)s is on stage in this scene: leave the scene first.")
                % {"name": character.name}
            )
        session.characters.remove(character)
