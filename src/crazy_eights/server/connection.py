"""A socket's sending side: a bounded outbox drained by a writer task.

A slow client never blocks the table that writes to it: each socket has its own queue,
and one that falls ``OUTBOX`` messages behind is dropped (closed with 1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

log = logging.getLogger(__name__)

OUTBOX = 256  # messages queued for a slow socket before it is dropped

_background: set[asyncio.Task[Any]] = set()


def spawn(coro: Any) -> asyncio.Task[Any]:
    """A background task kept referenced until it ends."""
    task: asyncio.Task[Any] = asyncio.ensure_future(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


class Conn:
    """One open socket; ``send`` never waits (a table's ``transport.Link``)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self._out: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(OUTBOX)
        self._task = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        try:
            self._out.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropping a socket that does not read its messages")
            self.abort(1008)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued have gone out."""
        try:
            self._out.put_nowait((code, reason))
        except asyncio.QueueFull:
            self.abort(code, reason)

    async def finish(self, code: int, reason: str = "") -> None:
        """Close after the queued messages, and wait (briefly) until that is done."""
        self.close(code, reason)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), 2.0)

    def stop(self) -> None:
        """The socket is gone: end the writer, which would otherwise wait for the next
        message forever (a task and a queue kept alive for every socket ever closed)."""
        self._task.cancel()

    def abort(self, code: int, reason: str = "") -> None:
        self._task.cancel()
        if self.ws.application_state is WebSocketState.CONNECTED:
            spawn(close_quietly(self.ws, code, reason))

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                item = await self._out.get()
                while True:
                    if not isinstance(item, str):
                        await close_quietly(self.ws, *item)
                        return
                    await self.ws.send_text(item)
                    if self._out.empty():
                        break
                    item = self._out.get_nowait()


async def close_quietly(ws: WebSocket, code: int, reason: str = "") -> None:
    with contextlib.suppress(Exception):
        await ws.close(code, reason)
