"""Quick play's queue shared by every node of a cluster, in Redis.

Tickets are one hash (account -> the ticket as JSON), so an account waits once in the
whole room. Taking a group out is one Lua script that checks every ticket is still the
one seen and removes them all, or none: whichever node takes a group seats it, and a
node that loses the race seats nobody. So every node may run the window's timer; no
lease is needed for a queue. Where a matched account was seated, and how many match
sockets each account has open, are kept beside the tickets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from redis.asyncio import Redis

from ..lengths import LENGTHS
from ..matchmaking import MATCHED_KEEP, QueueKey, Ticket
from .leases import PREFIX

TICKETS = PREFIX + "match:tickets"
SOCKETS = PREFIX + "match:sockets"
ONLINE = PREFIX + "online"

# KEYS[1]: the tickets hash; ARGV: account, ticket id, ...
_TAKE = """
for i = 1, #ARGV, 2 do
    local raw = redis.call('hget', KEYS[1], ARGV[i])
    if not raw or cjson.decode(raw)['id'] ~= ARGV[i + 1] then
        return 0
    end
end
for i = 1, #ARGV, 2 do
    redis.call('hdel', KEYS[1], ARGV[i])
end
return 1
"""

# KEYS[1]: the sockets hash; ARGV: account, change. A count back at zero is removed.
_COUNT = """
local n = redis.call('hincrby', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then
    redis.call('hdel', KEYS[1], ARGV[1])
end
return n
"""


def matched_key(account: int) -> str:
    return f"{PREFIX}match:matched:{account}"


def to_json(ticket: Ticket) -> str:
    key = ticket.key
    return json.dumps(
        {
            "id": ticket.id,
            "account": ticket.account,
            "name": ticket.name,
            "avatar": ticket.avatar,
            "rating": ticket.rating,
            "key": [key.ruleset, key.players, key.length],
            "joined": ticket.joined,
        }
    )


def from_json(raw: bytes | str) -> Ticket | None:
    """A ticket read back (None for an entry this version cannot read)."""
    try:
        data = json.loads(raw)
        ruleset, players, length = data["key"]
        if length not in LENGTHS:
            return None
        return Ticket(
            id=str(data["id"]),
            account=int(data["account"]),
            name=str(data["name"]),
            avatar=str(data["avatar"]),
            rating=float(data["rating"]),
            key=QueueKey(str(ruleset), int(players), length),
            joined=float(data["joined"]),
        )
    except (ValueError, KeyError, TypeError):
        return None


class RedisQueueStore:
    """``QueueStore`` in Redis, the same on every node."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._take = redis.register_script(_TAKE)
        self._count = redis.register_script(_COUNT)

    async def add(self, ticket: Ticket) -> Ticket:
        if await self.redis.hsetnx(TICKETS, str(ticket.account), to_json(ticket)):
            return ticket
        held = await self.of(ticket.account)
        return held if held is not None else await self.add(ticket)

    async def of(self, account: int) -> Ticket | None:
        raw = await self.redis.hget(TICKETS, str(account))
        return None if raw is None else from_json(raw)

    async def _all(self) -> list[Ticket]:
        entries = cast(dict[Any, Any], await self.redis.hgetall(TICKETS))
        return [t for t in map(from_json, entries.values()) if t is not None]

    async def waiting(self, key: QueueKey) -> list[Ticket]:
        return sorted((t for t in await self._all() if t.key == key), key=_age)

    async def keys(self) -> list[QueueKey]:
        return list({t.key for t in await self._all()})

    async def take(self, tickets: Sequence[Ticket]) -> bool:
        args: list[str] = []
        for ticket in tickets:
            args += [str(ticket.account), ticket.id]
        return bool(await self._take(keys=[TICKETS], args=args))

    async def note_match(self, accounts: Sequence[int], table_id: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for account in accounts:
                pipe.set(matched_key(account), table_id, ex=int(MATCHED_KEEP))
            await pipe.execute()

    async def matched(self, account: int) -> str | None:
        raw = await self.redis.get(matched_key(account))
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    async def sockets(self, account: int, change: int) -> int:
        count = int(await self._count(keys=[SOCKETS], args=[str(account), change]))
        return max(0, count)

    async def online(self, account: int, change: int) -> None:
        await self._count(keys=[ONLINE], args=[str(account), change])

    async def others_online(self, account: int) -> bool:
        """Anyone else's count in the hash (a node that died with sockets open leaves its
        counts behind: then people wait out the window, as before this check)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hlen(ONLINE)
            pipe.hexists(ONLINE, str(account))
            total, mine = await pipe.execute()
        return int(total) > (1 if mine else 0)


def _age(ticket: Ticket) -> tuple[float, str]:
    return (ticket.joined, ticket.id)
