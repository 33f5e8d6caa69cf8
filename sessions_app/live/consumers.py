"""The room's websockets: members' and spectators', on one sequenced base.

Live updates arrive rendered (see render.py) in the groups a socket joined for its audience
and its page's language and time zone. A socket forwards them in sequence order and exactly
once. A number that arrives early is held while the ones before it are on their way (from
another worker thread or process); only when they stay missing for GAP_SECONDS, after a
reconnect, or when the room's quiet check finds the session further on (pipe.py) does the
socket read, and then the read is shared with the process's other sockets that need it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import get_supported_language_variant

from .. import rooms
from ..presenters import live
from ..presenters.panels import (
    member_catch_up_panels,
    spectator_catch_up_panels,
    spectator_panels_html,
)
from ..presenters.room import ROOM_TEMPLATE
from ..presenters.spectators import spectator_event_html
from ..selectors.access import is_gm, member_session
from ..selectors.spectators import public_events, spectator_session
from ..selectors.timeline import events_after, session_last_seq
from ..services.spectators import spectator_enter, spectator_leave, spectator_seen
from ..services.timeline import presence_enter, presence_leave, presence_seen
from ..time_zones import TIME_ZONE_COOKIE, zone_from_cookie
from . import pipe, roster
from .hooks import spectators_group
from .presence import presence_heard, presence_soon

logger = logging.getLogger(__name__)

CLOSE_NOT_A_MEMBER = 4403
CLOSE_SIGNED_OUT = 4401
# The role changed (a player made GM): the page reloads to get the other room.
CLOSE_ROLE_CHANGED = 4409

# How long a socket holds a number that came early before it reads the ones it lacks.
GAP_SECONDS = 0.5
# A message still on its way makes the session look ahead for a moment: only what has not
# arrived this long after the quiet check saw it counts as lost.
LATE_SECONDS = 5.0


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


# What a page may say of its place in its socket's address instead of a first message.
PLACE_FIELDS = ("last_seq", "only_board")


def _place_in_address(scope) -> dict | None:
    """The sync a page put in its socket's address (`?last_seq=…` or `?only_board=…`),
    or None when it put none and will send a `sync` message instead. A page that opens
    this way is brought up to date by the connect itself: no first message to check and
    answer, which is one trip to the database fewer for every page that opens."""
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    place = {name: values[-1] for name, values in query.items() if name in PLACE_FIELDS}
    return place or None


def _variant_of(scope) -> live.Variant:
    zone = zone_from_cookie((scope.get("cookies") or {}).get(TIME_ZONE_COOKIE))
    return live.Variant(_language_from_scope(scope), zone.key if zone else "")


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


@dataclass(frozen=True)
class Rendered:
    """Frames read once for an audience and variant, and the state a socket keeps of them:
    the sequence number they bring the page to (a sync), the open checks' keys, the boards."""

    frames: tuple[str, ...]
    cursor: int | None = None
    check_keys: tuple[str, ...] | None = None
    board_ids: tuple[int, ...] | None = None


async def leave_groups(layer, groups: list[str], channel_name: str) -> None:
    """Discard the channel from each group; a failure is logged, and the others go on."""
    for group in groups:
        try:
            await layer.group_discard(group, channel_name)
        except Exception as error:  # noqa: BLE001 - the socket is gone either way
            logger.warning("Leaving group %s failed: %r", group, error)


class SequencedConsumer(AsyncWebsocketConsumer):
    """A socket that follows one session's timeline in sequence order, exactly once.

    Subclasses say who the socket is for (`audience`), which groups it joins, and how its
    missed events and panels are rendered; the order, the waiting for a late number, the
    catch-up after a loss and the quiet check are the same for every kind of socket.
    """

    session_id: int

    def setup(self) -> None:
        loop = asyncio.get_running_loop()
        # Nothing is forwarded before the page says what it already has (in its socket's
        # address, or in a "sync" message).
        self.cursor: int | None = None
        self.early: dict[int, dict] = {}
        self.gap_wait: asyncio.Task | None = None
        self.late_check: asyncio.Task | None = None
        self.panel_version = 0
        self.groups_joined: list[str] = []
        self.catching_up = asyncio.Lock()
        self.variant = _variant_of(self.scope)
        self.last_heard = loop.time()
        self.joined_at = pipe.now()

    # --- Subclasses ----------------------------------------------------------------

    def audience(self) -> tuple:
        """Who this socket's renderings are for: sockets with the same share them."""
        raise NotImplementedError

    def follows(self) -> bool:
        """Whether the socket follows the timeline now (it synced, and is a room page)."""
        return self.cursor is not None

    def _events(self, after_seq: int, up_to_seq: int) -> list[str]:
        """The visible events in (after_seq, up_to_seq], in frames (runs in a worker thread)."""
        raise NotImplementedError

    def _repair(self) -> Rendered:
        """What a socket that lost messages is sent after them: the panels they changed."""
        raise NotImplementedError

    def took(self, rendered: Rendered) -> None:
        """Keep a subclass's own state of what is about to be sent."""

    # --- Joining and leaving -------------------------------------------------------

    async def join_room(self, groups: list[str]) -> None:
        self.groups_joined = groups
        await self._join_groups()
        # Joined first: a read that starts from now on finds everything this socket
        # could not hear, and a shared read that started before is not taken.
        self.joined_at = pipe.now()
        roster.socket_join(self.session_id, self)
        pipe.room_watch(self.session_id)

    async def _join_groups(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave_room(self) -> None:
        """Forget the socket here first, then in its groups: a group the channel layer
        cannot reach now (Redis away, its connections all taken by a storm of closing
        pages) must not leave a closed socket in the room's roster, read for and
        rendered for, nor its presence behind. The layer expires what it kept."""
        roster.socket_leave(self.session_id, self)
        for task in (self.gap_wait, self.late_check):
            if task is not None:
                task.cancel()
        await leave_groups(self.channel_layer, self.groups_joined, self.channel_name)

    # --- The timeline, in order ----------------------------------------------------

    def _heard(self) -> None:
        self.last_heard = asyncio.get_running_loop().time()

    async def room_event(self, message):
        if not self.follows():
            return
        self._heard()
        seq = int(message["seq"])
        async with self.catching_up:
            if seq <= self.cursor:
                return
            self.early[seq] = message
            await self._forward_in_order()
            if self.early and (self.gap_wait is None or self.gap_wait.done()):
                self.gap_wait = asyncio.get_running_loop().create_task(self._wait_for_gap())

    async def _forward_in_order(self) -> None:
        while (message := self.early.pop(self.cursor + 1, None)) is not None:
            self.cursor += 1
            if message["html"]:
                await self.send(text_data=message["html"])
        for seq in [seq for seq in self.early if seq <= self.cursor]:
            del self.early[seq]

    async def _wait_for_gap(self) -> None:
        """Read what is missing only if it stays missing: while numbers keep arriving in
        order, the one that came early is just ahead of the others."""
        cursor = self.cursor
        while True:
            await asyncio.sleep(GAP_SECONDS)
            async with self.catching_up:
                if not self.early:
                    return
                if self.cursor != cursor:
                    cursor = self.cursor
                    continue
                up_to_seq = max(self.early)
                self.early.clear()
                await self._send_events(up_to_seq)
                return

    async def _send_events(self, up_to_seq: int) -> bool:
        """Send the visible events after the cursor up to `up_to_seq`; whether there were any."""
        after_seq = self.cursor
        frames = await pipe.shared(
            ("events", self.session_id, *self.audience(), self.variant, after_seq, up_to_seq),
            lambda: self._events(after_seq, up_to_seq),
            # Committed events do not change: any recent reading of the range will do.
            not_before=0.0,
        )
        self.cursor = max(self.cursor, up_to_seq)
        for html in frames:
            await self.send(text_data=html)
        return bool(frames)

    async def room_panels(self, message):
        if not self.follows() or message["version"] < self.panel_version:
            return
        self.panel_version = message["version"]
        if message["html"]:
            await self.send(text_data=message["html"])
        await self.panels_arrived(message)

    async def panels_arrived(self, message: dict) -> None:
        """A subclass's own part of a panels message."""

    # --- After a loss ----------------------------------------------------------------

    def session_is_at(self, session_seq: int) -> None:
        """The room's quiet check found the session at `session_seq` (pipe.py)."""
        behind = self.follows() and self.cursor < session_seq
        if behind and (self.late_check is None or self.late_check.done()):
            self.late_check = asyncio.get_running_loop().create_task(
                self._catch_up_if_still_behind(session_seq)
            )

    async def _catch_up_if_still_behind(self, session_seq: int) -> None:
        cursor_before = self.cursor
        await asyncio.sleep(LATE_SECONDS)
        async with self.catching_up:
            # Messages still arriving (a busy server) are not lost: reading them again
            # would only add to the load. Only a socket that heard nothing more catches up.
            if self.cursor >= session_seq or self.cursor != cursor_before:
                return
            # A channel the layer expelled from its groups (or a restarted Redis) hears
            # nothing more until it joins them again.
            await self._join_groups()
            repair_from = pipe.now()
            if await self._send_events(session_seq):
                # What changed the panels may be among what was lost.
                repair = await pipe.shared(
                    ("repair", self.session_id, *self.audience(), self.variant, session_seq),
                    self._repair,
                    not_before=repair_from,
                )
                self.took(repair)
                for frame in repair.frames:
                    await self.send(text_data=frame)

    async def pinged(self) -> None:
        # A channel the layer expelled from its groups (a message left unread too long)
        # would hear nothing more: joining again costs nothing if it is still there.
        await self._join_groups()

    def _joined(self, last_seq: int) -> Rendered:
        """What a page holding `last_seq` is sent on sync, its cursor set (worker thread)."""
        raise NotImplementedError

    async def sync(self, message: dict) -> None:
        """Bring the page from the number it holds to now, read once per audience and
        variant for every socket of the process that joined at about the same time."""
        last_seq = _last_seq_of(message)
        async with self.catching_up:
            joined = await pipe.shared(
                ("join", self.session_id, *self.audience(), self.variant, last_seq),
                lambda: self._joined(last_seq),
                not_before=self.joined_at,
            )
            self.took(joined)
            self.cursor = joined.cursor
            self.early.clear()
            for frame in joined.frames:
                await self.send(text_data=frame)
        self._heard()


class SessionConsumer(SequencedConsumer):
    """One member's live connection to one session's room."""

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.user = self.scope.get("user")
        self.setup()
        self.check_keys: list[str] = []
        self.board_ids: list[int] | None = None
        # A match's own page follows its board only, not the room.
        self.only_board: int | None = None
        # An id past any database column is nobody's room (and must not reach the database).
        access = await self._enter() if self.session_id < 2**63 else None
        # Accept, then close with an application code: a browser sees 4403, not a bare 403.
        await self.accept()
        if access is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.is_gm = access
        # Counted present, then joined: an event committed in between is rendered for this
        # socket's audience before the socket is in its groups, and the sync that follows
        # reads it, as it reads everything after the page's last line.
        await self.join_room(
            [
                *live.socket_groups(
                    session_id=self.session_id,
                    user_id=self.user.pk,
                    viewer_is_gm=self.is_gm,
                    variant=self.variant,
                ),
                # Signing out, or leaving the table (member.removed), cuts it off at once.
                live.user_sockets_group(self.user.pk),
            ]
        )
        presence_soon(self.session_id)
        if (place := _place_in_address(self.scope)) is not None:
            await self._sync_page(place)

    async def disconnect(self, code):
        if not self.groups_joined:
            return
        await self.leave_room()
        await database_sync_to_async(presence_leave)(channel_name=self.channel_name)
        presence_soon(self.session_id)

    def audience(self) -> tuple:
        return ("member", self.user.pk, self.is_gm)

    def follows(self) -> bool:
        return self.cursor is not None and self.only_board is None

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
            await self.pinged()
            return
        if message.get("type") == "sync":
            await self._sync_page(message)

    async def _sync_page(self, message: dict):
        if message.get("only_board") is not None:
            try:
                self.only_board = int(message["only_board"])
            except (TypeError, ValueError, OverflowError):
                return
            self.cursor = await database_sync_to_async(session_last_seq)(session_id=self.session_id)
            return
        await self.sync(message)

    def took(self, rendered: Rendered) -> None:
        if rendered.check_keys is not None:
            self.check_keys = list(rendered.check_keys)
        if rendered.board_ids is not None:
            self.board_ids = list(rendered.board_ids)

    def _joined(self, last_seq: int) -> Rendered:
        session_seq = session_last_seq(session_id=self.session_id)
        # A client cannot hold more than exists (a stale tab of a reset database, say);
        # trusting a larger number would silence the socket for good.
        last_seq = min(last_seq, session_seq)
        # The open checks first: the missed events then change only what arrived since.
        check_keys, frames = self._check_list()
        frames += self._events(last_seq, session_seq)
        if last_seq < session_seq:
            # The page missed changes: its panels may be as old as its last line.
            frames.append(self._panels())
        with live.viewing(self.variant):
            frames.append(live.presence_html(self.session_id, viewer=self.user))
            board_ids, boards_html = rooms.render_all(self.session_id, self.user)
            frames.append(
                render_to_string(
                    f"{ROOM_TEMPLATE}#match-list", {"match_boards": boards_html, "oob": True}
                )
            )
        return Rendered(tuple(frames), session_seq, tuple(check_keys), tuple(board_ids))

    # --- What the audiences' groups bring --------------------------------------------

    async def room_event(self, message):
        if self.user.pk in message.get("skip", ()):
            return
        await super().room_event(message)

    async def panels_arrived(self, message: dict) -> None:
        if "checks" in message:
            changes = self._check_changes(message["checks"])
            if changes:
                await self.send(text_data=changes)

    async def room_presence(self, message):
        presence_heard(self.session_id, message)
        if self.follows():
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
        if message["table_id"] == self.table_id:
            await self.close(code=CLOSE_NOT_A_MEMBER)

    async def user_signed_out(self, message):
        await self.close(code=CLOSE_SIGNED_OUT)

    # --- Rendering (in a worker thread) ----------------------------------------------

    def _events(self, after_seq: int, up_to_seq: int) -> list[str]:
        events = list(
            events_after(
                session_id=self.session_id,
                user=self.user,
                is_gm=self.is_gm,
                after_seq=after_seq,
                up_to_seq=up_to_seq,
            )
        )
        with live.viewing(self.variant):
            return live.events_frames(events, viewer=self.user, viewer_is_gm=self.is_gm)

    def _panels(self) -> str:
        session = member_session(user=self.user, session_id=self.session_id)[0]
        with live.viewing(self.variant):
            return live.panels_html(session, self.user, self.is_gm, member_catch_up_panels())

    def _check_list(self) -> tuple[list[str], list[str]]:
        """The whole open-checks list, in frames that stay under the size limit, and its keys."""
        session = member_session(user=self.user, session_id=self.session_id)[0]
        with live.viewing(self.variant):
            items = live.check_items(session, self.user, self.is_gm)
        first, *rest = live.in_frames(html for _key, html in items)
        replaced = (
            f'<ul id="check-items" class="check-items" hx-swap-oob="true">{"".join(first)}</ul>'
        )
        appended = [
            f'<ul id="check-items" hx-swap-oob="beforeend">{"".join(part)}</ul>' for part in rest
        ]
        return [key for key, _html in items], [replaced, *appended]

    def _repair(self) -> Rendered:
        check_keys, frames = self._check_list()
        return Rendered((self._panels(), *frames), check_keys=tuple(check_keys))

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

    def _member_check(self) -> bool | None:
        """Return whether the user is the GM, or None if they may not be in this room."""
        found = member_session(user=self.user, session_id=self.session_id)
        if found is None:
            return None
        session, membership = found
        self.table_id = session.table_id
        return is_gm(membership)

    _access = database_sync_to_async(_member_check)

    @database_sync_to_async
    def _enter(self) -> bool | None:
        """The access check of a socket connecting, and the socket counted present in the
        room when it passes: one trip to the database, not two, for each page that opens."""
        access = self._member_check()
        if access is not None:
            presence_enter(
                session_id=self.session_id,
                user=self.user,
                channel_name=self.channel_name,
                language=self.variant.language,
                time_zone=self.variant.time_zone,
            )
        return access


class SpectatorConsumer(SequencedConsumer):
    """One spectator's live, read-only connection to a room, opened with the table's link.

    It forwards what the spectator audience's group brings (rendered once per language and
    zone, never per socket). The link is checked on connect and on every message; the
    table's GM turning spectating off or renewing the link closes it at once.
    """

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.token = str(kwargs["token"])
        self.session_id = int(kwargs["session_id"])
        self.setup()
        session = await self._session() if self.session_id < 2**63 else None
        await self.accept()
        if session is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        await self.join_room(
            [
                live.room_group(self.session_id, live.SPECTATORS, self.variant),
                spectators_group(table_id=session.table_id),
            ]
        )
        await database_sync_to_async(spectator_enter)(
            session_id=self.session_id,
            channel_name=self.channel_name,
            language=self.variant.language,
            time_zone=self.variant.time_zone,
        )
        roster.presence_changed(self.session_id)
        if (place := _place_in_address(self.scope)) is not None:
            await self.sync(place)

    async def disconnect(self, code):
        if not self.groups_joined:
            return
        await self.leave_room()
        await database_sync_to_async(spectator_leave)(channel_name=self.channel_name)
        roster.presence_changed(self.session_id)

    def audience(self) -> tuple:
        # The link is part of it: a renewed link's sockets never share with the old one's.
        return ("spectator", self.token)

    async def receive(self, text_data=None, bytes_data=None):
        if await self._session() is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        message = _message_of(text_data)
        if message is None:
            return
        if message.get("type") == "ping":
            await database_sync_to_async(spectator_seen)(channel_name=self.channel_name)
            await self.pinged()
        elif message.get("type") == "sync":
            await self.sync(message)

    async def room_board(self, message):
        # A spectator's page shows every board as nobody's seat: the list comes whole.
        if self.follows():
            await self.send(text_data=message["list_html"])

    async def watch_closed(self, message):
        await self.close(code=CLOSE_NOT_A_MEMBER)

    # --- Rendering (in a worker thread) ----------------------------------------------

    def _joined(self, last_seq: int) -> Rendered:
        session_seq = session_last_seq(session_id=self.session_id)
        last_seq = min(last_seq, session_seq)
        frames = self._events(last_seq, session_seq)
        if last_seq < session_seq:
            frames.append(self._panels())
        return Rendered(tuple(frames), session_seq)

    def _events(self, after_seq: int, up_to_seq: int) -> list[str]:
        events = public_events(session_id=self.session_id).filter(
            seq__gt=after_seq, seq__lte=up_to_seq
        )
        with live.viewing(self.variant):
            lines = [spectator_event_html(event) for event in events]
        return [live.timeline_fragment(part) for part in live.in_frames(lines) if part]

    def _panels(self) -> str:
        session = spectator_session(token=self.token, session_id=self.session_id)
        if session is None:
            return ""
        with live.viewing(self.variant):
            return spectator_panels_html(session, spectator_catch_up_panels())

    def _repair(self) -> Rendered:
        return Rendered((self._panels(),))

    @database_sync_to_async
    def _session(self):
        return spectator_session(token=self.token, session_id=self.session_id)
