"""What the services tell the rest of the project once a change has committed.

The services store changes and know nothing of sockets: the live wing (sessions_app/live/)
listens to these signals and carries each change to the browsers. Each is sent only after
the transaction commits (see `send_on_commit`), so a rolled-back action is never heard of.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# An event was appended to a session's timeline: `event` (a TimelineEvent, its session and
# actor attached) is what committed.
event_committed = Signal()
# A board shown in a session's room (a match) changed: `session_id`, `board_id`, and
# `user_ids` when only those people may notice (a seat's private setting), else None.
board_changed = Signal()
# Something shown in a session's room changed that is no event of it (a character's
# pictures edited on its sheet): `session_id`, and `panels`, the room's panels to show again.
room_panels_changed = Signal()
# A table's experience ledger changed (an award, a correction, a step of a growth):
# `table_id`.
ledger_changed = Signal()
# A membership ended (removed, or left): `table_id`, `user_id`.
membership_ended = Signal()
# Spectating a table stopped, or its link was renewed: `table_id`.
spectating_closed = Signal()


def send_on_commit(signal: Signal, **kwargs) -> None:
    """Send `signal` once the current transaction commits (at once outside one).

    A receiver that fails is logged, never raised: the change itself is stored, and the
    sockets catch up by sequence number.
    """

    def send() -> None:
        for receiver, result in signal.send_robust(sender=None, **kwargs):
            if isinstance(result, Exception):
                logger.error(
                    "%r failed on %r", receiver, kwargs, exc_info=(type(result), result, None)
                )

    transaction.on_commit(send)
