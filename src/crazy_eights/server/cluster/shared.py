"""The lobby's shared state in cluster mode: its bus relayed through Redis, and the list
of public tables in a Redis hash that every node reads."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from redis.asyncio import Redis

from ..bus import MemoryBus
from ..protocol import TableInfo
from .leases import PREFIX
from .routing import Router

DIRECTORY = PREFIX + "lobby"


class RedisBus:
    """Publishing goes to Redis; every node relays what Redis carries into its own
    ``MemoryBus``, so a subscriber hears every node's messages, in one order."""

    def __init__(self, router: Router) -> None:
        self.router = router
        self.local = MemoryBus()
        router.on_bus = self.local.publish

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        self.router.publish(self.router.bus + topic, message)

    def subscribe(self, topic: str) -> AsyncIterator[dict[str, Any]]:
        return self.local.subscribe(topic)


class RedisDirectory:
    """The lobby's tables as a Redis hash: id -> the table's info as JSON. Changes are
    written in order through the router's lane of writes."""

    def __init__(self, redis: Redis, router: Router) -> None:
        self.redis = redis
        self.router = router

    def put(self, info: TableInfo) -> None:
        text = info.model_dump_json()
        self.router.later("HSET", DIRECTORY, info.id, text)

    def remove(self, table_id: str) -> None:
        self.router.later("HDEL", DIRECTORY, table_id)

    async def listed(self) -> list[TableInfo]:
        entries = await self.redis.hgetall(DIRECTORY)
        out = []
        for raw in entries.values():
            try:
                out.append(TableInfo.model_validate(json.loads(raw)))
            except ValueError:
                continue
        return out

    async def drop(self, table_ids: list[str]) -> None:
        """Remove the entries of tables that are no longer live."""
        if table_ids:
            await self.redis.hdel(DIRECTORY, *table_ids)

    async def ids(self) -> list[str]:
        return [
            k.decode() if isinstance(k, bytes) else str(k)
            for k in await self.redis.hkeys(DIRECTORY)
        ]
