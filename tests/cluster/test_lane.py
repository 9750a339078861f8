"""The router's lane of writes (``cluster/lane.py``, ``Router.later``) on a real Redis:
commands run in the order they were queued, a burst shares one write, and a connection
the server closed or a failed command costs no later write."""

from __future__ import annotations

import asyncio
import contextlib
import doctest
from collections.abc import AsyncIterator, Callable

from redis.asyncio import Redis

from crazy_eights.server.cluster import lane as lane_module
from crazy_eights.server.cluster import routing
from crazy_eights.server.cluster.lane import Lane
from crazy_eights.server.cluster.redisclient import connect
from crazy_eights.server.cluster.routing import Router, unpack
from crazy_eights.server.metrics import REGISTRY

from ..conftest import run_async


@contextlib.asynccontextmanager
async def _opened(redis_url: str) -> AsyncIterator[tuple[Redis, Lane]]:
    """A client for the test's Redis database and a lane on its pool, both closed after."""
    redis = connect(redis_url)
    lane = Lane(redis.connection_pool)
    try:
        yield redis, lane
    finally:
        await lane.close()
        await redis.aclose()


def _round_trips() -> float:
    return REGISTRY.get_sample_value("ce_redis_round_trips_total") or 0.0


async def _lane_client_id(redis: Redis, lane: Lane) -> int:
    """The Redis client id of the lane's connection (named so it can be found)."""
    await lane.send([("CLIENT", "SETNAME", "lane")])
    clients = await redis.client_list()
    return int(next(c["id"] for c in clients if c["name"] == "lane"))


def test_commands_run_in_order_and_every_reply_is_read(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url) as (redis, lane):
            await lane.send([("RPUSH", "l", str(i)) for i in range(50)])
            await lane.send([("RPUSH", "l", "50"), ("HSET", "h", "f", "v")])
            assert await redis.lrange("l", 0, -1) == [str(i).encode() for i in range(51)]
            assert await redis.hget("h", "f") == b"v"
            # every reply was read: the next command on the same connection gets its own
            await lane.send([("SET", "k", "1")])
            assert await redis.get("k") == b"1"

    run_async(main())


def test_no_reply_is_asked_of_a_publish_and_the_replies_stay_in_step(redis_url: str) -> None:
    """Batches of messages alone, and mixed with commands that answer, leave nothing
    unread on the connection: it is still the same one afterwards (a connection holding
    unread data would be replaced before the next batch)."""

    async def main() -> None:
        async with _opened(redis_url) as (redis, lane):
            first = await _lane_client_id(redis, lane)
            await lane.send([("PUBLISH", "c", "m")] * 20)
            await lane.send([("PUBLISH", "c", "m"), ("SET", "a", "1"), ("PUBLISH", "c", "m")])
            await lane.send([("INCR", "a")])
            assert await redis.get("a") == b"2"
            assert await _lane_client_id(redis, lane) == first

    run_async(main())


def test_doctests() -> None:
    assert doctest.testmod(lane_module).failed == 0


def test_a_connection_the_server_closed_between_batches_loses_nothing(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url) as (redis, lane):
            killed = await _lane_client_id(redis, lane)
            # Redis closes the killed connection before it answers the kill, so the close
            # has reached the lane's socket by the time the answer reaches this one
            assert await redis.client_kill_filter(_id=killed) == 1
            await lane.send([("SET", "after", "yes")])
            assert await redis.get("after") == b"yes"
            assert await _lane_client_id(redis, lane) != killed

    run_async(main())


def test_a_failed_command_raises_and_the_next_batch_goes_through(redis_url: str) -> None:
    async def main() -> None:
        async with _opened(redis_url) as (redis, lane):
            await redis.set("text", "x")
            failed = False
            try:
                await lane.send([("SET", "before", "1"), ("HSET", "text", "f", "v")])
            except Exception as exc:  # WRONGTYPE: the reply is an error
                failed = "WRONGTYPE" in str(exc)
            assert failed
            assert await redis.get("before") == b"1"  # commands before it ran
            await lane.send([("SET", "next", "2")])
            assert await redis.get("next") == b"2"

    run_async(main())


def test_a_burst_of_messages_shares_one_write_and_arrives_in_order(redis_url: str) -> None:
    """Forty messages queued at once leave as one write (one round trip on the metric)
    and a subscriber gets them in the order they were queued."""

    async def main() -> None:
        redis = connect(redis_url)
        router = Router(redis, "n1")
        listener = redis.pubsub(ignore_subscribe_messages=True)
        channel = routing.channels(redis) + "node:n2"
        try:
            await listener.subscribe(channel)
            await router.start()
            router.later("PING")  # the lane's connection made (its handshake is not counted)
            await _until(lambda: router.pending() == 0)
            trips = _round_trips()
            for i in range(40):
                router.to_node("n2", {"k": "test", "i": i}, [f'{{"n":{i}}}'])
            assert router.pending() == 40
            await _until(lambda: router.pending() == 0)
            assert _round_trips() - trips == 1
            got = []
            while len(got) < 40:
                raw = await listener.get_message(timeout=5)
                if raw is not None:
                    got.append(unpack(raw["data"]))
            assert [m["i"] for m in got] == list(range(40))
            assert got[7]["texts"] == ['{"n":7}']
        finally:
            await router.stop()
            await listener.aclose()
            await redis.aclose()

    run_async(main())


async def _until(ready: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait until ``ready()`` is true, polling."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not ready():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)
