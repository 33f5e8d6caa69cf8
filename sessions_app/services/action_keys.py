"""Actions that must happen once per key: a retried chat line or roll is not done twice.

The page sends a fresh random key with each chat line, roll-box command and check roll. A
connection that drops after the server acted but before the page heard back leaves the
page to send the same form again, key and all: the server then answers with what it stored
(the same roll) instead of acting a second time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from ..models import ActionKey, Roll

_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


@dataclass(frozen=True)
class Repeated:
    """The action had been done with this key already; `roll` is what it rolled, if anything."""

    roll: Roll | None


def action_key_clean(value: Any) -> str:
    """The key a form sent, or "" for none (or anything that is not a key): acts as before."""
    return value if isinstance(value, str) and _KEY.match(value) else ""


def once(*, session_id: int, user, key: Any, action: Callable[[], Any]) -> Any:
    """Run `action` unless this user already ran an action with `key` in this session.

    `key` is what the form sent: anything that is not a key acts as no key (as before).

    The key is claimed in the action's own transaction, after the action and with what it
    rolled (one statement): an action that is refused (and raises) leaves the key free for
    the corrected retry, and a repeat whose claim fails takes its whole action back with it.
    """
    key = action_key_clean(key)
    if not key:
        return action()
    try:
        with transaction.atomic():
            result = action()
            ActionKey.objects.create(
                session_id=session_id,
                user=user,
                key=key,
                roll=result if isinstance(result, Roll) else None,
            )
            return result
    except IntegrityError:
        earlier = (
            ActionKey.objects.filter(session_id=session_id, user=user, key=key)
            .select_related("roll")
            .first()
        )
        if earlier is None:
            raise
        return Repeated(roll=earlier.roll)
