"""Ccfolia's clipboard character JSON, in and out.

Character sheet sites (キャラクター保管所, ゆとシート and others) export a character as the
JSON Ccfolia pastes: ``{"kind": "character", "data": {"name", "memo", "initiative",
"externalUrl", "status": [{"label", "value", "max"}], "params": [{"label", "value"}],
"commands", …}}``. Reading it is strict about the parts it keeps and ignores the rest
(position, colour): a wrong type or an oversized text is refused with a message saying
where, and nothing is written.

Pictures travel as data: URLs in ``iconUrl`` (the portrait, its label in ``iconLabel``) and
``faces: [{"label", "iconUrl"}]`` (the expressions), each checked as an upload is. An
address on another site is never fetched: such a picture is left out.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from contextlib import ExitStack

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from ..judgement import display_name, name_variants
from ..models import Character, Table
from ..rules.palette_text import PALETTE_MAX_CHARS, PALETTE_MAX_LINES
from ..selectors.tables import table_profile
from .characters import JUDGEMENT_VALUE_RANGE, character_create, character_update
from .faces import faces_replace
from .images import (
    PixelBudget,
    image_content_type,
    image_from_text,
    image_saved,
    image_to_text,
)

CCFOLIA_MAX_CHARS = 200_000
# With pictures inside (base64), the text may be longer.
CCFOLIA_MAX_CHARS_WITH_PICTURES = 8_000_000
MAX_FACES = 40
_DATA_URL = re.compile(r"^data:image/(png|jpeg|webp|gif);base64,(.*)$", re.DOTALL)
MAX_STATUS = 50
MAX_PARAMS = 300
NAME_LIMIT = 120
LABEL_LIMIT = 60
ENTRY_VALUE_LIMIT = 500
MEMO_LIMIT = 20_000
URL_LIMIT = 500
RESOURCE_LIMIT = 9999


def _refuse(message: str, **values) -> ValidationError:
    return ValidationError({"ccfolia": message % values if values else message})


def _text(value, where: str, limit: int, *, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise _refuse(_("%(where)s must be text."), where=where)
    value = value.strip()
    if required and not value:
        raise _refuse(_("%(where)s is empty."), where=where)
    if len(value) > limit:
        raise _refuse(_("%(where)s is longer than %(limit)d characters."), where=where, limit=limit)
    return value


def _whole(value, where: str, low: int, high: int) -> int:
    """A whole number, given as a JSON number or as digits in a string ("12")."""
    number = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        if text.lstrip("+-").isdecimal() and len(text) <= 6:
            number = int(text)
    if number is None:
        raise _refuse(_("%(where)s must be a whole number."), where=where)
    if not low <= number <= high:
        raise _refuse(
            _("%(where)s must be between %(low)d and %(high)d."), where=where, low=low, high=high
        )
    return number


def _items(value, where: str, limit: int) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _refuse(_("%(where)s must be a list."), where=where)
    if len(value) > limit:
        raise _refuse(_("%(where)s has more than %(limit)d items."), where=where, limit=limit)
    for item in value:
        if not isinstance(item, dict):
            raise _refuse(_("Each item of %(where)s must be an object."), where=where)
    return value


def _key(name: str) -> str:
    # Sheet sites write judgement values in full-width or half-width as they please.
    return unicodedata.normalize("NFKC", name).strip().casefold()


def ccfolia_read(text: str, *, value_names: list[str]) -> dict:
    """Read pasted Ccfolia JSON into a sheet's fields, or raise ValidationError.

    Params whose labels match the profile's judgement values fill them; the rest become
    sheet entries. Status entries become resources (a maximum below the value is raised
    to it, as Ccfolia allows), commands become the chat palette.
    """
    if not isinstance(text, str) or not text.strip():
        raise _refuse(_("Paste the character's Ccfolia JSON first."))
    limit = CCFOLIA_MAX_CHARS_WITH_PICTURES if "data:image/" in text else CCFOLIA_MAX_CHARS
    if len(text) > limit:
        raise _refuse(_("The pasted text is longer than %(limit)d characters."), limit=limit)
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise _refuse(_("The pasted text is not JSON: copy the character again.")) from None
    if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
        raise _refuse(_("This is not a Ccfolia character: it has no data object."))
    if document.get("kind") != "character":
        raise _refuse(
            _("This is a Ccfolia %(kind)s, not a character."),
            kind=str(document.get("kind"))[:40],
        )
    data = document["data"]
    return {"pictures": _pictures(data), **ccfolia_character_fields(data, value_names=value_names)}


def ccfolia_character_fields(data: dict, *, value_names: list[str]) -> dict:
    """A Ccfolia character's ``data`` object as a sheet's fields (pictures aside), or raise
    ValidationError: shared by the clipboard JSON and the room export."""
    name = _text(data.get("name"), _("The name"), NAME_LIMIT, required=True)
    memo = _text(data.get("memo"), _("The memo"), MEMO_LIMIT)
    initiative = (
        0
        if data.get("initiative") is None
        else _whole(data.get("initiative"), _("The initiative"), -999, 999)
    )
    url = _text(data.get("externalUrl"), _("The sheet address"), URL_LIMIT)
    if url and not url.startswith(("https://", "http://")):
        raise _refuse(_("The sheet address must start with https:// or http://."))
    hide_status = data.get("hideStatus", False)
    if not isinstance(hide_status, bool):
        raise _refuse(_("hideStatus must be true or false."))
    resources: dict[str, dict] = {}
    for item in _items(data.get("status"), _("The status list"), MAX_STATUS):
        label = _text(item.get("label"), _("A status label"), LABEL_LIMIT, required=True)
        where = _("Status %(label)s") % {"label": label}
        current = _whole(item.get("value", 0), where, 0, RESOURCE_LIMIT)
        maximum = _whole(item.get("max", current), where, 0, RESOURCE_LIMIT)
        resources[label] = {"current": current, "max": max(maximum, current)}
        if hide_status:
            resources[label]["hidden"] = True
    by_key = {_key(variant): name for name in value_names for variant in name_variants(name)}
    judgement_values: dict[str, int] = {}
    entries: list[dict] = []
    low, high = JUDGEMENT_VALUE_RANGE
    for item in _items(data.get("params"), _("The params list"), MAX_PARAMS):
        label = _text(item.get("label"), _("A param label"), LABEL_LIMIT, required=True)
        raw = item.get("value", "")
        if _key(label) in by_key:
            judgement_values[by_key[_key(label)]] = _whole(
                raw, _("Param %(label)s") % {"label": label}, low, high
            )
            continue
        if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
            raise _refuse(_("Param %(label)s must be text or a number."), label=label)
        value = raw if isinstance(raw, str) else str(raw)
        entries.append(
            {
                "label": label,
                "value": _text(value, _("Param %(label)s") % {"label": label}, ENTRY_VALUE_LIMIT),
            }
        )
    commands = _text(data.get("commands"), _("The commands"), PALETTE_MAX_CHARS)
    if len(commands.splitlines()) > PALETTE_MAX_LINES:
        raise _refuse(_("The commands have more than %(limit)d lines."), limit=PALETTE_MAX_LINES)
    return {
        "name": name,
        "notes": memo,
        "judgement_values": judgement_values,
        "resources": resources,
        "sheet_entries": entries,
        "palette": commands,
        "initiative": initiative,
        "external_url": url,
    }


def _picture(url, where: str, budget: PixelBudget) -> bytes | None:
    """The bytes of a data: URL picture, checked; None for an address elsewhere or none."""
    if url in (None, ""):
        return None
    if not isinstance(url, str):
        raise _refuse(_("%(where)s must be text."), where=where)
    found = _DATA_URL.match(url)
    if found is None:
        return None
    try:
        return image_from_text({"format": found[1], "base64": found[2]}, where, budget)
    except ValidationError as error:
        raise _refuse(
            _("%(where)s is refused: %(reason)s"), where=where, reason=" ".join(error.messages)
        ) from None


def _pictures(data: dict) -> list[tuple[str, bytes]]:
    """(label, bytes) of the portrait, then of each expression carried as a data: URL."""
    pictures = []
    budget = PixelBudget()
    portrait = _picture(data.get("iconUrl"), _("The icon"), budget)
    if portrait is not None:
        label = _text(data.get("iconLabel"), _("The icon label"), LABEL_LIMIT) or _("Portrait")
        pictures.append((label, portrait))
    for number, face in enumerate(_items(data.get("faces"), _("The faces"), MAX_FACES), start=1):
        where = _("Face %(number)d") % {"number": number}
        picture = _picture(face.get("iconUrl"), where, budget)
        if picture is not None:
            label = _text(face.get("label"), where, LABEL_LIMIT) or where
            pictures.append((label, picture))
    return pictures


def character_ccfolia_import(
    *, table: Table, by, text: str, kind: str = Character.Kind.PC, character=None
) -> Character:
    """Create a character from pasted Ccfolia JSON, or update `character` with it: the
    sheet's concept stays, its judgement values not in the JSON stay too."""
    value_names = list(table_profile(table=table).judgement_value_names or [])
    fields = ccfolia_read(text, value_names=value_names)
    pictures = fields.pop("pictures")
    with ExitStack() as stored, transaction.atomic():
        # A refusal after the pictures are stored deletes them again.
        faces = [
            (label, stored.enter_context(image_saved(data=data, folder="faces")))
            for label, data in pictures
        ]
        if character is None:
            character = character_create(table=table, by=by, kind=kind, **fields)
        else:
            values = {**(character.judgement_values or {}), **fields.pop("judgement_values")}
            character = character_update(
                character=character,
                by=by,
                concept=character.concept,
                judgement_values=values,
                **fields,
            )
        if faces:
            faces_replace(character=character, by=by, stored=faces)
        return character


def character_ccfolia_export(character: Character, *, pictures: bool = False) -> dict:
    """The character as Ccfolia's clipboard JSON: what a sheet site would export; with
    `pictures`, its portrait and expressions too, as data: URLs.

    Shipped names are written in Japanese whatever the reader's language: sheet sites and
    the palettes people paste into Ccfolia refer to {筋力}, not {Strength}."""
    resources = character.resources or {}
    with translation.override("ja"):
        value_labels = {name: display_name(name) for name in character.judgement_values or {}}
    params = [
        {"label": value_labels[name], "value": str(number)}
        for name, number in (character.judgement_values or {}).items()
    ] + [
        {"label": str(entry.get("label", "")), "value": str(entry.get("value", ""))}
        for entry in character.sheet_entries or []
        if isinstance(entry, dict)
    ]
    document = {
        "kind": "character",
        "data": {
            "name": character.name,
            "memo": character.notes,
            "initiative": character.initiative,
            "externalUrl": character.external_url,
            "status": [
                {"label": name, "value": values.get("current", 0), "max": values.get("max", 0)}
                for name, values in resources.items()
            ],
            "params": params,
            "secret": False,
            "invisible": False,
            "hideStatus": bool(resources) and all(v.get("hidden") for v in resources.values()),
            "commands": character.palette,
        },
    }
    if pictures:
        document["data"].update(_pictures_export(character))
    return document


def _pictures_export(character: Character) -> dict:
    fields: dict = {"faces": []}
    for face in character.faces.all():
        picture = image_to_text(face.image.name)
        if picture is None:
            continue
        url = f"data:{image_content_type(face.image.name)};base64,{picture['base64']}"
        if face.is_portrait:
            fields.update({"iconUrl": url, "iconLabel": face.label})
        else:
            fields["faces"].append({"label": face.label, "iconUrl": url})
    return fields
