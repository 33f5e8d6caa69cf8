"""Importing a session log exported as JSON: a group moving servers keeps its history.

The file is checked whole before anything is written, and everything is written in one
transaction: a refused file leaves no table, session or event behind. People named in
the file get no account here; their names are kept as text (see ``ImportedLog``).
"""

from __future__ import annotations

import datetime
import json
import re
from contextlib import ExitStack

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..kinds.registry import PayloadError, kind_find, payload_check
from ..models import (
    Character,
    GameSession,
    ImportedLog,
    Membership,
    Phase,
    RulesProfile,
    Table,
    TimelineEvent,
)
from ..rules import dice_proof, srs_checks, srs_commands
from .access import require_not_guest
from .images import PixelBudget, image_from_text, image_saved

# Room for the pictures of the lines (faces), base64 inside the JSON.
MAX_BYTES = 25 * 1024 * 1024
# Each picture costs up to half a second to re-encode: enough for a table's faces.
MAX_PICTURES = 100
_PICTURE_KEY = re.compile(r"^face:[1-9][0-9]{0,9}$")
MAX_EVENTS = 50_000
# The dice one import recomputes, in all (about 3 µs each): twenty of the roll box's
# largest commands (10,000 dice each), where a real session rolls a few thousand.
MAX_DICE = 200_000
MAX_PEOPLE = 1000
MAX_NAMES = 100

_KIND = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_TOP_KEYS = {
    "format",
    "version",
    "complete",
    "view_of",
    "session",
    "members",
    "characters",
    "events",
}
# Present only when the lines were said with faces.
_OPTIONAL_TOP_KEYS = {"pictures"}
_EVENT_KEYS = {"seq", "kind", "actor", "created_at", "visibility", "audience", "payload"}
_PROFILE_NUMBERS = (
    "critical",
    "fumble",
    "modifier_limit",
    "easy_from",
    "ordinary_from",
    "hard_from",
    "extreme_from",
)
_username = UnicodeUsernameValidator()

# What an exported log says it is: the export writes it, the import checks it.
FORMAT = "srs-table-session-log"
FORMAT_VERSION = 1


# The database's sequence and id columns are 32-bit on every backend's smallest type.
MAX_SEQ = srs_checks.MAX_NUMBER


def _refuse(message: str, **values) -> ValidationError:
    return ValidationError(message % values if values else message)


def _parse(data) -> dict:
    if isinstance(data, dict):
        return data
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, bytes | bytearray):
        raise _refuse(_("The file is not a session log."))
    if len(data) > MAX_BYTES:
        raise _refuse(_("The file is larger than %(limit)d MB."), limit=MAX_BYTES // (1024 * 1024))
    try:
        return json.loads(bytes(data).decode("utf-8"))
    except UnicodeDecodeError:
        raise _refuse(_("The file is not UTF-8 text: it is not a session log.")) from None
    except (ValueError, RecursionError):
        raise _refuse(_("The file is not valid JSON: it is not a session log.")) from None


def _text(value, where: str, *, limit: int, required: bool = False) -> str:
    if not isinstance(value, str):
        raise _refuse(_("%(where)s must be text."), where=where)
    if required and not value.strip():
        raise _refuse(_("%(where)s must not be empty."), where=where)
    if len(value) > limit:
        raise _refuse(_("%(where)s is longer than %(limit)d characters."), where=where, limit=limit)
    return value


def _name(value, where: str, *, required: bool = True) -> str:
    """A username from the file: the characters a username may have here, nothing else."""
    value = _text(value, where, limit=150, required=required)
    if value:
        try:
            _username(value)
        except ValidationError:
            raise _refuse(
                _("%(where)s is not a valid username: %(value)s"), where=where, value=value
            ) from None
    return value


def _whole(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(_("%(where)s must be a whole number."), where=where)
    return value


def _list(value, where: str, *, limit: int) -> list:
    if not isinstance(value, list):
        raise _refuse(_("%(where)s must be a list."), where=where)
    if len(value) > limit:
        raise _refuse(_("%(where)s has more than %(limit)d entries."), where=where, limit=limit)
    return value


def _object(value, where: str, keys: set[str] | None = None) -> dict:
    if not isinstance(value, dict):
        raise _refuse(_("%(where)s must be a JSON object."), where=where)
    if keys is not None and set(value) != keys:
        raise _refuse(
            _("%(where)s must have exactly these fields: %(fields)s."),
            where=where,
            fields=", ".join(sorted(keys)),
        )
    return value


def _names(value, where: str) -> list[str]:
    return [_text(item, where, limit=60) for item in _list(value, where, limit=MAX_NAMES)]


def _moment(value, where: str) -> datetime.datetime:
    _text(value, where, limit=40, required=True)
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise _refuse(_("%(where)s is not a date and time."), where=where) from None
    if moment.tzinfo is None:
        raise _refuse(_("%(where)s has no time zone."), where=where)
    return moment


def _clean_session(value) -> dict:
    session = _object(value, _("The session"), {"title", "date", "phase", "table", "rules_profile"})
    cleaned = {
        "title": _text(session["title"], _("The session title"), limit=160, required=True),
        "table": _text(session["table"], _("The table name"), limit=120, required=True),
    }
    _text(session["date"], _("The session date"), limit=10, required=True)
    try:
        cleaned["date"] = datetime.date.fromisoformat(session["date"])
    except ValueError:
        raise _refuse(_("The session date is not a date.")) from None
    if session["phase"] not in Phase.values:
        raise _refuse(_("The session phase is not one this app knows."))
    cleaned["phase"] = session["phase"]
    profile = _object(
        session["rules_profile"],
        _("The rules profile"),
        {"name", *_PROFILE_NUMBERS, "judgement_value_names", "resource_names", "scenes_enabled"},
    )
    numbers = {
        name: _whole(profile[name], _("The rules profile's %(field)s") % {"field": name})
        for name in _PROFILE_NUMBERS
    }
    if not isinstance(profile["scenes_enabled"], bool):
        raise _refuse(_("The rules profile's scenes_enabled must be true or false."))
    cleaned["rules_profile"] = {
        "name": _text(profile["name"], _("The rules profile name"), limit=100, required=True),
        **numbers,
        "judgement_value_names": _names(
            profile["judgement_value_names"], _("A judgement value name")
        ),
        "resource_names": _names(profile["resource_names"], _("A resource name")),
        "scenes_enabled": profile["scenes_enabled"],
    }
    return cleaned


def _clean_members(value) -> list[dict]:
    members = []
    for index, row in enumerate(_list(value, _("The members"), limit=MAX_PEOPLE), start=1):
        where = _("Member %(number)d") % {"number": index}
        row = _object(row, where, {"username", "role"})
        if row["role"] not in Membership.Role.values:
            raise _refuse(_("%(where)s has an unknown role."), where=where)
        members.append({"username": _name(row["username"], where), "role": row["role"]})
    return members


def _clean_characters(value) -> list[dict]:
    characters = []
    for index, row in enumerate(_list(value, _("The characters"), limit=MAX_PEOPLE), start=1):
        where = _("Character %(number)d") % {"number": index}
        row = _object(row, where, {"name", "kind", "owner", "judgement_values"})
        if row["kind"] not in Character.Kind.values:
            raise _refuse(_("%(where)s is neither a PC nor an NPC."), where=where)
        values = _object(row["judgement_values"], where)
        if len(values) > MAX_NAMES:
            raise _refuse(_("%(where)s has too many judgement values."), where=where)
        for key, number in values.items():
            _text(key, where, limit=60)
            _whole(number, where)
        characters.append(
            {
                "name": _text(row["name"], where, limit=120, required=True),
                "kind": row["kind"],
                "owner": _name(row["owner"], where, required=False),
                "judgement_values": values,
            }
        )
    return characters


def _clean_events(value, *, complete: bool) -> list[dict]:
    events = []
    previous = 0
    for index, row in enumerate(_list(value, _("The events"), limit=MAX_EVENTS), start=1):
        where = _("Event %(number)d") % {"number": index}
        row = _object(row, where, _EVENT_KEYS)
        seq = _whole(row["seq"], where)
        if complete and seq != index:
            raise _refuse(
                _(
                    "%(where)s is numbered %(seq)s: "
                    "a complete log is numbered 1, 2, 3… without gaps."
                ),
                where=where,
                seq=seq,
            )
        if seq <= previous:
            raise _refuse(
                _("%(where)s is numbered %(seq)s: the numbers must keep increasing from 1."),
                where=where,
                seq=seq,
            )
        if seq > MAX_SEQ:
            raise _refuse(
                _("%(where)s is numbered %(seq)s, past the largest number a log may use."),
                where=where,
                seq=seq,
            )
        previous = seq
        kind = _text(row["kind"], where, limit=40, required=True)
        if not _KIND.match(kind):
            raise _refuse(
                _("%(where)s has a kind that is not lowercase letters, digits and _."),
                where=where,
            )
        payload = _object(row["payload"], where)
        if kind_find(kind) is not None:
            # A known kind's line is drawn from its payload: one of another shape could leave
            # a session whose log cannot be shown.
            try:
                payload_check(kind, payload)
            except PayloadError as error:
                raise _refuse(
                    _("%(where)s does not have the fields its kind %(kind)s needs: %(error)s"),
                    where=where,
                    kind=kind,
                    error=str(error)[:200],
                ) from None
            _numbers_in_range(_without_proven_numbers(payload), where)
            face_id = payload.get("face_id")
            if face_id is not None and not 0 < face_id < 2**31:
                # A line's face is drawn through a link by its id: none can be zero or less.
                raise _refuse(
                    _("%(where)s names a face that is not a positive number."), where=where
                )
        if row["visibility"] not in TimelineEvent.Visibility.values:
            raise _refuse(_("%(where)s has an unknown visibility."), where=where)
        audience = [_name(name, where) for name in _list(row["audience"], where, limit=MAX_PEOPLE)]
        events.append(
            {
                "seq": seq,
                "kind": kind,
                "actor": _name(row["actor"], where, required=False),
                "created_at": _moment(row["created_at"], where),
                "visibility": row["visibility"],
                "audience": audience,
                "payload": payload,
            }
        )
    return events


def _without_proven_numbers(payload: dict) -> dict:
    """The payload less a proof's draws and faces: a match's seed is a die of 2**62 sides,
    and these numbers are bounded by the dice check instead (dice_proof.check_draws)."""
    proof = payload.get("proof")
    if not isinstance(proof, dict) or "key" not in proof:
        return payload
    kept = {key: value for key, value in proof.items() if key not in ("draws", "faces")}
    return {**payload, "proof": kept}


def _numbers_in_range(value, where: str) -> None:
    """Refuse a whole number no database column could hold (ids, totals, dice)."""
    found = srs_commands.number_out_of_range(value, MAX_SEQ)
    if found is not None:
        raise _refuse(
            _("%(where)s holds a number out of range: %(value)s."),
            where=where,
            value=str(found)[:30],
        )


def log_clean(data) -> dict:
    """Check a session log file and return its cleaned content, or raise ValidationError."""
    document = _object(_parse(data), _("The file"))
    if document.get("format") != FORMAT:
        raise _refuse(_("The file is not a session log of this app."))
    version = document.get("version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise _refuse(
            _("The file is in log format version %(version)s; this app reads version %(known)s."),
            version=str(version)[:20],
            known=FORMAT_VERSION,
        )
    _object(
        {key: value for key, value in document.items() if key not in _OPTIONAL_TOP_KEYS},
        _("The file"),
        _TOP_KEYS,
    )
    if not isinstance(document["complete"], bool):
        raise _refuse(_("The file's “complete” field must be true or false."))
    complete = document["complete"]
    view_of = _name(document["view_of"], _("The file's “view of” field"), required=not complete)
    return {
        "complete": complete,
        "view_of": "" if complete else view_of,
        "session": _clean_session(document["session"]),
        "members": _clean_members(document["members"]),
        "characters": _clean_characters(document["characters"]),
        "events": _dice_checked(_clean_events(document["events"], complete=complete)),
        "pictures": _clean_pictures(document.get("pictures", {})),
    }


def _clean_pictures(value) -> dict[str, bytes]:
    """The faces of the lines: each checked as an upload is (services/images.py)."""
    pictures = _object(value, _("The pictures"))
    if len(pictures) > MAX_PICTURES:
        raise _refuse(_("The file has more than %(limit)d pictures."), limit=MAX_PICTURES)
    cleaned = {}
    budget = PixelBudget()
    for key, picture in pictures.items():
        if not _PICTURE_KEY.match(key):
            raise _refuse(_("The pictures name %(key)s, which is not face:<number>."), key=key[:40])
        where = _("Picture %(key)s") % {"key": key}
        try:
            cleaned[key] = image_from_text(picture, where, budget)
        except ValidationError as error:
            raise _refuse(
                _("%(where)s is refused: %(reason)s"), where=where, reason=" ".join(error.messages)
            ) from None
    return cleaned


def _dice_checked(events: list[dict]) -> list[dict]:
    """Refuse a log whose published dice do not follow from their commitments: every proof
    (a roll's key and Merkle path) must climb to the root committed before it and give the
    faces its event shows, and the keys of each batch must be used in order, without a gap
    and once each (dice_proof.KeyLedger). The dice of one import are bounded in all, so a
    forged file cannot keep the server busy."""
    commitments: dict[int, dict] = {}
    ledger = dice_proof.KeyLedger()
    dice_left = MAX_DICE
    for number, event in enumerate(events, start=1):
        payload = event["payload"]
        try:
            if event["kind"] == "dice_committed":
                commit = commitments.setdefault(payload.get("epoch"), payload)
                ledger.committed(commit["epoch"], int(commit["size"]))
                continue
            proof = payload.get("proof")
            if not isinstance(proof, dict):
                continue
            if "key" in proof:
                commit = commitments.get(proof.get("epoch"))
                if commit is None:
                    raise dice_proof.ProofError("no commitment for its batch comes before it")
                checked = dice_proof.published_proof(proof, commit)
                dice_left -= dice_proof.check_draws(checked.draws, checked.faces)
                if dice_left < 0:
                    raise _refuse(
                        _("The file's dice are more than %(limit)d in all: too many to check."),
                        limit=MAX_DICE,
                    )
                faces = dice_proof.verify(checked, bytes.fromhex(commit["root"]))
                if "faces" in payload and payload["faces"] != faces:
                    raise dice_proof.ProofError(f"the card shows {payload['faces']}, not {faces}")
            if event["kind"] == "dice_reserved":
                expires = datetime.datetime.fromisoformat(payload["expires_at"])
                ledger.reserved(proof.get("epoch"), proof.get("index"), expires)
            else:
                ledger.used(
                    proof.get("epoch"),
                    proof.get("index"),
                    dice_proof.roll_identity(event["kind"], event["seq"], payload),
                )
            if event["kind"] != "dice_skipped":
                # Skips are published together just before the roll that finds them due.
                ledger.overdue(event["created_at"])
        except (KeyError, TypeError, ValueError) as error:
            raise _refuse(
                _("Event %(number)d's dice do not verify: %(reason)s."),
                number=number,
                reason=str(error)[:200],
            ) from None
    return events


def _owners_forgotten(value):
    """The payload with every `owner_id` emptied: it named an account of the server that
    wrote the log, perhaps another person's here, so a hidden resource's numbers stay the
    GM's alone."""
    if isinstance(value, dict):
        return {
            key: None if key == "owner_id" else _owners_forgotten(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_owners_forgotten(item) for item in value]
    return value


def log_import(*, data, by) -> GameSession:
    """Import an exported session log as a new session of a new table run by `by`.

    A player's export (only what they saw) is accepted too and stays marked as partial.
    """
    require_not_guest(
        user=by, message=_("A guest account cannot create tables. Set a password first.")
    )
    log = log_clean(data)
    facts = log["session"]
    with ExitStack() as stored, transaction.atomic():
        # Each picture is deleted again if anything later refuses the file.
        pictures = {
            key: stored.enter_context(image_saved(data=picture, folder="faces"))
            for key, picture in log["pictures"].items()
        }
        table = Table(name=facts["table"], gm=by)
        table.full_clean()
        table.save()
        Membership.objects.create(table=table, user=by, role=Membership.Role.GM)
        profile = RulesProfile(table=table, **facts["rules_profile"])
        profile.full_clean()
        profile.save()
        table.rules_profile = profile
        table.save(update_fields=["rules_profile"])
        events = log["events"]
        session = GameSession(
            table=table,
            title=facts["title"],
            scheduled_for=facts["date"],
            rules_profile=profile,
            phase=facts["phase"],
        )
        session.full_clean()
        session.last_seq = events[-1]["seq"] if events else 0
        session.save()
        # Imported history is written as it was, not appended anew: no broadcast, and
        # the numbers the file gives are kept.
        TimelineEvent.objects.bulk_create(
            [
                TimelineEvent(
                    session=session,
                    seq=event["seq"],
                    kind=event["kind"],
                    payload=_owners_forgotten(event["payload"]),
                    visibility=event["visibility"],
                    created_at=event["created_at"],
                )
                for event in events
            ],
            batch_size=1000,
        )
        ImportedLog.objects.create(
            session=session,
            imported_by=by,
            complete=log["complete"],
            view_of=log["view_of"],
            members=log["members"],
            characters=log["characters"],
            event_people={
                str(event["seq"]): {"actor": event["actor"], "audience": event["audience"]}
                for event in events
            },
            pictures=pictures,
        )
    return session
