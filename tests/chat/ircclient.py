"""A plain IRC client over asyncio sockets: the "human" side of the chat host's tests.

It speaks just enough of RFC 2812 (NICK, USER, JOIN, PRIVMSG, QUIT, PONG) and keeps
every line it receives, so a test can wait for the line it means (``wait_for``) from
a point it marked before acting (``mark``), and read everything afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[SHDC](?![A-Za-z0-9])|\b(?:BJ|RJ|JK)\b")


@dataclass(frozen=True)
class Msg:
    """A line received: who sent it, the command, its target and text."""

    index: int
    source: str
    command: str
    target: str
    text: str
    at: float = 0.0

    @property
    def private(self) -> bool:
        return not self.target.startswith("#")

    def cards(self) -> set[str]:
        return {
            c.replace("10", "T", 1) if c.startswith("10") else c for c in CARD.findall(self.text)
        }


def parse(index: int, raw: str) -> Msg:
    source = ""
    if raw.startswith(":"):
        prefix, _, raw = raw.partition(" ")
        source = prefix[1:].split("!", 1)[0]
    head, _, trailing = raw.partition(" :")
    parts = head.split()
    command = parts[0] if parts else ""
    target = parts[1] if len(parts) > 1 else ""
    return Msg(index, source, command, target, trailing)


class Person:
    """One person on IRC, by nick."""

    def __init__(self, nick: str, port: int) -> None:
        self.nick = nick
        self.port = port
        self.lines: list[Msg] = []
        self._new = asyncio.Condition()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self.sent: list[tuple[str, str]] = []

    async def connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)
        mark = self.mark()
        self._task = asyncio.get_running_loop().create_task(self._read())
        self.raw(f"NICK {self.nick}")
        self.raw(f"USER {self.nick} 0 * :{self.nick}")
        await self.wait_for(lambda m: m.command == "001", since=mark)

    async def join(self, channel: str) -> None:
        mark = self.mark()
        self.raw(f"JOIN {channel}")
        await self.wait_for(lambda m: m.command == "366", since=mark)

    def raw(self, line: str) -> None:
        assert self._writer is not None
        self._writer.write(line.encode() + b"\r\n")

    def say(self, target: str, text: str) -> None:
        self.sent.append((target, text))
        self.raw(f"PRIVMSG {target} :{text}")

    async def quit(self) -> None:
        """QUIT and wait until the server has closed the connection."""
        self.raw("QUIT :brb")
        if self._task is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._task), 10)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await self._task

    async def _read(self) -> None:
        assert self._reader is not None
        while True:
            raw = await self._reader.readline()
            if not raw:
                return
            text = raw.decode(errors="replace").rstrip("\r\n")
            if text.startswith("PING"):
                self.raw("PONG" + text[4:])
                continue
            now = asyncio.get_running_loop().time()
            async with self._new:
                whole = parse(len(self.lines), text)
                for part in whole.text.split(" | "):  # the host merges lines with " | "
                    self.lines.append(
                        Msg(len(self.lines), whole.source, whole.command, whole.target, part, now)
                    )
                self._new.notify_all()

    def mark(self) -> int:
        return len(self.lines)

    async def wait_for(
        self, pred: Callable[[Msg], bool], since: int = 0, timeout: float = 30.0
    ) -> Msg:
        """The first line from ``since`` on that ``pred`` accepts, waiting for it."""

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
            tail = "\n".join(
                f"{m.source} {m.command} {m.target} :{m.text}" for m in self.lines[-15:]
            )
            raise AssertionError(
                f"{self.nick} waited {timeout} s in vain; last lines:\n{tail}"
            ) from None

    def said_by(self, source: str, since: int = 0) -> list[Msg]:
        return [m for m in self.lines[since:] if m.source == source]
