"""Verifiable dice: commit each batch of roll keys before its rolls, hand each roll its key.

Every roll of a session takes the next index of the session's current epoch (a batch of
per-roll keys whose Merkle root was published as a ``dice_committed`` event) and draws its
faces from that index's key and the roller's value (sessions_app.rules.dice_proof). The epoch
after it is committed once half of the current one is used, long before any of its rolls.
"""

from __future__ import annotations

import datetime
from collections import OrderedDict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import DiceEpoch, DiceReservation, GameSession, Roll
from ..rules import dice_proof
from .access import require_member
from .timeline import timeline_append

# How long a reserved key waits for its roll: enough for a slow request, short enough that
# an abandoned one is published soon (at the session's next reservation or roll).
RESERVATION_LIFETIME = datetime.timedelta(minutes=2)

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


def _take_index(session: GameSession) -> tuple[int, int]:
    """Take the session's next key (epoch, index), committing the next batch ahead; every
    expired reservation is published as skipped first."""
    epoch = _open_epoch(session)
    if epoch.reservations_expired:
        _skip_expired(session)
    index = epoch.used
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(DiceEpoch._meta.db_table)}"  # noqa: S608
            " SET used = used + 1 WHERE id = %s",
            [epoch.pk],
        )
    if index == epoch.size // 2 and not (
        DiceEpoch.objects.filter(session=session, number=epoch.number + 1).exists()
    ):
        _epoch_commit(session, epoch.number + 1)
    _remember(epoch)
    return epoch.number, index


def _skip_expired(session: GameSession) -> None:
    """Publish every expired reservation of the session as skipped, with its key, before
    any later key is used: nobody can spend a reserved key on another roll unseen."""
    expired = DiceReservation.objects.filter(
        session=session, state=DiceReservation.State.OPEN, expires_at__lt=timezone.now()
    ).order_by("epoch", "index")
    for reservation in expired.select_related("user"):
        reservation.state = DiceReservation.State.SKIPPED
        reservation.save(update_fields=["state"])
        timeline_append(
            session=session,
            kind="dice_skipped",
            payload={
                "user": reservation.user.get_username(),
                "proof": proof_block(
                    session_id=session.pk,
                    epoch=reservation.epoch,
                    index=reservation.index,
                    value="",
                    value_source=dice_proof.VALUE_FROM_SERVER,
                    draws=[],
                    faces=[],
                ),
            },
        )


def dice_reserve(*, session: GameSession, by) -> DiceReservation:
    """Set the session's next key aside for `by`'s next roll and publish which one, before
    their browser draws its value (the roll widget asks right before rolling)."""
    require_member(user=by, table_id=session.table_id)
    with transaction.atomic():
        _lock_session(session)
        epoch, index = _take_index(session)
        now = timezone.now()
        reservation = DiceReservation.objects.create(
            session=session,
            user=by,
            epoch=epoch,
            index=index,
            created_at=now,
            expires_at=now + RESERVATION_LIFETIME,
        )
        timeline_append(
            session=session,
            kind="dice_reserved",
            actor=by,
            payload={
                "user": by.get_username(),
                "expires_at": reservation.expires_at.isoformat(),
                "proof": {"epoch": epoch, "index": index},
            },
        )
    return reservation


def _reserved_index(session: GameSession, reservation, by) -> tuple[int, int]:
    """Use `by`'s open reservation `reservation` (an id), or refuse the roll."""
    try:
        reservation_id = int(reservation)
    except (TypeError, ValueError):
        reservation_id = None
    found = (
        DiceReservation.objects.filter(
            pk=reservation_id,
            session=session,
            user_id=getattr(by, "pk", None),
            state=DiceReservation.State.OPEN,
            expires_at__gte=timezone.now(),
        ).first()
        if reservation_id is not None
        else None
    )
    if found is None:
        raise ValidationError(_("The dice key set aside for this roll has expired; roll again."))
    found.state = DiceReservation.State.USED
    found.save(update_fields=["state"])
    return found.epoch, found.index


def roller_value(value: str | None, *, malformed: str) -> tuple[str, str]:
    """The value a browser sent and its source, or, without one, a value the server makes
    and says so; ValidationError(`malformed`) for a value that is not one."""
    try:
        value = dice_proof.clean_value(value)
    except ValueError:
        raise ValidationError(malformed) from None
    if value is None:
        return dice_proof.new_value(), dice_proof.VALUE_FROM_SERVER
    return value, dice_proof.VALUE_FROM_BROWSER


def dice_draw(*, session: GameSession, value: str | None = None, reservation=None, by=None) -> Draw:
    """Take the session's next roll key (in the caller's transaction) and return its dice.

    `value` is the roller's random value from their browser; without one the server makes
    one and the roll says so. `reservation` is the id of the key `by` reserved before their
    browser drew that value (dice_reserve): the roll then uses that key. A malformed value
    or a reservation that is not `by`'s, used or expired is refused.
    """
    value, value_source = roller_value(
        value, malformed=_("The dice value from your browser is malformed; roll again.")
    )
    with transaction.atomic(savepoint=False):
        _lock_session(session)
        if reservation not in (None, ""):
            _skip_expired(session)
            epoch, index = _reserved_index(session, reservation, by)
        else:
            epoch, index = _take_index(session)
    return draw_at(
        session_id=session.pk, epoch=epoch, index=index, value=value, value_source=value_source
    )


def draw_at(*, session_id: int, epoch: int, index: int, value: str, value_source: str) -> Draw:
    """The dice of a key taken earlier, drawn now (a match's seed, once every seated player's
    browser has added its value)."""
    master, _size = _master(session_id, epoch)
    key = dice_proof.roll_key(master, session_id, epoch, index)
    return Draw(
        epoch=epoch,
        index=index,
        value=value,
        value_source=value_source,
        source=dice_proof.DiceSource(key=key, value=value),
    )


def _lock_session(session: GameSession) -> None:
    # The session's row is the lock every draw takes first: the timeline takes it too (for
    # the sequence number), so a roll and a scene's end, which append before they draw,
    # take their locks in one order and cannot deadlock. SQLite has one writer anyway.
    if connection.features.has_select_for_update:
        GameSession.objects.select_for_update().filter(pk=session.pk).first()


def _open_epoch(session: GameSession) -> DiceEpoch:
    epoch = _first_open_epoch(session)
    if epoch is not None:
        return epoch
    # No epoch yet (a session from before verifiable dice), or the last one is used up and
    # its successor was not committed: commit one now.
    last = DiceEpoch.objects.filter(session=session).order_by("-number").first()
    _epoch_commit(session, 0 if last is None else last.number + 1)
    return _first_open_epoch(session)


def _first_open_epoch(session: GameSession) -> DiceEpoch | None:
    """The session's first epoch with keys left, and whether a reservation waits to be
    published as skipped, asked in the same statement: a roll with none (nearly every
    roll) pays nothing for it.

    Every roll runs this read. Written with the ORM (an Exists annotation) it cost more
    CPU to build than anything else the dice do; the statement is written out here, with
    the tables' names taken from the models."""
    epoch_table, reservation_table = (
        connection.ops.quote_name(model._meta.db_table) for model in (DiceEpoch, DiceReservation)
    )
    now = DiceReservation._meta.get_field("expires_at").get_db_prep_value(
        timezone.now(), connection
    )
    sql = f"""SELECT e.*, EXISTS(
            SELECT 1 FROM {reservation_table} r
            WHERE r.session_id = e.session_id AND r.state = %s AND r.expires_at < %s
        ) AS reservations_expired
        FROM {epoch_table} e
        WHERE e.session_id = %s AND e.used < e.size
        ORDER BY e.number
        LIMIT 1
    """  # noqa: S608 (only the models' own table names are formatted in; values are params)
    params = [DiceReservation.State.OPEN, now, session.pk]
    epoch = next(iter(DiceEpoch.objects.raw(sql, params)), None)
    if epoch is not None:
        epoch.reservations_expired = bool(epoch.reservations_expired)
    return epoch


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
