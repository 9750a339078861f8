"""Finding 4: account creation is throttled per client address, and password hashing
(argon2id, 64 MiB each by default) runs a bounded number at a time, so a burst queues
instead of exhausting memory and stalling everyone else."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from crazy_eights.server import create_app

from .conftest import Call, at_once, sqlite_settings


def test_a_guest_burst_from_one_address_is_throttled(client: TestClient) -> None:
    answers = [client.post("/api/auth/guest") for _ in range(60)]
    created = sum(r.status_code == 201 for r in answers)
    refused = [r for r in answers if r.status_code == 429]
    assert 0 < created <= 30 and len(refused) == 60 - created
    assert refused[0].json()["error"] == "throttled"
    assert int(refused[0].headers["retry-after"]) > 0
    # another address is not affected
    other = at_once(client, [Call("POST", "/api/auth/guest", address="203.0.113.5")])
    assert other[0].status_code == 201


def test_registrations_and_guests_share_the_budget(client: TestClient) -> None:
    burst = [
        Call("POST", "/api/auth/register", {"name": f"burst{i}", "password": "password-1"})
        for i in range(40)
    ]
    answers = at_once(client, burst)
    assert {r.status_code for r in answers} == {201, 429}
    assert client.post("/api/auth/guest").status_code == 201  # the test client's own address
    again = at_once(client, [Call("POST", "/api/auth/guest")])
    assert again[0].status_code == 429


class Counting:
    """Wraps argon2's hash to count how many run at the same moment (each made slow)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = self.most = 0
        self.original = PasswordHasher.hash

    def hash(self, hasher: PasswordHasher, password: str | bytes, **kw: Any) -> str:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(0.1)
            return self.original(hasher, password, **kw)
        finally:
            with self.lock:
                self.now -= 1


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counting]:
    counter = Counting()

    def counted(hasher: PasswordHasher, password: str | bytes, **kw: Any) -> str:
        return counter.hash(hasher, password, **kw)

    monkeypatch.setattr(PasswordHasher, "hash", counted)
    yield counter


def registrations(count: int) -> list[Call]:
    return [
        Call(
            "POST",
            "/api/auth/register",
            {"name": f"parallel{i}", "password": "password-1"},
            address=f"198.51.100.{i + 1}",
        )
        for i in range(count)
    ]


def test_hashing_runs_a_bounded_number_at_a_time(tmp_path: Path, counting: Counting) -> None:
    settings = sqlite_settings(tmp_path, hash_concurrency=2)
    with TestClient(create_app(settings)) as client:
        answers = at_once(client, registrations(10))
    assert [r.status_code for r in answers] == [201] * 10
    assert counting.most == 2


def test_a_full_hashing_queue_answers_503(tmp_path: Path, counting: Counting) -> None:
    settings = sqlite_settings(tmp_path, hash_concurrency=1, hash_queue=2)
    with TestClient(create_app(settings)) as client:
        answers = at_once(client, registrations(8))
    busy = [r for r in answers if r.status_code == 503]
    assert sum(r.status_code == 201 for r in answers) >= 3 and busy
    assert busy[0].json()["error"] == "busy" and int(busy[0].headers["retry-after"]) > 0
    assert counting.most == 1
