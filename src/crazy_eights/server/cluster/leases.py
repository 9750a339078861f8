"""Table ownership: a lease per live table in Redis, and a fencing token per owner.

The owner's node id is the value of ``ce:owner:<table>``, set only if absent and kept
alive by renewing its time to live; a node that stops renewing (killed, cut off) loses
the table when the lease lapses. The lease says who may take a table; the fencing token
that the database checks on every move comes from the database itself
(``SqlTableStore.claim``), so it only ever grows, even if Redis loses every key.
Nodes announce they are alive under ``ce:alive:<node>``. A ``Role`` is a lease of the same
kind on a task one node of the cluster does for all (``ce:role:<name>``: the lobby
listing of the chat hosts' tables, ``hosted.HostedTables``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

PREFIX = "ce:"
RENEW_CHUNK = 1000  # leases renewed by one script call (Redis is busy for its length)
LIVE = PREFIX + "live"  # the ids of every open or running table

# Renew or drop a key only while it still holds our node id.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
# Renew each lease in KEYS that still holds our node id; the positions (1-based) of
# those that do not.
_RENEW_ALL = """
local lost = {}
for i, key in ipairs(KEYS) do
    if redis.call('get', key) ~= ARGV[1] or redis.call('pexpire', key, ARGV[2]) == 0 then
        lost[#lost + 1] = i
    end
end
return lost
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


def owner_key(table_id: str) -> str:
    return f"{PREFIX}owner:{table_id}"


def alive_key(node: str) -> str:
    return f"{PREFIX}alive:{node}"


def role_key(role: str) -> str:
    return f"{PREFIX}role:{role}"


class Leases:
    def __init__(self, redis: Redis, node: str, *, ttl: float) -> None:
        self.redis = redis
        self.node = node
        self.ttl_ms = int(ttl * 1000)
        self._renew = redis.register_script(_RENEW)
        self._renew_all = redis.register_script(_RENEW_ALL)
        self._release = redis.register_script(_RELEASE)

    async def acquire(self, table_id: str) -> bool:
        """Take the lease on a table nobody holds (False: somebody does)."""
        taken = await self.redis.set(owner_key(table_id), self.node, nx=True, px=self.ttl_ms)
        return bool(taken)

    async def renew(self, table_ids: Sequence[str]) -> list[str]:
        """Renew every lease given; answer the tables whose lease is not ours any more.

        One script call renews them all (in chunks of ``RENEW_CHUNK``): a node's
        hundreds of leases every second, one call each, cost it more CPU than the moves
        it carried between nodes."""
        lost: list[str] = []
        for start in range(0, len(table_ids), RENEW_CHUNK):
            chunk = table_ids[start : start + RENEW_CHUNK]
            keys = [owner_key(t) for t in chunk]
            positions = await self._renew_all(keys=keys, args=[self.node, self.ttl_ms])
            lost += [chunk[int(i) - 1] for i in positions]
        return lost

    async def release(self, table_id: str) -> None:
        await self._release(keys=[owner_key(table_id)], args=[self.node])

    async def owner(self, table_id: str) -> str | None:
        value = await self.redis.get(owner_key(table_id))
        return None if value is None else _text(value)

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        if not table_ids:
            return []
        values = await self.redis.mget([owner_key(t) for t in table_ids])
        return [None if v is None else _text(v) for v in values]

    async def heartbeat(self) -> None:
        """Say this node is alive, for half a lease's time to live (a node's round comes
        every second): other nodes soon stop sending to a node that has died."""
        await self.redis.set(alive_key(self.node), "1", px=max(2000, self.ttl_ms // 2))

    async def alive(self, nodes: Sequence[str]) -> dict[str, bool]:
        if not nodes:
            return {}
        values = await self.redis.mget([alive_key(n) for n in nodes])
        return {n: v is not None for n, v in zip(nodes, values, strict=True)}

    def role(self, name: str, *, ttl: float) -> Role:
        """The cluster-wide role ``name``, held by one node at a time (``Role``)."""
        return Role(self, name, ttl)

    async def live_tables(self) -> list[str]:
        return sorted(_text(v) for v in await self.redis.smembers(LIVE))

    async def is_live(self, table_id: str) -> bool:
        return bool(await self.redis.sismember(LIVE, table_id))

    async def add_live(self, *table_ids: str) -> None:
        if table_ids:
            await self.redis.sadd(LIVE, *table_ids)

    async def drop_live(self, table_id: str) -> None:
        await self.redis.srem(LIVE, table_id)


class Role:
    """A task one node does for the whole cluster: the node that asks ``hold`` first
    holds it, and keeps it while it asks again within ``ttl`` seconds; a node that
    stops asking (killed, cut off) loses it when the lease lapses, and the next node to
    ask takes it over. ``let_go`` gives it up at once (a node that stops)."""

    def __init__(self, leases: Leases, name: str, ttl: float) -> None:
        self.leases = leases
        self.key = role_key(name)
        self.ttl_ms = int(ttl * 1000)

    async def hold(self) -> bool:
        """Take the role if nobody holds it, renew it if this node does; False while
        another node holds it."""
        leases = self.leases
        if await leases.redis.set(self.key, leases.node, nx=True, px=self.ttl_ms):
            return True
        return bool(await leases._renew(keys=[self.key], args=[leases.node, self.ttl_ms]))

    async def let_go(self) -> None:
        """Give the role up if this node holds it."""
        await self.leases._release(keys=[self.key], args=[self.leases.node])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
