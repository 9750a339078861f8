"""The real services tests run against (``tests/services.py``, fixtures in ``conftest.py``):
a PostgreSQL database of each test's own, a flushed Redis database, and nginx in front of
the card room passing WebSocket upgrades through."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import websockets.sync.client as wsclient

from .conftest import run_async, worker_number
from .services import CardRoom, Nginx


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


PROXY = """
map $http_upgrade $connection_upgrade { default upgrade; '' close; }
upstream room { server 127.0.0.1:PORT; }
server {
    listen {listen};
    location / {
        proxy_pass http://room;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
    }
}
"""


def test_nginx_passes_the_card_room_and_its_sockets_through(
    nginx: Callable[[str], Nginx], tmp_path: Path
) -> None:
    room = CardRoom(str(tmp_path / "room.db"))
    room.start()
    try:
        proxy = nginx(PROXY.replace("PORT", str(room.port)))
        assert proxy.url != room.url
        assert httpx.get(f"{proxy.url}/api/health").json()["ok"] is True
        with wsclient.connect(f"ws{proxy.url.removeprefix('http')}/ws/lobby") as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "tables"
    finally:
        room.stop()
