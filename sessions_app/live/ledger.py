"""The experience page's websocket: a member's ledger at one table, kept live.

An award, a correction or a step of a growth at the table is announced to the table's
group once it commits; each open experience page then gets its own ledger again, rendered
for its member (a balance is one person's, so there is no shared rendering to reuse, and
the page changes a few times a session, not per action). Membership is checked on connect
and on every message; a member removed or signed out is closed at once, as in the room.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from ..models import Table
from ..presenters import live
from ..presenters.afterplay import LEDGER_TEMPLATE, ledger_context
from ..selectors.access import is_gm
from ..selectors.tables import membership_get
from ..time_zones import TIME_ZONE_COOKIE, zone_from_cookie
from .consumers import (
    CLOSE_NOT_A_MEMBER,
    CLOSE_ROLE_CHANGED,
    CLOSE_SIGNED_OUT,
    _language_from_scope,
    _message_of,
    _place_in_address,
    leave_groups,
)
from .hooks import ledger_group


class LedgerConsumer(AsyncWebsocketConsumer):
    """One member's live connection to their experience page at one table."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.groups_joined: list[str] = []
        zone = zone_from_cookie((self.scope.get("cookies") or {}).get(TIME_ZONE_COOKIE))
        self.variant = live.Variant(_language_from_scope(self.scope), zone.key if zone else "")
        access = await self._access() if self.table_id < 2**63 else None
        await self.accept()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.is_gm = access
        self.groups_joined = [
            ledger_group(self.table_id),
            live.user_sockets_group(self.user.pk),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        # A page that says where it is in its socket's address is brought up to date now, as
        # a room's is; the ledger is sent whole, so the place itself does not matter.
        if _place_in_address(self.scope) is not None:
            await self.send(text_data=await self._render())

    async def disconnect(self, code):
        await leave_groups(self.channel_layer, self.groups_joined, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        access = await self._access()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        if access != self.is_gm:
            # Made GM (or no longer): the page reloads to show what is theirs now.
            await self.close(code=CLOSE_ROLE_CHANGED)
            return
        message = _message_of(text_data)
        # The page's "sync" on (re)connecting: what changed while it was away is sent now.
        if message is not None and message.get("type") == "sync":
            await self.send(text_data=await self._render())

    async def ledger_changed(self, message):
        await self.send(text_data=await self._render())

    async def member_removed(self, message):
        if message["table_id"] == self.table_id:
            await self.close(code=CLOSE_NOT_A_MEMBER)

    async def user_signed_out(self, message):
        await self.close(code=CLOSE_SIGNED_OUT)

    @database_sync_to_async
    def _render(self) -> str:
        table = Table.objects.select_related("gm").get(pk=self.table_id)
        with live.viewing(self.variant):
            context = {**ledger_context(table, self.user, self.is_gm), "oob": True}
            return render_to_string(f"{LEDGER_TEMPLATE}#ledger", context)

    @database_sync_to_async
    def _access(self) -> bool | None:
        """Return whether the user is the table's GM, or None if they are not a member."""
        if self.user is None or not self.user.is_authenticated:
            return None
        membership = membership_get(user=self.user, table_id=self.table_id)
        return None if membership is None else is_gm(membership)
