"""Finding 3: account names are unique whatever their case or Unicode form, atomically.

Registering ``caseXy2``, ``CASEXY2`` and ``Casexy2`` at once used to create all three (login
then found the first), and one name three times at once gave a 500. The requests here
finish hashing their passwords at the same moment (a barrier), so their database work
overlaps as it does on a busy server.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from crazy_eights.server import db

from ..server.conftest import as_, guest
from .conftest import Call, at_once, statuses, warm

PASSWORD = "correct-horse-1"


@pytest.fixture
def meet(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``meet(n)``: the next ``n`` password hashes return together."""

    def arm(count: int) -> None:
        barrier = threading.Barrier(count, timeout=5)
        original = PasswordHasher.hash

        def hash_then_wait(hasher: PasswordHasher, password: str | bytes, **kw: Any) -> str:
            result = original(hasher, password, **kw)
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()
            return result

        monkeypatch.setattr(PasswordHasher, "hash", hash_then_wait)

    return arm


def register(name: str, address: str = "198.51.100.1") -> Call:
    return Call("POST", "/api/auth/register", {"name": name, "password": PASSWORD}, address=address)


def login(client: TestClient, name: str) -> int:
    client.cookies.clear()
    response = client.post("/api/auth/login", json={"name": name, "password": PASSWORD})
    return response.status_code


def test_case_variants_at_once_make_one_account(
    db_client: TestClient, meet: Callable[[int], None]
) -> None:
    client = db_client
    names = ["caseXy2", "CASEXY2", "Casexy2"]
    warm(client)
    meet(3)
    answers = at_once(client, [register(n, f"198.51.100.{i}") for i, n in enumerate(names)])
    assert statuses(answers) == [201, 409, 409]
    loser = next(r for r in answers if r.status_code == 409)
    assert loser.json()["error"] == "name_taken"
    winner = next(r for r in answers if r.status_code == 201).json()
    for name in names:  # whichever case is typed, the one account signs in
        assert login(client, name) == 200
        assert client.get("/api/me").json()["id"] == winner["id"]


def test_the_same_name_three_times_at_once_is_one_201_and_two_409(
    db_client: TestClient, meet: Callable[[int], None]
) -> None:
    client = db_client
    warm(client)
    meet(3)
    answers = at_once(client, [register("tripled", f"198.51.100.{i}") for i in range(3)])
    assert statuses(answers) == [201, 409, 409]
    assert all(r.json()["error"] == "name_taken" for r in answers if r.status_code == 409)


def test_unicode_forms_of_a_taken_name_are_taken(db_client: TestClient) -> None:
    client = db_client
    assert client.post("/api/auth/register", json={"name": "ada", "password": PASSWORD}).is_success
    client.cookies.clear()
    # fullwidth letters are the same name once NFKC-normalised
    response = client.post(
        "/api/auth/register", json={"name": "\uff21\uff24\uff21", "password": PASSWORD}
    )
    assert response.status_code == 409, response.text
    assert login(client, "\uff21\uff44\uff41") == 200


def test_an_upgrade_racing_a_registration_for_one_name_gives_one_owner(
    db_client: TestClient, meet: Callable[[int], None]
) -> None:
    client = db_client
    _, token = guest(client)
    warm(client)
    meet(2)
    answers = at_once(
        client,
        [
            register("Contested", "198.51.100.7"),
            Call(
                "POST",
                "/api/me/upgrade",
                {"name": "contested", "password": PASSWORD},
                headers=as_(token),
                address="198.51.100.8",
            ),
        ],
    )
    assert statuses(answers) == [200, 409] or statuses(answers) == [201, 409]
    room = client.app.state.room  # type: ignore[attr-defined]

    async def holders() -> int:
        async with room.engine.connect() as conn:
            query = sa.select(sa.func.count()).where(
                sa.func.lower(db.accounts.c.name) == "contested"
            )
            return int((await conn.execute(query)).scalar_one())

    assert client.portal.call(holders) == 1  # type: ignore[union-attr]


def test_the_database_refuses_a_second_spelling_of_a_name(db_client: TestClient) -> None:
    """The guarantee lives in a unique index, not only in the application's check."""
    client = db_client
    room = client.app.state.room  # type: ignore[attr-defined]

    async def insert_twice() -> str:
        accounts = room.accounts
        await accounts.create(name="Indexed", display_name="x", password_hash=None, guest=True)
        try:
            async with room.engine.begin() as conn:
                await conn.execute(
                    db.accounts.insert().values(
                        name="INDEXED",
                        name_key="indexed",
                        display_name="y",
                        guest=True,
                        created_at=0.0,
                    )
                )
        except sa.exc.IntegrityError:
            return "refused"
        return "inserted"

    assert client.portal.call(insert_twice) == "refused"  # type: ignore[union-attr]
