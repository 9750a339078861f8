"""A tiny card room per test on a temporary SQLite file, driven through Starlette's client."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from crazy_eights.server import ServerSettings, create_app  # noqa: E402
from crazy_eights.server.auth import COOKIE  # noqa: E402


def fast_settings(path: Path, **overrides: Any) -> ServerSettings:
    values: dict[str, Any] = {
        "database_url": str(path / "room.db"),
        "bot_delay": 0.0,
        "bot_workers": 0,
        "hash_time_cost": 1,
        "hash_memory_kib": 8192,
        "grace_seconds": 60.0,
    }
    values.update(overrides)
    return ServerSettings(**values)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


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
