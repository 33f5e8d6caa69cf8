"""The room's character panel (resources with their ± controls) and the viewer's chat
palettes: what the room page and a live update both render."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..judgement import display_name
from ..models import Character, GameSession
from ..rules.palette_text import palette_default, palette_lines


@dataclass
class ResourceRow:
    name: str
    current: int
    maximum: int
    hidden: bool


@dataclass
class CharacterRow:
    character: Character
    resources: list[ResourceRow] = field(default_factory=list)
    editable: bool = False


@dataclass
class Palette:
    character: Character
    lines: list[str]


def session_characters(session: GameSession, is_gm: bool) -> list[Character]:
    """The cast (PCs taking part) and, for the GM, the table's NPCs: one query."""
    query = Character.objects.filter(table_id=session.table_id).select_related("owner")
    if is_gm:
        query = query.filter(sessions=session) | query.filter(kind=Character.Kind.NPC)
    else:
        query = query.filter(sessions=session)
    return list(query.distinct().order_by("kind", "name", "pk"))


def character_rows(characters: list[Character], user, is_gm: bool) -> list[CharacterRow]:
    """Each character with the resources this viewer may see (a hidden one is its player's
    and the GM's only) and whether the viewer may change them."""
    rows = []
    for character in characters:
        own = character.owner_id == user.pk
        rows.append(
            CharacterRow(
                character=character,
                resources=[
                    ResourceRow(
                        name=name,
                        current=int(values.get("current", 0)),
                        maximum=int(values.get("max", 0)),
                        hidden=bool(values.get("hidden")),
                    )
                    for name, values in (character.resources or {}).items()
                    if is_gm or own or not values.get("hidden")
                ],
                editable=is_gm or own,
            )
        )
    return rows


def character_palette(character: Character) -> list[str]:
    """The character's palette lines: its own text, or the one made from its sheet."""
    text = character.palette or palette_default(
        [display_name(name) for name in character.judgement_values or {}],
        character.resources or {},
    )
    return palette_lines(text)


def characters_context(session: GameSession, user, is_gm: bool) -> dict:
    """Everything the character panel and the palettes show this viewer, in one query."""
    characters = session_characters(session, is_gm)
    return {
        "room_characters": character_rows(characters, user, is_gm),
        "palettes": [
            Palette(character=character, lines=character_palette(character))
            for character in characters
            if character.owner_id == user.pk
        ],
    }
