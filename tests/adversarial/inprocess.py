"""A card room in this process per test (Starlette's test client, a temporary SQLite
file), for the adversarial tests that need no real network."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from crazy_eights.server import ServerSettings, create_app
from tests.server.conftest import as_, guest, make_table, until

__all__ = [
    "as_",
    "guest",
    "make_table",
    "open_table_of_two",
    "room",
    "room_of",
    "served",
    "sqlite_settings",
    "until",
]


def sqlite_settings(folder: Path, **overrides: Any) -> ServerSettings:
    """Settings for a quick card room on a SQLite file in ``folder``."""
    values: dict[str, Any] = {
        "database_url": str(folder / "room.db"),
        "bot_delay": 0.0,
        "bot_workers": 0,
        "hash_time_cost": 1,
        "hash_memory_kib": 8192,
        "grace_seconds": 60.0,
    }
    values.update(overrides)
    return ServerSettings(**values)


@contextlib.contextmanager
def room(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings(tmp_path, **settings))) as client:
        yield client


def served(settings: Any, **overrides: Any) -> TestClient:
    """A card room from a settings factory (``fast_settings``: SQLite and PostgreSQL),
    to use in ``with``: ``with served(fast_settings, analysis_worlds=2) as client``."""
    return TestClient(create_app(settings(**overrides)))


def room_of(client: TestClient) -> Any:
    return client.app.state.room  # type: ignore[attr-defined]


def open_table_of_two(client: TestClient) -> tuple[str, str, str]:
    """An open three-seat table with its creator and one more guest seated: (table id,
    creator's token, other's token)."""
    _, creator = guest(client)
    _, other = guest(client)
    table = make_table(client, creator, rules={"ruleset": "classic", "players": 3})
    client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(other))
    return table["id"], creator, other
