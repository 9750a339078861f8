"""Hostile clients against a card room: a tiny room per test (SQLite in a temporary folder),
many requests at once from chosen client addresses, and a real ``serve`` process.

Tests about what the database guarantees (unique names, upserts) take ``db_client``,
which also runs on PostgreSQL when ``CE_TEST_POSTGRES_URL`` names a server
(``postgresql://user@127.0.0.1:5432/postgres``): each test gets a database of its own.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from crazy_eights.server import create_app  # noqa: E402

from ..server.conftest import fast_settings  # noqa: E402
from ..server.test_persistence import _free_port, _serve  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


POSTGRES = os.environ.get("CE_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if POSTGRES else [])]


async def _admin(statement: str) -> None:
    assert POSTGRES is not None
    connection = await asyncpg.connect(POSTGRES.replace("+asyncpg", ""))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield str(tmp_path / "room.db")
        return
    assert POSTGRES is not None
    name = f"ce_test_{secrets.token_hex(6)}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture
def db_client(tmp_path: Path, database_url: str) -> Iterator[TestClient]:
    settings = fast_settings(tmp_path, database_url=database_url, hash_concurrency=4)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@dataclass(frozen=True)
class Call:
    """One request of a burst, sent from ``address``."""

    method: str
    url: str
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    address: str = "198.51.100.1"


def at_once(client: TestClient, calls: Sequence[Call]) -> list[httpx.Response]:
    """Send every call at the same moment on the app's own event loop; the answers in order."""

    async def one(call: Call) -> httpx.Response:
        transport = httpx.ASGITransport(app=client.app, client=(call.address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            return await http.request(call.method, call.url, json=call.json, headers=call.headers)

    async def burst() -> list[httpx.Response]:
        return list(await asyncio.gather(*(one(call) for call in calls)))

    assert client.portal is not None
    return client.portal.call(burst)


def warm(client: TestClient, connections: int = 5) -> None:
    """Open several pooled database connections first, so a burst's queries overlap
    instead of queueing behind connection set-up."""
    lookups = [Call("GET", "/api/session", headers={"cookie": "ce_session=unknown"})]
    at_once(client, lookups * connections)


def statuses(responses: Sequence[httpx.Response]) -> list[int]:
    return sorted(r.status_code for r in responses)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``server(env=...)`` starts a real ``serve`` on a free loopback port (``CE_*``
    variables set as given) and returns its URL; all are stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(env: dict[str, str] | None = None) -> str:
        with monkeypatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            port = _free_port()
            started.append(_serve(tmp_path / f"server{len(started)}.db", port))
        return f"http://127.0.0.1:{port}"

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
