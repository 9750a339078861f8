"""Accounts: register, log in and out, guests and their upgrade, throttling, errors."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError
from starlette.requests import Request
from starlette.testclient import TestClient

from crazy_eights.server import ServerSettings, create_app, throttle
from crazy_eights.server.auth import COOKIE
from crazy_eights.server.throttle import client_key

from .conftest import SettingsFactory, as_, guest


def test_register_login_logout(client: TestClient) -> None:
    response = client.post("/api/auth/register", json={"name": "ada", "password": "s3cret-pw"})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get("/api/me").json()["name"] == "ada"
    assert client.post("/api/auth/logout").status_code == 204
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    response = client.post("/api/auth/login", json={"name": "ADA", "password": "s3cret-pw"})
    assert response.status_code == 200 and response.json()["guest"] is False
    assert client.get("/api/me").json()["display_name"] == "ada"


def test_password_is_an_argon2id_hash(client: TestClient) -> None:
    import sqlalchemy as sa

    from crazy_eights.server import db

    client.post("/api/auth/register", json={"name": "bob", "password": "pass-word-1"})
    room = client.app.state.room  # type: ignore[attr-defined]

    async def stored() -> str:
        async with room.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.accounts.c.password_hash))).first()
        return str(row.password_hash)

    assert client.portal.call(stored).startswith("$argon2id$")  # type: ignore[union-attr]


def test_errors_are_clear_json(client: TestClient) -> None:
    response = client.post("/api/auth/register", json={"name": "a b", "password": "x"})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "invalid" and "name" in body["detail"]
    client.post("/api/auth/register", json={"name": "carol", "password": "password1"})
    client.cookies.clear()
    response = client.post("/api/auth/register", json={"name": "Carol", "password": "password1"})
    assert response.status_code == 409 and response.json()["error"] == "name_taken"


def test_login_is_throttled(client: TestClient) -> None:
    client.post("/api/auth/register", json={"name": "dave", "password": "password1"})
    client.cookies.clear()
    for _ in range(5):
        response = client.post("/api/auth/login", json={"name": "dave", "password": "wrong-pw"})
        assert response.status_code == 401
    response = client.post("/api/auth/login", json={"name": "dave", "password": "password1"})
    assert response.status_code == 429
    assert int(response.headers["retry-after"]) > 0


def test_guest_upgrade_keeps_the_account(client: TestClient) -> None:
    account_id, token = guest(client)
    me = client.get("/api/me", headers=as_(token)).json()
    assert me["guest"] is True and me["id"] == account_id
    response = client.patch(
        "/api/me", json={"display_name": "Eve  Smith", "avatar": "fox"}, headers=as_(token)
    )
    assert response.json()["display_name"] == "Eve Smith"
    assert client.patch("/api/me", json={"avatar": "<x>"}, headers=as_(token)).status_code == 422
    response = client.post(
        "/api/me/upgrade", json={"name": "eve", "password": "password9"}, headers=as_(token)
    )
    assert response.status_code == 200 and response.json()["guest"] is False
    client.cookies.clear()
    response = client.post("/api/auth/login", json={"name": "eve", "password": "password9"})
    assert response.json()["id"] == account_id
    assert response.cookies[COOKIE] != token


def test_other_sites_cannot_post(client: TestClient) -> None:
    response = client.post("/api/auth/guest", headers={"origin": "https://evil.example"})
    assert response.status_code == 403
    response = client.post("/api/auth/guest", headers={"origin": "http://testserver"})
    assert response.status_code == 201


def test_session_answers_200_signed_in_or_out(client: TestClient) -> None:
    response = client.get("/api/session")
    assert response.status_code == 200 and response.json() == {"account": None}
    account_id, token = guest(client)
    assert client.get("/api/session", headers=as_(token)).json()["account"]["id"] == account_id
    bad = client.get("/api/session", headers=as_("not-a-token"))
    assert bad.status_code == 200 and bad.json() == {"account": None}


def test_client_settings_are_validated_and_kept(
    client: TestClient, fast_settings: SettingsFactory
) -> None:
    assert client.get("/api/me/settings").status_code == 401
    assert client.put("/api/me/settings", json={"theme": "dark"}).status_code == 401
    _, token = guest(client)
    assert client.get("/api/me/settings", headers=as_(token)).json() == {}
    mine = {"theme": "dark", "sound": False, "speed": 1.5, "seen": {"tutorial": ["a", "b"]}}
    response = client.put("/api/me/settings", json=mine, headers=as_(token))
    assert response.status_code == 200 and response.json() == mine
    mine["theme"] = "light"
    assert client.put("/api/me/settings", json=mine, headers=as_(token)).json() == mine
    refused = {
        "a list": [1, 2],
        "text": "hello",
        "bad json": "{nope",
        "too big": {"x": "y" * 9000},
        "too deep": {"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}},
        "long name": {"k" * 65: 1},
    }
    for what, body in refused.items():
        content = body if what == "bad json" else json.dumps(body)
        response = client.put(
            "/api/me/settings",
            content=content,
            headers=as_(token) | {"content-type": "application/json"},
        )
        assert response.status_code in (413, 422), what
        assert response.json()["error"] in ("too_large", "bad_json", "bad_settings"), what
    assert client.get("/api/me/settings", headers=as_(token)).json() == mine
    other = guest(client)[1]
    assert client.get("/api/me/settings", headers=as_(other)).json() == {}
    client.__exit__(None, None, None)  # the same database, a new process's worth of server
    with TestClient(create_app(fast_settings())) as again:
        assert again.get("/api/me/settings", headers=as_(token)).json() == mine


def test_throttle_window_and_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(throttle.time, "monotonic", lambda: now[0])
    limit = throttle.Throttle(2, 10.0, max_keys=3)
    limit.record("a")
    limit.record("a")
    assert limit.retry_after("a") == 10.0 and limit.retry_after("b") == 0.0
    now[0] += 10.0
    assert limit.retry_after("a") == 0.0  # the window has passed
    for key in ("b", "c", "d", "e"):
        limit.record(key)
    assert len(limit._events) == 3 and "a" not in limit._events  # the stalest went first


def test_throttles_count_ipv6_clients_by_their_64() -> None:
    def key(host: str) -> str:
        return client_key(Request({"type": "http", "client": (host, 1)}))

    assert key("2001:db8:1:2:aaaa::1") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("198.51.100.7") == "198.51.100.7" == key("::ffff:198.51.100.7")


def test_proxy_and_origin_settings_are_checked() -> None:
    settings = ServerSettings(forwarded_allow_ips="10.0.0.1, 192.168.0.0/16,")
    assert settings.forwarded_allow_ips == ["10.0.0.1", "192.168.0.0/16"]
    assert ServerSettings().forwarded_allow_ips == []
    for bad in ({"forwarded_allow_ips": "proxy.example"}, {"allowed_origins": ["evil"]}):
        with pytest.raises(ValidationError):
            ServerSettings(**bad)


def test_bot_accounts_survive_a_person_holding_the_bot_name(client: TestClient) -> None:
    """A database from before bot names were reserved may hold a person "bot-random"."""
    room = client.app.state.room  # type: ignore[attr-defined]

    async def bot_after_person() -> tuple[int, int]:
        person = await room.accounts.create(
            name="bot-random", display_name="x", password_hash=None, guest=False
        )
        return person.id, await room.accounts.bot_account("random")

    person, bot = client.portal.call(bot_after_person)  # type: ignore[union-attr]
    assert person != bot
    assert client.portal.call(room.accounts.bot_account, "random") == bot  # type: ignore[union-attr]
