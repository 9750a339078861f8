"""The real services tests run against (``tests/services.py``, fixtures in ``conftest.py``):
a PostgreSQL database of each test's own, a flushed Redis database, nginx with a given
configuration (the cluster tests put it in front of two card-room nodes)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from .conftest import run_async, worker_number
from .services import Nginx


def test_postgres_url_is_a_new_empty_database(postgres_url: str, postgres_server: str) -> None:
    asyncpg = pytest.importorskip("asyncpg")

    async def look() -> tuple[str, int]:
        conn = await asyncpg.connect(postgres_url)
        try:
            name = await conn.fetchval("SELECT current_database()")
            tables = await conn.fetchval(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            )
            await conn.execute("CREATE TABLE mine (x int)")  # ours to change
            return str(name), int(tables)
        finally:
            await conn.close()

    name, tables = run_async(look())
    assert name.startswith("ce_test_") and name != postgres_server.rpartition("/")[2]
    assert tables == 0


def test_redis_url_is_this_workers_own_empty_database(redis_url: str) -> None:
    redis = pytest.importorskip("redis")
    assert redis_url.endswith(f"/{1 + worker_number()}")
    with redis.Redis.from_url(redis_url) as client:
        assert client.dbsize() == 0
        client.set("greeting", "hello")
        assert client.get("greeting") == b"hello"


def test_nginx_runs_the_given_http_block_on_a_port_of_its_own(
    nginx: Callable[[str], Nginx],
) -> None:
    first = nginx("server { listen {listen}; location / { return 200 'one'; } }")
    second = nginx("server { listen {listen}; location / { return 200 'two'; } }")
    assert first.port != second.port
    assert httpx.get(f"{first.url}/any").text == "one"
    assert httpx.get(second.url).text == "two"
    second.reload("server { listen {listen}; location / { return 204; } }")
    assert all(httpx.get(second.url).status_code == 204 for _ in range(20))
