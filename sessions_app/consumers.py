"""The session room's websocket: presence, live timeline, panels, and catch-up after a reconnect.

Live updates arrive rendered: each event and each changed panel is rendered once per
audience (see presenters/live.py) and sent to that audience's groups, which this consumer
joined for its user's role, its user and its page's language and time zone. It only
forwards them, in sequence order and exactly once. It reads the database itself only to
catch up: on connect, when a message arrives after a gap, and when the room goes quiet with
the session further on than this socket (a group message the channel layer dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import get_supported_language_variant

from sessions_app.kinds.registry import Panel
from sessions_app.presenters import live
from sessions_app.presenters.room import ROOM_TEMPLATE
from sessions_app.presenters.spectators import (
    ALL_SPECTATOR_PANELS,
    spectator_event_html,
    spectator_panels_html,
)
from sessions_app.selectors.spectators import public_events, spectator_session
from sessions_app.selectors.timeline import events_after, session_last_seq
from sessions_app.services.access import is_gm, member_session
from sessions_app.services.spectators import (
    spectator_enter,
    spectator_leave,
    spectator_seen,
    spectators_group,
)
from sessions_app.services.tables import member_group
from sessions_app.services.timeline import presence_enter, presence_leave, presence_seen

from . import live_delivery, rooms
from .time_zones import TIME_ZONE_COOKIE, zone_from_cookie

CLOSE_NOT_A_MEMBER = 4403
CLOSE_SIGNED_OUT = 4401
# The role changed (a player made GM): the page reloads to get the other room.
CLOSE_ROLE_CHANGED = 4409

# After this long without a live message, the socket compares its place with the session's:
# a group message the channel layer dropped is noticed without waiting for another event.
QUIET_SECONDS = 5.0
QUIET_CHECK_LONGEST = 60.0
LATE_SECONDS = 5.0
ALL_PANELS = (Panel.STAGE, Panel.HANDOUTS, Panel.CAST)


def _message_of(text_data) -> dict | None:
    """The page's message as a dict; None for anything else (it is ignored)."""
    try:
        message = json.loads(text_data or "{}")
    except json.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None


def _last_seq_of(message: dict) -> int:
    """The last sequence number the page holds; 0 when it sent none or nonsense."""
    try:
        return max(0, int(message.get("last_seq") or 0))
    except (TypeError, ValueError, OverflowError):
        return 0


class SessionConsumer(AsyncWebsocketConsumer):
    """One member's live connection to one session's room."""

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.user = self.scope.get("user")
        # Nothing is forwarded before the client says what it already has ("sync").
        self.cursor: int | None = None
        self.check_keys: list[str] = []
        self.board_ids: list[int] | None = None
        self.panel_version = 0
        # A match's own page follows its board only, not the room.
        self.only_board: int | None = None
        self.groups_joined: list[str] = []
        self.quiet_check: asyncio.Task | None = None
        self.catching_up = asyncio.Lock()
        zone = zone_from_cookie((self.scope.get("cookies") or {}).get(TIME_ZONE_COOKIE))
        self.variant = live.Variant(_language_from_scope(self.scope), zone.key if zone else "")
        # An id past any database column is nobody's room (and must not reach the database).
        access = await self._access() if self.session_id < 2**63 else None
        # Accept, then close with an application code: a browser sees 4403, not a bare 403.
        await self.accept()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.is_gm = access
        self.groups_joined = [
            *live.socket_groups(
                session_id=self.session_id,
                user_id=self.user.pk,
                viewer_is_gm=self.is_gm,
                variant=self.variant,
            ),
            # A member removed from the table (or leaving it) is cut off at once.
            member_group(table_id=self.table_id, user_id=self.user.pk),
            live.user_sockets_group(self.user.pk),
        ]
        await self._join_groups()
        # Joined first, then counted present: an event committed from now on is rendered
        # for this socket's audience, and one before it is read by the sync.
        await database_sync_to_async(presence_enter)(
            session_id=self.session_id,
            user=self.user,
            channel_name=self.channel_name,
            language=self.variant.language,
            time_zone=self.variant.time_zone,
        )
        live_delivery.presence_soon(self.session_id)

    async def _join_groups(self):
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        if self.quiet_check is not None:
            self.quiet_check.cancel()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "groups_joined", None):
            await database_sync_to_async(presence_leave)(channel_name=self.channel_name)
            live_delivery.presence_soon(self.session_id)

    async def receive(self, text_data=None, bytes_data=None):
        access = await self._access()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        if access != self.is_gm:
            await self.close(code=CLOSE_ROLE_CHANGED)
            return
        message = _message_of(text_data)
        if message is None:
            return
        if message.get("type") == "ping":
            await database_sync_to_async(presence_seen)(channel_name=self.channel_name)
            # A channel the layer expelled from its groups (a message left unread too long)
            # would hear nothing more: joining again costs nothing if it is still there.
            await self._join_groups()
            await self._check_place()
            return
        if message.get("type") == "sync":
            await self._sync_page(message)

    async def _sync_page(self, message: dict):
        if message.get("only_board") is not None:
            try:
                self.only_board = int(message["only_board"])
            except (TypeError, ValueError, OverflowError):
                return
            self.cursor = await self._session_last_seq()
            return
        last_seq = _last_seq_of(message)
        async with self.catching_up:
            session_seq = await self._session_last_seq()
            # A client cannot hold more than exists (a stale tab of a reset database, say);
            # trusting a larger number would silence the socket for good.
            last_seq = min(last_seq, session_seq)
            self.cursor = last_seq
            # The open checks first: the missed events then change only what arrived since.
            for frame in await self._render_check_list():
                await self.send(text_data=frame)
            await self._send_events_after(last_seq)
            if last_seq < session_seq:
                # The page missed changes: its panels may be as old as its last line.
                await self.send(text_data=await self._render_panels())
            await self.send(text_data=await self._render_presence())
            await self.send(text_data=await self._render_matches())
        self._arm_quiet_check()

    # --- What the audiences' groups bring --------------------------------------------

    async def room_event(self, message):
        if self.user.pk in message.get("skip", ()):
            return
        if self.cursor is None or self.only_board is not None:
            return
        seq = int(message["seq"])
        async with self.catching_up:
            if seq <= self.cursor:
                return
            if seq == self.cursor + 1:
                self.cursor = seq
                if message["html"]:
                    await self.send(text_data=message["html"])
            else:
                # Something before this one has not arrived (another process's event still
                # on its way, or a dropped message): read the whole gap, in order.
                await self._send_events_after(self.cursor, seq)
        self._arm_quiet_check()

    async def room_panels(self, message):
        if self.cursor is None or self.only_board is not None:
            return
        if message["version"] < self.panel_version:
            return
        self.panel_version = message["version"]
        if message["html"]:
            await self.send(text_data=message["html"])
        if "checks" in message:
            changes = self._check_changes(message["checks"])
            if changes:
                await self.send(text_data=changes)

    async def room_presence(self, message):
        if self.cursor is not None and self.only_board is None:
            await self.send(text_data=message["html"])

    async def room_board(self, message):
        if self.cursor is None:
            return
        if self.only_board is not None:
            if message["board_id"] == self.only_board and message["html"]:
                await self.send(text_data=message["html"])
            return
        if message["shown"] != self.board_ids:
            self.board_ids = list(message["shown"])
            await self.send(text_data=message["list_html"])
        elif message["html"]:
            await self.send(text_data=message["html"])

    async def member_removed(self, message):
        await self.close(code=CLOSE_NOT_A_MEMBER)

    async def user_signed_out(self, message):
        await self.close(code=CLOSE_SIGNED_OUT)

    # --- Catching up -------------------------------------------------------------------

    def _arm_quiet_check(self):
        if self.quiet_check is not None:
            self.quiet_check.cancel()
        self.quiet_check = asyncio.get_running_loop().create_task(self._when_quiet())

    async def _when_quiet(self):
        # Soon after the last message, then less and less often while the room stays quiet.
        delay = QUIET_SECONDS
        while True:
            await asyncio.sleep(delay)
            await self._check_place()
            delay = min(delay * 2, QUIET_CHECK_LONGEST)

    async def _check_place(self):
        """Read what this socket missed if the session stays further on than it is.

        A message still on its way makes the session look ahead for a moment: only what
        has not arrived after LATE_SECONDS more counts as lost.
        """
        if self.cursor is None or self.only_board is not None:
            return
        session_seq = await self._session_last_seq()
        if session_seq <= self.cursor:
            return
        cursor_before = self.cursor
        await asyncio.sleep(LATE_SECONDS)
        async with self.catching_up:
            # Messages still arriving (a busy server) are not lost: reading them again
            # would only add to the load. Only a socket that heard nothing more catches up.
            if self.cursor >= session_seq or self.cursor != cursor_before:
                return
            await self._join_groups()
            if await self._send_events_after(self.cursor):
                # What changed the panels may be among what was lost.
                await self.send(text_data=await self._render_panels())
                for frame in await self._render_check_list():
                    await self.send(text_data=frame)

    async def _send_events_after(self, after_seq: int, up_to_seq: int | None = None) -> bool:
        """Send the visible events after `after_seq`; whether there were any."""
        frames, new_cursor = await self._render_events(after_seq, up_to_seq)
        if new_cursor is not None:
            self.cursor = max(self.cursor or 0, new_cursor)
        for html in frames:
            await self.send(text_data=html)
        return bool(frames)

    @contextlib.contextmanager
    def _as_viewer(self):
        with live.viewing(self.variant):
            yield

    @database_sync_to_async
    def _render_events(self, after_seq: int, up_to_seq: int | None):
        if up_to_seq is None:
            # Read first: an event committed after this read is not in the list below, and
            # its own message, still to come, must not find the cursor already past it.
            # Invisible events up to here count as read too.
            up_to_seq = session_last_seq(session_id=self.session_id)
        events = list(
            events_after(
                session_id=self.session_id,
                user=self.user,
                is_gm=self.is_gm,
                after_seq=after_seq,
                up_to_seq=up_to_seq,
            )
        )
        with self._as_viewer():
            frames = live.events_frames(events, viewer=self.user, viewer_is_gm=self.is_gm)
        return frames, up_to_seq

    @database_sync_to_async
    def _render_panels(self) -> str:
        session = member_session(user=self.user, session_id=self.session_id)[0]
        with self._as_viewer():
            return live.panels_html(session, self.user, self.is_gm, ALL_PANELS)

    @database_sync_to_async
    def _render_check_list(self) -> list[str]:
        """Replace the whole open-checks list, in frames that stay under the size limit."""
        session = member_session(user=self.user, session_id=self.session_id)[0]
        with self._as_viewer():
            items = live.check_items(session, self.user, self.is_gm)
        self.check_keys = [key for key, _html in items]
        first, *rest = live.in_frames(html for _key, html in items)
        replaced = (
            f'<ul id="check-items" class="check-items" hx-swap-oob="true">{"".join(first)}</ul>'
        )
        appended = [
            f'<ul id="check-items" hx-swap-oob="beforeend">{"".join(part)}</ul>' for part in rest
        ]
        return [replaced, *appended]

    def _check_changes(self, items: list[list[str]]) -> str:
        """Add and remove single items only, so a roller's half-typed modifiers survive."""
        keys = [key for key, _html in items]
        gone = [key for key in self.check_keys if key not in keys]
        new = [html for key, html in items if key not in self.check_keys]
        self.check_keys = keys
        parts = [
            f'<li id="check-item-{key.split("-")[0]}" hx-swap-oob="delete"></li>' for key in gone
        ]
        if new:
            parts.append(f'<ul id="check-items" hx-swap-oob="beforeend">{"".join(new)}</ul>')
        return "".join(parts)

    @database_sync_to_async
    def _render_presence(self) -> str:
        with self._as_viewer():
            return live.presence_html(self.session_id, viewer=self.user)

    @database_sync_to_async
    def _render_matches(self) -> str:
        """Every board of the session, each as this connection's seat (or a spectator)."""
        with self._as_viewer():
            self.board_ids, html = rooms.render_all(self.session_id, self.user)
            return render_to_string(
                f"{ROOM_TEMPLATE}#match-list", {"match_boards": html, "oob": True}
            )

    @database_sync_to_async
    def _access(self) -> bool | None:
        """Return whether the user is the GM, or None if they may not be in this room."""
        found = member_session(user=self.user, session_id=self.session_id)
        if found is None:
            return None
        session, membership = found
        self.table_id = session.table_id
        return is_gm(membership)

    @database_sync_to_async
    def _session_last_seq(self) -> int:
        return session_last_seq(session_id=self.session_id)


def _language_from_scope(scope) -> str:
    """Pick the language the page was rendered in: the language cookie, else Accept-Language."""
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies") or {}
    candidates = []
    if cookies.get(settings.LANGUAGE_COOKIE_NAME):
        candidates.append(cookies[settings.LANGUAGE_COOKIE_NAME])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for part in accept.split(","):
        code = part.split(";")[0].strip()
        if code and code != "*":
            candidates.append(code)
    for code in candidates:
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class SpectatorConsumer(AsyncWebsocketConsumer):
    """One spectator's live, read-only connection to a room, opened with the table's link.

    It forwards what the spectator audience's group brings (rendered once per language and
    zone, never per socket) and reads the public events itself only to catch up. The link
    is checked on connect and on every message; the table's GM turning spectating off or
    renewing the link closes it at once.
    """

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.token = str(kwargs["token"])
        self.session_id = int(kwargs["session_id"])
        self.cursor: int | None = None
        self.panel_version = 0
        self.groups_joined: list[str] = []
        self.catching_up = asyncio.Lock()
        zone = zone_from_cookie((self.scope.get("cookies") or {}).get(TIME_ZONE_COOKIE))
        self.variant = live.Variant(_language_from_scope(self.scope), zone.key if zone else "")
        session = await self._session()
        await self.accept()
        if session is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.groups_joined = [
            live.room_group(self.session_id, live.SPECTATORS, self.variant),
            spectators_group(table_id=session.table_id),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_sync_to_async(spectator_enter)(
            session_id=self.session_id,
            channel_name=self.channel_name,
            language=self.variant.language,
            time_zone=self.variant.time_zone,
        )

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.groups_joined:
            await database_sync_to_async(spectator_leave)(channel_name=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if await self._session() is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        message = _message_of(text_data)
        if message is None:
            return
        if message.get("type") == "ping":
            await database_sync_to_async(spectator_seen)(channel_name=self.channel_name)
            await self._catch_up()
        elif message.get("type") == "sync":
            last_seq = _last_seq_of(message)
            async with self.catching_up:
                session_seq = await self._session_last_seq()
                self.cursor = min(last_seq, session_seq)
                behind = self.cursor < session_seq
                await self._send_events_after(self.cursor)
                if behind:
                    await self.send(text_data=await self._render_panels())

    async def _catch_up(self):
        if self.cursor is None:
            return
        async with self.catching_up:
            if await self._send_events_after(self.cursor):
                await self.send(text_data=await self._render_panels())

    async def room_event(self, message):
        if self.cursor is None:
            return
        seq = int(message["seq"])
        async with self.catching_up:
            if seq <= self.cursor:
                return
            if seq == self.cursor + 1:
                self.cursor = seq
                if message["html"]:
                    await self.send(text_data=message["html"])
            else:
                await self._send_events_after(self.cursor, seq)

    async def room_panels(self, message):
        if self.cursor is None or message["version"] < self.panel_version:
            return
        self.panel_version = message["version"]
        if message["html"]:
            await self.send(text_data=message["html"])

    async def watch_closed(self, message):
        await self.close(code=CLOSE_NOT_A_MEMBER)

    async def _send_events_after(self, after_seq: int, up_to_seq: int | None = None) -> bool:
        frames, new_cursor = await self._render_events(after_seq, up_to_seq)
        self.cursor = max(self.cursor or 0, new_cursor)
        for html in frames:
            await self.send(text_data=html)
        return bool(frames)

    @database_sync_to_async
    def _render_events(self, after_seq: int, up_to_seq: int | None):
        if up_to_seq is None:
            up_to_seq = session_last_seq(session_id=self.session_id)
        events = public_events(session_id=self.session_id).filter(
            seq__gt=after_seq, seq__lte=up_to_seq
        )
        with live.viewing(self.variant):
            lines = [spectator_event_html(event) for event in events]
        return [live.timeline_fragment(part) for part in live.in_frames(lines) if part], up_to_seq

    @database_sync_to_async
    def _render_panels(self) -> str:
        session = spectator_session(token=self.token, session_id=self.session_id)
        if session is None:
            return ""
        with live.viewing(self.variant):
            return spectator_panels_html(session, ALL_SPECTATOR_PANELS)

    @database_sync_to_async
    def _session(self):
        return spectator_session(token=self.token, session_id=self.session_id)

    @database_sync_to_async
    def _session_last_seq(self) -> int:
        return session_last_seq(session_id=self.session_id)
