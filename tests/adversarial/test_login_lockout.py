"""Finding 5: wrong passwords from one address must not lock the owner out elsewhere.

Failed sign-ins are counted per (name, address) and per address; a name alone is never
locked for everyone."""

from __future__ import annotations

from starlette.testclient import TestClient

from .conftest import Call, at_once

OWNER = {"name": "owner", "password": "the-real-one"}
WRONG = {"name": "owner", "password": "a-bad-guess"}


def _login(client: TestClient, body: dict[str, str], address: str) -> int:
    return at_once(client, [Call("POST", "/api/auth/login", body, address=address)])[0].status_code


def test_the_owner_signs_in_while_someone_else_fails(client: TestClient) -> None:
    assert client.post("/api/auth/register", json=OWNER).status_code == 201
    attacker, home = "203.0.113.66", "198.51.100.20"
    codes = [_login(client, WRONG, attacker) for _ in range(8)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    assert _login(client, OWNER, home) == 200
    # the attacker stays refused, even with the right password
    assert _login(client, OWNER, attacker) == 429


def test_one_address_trying_many_names_is_throttled(client: TestClient) -> None:
    address = "203.0.113.67"
    codes = [
        _login(client, {"name": f"name{i}", "password": "guessing-1"}, address) for i in range(40)
    ]
    assert 401 in codes and codes[-1] == 429
    assert _login(client, {"name": "name0", "password": "guessing-1"}, "203.0.113.68") == 401


def test_a_success_clears_that_address_s_failures_for_the_name(client: TestClient) -> None:
    assert client.post("/api/auth/register", json=OWNER).status_code == 201
    home = "198.51.100.21"
    for _ in range(4):
        assert _login(client, WRONG, home) == 401
    assert _login(client, OWNER, home) == 200
    for _ in range(4):
        assert _login(client, WRONG, home) == 401
    assert _login(client, OWNER, home) == 200
