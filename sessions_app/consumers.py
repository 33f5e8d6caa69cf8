"""The session room's websocket: presence, live timeline, and catch-up after a reconnect.

Group messages carry ids only. Each connection renders every event for its own user, so an
event a user may not see is filtered here and its content never reaches that socket.
"""

from __future__ import annotations

import contextlib
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import get_supported_language_variant

from sessions_app.kinds.registry import Panel, panels_changed
from sessions_app.selectors.checks import pending_checks_for
from sessions_app.selectors.timeline import events_after, present_users, session_last_seq
from sessions_app.services.access import is_gm, member_session
from sessions_app.services.tables import member_group
from sessions_app.services.timeline import presence_enter, presence_leave, presence_seen

from . import rooms
from .presenters.stage import stage_context
from .time_zones import TIME_ZONE_COOKIE, zone_from_cookie

CLOSE_NOT_A_MEMBER = 4403

ROOM_TEMPLATE = "sessions_app/session_room.html"
# A client catching up after a long absence gets the missed events in frames of this many:
# the server refuses to send a frame over 1 MiB, and closing the socket instead left that
# client reconnecting, and failing, for good.
EVENTS_PER_FRAME = 100
CHECKS_PER_FRAME = 50  # the same for the open checks a client is sent on connect


def _in_frames(items: list, size: int) -> list[list]:
    """`items` in consecutive parts of at most `size`, one websocket frame each."""
    return [items[start : start + size] for start in range(0, len(items), size)]


class SessionConsumer(AsyncWebsocketConsumer):
    """One member's live connection to one session's room."""

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.user = self.scope.get("user")
        self.group_name = f"session.{self.session_id}"
        # Nothing is sent before the client says what it already has (the "sync" message).
        self.cursor: int | None = None
        # Keys of the open-check items this socket's page shows ("id-mode-status").
        self.check_keys: list[str] = []
        self.language = _language_from_scope(self.scope)
        self.time_zone = zone_from_cookie((self.scope.get("cookies") or {}).get(TIME_ZONE_COOKIE))
        access = await self._access()
        # Accept, then close with an application code: a browser sees 4403, not a bare 403.
        await self.accept()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.is_gm = access
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        # A member removed from the table (or leaving it) is cut off at once, not only at
        # their next message.
        self.member_group = member_group(table_id=self.table_id, user_id=self.user.pk)
        await self.channel_layer.group_add(self.member_group, self.channel_name)
        await database_sync_to_async(presence_enter)(
            session_id=self.session_id, user=self.user, channel_name=self.channel_name
        )

    async def disconnect(self, code):
        if getattr(self, "group_name", None):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            if getattr(self, "member_group", None):
                await self.channel_layer.group_discard(self.member_group, self.channel_name)
            await database_sync_to_async(presence_leave)(channel_name=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        access = await self._access()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.is_gm = access
        try:
            message = json.loads(text_data or "{}")
        except json.JSONDecodeError:
            return
        if not isinstance(message, dict):
            return
        if message.get("type") == "ping":
            await database_sync_to_async(presence_seen)(channel_name=self.channel_name)
            return
        if message.get("type") == "sync":
            try:
                last_seq = max(0, int(message.get("last_seq") or 0))
            except (TypeError, ValueError):
                last_seq = 0
            # A client cannot hold more than exists (a stale tab of a reset database, say);
            # trusting a larger number would silence the socket for good.
            last_seq = min(last_seq, await self._session_last_seq())
            self.cursor = last_seq
            # The open checks first: the missed events then change only what arrived since,
            # rather than sending every open check once more ahead of the whole list.
            for frame in await self._render_check_list():
                await self.send(text_data=frame)
            await self._send_events_after(last_seq, None)
            await self._send_presence()
            await self.send(text_data=await self._render_matches())

    async def member_removed(self, message):
        await self.close(code=CLOSE_NOT_A_MEMBER)

    async def timeline_event(self, message):
        seq = int(message["seq"])
        if self.cursor is None or seq <= self.cursor:
            return
        # Fetch the whole gap, not just this id: events appended in other processes may be
        # announced out of order, and the client must receive them in sequence.
        await self._send_events_after(self.cursor, seq)

    async def board_updated(self, message):
        if self.cursor is not None:
            await self.send(text_data=await self._render_board_update(int(message["board_id"])))

    @contextlib.contextmanager
    def _as_viewer(self):
        """Render in this socket's page language and its browser's time zone."""
        # override(None) is the server's TIME_ZONE: a browser that named no zone.
        with translation.override(self.language), timezone.override(self.time_zone):
            yield

    def _all_boards_html(self) -> str:
        """Every board of the session, each as this connection's seat (or a spectator)."""
        with self._as_viewer():
            self.board_ids, html = rooms.render_all(self.session_id, self.user)
            return render_to_string(
                f"{ROOM_TEMPLATE}#match-list", {"match_boards": html, "oob": True}
            )

    @database_sync_to_async
    def _render_matches(self) -> str:
        return self._all_boards_html()

    @database_sync_to_async
    def _render_board_update(self, board_id: int) -> str:
        """Replace just the board that changed, so a half-made choice on another survives."""
        registered = rooms.boards()
        shown = list(registered.on_show(self.session_id))
        if [board.pk for board in shown] != getattr(self, "board_ids", None):
            return self._all_boards_html()
        changed = next((board for board in shown if board.pk == board_id), None)
        if changed is None:
            return ""
        with self._as_viewer():
            return registered.render(changed, self.user)

    async def presence_changed(self, message):
        if self.cursor is not None:
            await self._send_presence()

    async def _send_events_after(self, after_seq: int, up_to_seq: int | None):
        frames, new_cursor, kinds = await self._render_events(after_seq, up_to_seq)
        if new_cursor is not None:
            self.cursor = max(self.cursor or 0, new_cursor)
        for html in frames:
            await self.send(text_data=html)
        # Each event names the panels it changes. The match boards follow their own
        # "match.updated" messages; handouts and the cast are not live yet.
        panels = panels_changed(kinds)
        if Panel.CHECKS in panels:
            changes = await self._render_check_changes()
            if changes:
                await self.send(text_data=changes)
        if Panel.STAGE in panels:
            await self.send(text_data=await self._render_stage())

    @database_sync_to_async
    def _render_stage(self) -> str:
        """The stage panel as this member sees it (requests they may decide, their own
        characters' buttons); it holds buttons only, so replacing it loses no typing."""
        session = member_session(user=self.user, session_id=self.session_id)[0]
        context = stage_context(session, self.user, self.is_gm)
        with self._as_viewer():
            return render_to_string(
                f"{ROOM_TEMPLATE}#stage",
                {
                    **context,
                    "session": session,
                    "viewer": self.user,
                    "viewer_is_gm": self.is_gm,
                    "oob": True,
                },
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

    @database_sync_to_async
    def _render_events(self, after_seq: int, up_to_seq: int | None):
        events = list(
            events_after(
                session_id=self.session_id,
                user=self.user,
                is_gm=self.is_gm,
                after_seq=after_seq,
                up_to_seq=up_to_seq,
            )
        )
        new_cursor = up_to_seq if up_to_seq is not None else (events[-1].seq if events else None)
        with self._as_viewer():
            frames = [
                render_to_string(
                    f"{ROOM_TEMPLATE}#timeline-append",
                    {"events": part, "viewer": self.user, "viewer_is_gm": self.is_gm},
                )
                for part in _in_frames(events, EVENTS_PER_FRAME)
            ]
        return frames, new_cursor, {event.kind for event in events}

    def _check_context(self):
        items = pending_checks_for(session_id=self.session_id, user=self.user, is_gm=self.is_gm)
        return items, {
            "session": member_session(user=self.user, session_id=self.session_id)[0],
            "viewer": self.user,
            "viewer_is_gm": self.is_gm,
        }

    @staticmethod
    def _key(request, mode) -> str:
        return f"{request.pk}-{mode}-{request.status}"

    @database_sync_to_async
    def _render_check_list(self) -> list[str]:
        """Replace the whole open-checks list (on connect: nothing typed there can be lost).

        The first frame replaces the list with its first items; any further frames append
        the rest, so no frame grows past what the server sends.
        """
        items, context = self._check_context()
        self.check_keys = [self._key(request, mode) for request, mode in items]
        first, *rest = _in_frames(items, CHECKS_PER_FRAME) or [[]]
        with self._as_viewer():
            replaced = render_to_string(
                f"{ROOM_TEMPLATE}#check-list", {**context, "check_items": first, "oob": True}
            )
            return [replaced] + [self._appended_checks(part, context) for part in rest]

    @staticmethod
    def _appended_checks(items, context) -> str:
        rendered = "".join(
            render_to_string(
                "sessions_app/_check_item.html", {**context, "request": request, "mode": mode}
            )
            for request, mode in items
        )
        return f'<ul id="check-items" hx-swap-oob="beforeend">{rendered}</ul>'

    @database_sync_to_async
    def _render_check_changes(self) -> str:
        """Add and remove single items only, so a roller's half-typed modifiers survive."""
        items, context = self._check_context()
        keys = [self._key(request, mode) for request, mode in items]
        gone = [key for key in self.check_keys if key not in keys]
        new = [
            (request, mode)
            for request, mode in items
            if self._key(request, mode) not in self.check_keys
        ]
        self.check_keys = keys
        if not gone and not new:
            return ""
        parts = [
            f'<li id="check-item-{key.split("-")[0]}" hx-swap-oob="delete"></li>' for key in gone
        ]
        if new:
            with self._as_viewer():
                parts.append(self._appended_checks(new, context))
        return "".join(parts)

    async def _send_presence(self):
        html = await self._render_presence()
        await self.send(text_data=html)

    @database_sync_to_async
    def _render_presence(self) -> str:
        with self._as_viewer():
            return render_to_string(
                "sessions_app/session_room.html#presence",
                {
                    "present": present_users(session_id=self.session_id),
                    "viewer": self.user,
                    "oob": True,
                },
            )


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
