"""The Matrix adapter: the host as a Matrix user, with ``matrix-nio`` (the maintained
asyncio client library of Matrix for Python).

It joins the configured rooms (aliases or ids), hands their messages and membership
changes to the host's ``NetworkLink``, says the host's lines as ``m.notice`` (bots do
not ping anyone), and tells each player their hand in a direct room it opens for them.
A user's moderator rights are their power level (50 or more). Messages sent before
the host started are never read as commands. A room the host is kicked or banned
from is left alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import Any

import nio

from .config import MatrixNetwork
from .host import Host, NetworkLink
from .outbox import Line, merge

log = logging.getLogger(__name__)
MODERATOR_LEVEL = 50
MESSAGE_BYTES = 4000
"""The longest message the host sends after merging lines."""


class MatrixAdapter:
    """The host on one Matrix homeserver."""

    def __init__(self, host: Host, network: MatrixNetwork) -> None:
        self.name = f"matrix:{network.homeserver}"
        self.network = network
        self.host = host
        self.client = nio.AsyncClient(network.homeserver, network.user)
        self.link: NetworkLink = host.attach(self, network.rooms)
        self.rooms: dict[str, str] = {}  # room id -> the configured name (alias)
        self.direct: dict[str, str] = {}  # user id -> their direct room's id
        self.direct_users: dict[str, str] = {}  # direct room id -> user id
        self.lost: set[str] = set()
        self.connected = asyncio.Event()
        self._outgoing: asyncio.Queue[Line] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._since_ms = int(time.time() * 1000)

    # -- the host's side ---------------------------------------------------------------

    def send(self, line: Line) -> None:
        """Queue a line; one task sends them in order (a direct room is opened first
        when a person is told something for the first time)."""
        self._outgoing.put_nowait(line)

    def is_moderator(self, channel: str, nick: str) -> bool:
        room_id = next((r for r, name in self.rooms.items() if name == channel.lower()), None)
        room = self.client.rooms.get(room_id or "")
        return room is not None and room.power_levels.get_user_level(nick) >= MODERATOR_LEVEL

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run()), loop.create_task(self._send_all())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.client.close()

    async def _run(self) -> None:
        """Log in, skip the history, join the rooms, then follow the sync stream (nio
        retries a failed sync with its own backoff)."""
        delay = 1.0
        while not self.client.logged_in:
            reply = await self.client.login(self.network.password or "", "chat-host")
            if isinstance(reply, nio.LoginError):
                log.warning("%s: cannot log in: %s", self.name, reply.message)
                await asyncio.sleep(delay)
                delay = min(60.0, delay * 2)
        await self.client.sync(timeout=0, full_state=True)
        self.client.add_event_callback(self._on_message, nio.RoomMessageText)
        self.client.add_event_callback(self._on_member, nio.RoomMemberEvent)
        for name in self.network.rooms:
            joined = await self.client.join(name)
            if isinstance(joined, nio.JoinResponse):
                self.rooms[joined.room_id] = name.lower()
            else:
                log.warning("%s: cannot join %s: %s", self.name, name, joined)
        self.link.outbox.set_connected(True)
        self.connected.set()
        await self.client.sync_forever(timeout=30000)

    async def _send_all(self) -> None:
        """Send the queued lines in order; lines for one place that queued up while a
        message was on its way go out as one message (a Matrix message is long)."""
        while True:
            waiting = deque([await self._outgoing.get()])
            while not self._outgoing.empty():
                waiting.append(self._outgoing.get_nowait())
            while waiting:
                line = merge(waiting, MESSAGE_BYTES)
                try:
                    await self._send(line)
                except Exception:
                    log.exception("%s: a line was not sent", self.name)

    async def _send(self, line: Line) -> None:
        if line.private:
            room_id = self.direct.get(line.target) or await self._open_direct(line.target)
        else:
            room_id = next((r for r, n in self.rooms.items() if n == line.target.lower()), None)
        if room_id is None:
            return
        content = {"msgtype": "m.notice", "body": line.text}
        await self.client.room_send(room_id, "m.room.message", content)

    async def _open_direct(self, user: str) -> str | None:
        reply = await self.client.room_create(
            is_direct=True, invite=[user], preset=nio.RoomPreset.trusted_private_chat
        )
        if not isinstance(reply, nio.RoomCreateResponse):
            log.warning("%s: cannot open a direct room with %s: %s", self.name, user, reply)
            return None
        self.direct[user] = reply.room_id
        self.direct_users[reply.room_id] = user
        return str(reply.room_id)

    # -- what the server says --------------------------------------------------------------

    def _fresh(self, event: Any) -> bool:
        """Whether an event happened after the host started (history is not replayed)."""
        return int(getattr(event, "server_timestamp", 0)) >= self._since_ms

    async def _on_message(self, room: Any, event: Any) -> None:
        if event.sender == self.client.user_id or not self._fresh(event):
            return
        name = self.rooms.get(room.room_id)
        if name is not None:
            await self.link.heard(name, event.sender, event.body)
        elif self.direct_users.get(room.room_id) == event.sender or room.member_count <= 2:
            self.direct.setdefault(event.sender, room.room_id)
            self.direct_users.setdefault(room.room_id, event.sender)
            await self.link.heard(None, event.sender, event.body)

    async def _on_member(self, room: Any, event: Any) -> None:
        if not self._fresh(event):
            return
        name = self.rooms.get(room.room_id)
        if name is None:
            return
        user = event.state_key
        if user == self.client.user_id:
            if event.membership in ("leave", "ban") and event.sender != user:
                self.lost.add(name)
                del self.rooms[room.room_id]
                await self.link.channel_lost(name)
            return
        if event.membership == "join" and event.prev_membership != "join":
            await self.link.joined(name, user)
        elif event.membership in ("leave", "ban"):
            await self.link.left(name, user)
