"""Publish/subscribe of JSON-ready messages by topic: the lobby's live updates.

``MemoryBus`` serves one process; in cluster mode the node relays every topic through
Redis into its own ``MemoryBus`` (``cluster.node``), so subscribers are always local.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, Protocol


class Bus(Protocol):
    """Publish/subscribe of JSON-ready messages by topic."""

    def publish(self, topic: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, topic: str) -> AsyncIterator[dict[str, Any]]: ...


class MemoryBus:
    """The in-process bus; a subscriber that falls 1,000 messages behind is dropped."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue[dict[str, Any] | None]]] = {}

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        for queue in list(self._subscribers.get(topic, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self._subscribers[topic].discard(queue)
                with contextlib.suppress(asyncio.QueueFull):
                    queue.get_nowait()
                    queue.put_nowait(None)

    def subscribe(self, topic: str) -> AsyncIterator[dict[str, Any]]:
        """Registered at once, so nothing published after this call is missed."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(1000)
        self._subscribers.setdefault(topic, set()).add(queue)
        return self._drain(topic, queue)

    async def _drain(
        self, topic: str, queue: asyncio.Queue[dict[str, Any] | None]
    ) -> AsyncIterator[dict[str, Any]]:
        try:
            while (message := await queue.get()) is not None:
                yield message
        finally:
            self._subscribers.get(topic, set()).discard(queue)
