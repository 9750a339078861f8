"""A tiny card room per test, driven through Starlette's client; every test runs twice:
on a temporary SQLite file and on a fresh PostgreSQL database (``database_url``)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from crazy_eights.server import (  # noqa: E402
    ServerSettings,
    create_app,
    db,
)
from crazy_eights.server.auth import COOKIE  # noqa: E402

from ..conftest import Databases, run_async  # noqa: E402


@pytest.fixture(scope="session")
def postgres_template(postgres_databases: Databases) -> Iterator[str]:
    """A database migrated to the newest schema once, which each test's database copies."""
    url = postgres_databases.create()
    engine = db.make_engine(ServerSettings(database_url=url).sqlalchemy_url())

    async def migrate() -> None:
        await db.migrate(engine)
        await engine.dispose()

    run_async(migrate())
    try:
        yield url.rpartition("/")[2]
    finally:
        postgres_databases.drop(url)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The test's own empty card-room database: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "room.db")
        return
    databases: Databases = request.getfixturevalue("postgres_databases")
    url = databases.create(template=request.getfixturevalue("postgres_template"))
    try:
        yield url
    finally:
        databases.drop(url)


class SettingsFactory(Protocol):
    def __call__(self, **overrides: Any) -> ServerSettings: ...


@pytest.fixture
def fast_settings(database_url: str) -> SettingsFactory:
    """Settings for a quick card room on the test's database; keywords override any field."""

    def make(**overrides: Any) -> ServerSettings:
        values: dict[str, Any] = {
            "database_url": database_url,
            "bot_delay": 0.0,
            "bot_workers": 0,
            "hash_time_cost": 1,
            "hash_memory_kib": 8192,
            "grace_seconds": 60.0,
        }
        values.update(overrides)
        return ServerSettings(**values)

    return make


@pytest.fixture
def client(fast_settings: SettingsFactory) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings())) as test_client:
        yield test_client


@pytest.fixture
def make_client(fast_settings: SettingsFactory) -> Iterator[Any]:
    """Card rooms with settings of the test's own (keywords override any field)."""
    made: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        test_client = TestClient(create_app(fast_settings(**overrides)))
        test_client.__enter__()
        made.append(test_client)
        return test_client

    yield make
    for test_client in made:
        test_client.__exit__(None, None, None)


def guest(client: TestClient) -> tuple[int, str]:
    """A new guest: (account id, session token); the client's own jar is left empty."""
    response = client.post("/api/auth/guest")
    assert response.status_code == 201, response.text
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return response.json()["id"], token


def as_(token: str) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={token}"}


def make_table(client: TestClient, token: str, **body: Any) -> dict[str, Any]:
    body.setdefault("rules", {"ruleset": "classic", "players": 2, "mode": "single"})
    response = client.post("/api/tables", json=body, headers=as_(token))
    assert response.status_code == 201, response.text
    return response.json()


def eventually(check: Callable[[], object], what: str, seconds: float = 30.0) -> None:
    """Wait until ``check()`` holds: a state the server reaches on its own (a bot that
    finishes a game, a grace period that runs out), polled against a deadline rather
    than trusted to come within a fixed sleep; ``what`` names it if it never comes."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.02)


def until(ws: Any, kind: str, **match: Any) -> dict[str, Any]:
    """Read messages until one of type ``kind`` whose fields (or state fields) match."""
    for _ in range(500):
        message = ws.receive_json()
        if message["type"] != kind:
            continue
        fields = message.get("state") or message
        if all(fields.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} message matching {match}")
