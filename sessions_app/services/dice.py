"""Verifiable dice: commit each batch of roll keys before its rolls, hand each roll its key.

Every roll of a session takes the next index of the session's current epoch (a batch of
per-roll keys whose Merkle root was published as a ``dice_committed`` event) and draws its
faces from that index's key and the roller's value (sessions_app.dice_proof). The epoch
after it is committed once half of the current one is used, long before any of its rolls.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from .. import dice_proof
from ..models import DiceEpoch, GameSession, Roll
from .timeline import timeline_append

# The masters this process used last, so that publishing a roll's proof right after drawing
# it reads no row again. Server memory only, like the database row it mirrors.
_MASTERS: OrderedDict[tuple[int, int], tuple[bytes, int]] = OrderedDict()
_MASTERS_KEPT = 64


def _remember(epoch: DiceEpoch) -> tuple[bytes, int]:
    found = (bytes(epoch.master), epoch.size)
    _MASTERS[(epoch.session_id, epoch.number)] = found
    _MASTERS.move_to_end((epoch.session_id, epoch.number))
    while len(_MASTERS) > _MASTERS_KEPT:
        _MASTERS.popitem(last=False)
    return found


def _master(session_id: int, epoch: int) -> tuple[bytes, int]:
    """An epoch's master secret and size."""
    found = _MASTERS.get((session_id, epoch))
    if found is None:
        found = _remember(DiceEpoch.objects.get(session_id=session_id, number=epoch))
    return found


def _epoch_commit(session: GameSession, number: int) -> DiceEpoch:
    master = dice_proof.new_master()
    root = dice_proof.commitment(master, session.pk, number, dice_proof.EPOCH_SIZE)
    epoch = DiceEpoch.objects.create(
        session=session,
        number=number,
        size=dice_proof.EPOCH_SIZE,
        master=master,
        root=root.hex(),
    )
    timeline_append(
        session=session,
        kind="dice_committed",
        payload=commitment_payload(epoch),
        allow_closed=True,
    )
    return epoch


def commitment_payload(epoch: DiceEpoch) -> dict:
    return {
        "session": epoch.session_id,
        "epoch": epoch.number,
        "size": epoch.size,
        "root": epoch.root,
        "procedure": dice_proof.PROCEDURE,
    }


def dice_commit_ahead(*, session: GameSession) -> None:
    """Publish the session's first commitment if it has none yet (the caller's transaction)."""
    with transaction.atomic(savepoint=False):
        if connection.features.has_select_for_update:
            GameSession.objects.select_for_update().filter(pk=session.pk).first()
        if not DiceEpoch.objects.filter(session=session).exists():
            _epoch_commit(session, 0)


@dataclass
class Draw:
    """The dice of one roll: where its key sits, the roller's value, and the faces drawn."""

    epoch: int
    index: int
    value: str
    value_source: str
    source: dice_proof.DiceSource

    def roll_fields(self) -> dict:
        """What a Roll row keeps to prove its faces later (nothing if no die was drawn from
        this source, as when a test wires in fixed faces)."""
        if not self.source.draws:
            return {}
        return {
            "dice_epoch": self.epoch,
            "dice_index": self.index,
            "dice_value": self.value,
            "dice_value_source": self.value_source,
            "dice_draws": self.source.draws,
        }


def dice_draw(*, session: GameSession, value: str | None = None) -> Draw:
    """Take the session's next roll key (in the caller's transaction) and return its dice.

    `value` is the roller's random value from their browser; without one the server makes
    one and the roll says so. A malformed value is refused before anything is taken.
    """
    try:
        value = dice_proof.clean_value(value)
    except ValueError:
        raise ValidationError(
            _("The dice value from your browser is malformed; roll again.")
        ) from None
    value_source = dice_proof.VALUE_FROM_BROWSER
    if value is None:
        value, value_source = dice_proof.new_value(), dice_proof.VALUE_FROM_SERVER
    with transaction.atomic(savepoint=False):
        epoch = _open_epoch(session)
        index = epoch.used
        DiceEpoch.objects.filter(pk=epoch.pk).update(used=F("used") + 1)
        if index == epoch.size // 2 and not (
            DiceEpoch.objects.filter(session=session, number=epoch.number + 1).exists()
        ):
            _epoch_commit(session, epoch.number + 1)
    master, _size = _remember(epoch)
    key = dice_proof.roll_key(master, session.pk, epoch.number, index)
    return Draw(
        epoch=epoch.number,
        index=index,
        value=value,
        value_source=value_source,
        source=dice_proof.DiceSource(key=key, value=value),
    )


def _open_epoch(session: GameSession) -> DiceEpoch:
    # The session's row is the lock every draw takes first: the timeline takes it too (for
    # the sequence number), so a roll and a scene's end, which append before they draw,
    # take their locks in one order and cannot deadlock. SQLite has one writer anyway.
    if connection.features.has_select_for_update:
        GameSession.objects.select_for_update().filter(pk=session.pk).first()

    def first_open():
        return (
            DiceEpoch.objects.filter(session=session, used__lt=F("size")).order_by("number").first()
        )

    epoch = first_open()
    if epoch is not None:
        return epoch
    # No epoch yet (a session from before verifiable dice), or the last one is used up and
    # its successor was not committed: commit one now.
    last = DiceEpoch.objects.filter(session=session).order_by("-number").first()
    _epoch_commit(session, 0 if last is None else last.number + 1)
    return first_open()


def proof_block(
    *, session_id: int, epoch: int, index: int, value: str, value_source: str, draws, faces
) -> dict:
    """The published proof of one roll: its key, its Merkle path, and what to recompute.

    Only for a roll its reader may see: the key determines the faces.
    """
    master, size = _master(session_id, epoch)
    return {
        "epoch": epoch,
        "index": index,
        "key": dice_proof.roll_key(master, session_id, epoch, index).hex(),
        "path": [
            step.hex() for step in dice_proof.proof_path(master, session_id, epoch, index, size)
        ],
        "value": value,
        "value_source": value_source,
        "draws": [list(draw) for draw in draws],
        "faces": list(faces),
    }


def draw_proof(session: GameSession, draw: Draw, faces) -> dict:
    """The proof block of a draw made for something other than a Roll row (an amount, a
    match's seed), published with the event that shows its faces."""
    return proof_block(
        session_id=session.pk,
        epoch=draw.epoch,
        index=draw.index,
        value=draw.value,
        value_source=draw.value_source,
        draws=draw.source.draws,
        faces=faces,
    )


def roll_proof(roll: Roll) -> dict | None:
    """The proof block of a roll made with verifiable dice; None for older rolls."""
    if roll.dice_epoch is None:
        return None
    return proof_block(
        session_id=roll.session_id,
        epoch=roll.dice_epoch,
        index=roll.dice_index,
        value=roll.dice_value,
        value_source=roll.dice_value_source,
        draws=roll.dice_draws,
        faces=roll.faces,
    )


def roll_place(roll: Roll) -> dict | None:
    """Which key a roll used, without the key: what players learn of a secret roll, so that
    every index of an epoch is accounted for and none can be skipped unseen."""
    if roll.dice_epoch is None:
        return None
    return {"epoch": roll.dice_epoch, "index": roll.dice_index}
