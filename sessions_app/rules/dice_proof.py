"""Verifiable dice: per-roll keys committed in a Merkle tree, faces derived by HMAC.

Pure: imports nothing from Django, so the services, the tests, the benchmark and anyone
reading the procedure share one copy. The standalone verifier (static/verify/verify_dice.py)
and the in-browser one (static/js/verify-dice.js) are independent re-implementations of the
same steps, so a bug here cannot vouch for itself.

The procedure ("srs-dice/v1"), all text UTF-8, numbers in decimal:

- Each batch (an *epoch*) of SIZE rolls of a session has its own 32-byte master secret,
  kept on the server. Roll number ``index`` of the epoch has the key
  ``key = HMAC-SHA256(master, "srs-dice/v1/key|{session}|{epoch}|{index}")``.
- Its leaf is ``SHA256(0x00 || "srs-dice/v1/leaf|{session}|{epoch}|{index}|" || key)``, so
  a key only proves the roll it was made for. Inner nodes are ``SHA256(0x01 || left ||
  right)``; the root over the SIZE leaves is the commitment, published before any of the
  epoch's rolls is made.
- The faces of a roll: the blocks ``HMAC-SHA256(key, "srs-dice/v1/faces|{value}|{block}")``
  for block = 0, 1, 2… are read as a stream of 8-byte big-endian numbers x; a die of s
  sides takes the next x below ``2**64 - (2**64 mod s)`` (the others are skipped, so every
  face is exactly equally likely) and shows ``1 + x mod s``. ``value`` is the roller's
  random value in lower-case hex.
- A draw several browsers take part in (a match's seed: each seated player's browser adds
  a value) lists them as ``values``, in the order they came; its ``value`` is their
  concatenation, so none of them alone decides the faces.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .dice_grammar import MAX_DRAWS
from .dice_grammar import MAX_SIDES as MAX_DIE_SIDES

PROCEDURE = "srs-dice/v1"
EPOCH_SIZE = 1024
MASTER_BYTES = 32
VALUE_BYTES = 16
MAX_SIDES = 2**62
# What one roll can draw, as the app rolls: the roll box's own limits (at most MAX_DRAWS dice
# of at most MAX_DIE_SIDES sides each, rerolls included); a match's seed is the one draw of
# a single die of MAX_SIDES sides. A proof asking for more is refused before any face is
# derived, so a forged log cannot make a verifier work for minutes.
MAX_DICE_PER_ROLL = MAX_DRAWS
SEED_DRAWS = ((1, MAX_SIDES),)

VALUE_FROM_BROWSER = "browser"
VALUE_FROM_SERVER = "server"
VALUE_SOURCES = (VALUE_FROM_BROWSER, VALUE_FROM_SERVER)

_WORD = 2**64
_HEX_VALUE = re.compile(r"^[0-9a-f]{32,128}$")


class ProofError(ValueError):
    """A proof that does not hold; the message says which step failed."""


def roll_key(master: bytes, session: int, epoch: int, index: int) -> bytes:
    """Derive the key of roll `index` of an epoch from the epoch's master secret."""
    message = f"{PROCEDURE}/key|{session}|{epoch}|{index}".encode()
    return hmac.new(master, message, hashlib.sha256).digest()


def leaf_hash(session: int, epoch: int, index: int, key: bytes) -> bytes:
    """Hash a roll's key into its leaf, bound to its session, epoch and place."""
    prefix = f"{PROCEDURE}/leaf|{session}|{epoch}|{index}|".encode()
    return hashlib.sha256(b"\x00" + prefix + key).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _require_size(size: int) -> None:
    if size < 2 or size & (size - 1):
        raise ValueError(f"an epoch's size is a power of two, got {size}")


@lru_cache(maxsize=32)
def _tree(master: bytes, session: int, epoch: int, size: int) -> tuple[tuple[bytes, ...], ...]:
    # Cached per process: the tree is rebuilt only when a process first proves an epoch.
    level = tuple(
        leaf_hash(session, epoch, index, roll_key(master, session, epoch, index))
        for index in range(size)
    )
    levels = [level]
    while len(level) > 1:
        level = tuple(_node(level[i], level[i + 1]) for i in range(0, len(level), 2))
        levels.append(level)
    return tuple(levels)


def commitment(master: bytes, session: int, epoch: int, size: int = EPOCH_SIZE) -> bytes:
    """Return the Merkle root over the epoch's `size` roll keys."""
    _require_size(size)
    return _tree(master, session, epoch, size)[-1][0]


def proof_path(master: bytes, session: int, epoch: int, index: int, size: int = EPOCH_SIZE):
    """Return the sibling hashes from roll `index`'s leaf up to the root."""
    _require_size(size)
    if not 0 <= index < size:
        raise ValueError(f"index {index} is outside an epoch of {size}")
    levels = _tree(master, session, epoch, size)
    path = []
    for level in levels[:-1]:
        path.append(level[index ^ 1])
        index //= 2
    return path


def root_from_path(
    session: int, epoch: int, index: int, key: bytes, path: Sequence[bytes]
) -> bytes:
    """Climb from a key's leaf to the root its path leads to."""
    digest = leaf_hash(session, epoch, index, key)
    place = index
    for sibling in path:
        digest = _node(sibling, digest) if place & 1 else _node(digest, sibling)
        place //= 2
    if place != 0:
        raise ProofError(f"index {index} does not fit a path of {len(path)} steps")
    return digest


def new_master() -> bytes:
    """A fresh master secret for an epoch, from the operating system's generator."""
    return secrets.token_bytes(MASTER_BYTES)


def new_value() -> str:
    """A roller's value made by the server (when no browser sent one)."""
    return secrets.token_hex(VALUE_BYTES)


def clean_value(value: str | None) -> str | None:
    """Return a roller's value as lower-case hex, None when absent; ValueError if malformed."""
    if value is None or value == "":
        return None
    value = str(value).strip().lower()
    if not _HEX_VALUE.match(value):
        raise ValueError("a roller's value is 32 to 128 hexadecimal digits")
    return value


def join_values(values: Sequence[str]) -> str:
    """The value of a draw that several browsers took part in: theirs, in order, as one."""
    return "".join(values)


def _words(key: bytes, value: str) -> Iterator[int]:
    block = 0
    while True:
        message = f"{PROCEDURE}/faces|{value}|{block}".encode()
        digest = hmac.new(key, message, hashlib.sha256).digest()
        for start in range(0, len(digest), 8):
            yield int.from_bytes(digest[start : start + 8], "big")
        block += 1


def _face(words: Iterator[int], sides: int) -> int:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= MAX_SIDES:
        raise ValueError(f"a die has 1 to 2**62 sides, got {sides!r}")
    limit = _WORD - _WORD % sides
    for word in words:
        if word < limit:
            return 1 + word % sides
    raise AssertionError("unreachable: the stream is endless")


def check_draws(draws: Sequence[Sequence[int]], faces: Sequence[int]) -> int:
    """Refuse, before any work, draws the app could not have made or that do not match the
    faces listed; return the number of dice drawn."""
    if len(draws) > MAX_DICE_PER_ROLL:
        raise ProofError(f"it lists {len(draws)} draws; a roll draws at most {MAX_DICE_PER_ROLL}")
    shaped = []
    for draw in draws:
        if len(draw) != 2 or any(isinstance(n, bool) or not isinstance(n, int) for n in draw):
            raise ProofError("each draw is [count, sides], two whole numbers")
        shaped.append((draw[0], draw[1]))
    if tuple(shaped) == SEED_DRAWS:
        total = 1
    else:
        for count, sides in shaped:
            if count < 1 or not 1 <= sides <= MAX_DIE_SIDES:
                raise ProofError(
                    f"a draw of {count} dice of {sides} sides is outside what a roll can draw "
                    f"(1 or more dice of 1 to {MAX_DIE_SIDES} sides)"
                )
        total = sum(count for count, _sides in shaped)
        if total > MAX_DICE_PER_ROLL:
            raise ProofError(f"it draws {total} dice; a roll draws at most {MAX_DICE_PER_ROLL}")
    if total != len(faces):
        raise ProofError(f"it draws {total} dice but lists {len(faces)} faces")
    return total


def derive_faces(key: bytes, value: str, draws: Sequence[Sequence[int]]) -> list[int]:
    """Return the faces for `draws`, a list of (count, sides), from a key and roller value."""
    words = _words(key, value)
    return [_face(words, sides) for count, sides in draws for _ in range(count)]


@dataclass
class DiceSource:
    """A roll's dice: faces drawn in order from one key and roller value, and recorded.

    Passed wherever a ``random.Random`` is (``randint`` is all the rules use), or asked
    directly with ``draw(count, sides)``; ``draws`` is what a verifier needs to replay it.
    """

    key: bytes
    value: str
    draws: list[list[int]] = field(default_factory=list)
    _stream: Iterator[int] | None = field(default=None, repr=False)

    def draw(self, count: int, sides: int) -> list[int]:
        """Roll `count` dice of `sides` sides."""
        if self._stream is None:
            self._stream = _words(self.key, self.value)
        faces = [_face(self._stream, sides) for _ in range(count)]
        if count:
            if self.draws and self.draws[-1][1] == sides:
                self.draws[-1][0] += count
            else:
                self.draws.append([count, sides])
        return faces

    def randint(self, low: int, high: int) -> int:
        """A whole number from low to high inclusive, as random.Random.randint."""
        return low - 1 + self.draw(1, high - low + 1)[0]


@dataclass(frozen=True)
class RollProof:
    """Everything a verifier needs for one roll, and what it should find."""

    session: int
    epoch: int
    index: int
    size: int
    key: bytes
    path: tuple[bytes, ...]
    value: str
    draws: tuple[tuple[int, int], ...]
    faces: tuple[int, ...]
    # The values of the browsers that took part, when more than the roller's (a match's seed).
    values: tuple[str, ...] = ()


def published_proof(proof: dict, commit: dict) -> RollProof:
    """Read a published proof (an event's ``proof``) and its batch's commitment (the
    ``dice_committed`` payload); KeyError, TypeError or ValueError if either is malformed."""
    if any(isinstance(face, bool) or not isinstance(face, int) for face in proof["faces"]):
        raise TypeError("faces are whole numbers")
    values = proof.get("values", [])
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise TypeError("values are a list of hexadecimal texts")
    return RollProof(
        session=int(commit["session"]),
        epoch=int(proof["epoch"]),
        index=int(proof["index"]),
        size=int(commit["size"]),
        key=bytes.fromhex(proof["key"]),
        path=tuple(bytes.fromhex(step) for step in proof["path"]),
        value=str(proof["value"]),
        draws=tuple(tuple(draw) for draw in proof["draws"]),
        faces=tuple(proof["faces"]),
        values=tuple(values),
    )


def verify(proof: RollProof, root: bytes) -> list[int]:
    """Check a roll against its epoch's commitment; return its faces or raise ProofError."""
    _require_size(proof.size)
    check_draws(proof.draws, proof.faces)
    if len(proof.path) != proof.size.bit_length() - 1:
        raise ProofError("the proof's path does not match the epoch's size")
    if not 0 <= proof.index < proof.size:
        raise ProofError("the roll's index is outside its epoch")
    climbed = root_from_path(proof.session, proof.epoch, proof.index, proof.key, proof.path)
    if not hmac.compare_digest(climbed, root):
        raise ProofError("the key is not the one committed for this roll")
    if proof.values and join_values(proof.values) != proof.value:
        raise ProofError("the value is not the players' values joined in order")
    faces = derive_faces(proof.key, proof.value, proof.draws)
    if tuple(faces) != tuple(proof.faces):
        raise ProofError(f"the dice show {faces}, not {list(proof.faces)}")
    return faces


# A reserved key must be rolled with or published as skipped by the first roll made this
# long after the reservation expired (the server publishes it at the next roll after expiry;
# the margin covers the instant between its check and the roll's own time).
RESERVATION_GRACE_SECONDS = 60


class _Reserved:
    """The owner of a reserved key until a roll (or its skip) uses it."""

    def __init__(self, expires_at):
        self.expires_at = expires_at


class KeyLedger:
    """Accounts for the key indexes of every batch in timeline order: each batch's keys are
    used 0, 1, 2… without a gap, each by one roll (the events that show the same roll again,
    such as a secret roll's reveal, name the same roll), and a batch is started only once
    the one before it is used up. A key reserved for a roll (``dice_reserved``) counts as
    used where it was reserved; the next event that uses it is its roll (or its published
    skip), and it must have one in time. Fed the events in order; raises ProofError naming
    the index.
    """

    def __init__(self) -> None:
        self._sizes: dict[int, int] = {}
        self._next: dict[int, int] = {}
        self._owners: dict[tuple[int, int], object] = {}

    def committed(self, epoch: int, size: int) -> None:
        """A batch's commitment was published (the first one of a batch counts)."""
        self._sizes.setdefault(epoch, size)

    def used(self, epoch, index, roll) -> None:
        """Key `index` of batch `epoch` was published for `roll` (any hashable naming it)."""
        self._take(epoch, index, roll)

    def reserved(self, epoch, index, expires_at) -> None:
        """Key `index` of batch `epoch` was set aside until `expires_at` (a datetime)."""
        self._take(epoch, index, _Reserved(expires_at))

    def overdue(self, now) -> None:
        """Refuse a reserved key still unused by a roll made well after it expired."""
        for (epoch, index), owner in self._owners.items():
            if isinstance(owner, _Reserved) and (
                (now - owner.expires_at).total_seconds() > RESERVATION_GRACE_SECONDS
            ):
                raise ProofError(
                    f"key {index} of batch {epoch} was reserved, and neither rolled with "
                    "nor published as skipped when it expired"
                )

    def _take(self, epoch, index, roll) -> None:
        if any(isinstance(n, bool) or not isinstance(n, int) for n in (epoch, index)):
            raise ProofError("a key's batch and index are whole numbers")
        size = self._sizes.get(epoch)
        if size is None:
            raise ProofError(f"batch {epoch} has no commitment published before key {index}")
        if not 0 <= index < size:
            raise ProofError(f"key {index} is outside batch {epoch} of {size}")
        owner = self._owners.get((epoch, index))
        if owner is not None:
            if isinstance(owner, _Reserved) and not isinstance(roll, _Reserved):
                self._owners[(epoch, index)] = roll
            elif owner != roll:
                raise ProofError(f"key {index} of batch {epoch} is used by two rolls")
            return
        expected = self._next.get(epoch, 0)
        if index != expected:
            raise ProofError(
                f"key {index} of batch {epoch} comes where key {expected} is next: "
                + ("a key is missing" if index > expected else "the keys are out of order")
            )
        if index == 0 and epoch > 0 and self._next.get(epoch - 1) != self._sizes.get(epoch - 1):
            raise ProofError(f"batch {epoch} is used before batch {epoch - 1} is used up")
        self._owners[(epoch, index)] = roll
        self._next[epoch] = index + 1


def roll_identity(kind: str, seq: int, payload: dict):
    """What names one roll across the events that show it: a roll's id, a match's id (its
    start shows where the seed's key sits, its end the key), for a hidden value's roll the
    event that shows it (``shows_seq``), else the event itself."""
    if "roll_id" in payload:
        return ("roll", payload["roll_id"])
    if kind.startswith("match_") and "match_id" in payload:
        return ("match", payload["match_id"])
    if kind == "hidden_roll":
        return ("event", payload.get("shows_seq"))
    return ("event", seq)
