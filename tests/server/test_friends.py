"""Friends over HTTP: requests by name and by account, accept, decline, cancel, remove,
the limits, expiry, guests and the settings (on SQLite and on PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server import friends
from crazy_eights.server.auth import COOKIE

from .conftest import as_, guest


def register(client: TestClient, name: str) -> tuple[int, str]:
    """A new account: (id, session token); the client's own jar is left empty."""
    response = client.post("/api/auth/register", json={"name": name, "password": "password-1"})
    assert response.status_code == 201, response.text
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return response.json()["id"], token


def listing(client: TestClient, token: str) -> dict[str, Any]:
    response = client.get("/api/friends", headers=as_(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def names(people: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in people]


def test_request_accept_and_remove(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    asked = client.post("/api/friends/requests", json={"name": "BOB"}, headers=as_(ada))
    assert asked.status_code == 201, asked.text
    assert asked.json()["status"] == "asked" and asked.json()["person"]["account"] == bob_id
    assert names(listing(client, ada)["outgoing"]) == ["bob"]
    incoming = listing(client, bob)["incoming"]
    assert names(incoming) == ["ada"]
    assert incoming[0]["expires_at"] - incoming[0]["at"] == friends.REQUEST_SECONDS

    accepted = client.post(f"/api/friends/requests/{ada_id}/accept", headers=as_(bob))
    assert accepted.status_code == 200 and accepted.json()["name"] == "ada"
    for token, other in ((ada, "bob"), (bob, "ada")):
        mine = listing(client, token)
        assert names(mine["friends"]) == [other]
        assert mine["incoming"] == [] and mine["outgoing"] == []

    assert client.delete(f"/api/friends/{bob_id}", headers=as_(ada)).status_code == 204
    assert listing(client, ada)["friends"] == [] and listing(client, bob)["friends"] == []
    again = client.delete(f"/api/friends/{bob_id}", headers=as_(ada))
    assert again.status_code == 404 and again.json()["error"] == "not_friends"


def test_asking_back_makes_friends_decline_and_cancel(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    cy_id, cy = register(client, "cyd")
    client.post("/api/friends/requests", json={"account": bob_id}, headers=as_(ada))
    back = client.post("/api/friends/requests", json={"account": ada_id}, headers=as_(bob))
    assert back.status_code == 201 and back.json()["status"] == "friends"
    assert names(listing(client, ada)["friends"]) == ["bob"]

    client.post("/api/friends/requests", json={"name": "cyd"}, headers=as_(ada))
    declined = client.post(f"/api/friends/requests/{ada_id}/decline", headers=as_(cy))
    assert declined.status_code == 204
    assert listing(client, ada)["outgoing"] == [] and listing(client, cy)["incoming"] == []

    client.post("/api/friends/requests", json={"name": "cyd"}, headers=as_(bob))
    assert client.delete(f"/api/friends/requests/{cy_id}", headers=as_(bob)).status_code == 204
    assert listing(client, cy)["incoming"] == []
    stale = client.post(f"/api/friends/requests/{bob_id}/accept", headers=as_(cy))
    assert stale.status_code == 404 and stale.json()["error"] == "no_request"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "nobody-here"}, 404, "no_account"),
        ({"account": 99999}, 404, "no_account"),
        ({"name": "ada"}, 422, "yourself"),
        ({"name": "bob", "account": 2}, 422, "invalid"),
        ({}, 422, "invalid"),
        ({"name": "bob", "note": "hi"}, 422, "invalid"),
        ({"account": "2"}, 422, "invalid"),
        ({"account": 2**40}, 422, "invalid"),
        ({"name": "x" * 33}, 422, "invalid"),
    ],
)
def test_bad_requests_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    _, ada = register(client, "ada")
    register(client, "bob")
    response = client.post("/api/friends/requests", json=body, headers=as_(ada))
    assert response.status_code == status, response.text
    assert response.json()["error"] == code and response.json()["detail"]
    assert listing(client, ada)["outgoing"] == []


def test_duplicates_and_friends_refused(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    client.post("/api/friends/requests", json={"name": "bob"}, headers=as_(ada))
    twice = client.post("/api/friends/requests", json={"name": "bob"}, headers=as_(ada))
    assert twice.status_code == 409 and twice.json()["error"] == "already_asked"
    ada_id = listing(client, bob)["incoming"][0]["account"]
    client.post(f"/api/friends/requests/{ada_id}/accept", headers=as_(bob))
    again = client.post("/api/friends/requests", json={"account": bob_id}, headers=as_(ada))
    assert again.status_code == 409 and again.json()["error"] == "already_friends"
    assert len(listing(client, ada)["friends"]) == 1


def test_guests_bots_and_the_refusing_setting(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    guest_id, guest_token = guest(client)
    for call in (
        lambda: client.get("/api/friends", headers=as_(guest_token)),
        lambda: client.post(
            "/api/friends/requests", json={"name": "ada"}, headers=as_(guest_token)
        ),
        lambda: client.put("/api/friends/settings", json={}, headers=as_(guest_token)),
    ):
        refused = call()
        assert refused.status_code == 403 and refused.json()["error"] == "guest"
        assert "register to add friends" in refused.json()["detail"]
    to_guest = client.post("/api/friends/requests", json={"account": guest_id}, headers=as_(ada))
    assert to_guest.status_code == 422 and to_guest.json()["error"] == "guest_target"
    bot_id = client.app.state.room  # type: ignore[attr-defined]
    level = client.portal.call(bot_id.accounts.bot_account, "random")  # type: ignore[union-attr]
    to_bot = client.post("/api/friends/requests", json={"account": level}, headers=as_(ada))
    assert to_bot.status_code == 422 and to_bot.json()["error"] == "not_a_person"

    _, bob = register(client, "bob")
    saved = client.put("/api/friends/settings", json={"refuse_requests": True}, headers=as_(bob))
    assert saved.status_code == 200 and saved.json()["refuse_requests"] is True
    refused = client.post("/api/friends/requests", json={"name": "bob"}, headers=as_(ada))
    assert refused.status_code == 403 and refused.json()["error"] == "refuses_requests"
    assert listing(client, bob)["incoming"] == []
    # bob may still ask ada himself
    mutual = client.post("/api/friends/requests", json={"account": ada_id}, headers=as_(bob))
    assert mutual.status_code == 201 and mutual.json()["status"] == "asked"
    for junk in ({"refuse_requests": "yes"}, {"refuse": True}, {"appear_offline": 1}):
        bad = client.put("/api/friends/settings", json=junk, headers=as_(bob))
        assert bad.status_code == 422, junk
    assert client.get("/api/friends/settings", headers=as_(bob)).json() == {
        "refuse_requests": True,
        "appear_offline": False,
    }


def test_outgoing_limit(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(friends, "MAX_OUTGOING", 3)
    _, ada = register(client, "ada")
    for n in range(4):
        register(client, f"pal{n}")
    for n in range(3):
        ok = client.post("/api/friends/requests", json={"name": f"pal{n}"}, headers=as_(ada))
        assert ok.status_code == 201
    full = client.post("/api/friends/requests", json={"name": "pal3"}, headers=as_(ada))
    assert full.status_code == 409 and full.json()["error"] == "too_many_requests"
    assert len(listing(client, ada)["outgoing"]) == 3


def test_friends_limit(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(friends, "MAX_FRIENDS", 2)
    ada_id, ada = register(client, "ada")
    others = [register(client, f"pal{n}") for n in range(3)]
    for _, token in others:
        client.post("/api/friends/requests", json={"account": ada_id}, headers=as_(token))
    for other_id, _ in others[:2]:
        ok = client.post(f"/api/friends/requests/{other_id}/accept", headers=as_(ada))
        assert ok.status_code == 200
    full = client.post(f"/api/friends/requests/{others[2][0]}/accept", headers=as_(ada))
    assert full.status_code == 409 and full.json()["error"] == "friends_full"
    mine = listing(client, ada)
    assert len(mine["friends"]) == 2 and len(mine["incoming"]) == 1
    asking = client.post("/api/friends/requests", json={"name": "bob-none"}, headers=as_(ada))
    assert asking.status_code == 404  # unknown before full: the name is checked first
    theirs = client.post(
        "/api/friends/requests", json={"account": ada_id}, headers=as_(others[2][1])
    )
    assert theirs.status_code == 409 and theirs.json()["error"] == "already_asked"


def test_requests_expire_after_30_days(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    _, bob = register(client, "bob")
    service = client.app.state.room.friends  # type: ignore[attr-defined]
    real = service.now
    service.now = lambda: real() - friends.REQUEST_SECONDS - 60  # asked 30 days and a minute ago
    client.post("/api/friends/requests", json={"name": "bob"}, headers=as_(ada))
    service.now = real
    assert listing(client, bob)["incoming"] == [] and listing(client, ada)["outgoing"] == []
    late = client.post(f"/api/friends/requests/{ada_id}/accept", headers=as_(bob))
    assert late.status_code == 404 and late.json()["error"] == "no_request"
    fresh = client.post("/api/friends/requests", json={"name": "bob"}, headers=as_(ada))
    assert fresh.status_code == 201 and fresh.json()["status"] == "asked"


def test_requests_are_throttled(client: TestClient) -> None:
    _, ada = register(client, "ada")
    codes = [
        client.post("/api/friends/requests", json={"name": f"ghost{n}"}, headers=as_(ada)).json()[
            "error"
        ]
        for n in range(int(friends.ASK_BURST) + 2)
    ]
    assert codes[0] == "no_account" and codes[-1] == "throttled"


def test_signed_out_and_bad_ids(client: TestClient) -> None:
    assert client.get("/api/friends").status_code == 401
    _, ada = register(client, "ada")
    for path in ("/api/friends/0", "/api/friends/abc", f"/api/friends/{2**40}"):
        assert client.delete(path, headers=as_(ada)).status_code == 422
    missing = client.post("/api/friends/requests/12345/accept", headers=as_(ada))
    assert missing.status_code == 404 and missing.json()["error"] == "no_account"
