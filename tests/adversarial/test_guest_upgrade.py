"""Finding 6 (sessions): a guest upgraded to an account gets a new session token and the
old one stops working; the upgrade may also replace the "Guest fa86" display name."""

from __future__ import annotations

from starlette.testclient import TestClient

from crazy_eights.server.auth import COOKIE

from ..server.conftest import as_, guest
from .conftest import Call, at_once


def test_upgrade_issues_a_new_token_and_revokes_the_guest_one(client: TestClient) -> None:
    account_id, old = guest(client)
    response = client.post(
        "/api/me/upgrade", json={"name": "rotated", "password": "password-9"}, headers=as_(old)
    )
    assert response.status_code == 200, response.text
    new = response.cookies.get(COOKIE)
    assert new and new != old
    assert client.get("/api/me", headers=as_(old)).status_code == 401
    me = client.get("/api/me", headers=as_(new)).json()
    assert me["id"] == account_id and me["guest"] is False and me["name"] == "rotated"


def test_upgrade_may_set_the_display_name(client: TestClient) -> None:
    _, token = guest(client)
    response = client.post(
        "/api/me/upgrade",
        json={"name": "newname", "password": "password-9", "display_name": "  New   Name "},
        headers=as_(token),
    )
    assert response.status_code == 200, response.text
    assert response.json()["display_name"] == "New Name"
    client.cookies.clear()
    login = client.post("/api/auth/login", json={"name": "newname", "password": "password-9"})
    assert login.json()["display_name"] == "New Name"


def test_a_second_upgrade_at_once_is_refused(client: TestClient) -> None:
    _, token = guest(client)
    answers = at_once(
        client,
        [
            Call(
                "POST",
                "/api/me/upgrade",
                {"name": name, "password": "password-9"},
                headers=as_(token),
                address=f"198.51.100.{i}",
            )
            for i, name in enumerate(("first", "second"))
        ],
    )
    codes = sorted(r.status_code for r in answers)
    assert codes[0] == 200 and codes[1] in (401, 409)  # 401 if the guest token went first
    loser = next(r for r in answers if r.status_code != 200)
    assert loser.json()["error"] in ("not_a_guest", "not_signed_in")
