"""A plain Matrix client (matrix-nio) as a scripted person: it keeps every message it
sees as an ``ircclient.Msg`` (the room's alias as the target, its own user id for a
direct room), accepts the host's invitation to a direct room, and waits like the IRC
client does (``mark``, ``wait_for``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import nio

from .ircclient import Msg


class Person:
    """One person on a Matrix homeserver, by user id (``nick``)."""

    def __init__(self, homeserver: str, user: str, password: str) -> None:
        self.nick = user
        self.password = password
        self.client = nio.AsyncClient(homeserver, user)
        self.lines: list[Msg] = []
        self.sent: list[tuple[str, str]] = []
        self.names: dict[str, str] = {}  # room id -> alias
        self._new = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        reply = await self.client.login(self.password)
        assert isinstance(reply, nio.LoginResponse), reply
        await self.client.sync(timeout=0, full_state=True)
        self.client.add_event_callback(self._on_message, (nio.RoomMessageText,))
        self.client.add_event_callback(self._on_message, (nio.RoomMessageNotice,))
        self.client.add_event_callback(self._on_invite, (nio.InviteMemberEvent,))
        self._task = asyncio.get_running_loop().create_task(self.client.sync_forever(timeout=1000))

    async def create_room(self, alias: str) -> str:
        """A public room with the local part of ``alias`` (``#cards:test``)."""
        local = alias.lstrip("#").split(":", 1)[0]
        reply = await self.client.room_create(
            alias=local, visibility=nio.RoomVisibility.public, preset=nio.RoomPreset.public_chat
        )
        assert isinstance(reply, nio.RoomCreateResponse), reply
        self.names[reply.room_id] = alias
        return str(reply.room_id)

    async def join(self, alias: str) -> None:
        reply = await self.client.join(alias)
        assert isinstance(reply, nio.JoinResponse), reply
        self.names[reply.room_id] = alias

    async def leave(self, alias: str) -> None:
        room_id = next(r for r, name in self.names.items() if name == alias)
        reply = await self.client.room_leave(room_id)
        assert isinstance(reply, nio.RoomLeaveResponse), reply

    def say(self, target: str, text: str) -> None:
        """Say ``text`` in the room named ``target``."""
        room_id = next(r for r, name in self.names.items() if name == target)
        self.sent.append((target, text))
        content = {"msgtype": "m.text", "body": text}
        asyncio.get_running_loop().create_task(
            self.client.room_send(room_id, "m.room.message", content)
        )

    async def _on_invite(self, room: Any, event: Any) -> None:
        if event.membership == "invite" and event.state_key == self.client.user_id:
            await self.client.join(room.room_id)

    async def _on_message(self, room: Any, event: Any) -> None:
        target = self.names.get(room.room_id, self.nick)
        kind = "NOTICE" if isinstance(event, nio.RoomMessageNotice) else "PRIVMSG"
        async with self._new:
            for part in event.body.split(" | "):  # the host merges lines with " | "
                now = asyncio.get_running_loop().time()
                self.lines.append(Msg(len(self.lines), event.sender, kind, target, part, now))
            self._new.notify_all()

    def mark(self) -> int:
        return len(self.lines)

    async def wait_for(
        self, pred: Callable[[Msg], bool], since: int = 0, timeout: float = 30.0
    ) -> Msg:
        async def find() -> Msg:
            seen = since
            async with self._new:
                while True:
                    for msg in self.lines[seen:]:
                        if pred(msg):
                            return msg
                    seen = max(seen, len(self.lines))
                    await self._new.wait()

        try:
            return await asyncio.wait_for(find(), timeout)
        except TimeoutError:
            tail = "\n".join(f"{m.source} {m.target} :{m.text}" for m in self.lines[-15:])
            raise AssertionError(f"{self.nick} waited {timeout} s in vain:\n{tail}") from None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.client.close()
