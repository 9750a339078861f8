"""Hostile clients against a card room: a tiny room per test (SQLite in a temporary folder),
many requests at once from chosen client addresses, and a real ``serve`` process.

Tests about what the database guarantees (unique names, upserts) take ``db_client``,
which runs on SQLite and on a fresh PostgreSQL database (``tests/server/conftest.py``).
"""

from __future__ import annotations

import asyncio
import signal
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from crazy_eights.server import create_app  # noqa: E402

from ..server.conftest import (  # noqa: E402, F401 (fixtures: each database test runs on both)
    SettingsFactory,
    database_url,
    fast_settings,
    postgres_template,
)
from .inprocess import sqlite_settings  # noqa: E402
from .loopback import Server, start_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no schema yet: a SQLite file, or a new empty PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A card room on SQLite, for the findings that are not about the database."""
    with TestClient(create_app(sqlite_settings(tmp_path))) as test_client:
        yield test_client


@pytest.fixture
def db_client(fast_settings: SettingsFactory) -> Iterator[TestClient]:  # noqa: F811
    """A card room on SQLite and on PostgreSQL, for what the database guarantees."""
    with TestClient(create_app(fast_settings(hash_concurrency=4))) as test_client:
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
def server(tmp_path: Path) -> Iterator[Any]:
    """``server(env=...)`` starts a real ``serve`` on a free loopback port (``CE_*``
    variables set as given) and returns its URL; all are stopped afterwards."""
    started: list[Server] = []

    def start(env: dict[str, str] | None = None) -> str:
        db = tmp_path / f"server{len(started)}.db"
        started.append(start_server(db, env=env, bot_workers=0, bot_delay=0.0))
        return started[-1].url

    yield start
    for running in started:
        running.stop(signal.SIGTERM, wait=10)
