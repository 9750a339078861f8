"""Table ownership on real servers: leases in Redis, fencing tokens in PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from crazy_eights.engine import Rules
from crazy_eights.server import ServerSettings, db
from crazy_eights.server.records.tables import SqlTableStore
from crazy_eights.server.table.seats import Seat, Seats
from crazy_eights.server.table.store import Fenced, Spec, TableRecord

from ..conftest import run_async


def test_one_lease_per_table_renewed_and_released_only_by_its_holder(redis_url: str) -> None:
    from redis.asyncio import Redis

    from crazy_eights.server.cluster.leases import Leases

    async def main() -> None:
        redis = Redis.from_url(redis_url)
        a, b = Leases(redis, "a", ttl=2), Leases(redis, "b", ttl=2)
        try:
            assert await a.acquire("t1") and not await b.acquire("t1")
            assert await a.owner("t1") == "a"
            assert await b.renew(["t1"]) == ["t1"]  # not b's to renew
            assert await a.renew(["t1"]) == []
            assert await a.acquire("t3")
            assert await a.renew(["t1", "t2", "t3", "t4"]) == ["t2", "t4"]  # one call for all
            await b.release("t1")  # not b's to release
            assert await a.owners(["t1", "t2"]) == ["a", None]
            await a.release("t1")
            assert await b.acquire("t1")
            await a.heartbeat()
            assert await b.alive(["a", "c"]) == {"a": True, "c": False}
        finally:
            await redis.aclose()

    run_async(main())


def record(table_id: str) -> TableRecord:
    return TableRecord(
        id=table_id,
        spec=Spec(
            name="t",
            rules=Rules.preset("classic", players=2),
            public=True,
            hints=False,
            takeover_after=0,
        ),
        seed=1,
        creator=None,
        invite=None,
        status="playing",
        created_at=0.0,
        seats=Seats([Seat(0), Seat(1)]),
    )


def test_a_node_that_lost_the_table_cannot_commit_a_move(postgres_url: str) -> None:
    """Two stores (two nodes) on one database: the newer claim fences the older one out,
    and its tokens only grow, whatever Redis remembers."""

    async def main() -> dict[str, Any]:
        url = ServerSettings(database_url=postgres_url).sqlalchemy_url()
        engines = [db.make_engine(url), db.make_engine(url)]
        await db.migrate(engines[0])
        writers = [db.Writer(e) for e in engines]
        for writer in writers:
            writer.start()
        old, new = (SqlTableStore(e, w) for e, w in zip(engines, writers, strict=True))
        try:
            await old.create(record("t_fence"))
            first = await old.claim("t_fence")
            await old.append_move("t_fence", 0, 0, "draw")
            second = await new.claim("t_fence")
            with pytest.raises(Fenced):
                await old.append_move("t_fence", 1, 1, "draw")
            await new.append_move("t_fence", 1, 1, "pass")
            loaded = await new.load("t_fence")
            assert loaded is not None
            return {"epochs": (first, second), "moves": loaded.moves}
        finally:
            for writer in writers:
                await writer.stop()
            for engine in engines:
                await engine.dispose()

    result = run_async(main())
    assert result["epochs"] == (1, 2)
    assert result["moves"] == [(0, "draw"), (1, "pass")]
