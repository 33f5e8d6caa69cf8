"""Character sheets and who takes part in a session."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    MAIN_PLAY_PHASES,
    Character,
    GameSession,
    Participation,
    Phase,
    SheetChange,
    Table,
    TimelineEvent,
)
from ..rules.palette_text import PALETTE_MAX_CHARS, PALETTE_MAX_LINES
from ..selectors.access import is_gm
from ..selectors.scenes import on_stage_ids, running_scene
from ..selectors.tables import membership_get
from .access import require_member
from .timeline import timeline_append

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
        hidden = values.get("hidden", False)
        if not isinstance(hidden, bool):
            raise ValidationError(
                {"resources": _("Whether %(name)s is hidden is yes or no.") % {"name": name}}
            )
        if hidden:
            # Shown to the character's player and the GM only, in the room and its log.
            numbers["hidden"] = True
        cleaned[name] = numbers
    return cleaned


def _clean_entries(entries: list) -> list[dict[str, str]]:
    if not isinstance(entries, list) or len(entries) > 300:
        raise ValidationError({"sheet_entries": _("Sheet entries are at most 300 labels.")})
    cleaned = []
    for entry in entries:
        label = str((entry or {}).get("label", "")).strip() if isinstance(entry, dict) else ""
        value = str(entry.get("value", "")).strip() if isinstance(entry, dict) else ""
        if not label or len(label) > 60 or len(value) > 500:
            raise ValidationError(
                {
                    "sheet_entries": _(
                        "Each sheet entry needs a label of 1–60 characters and a "
                        "value of at most 500."
                    )
                }
            )
        cleaned.append({"label": label, "value": value})
    return cleaned


def _clean_palette(text: str) -> str:
    text = (text or "").replace("\r\n", "\n").strip("\n")
    if len(text) > PALETTE_MAX_CHARS or len(text.splitlines()) > PALETTE_MAX_LINES:
        raise ValidationError(
            {
                "palette": _("A chat palette is at most %(lines)d lines and %(chars)d characters.")
                % {"lines": PALETTE_MAX_LINES, "chars": PALETTE_MAX_CHARS}
            }
        )
    return text


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
    sheet_entries: list | None = None,
    palette: str | None = None,
    initiative: int | None = None,
    external_url: str | None = None,
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
        sheet_entries=_clean_entries(sheet_entries or []),
        palette=_clean_palette(palette or ""),
        initiative=initiative or 0,
        external_url=external_url or "",
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
    sheet_entries: list | None = None,
    palette: str | None = None,
    initiative: int | None = None,
    external_url: str | None = None,
) -> Character:
    """Change a sheet; refused for anyone who may not edit it (resources stay as they were
    when not given)."""
    if not can_edit_character(by, character):
        raise PermissionDenied(_("You cannot edit this character sheet."))
    with transaction.atomic():
        # Not locked: locking the sheet before the sessions it appears in would take the
        # locks in the opposite order to the scene's end, which updates resources.
        before = Character.objects.get(pk=character.pk)
        character.name = (name or "").strip()
        character.concept = (concept or "").strip()
        character.judgement_values = _clean_judgement_values(judgement_values or {})
        if resources is not None:
            character.resources = _clean_resources(resources)
        character.notes = notes or ""
        if sheet_entries is not None:
            character.sheet_entries = _clean_entries(sheet_entries)
        if palette is not None:
            character.palette = _clean_palette(palette)
        if initiative is not None:
            character.initiative = initiative
        if external_url is not None:
            character.external_url = external_url
        character.full_clean()
        character.save()
        changes = sheet_diff(before, character)
        if changes:
            _sheet_change_record(character, by, changes)
    return character


# A long note is shown cut short in the record of what changed.
_CHANGE_TEXT_LIMIT = 200


def _shown(value) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= _CHANGE_TEXT_LIMIT else text[: _CHANGE_TEXT_LIMIT - 1] + "…"


def sheet_diff(before: Character, after: Character) -> list[dict]:
    """List what differs between two versions of a sheet, field by field."""
    changes = []
    for field in ("name", "concept", "notes"):
        old, new = getattr(before, field), getattr(after, field)
        if old != new:
            changes.append({"what": field, "name": "", "before": _shown(old), "after": _shown(new)})
    old_values, new_values = before.judgement_values or {}, after.judgement_values or {}
    for name in sorted(old_values.keys() | new_values.keys()):
        if old_values.get(name) != new_values.get(name):
            changes.append(
                {
                    "what": "judgement_value",
                    "name": name,
                    "before": _shown(old_values.get(name)),
                    "after": _shown(new_values.get(name)),
                }
            )
    old_entries = {entry["label"]: entry["value"] for entry in before.sheet_entries or []}
    new_entries = {entry["label"]: entry["value"] for entry in after.sheet_entries or []}
    for name in sorted(old_entries.keys() | new_entries.keys()):
        if old_entries.get(name) != new_entries.get(name):
            # Skills and equipment from a sheet site: the GM's check covers them too.
            changes.append(
                {
                    "what": "entry",
                    "name": name,
                    "before": _shown(old_entries.get(name)),
                    "after": _shown(new_entries.get(name)),
                }
            )
    old_resources, new_resources = before.resources or {}, after.resources or {}
    for name in sorted(old_resources.keys() | new_resources.keys()):
        old, new = old_resources.get(name) or {}, new_resources.get(name) or {}
        for part, what in (("max", "resource_max"), ("current", "resource")):
            if old.get(part) != new.get(part):
                changes.append(
                    {
                        "what": what,
                        "name": name,
                        "before": _shown(old.get(part)),
                        "after": _shown(new.get(part)),
                    }
                )
    return changes


def _sheet_change_record(character: Character, by, changes: list[dict]) -> None:
    """Record a change in every session the character takes part in before after-play, and
    withdraw the GM's check there unless only resources moved (HP goes up and down in play)."""
    resources_only = all(change["what"] == "resource" for change in changes)
    rows = Participation.objects.select_for_update().filter(
        character=character, session__phase__in=[Phase.PRE_PLAY, *MAIN_PLAY_PHASES]
    )
    label = {"character": character.name, "character_id": character.pk}
    for row in rows.select_related("session"):
        withdraw = not resources_only and row.sheet_status == Participation.SheetStatus.CHECKED
        SheetChange.objects.create(
            participation=row,
            changed_by=by,
            changed_at=timezone.now(),
            changes=changes,
            withdrew_check=withdraw,
            resources_only=resources_only,
        )
        if withdraw:
            row.sheet_status = Participation.SheetStatus.UNCHECKED
            row.save(update_fields=["sheet_status"])
        # What a sheet holds is between its player and the GM, like the sheet itself.
        timeline_append(
            session=row.session,
            kind="sheet_changed",
            actor=by,
            payload={**label, "changes": changes, "check_withdrawn": withdraw},
            visibility=TimelineEvent.Visibility.USERS,
            audience=[character.owner],
        )
        if withdraw:
            timeline_append(
                session=row.session, kind="sheet_check_withdrawn", actor=by, payload=label
            )


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
        already = session.characters.filter(pk=character.pk).exists()
        if taking_part:
            if not already:
                session.characters.add(character)
                _cast_changed(session=session, character=character, by=by, taking_part=True)
            return
        scene = running_scene(session_id=session.pk)
        if scene is not None and character.pk in on_stage_ids(scene=scene):
            # Off the cast but on stage would leave the stage and the cast disagreeing.
            raise ValidationError(
                _("%(name)s is on stage in this scene: leave the scene first.")
                % {"name": character.name}
            )
        session.characters.remove(character)
        if already:
            _cast_changed(session=session, character=character, by=by, taking_part=False)


def _cast_changed(*, session: GameSession, character: Character, by, taking_part: bool) -> None:
    """Tell the room: everyone's stage, cast and check forms list the cast's characters."""
    timeline_append(
        session=session,
        kind="cast_changed",
        actor=by,
        payload={
            "character": character.name,
            "character_id": character.pk,
            "taking_part": taking_part,
        },
    )
