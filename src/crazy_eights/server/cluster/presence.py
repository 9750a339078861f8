"""Presence in cluster mode: each node's entry for a person in one Redis hash per person
(``ce:presence:<account>``: node -> ``{status, table, at}`` as JSON), so any node reads a
person's presence with one command. Entries are renewed by their node's sweep; a dead
node's go stale (``presence.STALE_SECONDS``) and the hash expires when nobody renews it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

from ..presence import STALE_SECONDS
from .leases import PREFIX


def presence_key(account: int) -> str:
    return f"{PREFIX}presence:{account}"


class RedisPresenceStore:
    """``presence.PresenceStore`` on Redis."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def put(self, account: int, node: str, entry: dict[str, Any] | None) -> None:
        key = presence_key(account)
        if entry is None:
            await self.redis.hdel(key, node)
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, node, json.dumps(entry, separators=(",", ":")))
            pipe.pexpire(key, int(2 * STALE_SECONDS * 1000))
            await pipe.execute()

    async def entries(self, accounts: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        if not accounts:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for account in accounts:
                pipe.hvals(presence_key(account))
            answers = await pipe.execute()
        out: dict[int, list[dict[str, Any]]] = {}
        for account, values in zip(accounts, answers, strict=True):
            out[account] = []
            for raw in values:
                try:
                    out[account].append(json.loads(raw))
                except ValueError:
                    continue
        return out
