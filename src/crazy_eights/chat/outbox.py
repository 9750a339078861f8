"""What the host says on one network, paced by a token bucket, cut to the network's
line length and merged where one line can say several things."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .limits import TokenBucket

SEPARATOR = " | "


@dataclass(frozen=True)
class Line:
    """One thing to say: in ``target`` (a channel) or to a nick privately."""

    target: str
    text: str
    private: bool = False


def cut(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-8 bytes, cut between words when it can.

    >>> cut("aaa bbb ccc", 7)
    ['aaa bbb', 'ccc']
    """
    out: list[str] = []
    rest = " ".join(text.split())
    while len(rest.encode()) > limit:
        piece = rest.encode()[:limit].decode(errors="ignore")
        space = piece.rfind(" ")
        if rest[len(piece)] != " " and space > 0:  # mid-word: cut at the last space
            piece = piece[:space]
        out.append(piece)
        rest = rest[len(piece) :].lstrip()
    if rest:
        out.append(rest)
    return out


def merge(lines: deque[Line], limit: int) -> Line:
    """Take the first line and the ones after it to the same place that fit with it."""
    first = lines.popleft()
    text = first.text
    while lines and (lines[0].target, lines[0].private) == (first.target, first.private):
        joined = text + SEPARATOR + lines[0].text
        if len(joined.encode()) > limit:
            break
        text = joined
        lines.popleft()
    return Line(first.target, text, first.private)


Send = Callable[[Line], None]


class Outbox:
    """A queue of lines sent by a task at the bucket's pace, while ``connected``; at
    most ``keep`` lines wait (while the network is away the oldest are dropped)."""

    def __init__(self, send: Send, bucket: TokenBucket, limit: int, keep: int = 1000) -> None:
        self._send = send
        self._bucket = bucket
        self._limit = limit
        self._lines: deque[Line] = deque(maxlen=keep)
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.connected = False
        self.sent = 0

    def put(self, lines: Iterable[Line]) -> None:
        """Queue lines, each cut to the limit."""
        for line in lines:
            for piece in cut(line.text, self._limit):
                self._lines.append(Line(line.target, piece, line.private))
        if self._lines:
            self._ready.set()

    def drop(self, target: str) -> None:
        """Forget what was queued for ``target`` (a channel the host left)."""
        kept = [line for line in self._lines if line.target != target]
        self._lines = deque(kept, maxlen=self._lines.maxlen)

    def set_connected(self, connected: bool) -> None:
        self.connected = connected
        if connected and self._lines:
            self._ready.set()

    @property
    def pending(self) -> int:
        return len(self._lines)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _pump(self) -> None:
        while True:
            await self._ready.wait()
            if not self._lines or not self.connected:
                self._ready.clear()
                continue
            wait = self._bucket.wait()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            if not self._bucket.take():
                continue
            line = merge(self._lines, self._limit)
            self._send(line)
            self.sent += 1
