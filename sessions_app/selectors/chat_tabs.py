"""Reads of the GM-made chat tabs."""

from __future__ import annotations

from ..models import ChatTab
from ..models.chat import CHAT_TAB_PREFIX


def chat_tabs_open(*, session_id: int) -> list[ChatTab]:
    """The session's tabs on show (not archived), in the tab bar's order."""
    return list(ChatTab.objects.filter(session_id=session_id, archived=False))


def chat_tab_of_channel(*, session_id: int, channel: str) -> ChatTab | None:
    """The open tab of this session whose lines carry `channel`; None for any other value."""
    digits = channel[len(CHAT_TAB_PREFIX) :] if channel.startswith(CHAT_TAB_PREFIX) else ""
    if not digits.isdecimal() or len(digits) > 18:
        return None
    return ChatTab.objects.filter(session_id=session_id, archived=False, pk=int(digits)).first()
