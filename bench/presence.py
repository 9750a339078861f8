"""What one presence change costs (issue 20): 10,000 accounts, 2,000 of them online with
a lobby socket listening, each account with ``--friends`` friends (a symmetric random
graph), on one node and on two.

Builds a SQLite file with the accounts and friendships (the real schema, migrated), then
makes ``Presence`` services over the real ``Friends`` service: one node (``MemoryBus``,
``MemoryPresenceStore``), or with ``--redis URL`` two nodes sharing a Redis server (the
entries in ``RedisPresenceStore``, the bus relayed through Redis pub/sub into each node's
own ``MemoryBus``, as ``cluster/shared.RedisBus`` does), the online people split between
them. It then makes ``--changes`` changes (a person opens a lobby socket, then closes
it: two changes each) one after another, and prints per change: the wall time until
every friend's listener on every node has the message, the bus messages published and
the messages delivered to listeners; then the same with 200 online, to show the cost
does not follow the number online.

    PYTHONPATH=src python bench/presence.py
    PYTHONPATH=src python bench/presence.py --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from crazy_eights.server import db
from crazy_eights.server.bus import MemoryBus
from crazy_eights.server.friends import Friends
from crazy_eights.server.presence import MemoryPresenceStore, Presence, PresenceStore, Where


async def build(path: Path, accounts: int, friends: int, seed: int) -> Friends:
    engine = db.make_engine(f"sqlite+aiosqlite:///{path}")
    await db.migrate(engine)
    rng = random.Random(seed)
    pairs: set[tuple[int, int]] = set()
    for a in range(1, accounts + 1):
        for b in rng.sample(range(1, accounts + 1), friends // 2 + 1):
            if a != b:
                pairs.add((min(a, b), max(a, b)))
    async with engine.begin() as conn:
        await conn.execute(
            db.accounts.insert(),
            [
                {
                    "id": n,
                    "name": f"p{n}",
                    "name_key": f"p{n}",
                    "display_name": f"P{n}",
                    "avatar": "default",
                    "guest": False,
                    "created_at": 0.0,
                }
                for n in range(1, accounts + 1)
            ],
        )
        rows = [{"account_id": a, "friend_id": b, "since": 0.0} for a, b in pairs]
        rows += [{"account_id": b, "friend_id": a, "since": 0.0} for a, b in pairs]
        await conn.execute(db.friends.insert(), rows)
    return Friends(engine)


class RedisRelay:
    """One node's bus over Redis pub/sub, as ``cluster/shared.RedisBus``: messages are
    published in order through one lane (a queue and one writer), and what Redis
    carries is published into this node's own ``MemoryBus``."""

    CHANNEL = "ce:bench:bus:"

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.local = MemoryBus()
        self._lane: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.psubscribe(self.CHANNEL + "*")
        self._tasks = [
            asyncio.create_task(self._relay(pubsub)),
            asyncio.create_task(self._write()),
        ]

    async def _relay(self, pubsub: Any) -> None:
        async for item in pubsub.listen():
            if item["type"] != "pmessage":
                continue
            topic = item["channel"].decode()[len(self.CHANNEL) :]
            self.local.publish(topic, json.loads(item["data"]))

    async def _write(self) -> None:
        while True:
            batch = [await self._lane.get()]
            while not self._lane.empty():
                batch.append(self._lane.get_nowait())
            async with self.redis.pipeline(transaction=False) as pipe:
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        self._lane.put_nowait((self.CHANNEL + topic, json.dumps(message)))

    def subscribe(self, topic: str) -> AsyncIterator[dict[str, Any]]:
        return self.local.subscribe(topic)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()


async def measure(args: argparse.Namespace, online: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        social = await build(Path(folder) / "bench.db", args.accounts, args.friends, args.seed)
        relays: list[RedisRelay] = []
        if args.redis:
            from redis.asyncio import BlockingConnectionPool, Redis

            from crazy_eights.server.cluster.presence import RedisPresenceStore

            pool = BlockingConnectionPool.from_url(args.redis, max_connections=40)
            redis = Redis(connection_pool=pool)
            await redis.flushdb()
            store: PresenceStore = RedisPresenceStore(redis)
            relays = [RedisRelay(redis), RedisRelay(redis)]
            for relay in relays:
                await relay.start()
            nodes = [
                Presence(bus=relay, store=store, social=social, node=f"n{i}")
                for i, relay in enumerate(relays)
            ]
        else:
            bus, store = MemoryBus(), MemoryPresenceStore()
            nodes = [Presence(bus=bus, store=store, social=social)]
        for node in nodes:
            node.start()
        rng = random.Random(args.seed + 1)
        present = rng.sample(range(1, args.accounts + 1), online)
        delivered = [0]
        inbox: dict[int, asyncio.Queue[None]] = {}

        async def listen(node: Presence, account: int) -> None:
            async for _ in node.listen(account):
                delivered[0] += 1
                inbox.setdefault(account, asyncio.Queue()).put_nowait(None)

        # every online person has a lobby socket: a sighting and a listener
        stacks = []
        listeners = []
        for i, account in enumerate(present):
            node = nodes[i % len(nodes)]
            stack = node.connected(account, Where("lobby"))
            await stack.__aenter__()
            stacks.append(stack)
            listeners.append(asyncio.create_task(listen(node, account)))
        for node in nodes:
            await node.settle()
        await asyncio.sleep(0.5)  # the relays catch up with the set-up's messages
        for queue in inbox.values():
            while not queue.empty():
                queue.get_nowait()
        online_set = set(present)
        movers = rng.sample(
            [a for a in range(1, args.accounts + 1) if a not in online_set], args.changes
        )
        times, sent_before, delivered_before = [], sum(n.sent for n in nodes), delivered[0]
        counted: list[int] = []
        for i, account in enumerate(movers):
            node = nodes[i % len(nodes)]
            friends_online = [f for f in await social.friend_ids(account) if f in online_set]
            counted.append(2 * len(friends_online))
            for step in ("open", "close"):
                started = time.perf_counter()
                if step == "open":
                    stack = node.connected(account, Where("lobby"))
                    await stack.__aenter__()
                else:
                    await stack.__aexit__(None, None, None)
                    await node.settle()
                for friend in friends_online:  # every online friend has heard it
                    await inbox.setdefault(friend, asyncio.Queue()).get()
                times.append(time.perf_counter() - started)
        changes = 2 * len(movers)
        waited = sum(counted) / changes
        out = {
            "online": float(online),
            "p50_ms": statistics.median(times) * 1000,
            "p95_ms": statistics.quantiles(times, n=20)[18] * 1000,
            "bus_per_change": (sum(n.sent for n in nodes) - sent_before) / changes,
            "delivered_per_change": (delivered[0] - delivered_before) / changes,
            "friends_online": waited,
        }
        for start in range(0, len(stacks), 50):  # everyone leaves, 50 at a time
            await asyncio.gather(
                *(s.__aexit__(None, None, None) for s in stacks[start : start + 50])
            )
        for node in nodes:
            await node.settle()
        for task in listeners:
            task.cancel()
        for node in nodes:
            await node.stop()
        for relay in relays:
            await relay.stop()
        await social.engine.dispose()
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--online", type=int, default=2_000)
    parser.add_argument("--friends", type=int, default=40, help="friends per account, about")
    parser.add_argument("--changes", type=int, default=200, help="people who come and go")
    parser.add_argument("--redis", help="two nodes over this Redis (else one node)")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    where = "two nodes over Redis" if args.redis else "one node"
    print(f"{args.accounts} accounts, ~{args.friends} friends each, {where}")
    print("online | per change p50 ms | p95 ms | bus messages | deliveries | friends online")
    for online in (args.online, args.online // 10):
        r = asyncio.run(measure(args, online))
        print(
            f"{int(r['online']):>6} | {r['p50_ms']:>17.2f} | {r['p95_ms']:>6.2f} | "
            f"{r['bus_per_change']:>12.2f} | {r['delivered_per_change']:>10.2f} | "
            f"{r['friends_online']:>14.2f}"
        )


if __name__ == "__main__":
    main()
