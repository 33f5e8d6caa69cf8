"""Sending as a character: the roll box, the chat and the chat palette's lines, each as a
character the user controls or as the user, with `{name}` resolved from the sheet."""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ..judgement import name_variants
from ..models import Character, GameSession, Membership, Roll, TimelineEvent
from ..rules import srs_commands
from ..rules.palette_text import PaletteError, palette_resolve, resource_command_parse
from ..selectors.scenes import Voice
from .chat import chat_post
from .checks import command_roll
from .resources import resource_command


def sheet_values(character: Character) -> dict[str, object]:
    """What `{name}` may stand for: sheet entries, resources' current values, and the
    judgement values (which win a name they share)."""
    values: dict[str, object] = {}
    for entry in character.sheet_entries or []:
        if isinstance(entry, dict) and entry.get("label"):
            values[str(entry["label"])] = entry.get("value", "")
    for name, resource in (character.resources or {}).items():
        values[name] = int((resource or {}).get("current", 0))
    for name, number in (character.judgement_values or {}).items():
        for variant in name_variants(name):
            values[variant] = number
    return values


def _resolved(text: str, character: Character | None) -> str:
    if character is None or "{" not in text:
        return text
    try:
        return palette_resolve(text, sheet_values(character))
    except PaletteError as error:
        raise ValidationError(
            {
                "text": _("%(character)s's sheet has no value {%(name)s}.")
                % {"character": character.name, "name": error.reference}
            }
        ) from None


def _controlled(session: GameSession, by, character: Character | None) -> Character | None:
    if character is None:
        return None
    if character.table_id != session.table_id:
        raise ValidationError({"character": _("That character belongs to another table.")})
    if character.owner_id != by.pk:
        raise PermissionDenied(
            _("You can only send as your own characters (the GM's are the NPCs).")
        )
    return character


def _resource_character(session: GameSession, by, character: Character | None):
    """The character a resource command without one means: the user's only PC taking
    part, as Ccfolia players type `:HP-3` without choosing anyone."""
    if character is not None:
        return character
    own = list(session.characters.filter(owner=by)[:2])
    return own[0] if len(own) == 1 else None


def box_send(
    *,
    session: GameSession,
    by,
    text: str,
    character: Character | None = None,
    faces=None,
    dice_value: str | None = None,
    membership: Membership | None = None,
    voice: Voice | None = None,
    dice_reservation=None,
) -> Roll | TimelineEvent:
    """The roll box: a roll command or a resource command, as a character or as the user.
    `dice_value` is the roller's random value from their browser (see services/dice.py);
    `membership` and `voice` are what the caller read already (see chat_post)."""
    character = _controlled(session, by, character)
    text = _resolved((text or "").strip(), character)
    if resource_command_parse(text) is not None:
        return resource_command(
            session=session,
            by=by,
            character=_resource_character(session, by, character),
            text=text,
            dice_value=dice_value,
            dice_reservation=dice_reservation,
        )
    return command_roll(
        session=session,
        by=by,
        text=text,
        faces=faces,
        character=character,
        dice_value=dice_value,
        membership=membership,
        voice=voice,
        dice_reservation=dice_reservation,
    )


def chat_send(
    *,
    session: GameSession,
    by,
    text: str,
    gm_only: bool = False,
    mode: str = "ooc",
    character: Character | None = None,
    to=None,
    face_id: int | None = None,
    channel: str = "main",
    membership: Membership | None = None,
    voice: Voice | None = None,
) -> TimelineEvent:
    """The chat: a line as before, or a resource command typed there (`:HP-3`);
    `membership` and `voice` are what the caller read already (see chat_post)."""
    if resource_command_parse(text) is not None and not gm_only and mode in ("ooc", "ic"):
        character = _controlled(session, by, character)
        return resource_command(
            session=session,
            by=by,
            character=_resource_character(session, by, character),
            text=text,
        )
    if mode == "ic" and character is not None and character.owner_id == by.pk:
        text = _resolved((text or "").strip(), character)
    return chat_post(
        session=session,
        by=by,
        text=text,
        gm_only=gm_only,
        mode=mode,
        character=character,
        to=to,
        face_id=face_id,
        channel=channel,
        membership=membership,
        voice=voice,
    )


# A line that begins as dice do is meant as a roll: an incomplete one (`2D6+3>=`) is
# refused with the roll box's explanation rather than said aloud as words.
_LOOKS_LIKE_DICE = re.compile(r"^[Ss]?\d*[Dd]\d")


def _parses_as_command(text: str) -> bool:
    """Whether the roll box reads the line (its other commands, such as BCDice's)."""
    try:
        srs_commands.parse_command(text)
    except srs_commands.CommandError:
        return False
    return True


def palette_send(
    *,
    session: GameSession,
    by,
    character: Character,
    text: str,
    membership: Membership | None = None,
) -> Roll | TimelineEvent:
    """Send a palette line straight to the room: a resource command, a roll, or else the
    character's words, as Ccfolia sends a palette line to its chat. `membership`: `by`'s
    at the session's table, when the caller checked access already."""
    character = _controlled(session, by, character)
    if character is None:
        raise ValidationError({"character": _("Choose the character whose palette it is.")})
    resolved = _resolved((text or "").strip(), character)
    if not resolved:
        raise ValidationError({"text": _("Write something first.")})
    if resolved.startswith((":", "：")):
        return resource_command(session=session, by=by, character=character, text=resolved)
    if _LOOKS_LIKE_DICE.match(resolved) or _parses_as_command(resolved):
        return command_roll(
            session=session, by=by, text=resolved, character=character, membership=membership
        )
    return chat_post(
        session=session,
        by=by,
        text=resolved,
        mode="ic",
        character=character,
        membership=membership,
    )
