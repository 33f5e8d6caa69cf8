"""Services: every change goes through one of these functions (HackSoft style).

Each runs in one transaction, validates, and appends timeline events whose broadcast waits
for the commit. Import them from here: ``from sessions_app import services``.
"""

from .tables import (
    InviteError,
    invite_accept,
    invite_create,
    invite_resolve,
    session_create,
    table_create,
    user_signup_and_accept,
)
from .timeline import (
    CHAT_MAX_LENGTH,
    broadcast,
    chat_post,
    presence_enter,
    presence_leave,
    timeline_append,
)

__all__ = [
    "CHAT_MAX_LENGTH",
    "InviteError",
    "broadcast",
    "chat_post",
    "invite_accept",
    "invite_create",
    "invite_resolve",
    "presence_enter",
    "presence_leave",
    "session_create",
    "table_create",
    "timeline_append",
    "user_signup_and_accept",
]
