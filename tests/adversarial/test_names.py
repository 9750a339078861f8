"""Finding 6 (names): account names and display names are normalised (NFKC, spaces
collapsed), refuse bidi controls, invisible-only text and control characters, and any
name that reads as a bot's (or the bot avatar) is kept for the bots."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from ..server.conftest import as_, guest

REFUSED_DISPLAY_NAMES = {
    "right-to-left override": "abc\u202edcba",
    "bidi isolate": "\u2067evil\u2069",
    "zero-width only": "\u200b\u200c\u200d",
    "word joiner only": "\u2060\ufeff",
    "hangul filler": "\u3164",
    "braille blank": "\u2800\u2800",
    "control character": "bad\x07bell",
    "newline": "two\nlines",
    "DEL": "del\x7f",
    "combining pile": "a" + "\u0301" * 12,
    "bot": "Heuristic bot",
    "numbered bot": "Heuristic bot 2",
    "bot in capitals": "ISMCTS BOT",
    "camel-case bot": "RandomBot",
    "glued bot": "heuristicbot",
    "bot with a zero": "Heuristic B0t",
    "fullwidth bot": "\uff28\uff45\uff55\uff52\uff49\uff53\uff54\uff49\uff43 \uff42\uff4f\uff54",
    "cyrillic o": "Heuristic b\u043et",
    "accented": "Heuristic bót",
    "bot alone": "bot",
    "robot": "Robot",
}

ACCEPTED_DISPLAY_NAMES = {
    "Ada Lovelace": "Ada Lovelace",
    "  spaced   out ": "spaced out",
    "\uff25\uff56\uff45": "Eve",  # fullwidth letters, NFKC
    "Zoë": "Zoë",
    "Zoe\u0308": "Zoë",  # decomposed, composed by NFKC
    "\u0645\u0647\u0631\u200c\u0646\u0627\u0632": "\u0645\u0647\u0631\u200c\u0646\u0627\u0632",
    "Talbot": "Talbot",  # a surname, not a bot
    "Abbott": "Abbott",
    "bottle": "bottle",
    "李小龍": "李小龍",
    "🃏 Joker": "🃏 Joker",
}


@pytest.mark.parametrize("name", REFUSED_DISPLAY_NAMES.values(), ids=REFUSED_DISPLAY_NAMES.keys())
def test_refused_display_names(client: TestClient, name: str) -> None:
    _, token = guest(client)
    response = client.patch("/api/me", json={"display_name": name}, headers=as_(token))
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "invalid"
    assert client.get("/api/me", headers=as_(token)).json()["display_name"].startswith("Guest")
    response = client.post(
        "/api/auth/register",
        json={"name": "someone", "password": "password-1", "display_name": name},
    )
    assert response.status_code == 422, response.text


@pytest.mark.parametrize(("given", "kept"), ACCEPTED_DISPLAY_NAMES.items())
def test_accepted_display_names_are_normalised(client: TestClient, given: str, kept: str) -> None:
    _, token = guest(client)
    response = client.patch("/api/me", json={"display_name": given}, headers=as_(token))
    assert response.status_code == 200, response.text
    assert response.json()["display_name"] == kept
    assert client.get("/api/me", headers=as_(token)).json()["display_name"] == kept


@pytest.mark.parametrize(
    "name", ["bot-heuristic", "HeuristicBot", "bot_random", "ismcts.bot", "Bot", "b0t-ismcts"]
)
def test_account_names_that_read_as_a_bot_s_are_reserved(client: TestClient, name: str) -> None:
    response = client.post("/api/auth/register", json={"name": name, "password": "password-1"})
    assert response.status_code == 422, response.text
    assert "bot" in response.json()["detail"].lower()


def test_the_guest_prefix_is_reserved(client: TestClient) -> None:
    response = client.post(
        "/api/auth/register", json={"name": "guest-1a2b3c4d", "password": "password-1"}
    )
    assert response.status_code == 422, response.text


def test_a_registered_bot_name_cannot_block_the_bots(client: TestClient) -> None:
    """Before, registering ``bot-heuristic`` first made every table with that bot fail."""
    client.post("/api/auth/register", json={"name": "bot-heuristic", "password": "password-1"})
    client.cookies.clear()
    _, token = guest(client)
    response = client.post(
        "/api/tables",
        json={
            "rules": {"ruleset": "classic", "players": 2, "mode": "single"},
            "bots": [{"seat": 1, "level": "heuristic"}],
        },
        headers=as_(token),
    )
    assert response.status_code == 201, response.text


def test_the_bot_avatar_is_reserved(client: TestClient) -> None:
    _, token = guest(client)
    response = client.patch("/api/me", json={"avatar": "bot"}, headers=as_(token))
    assert response.status_code == 422, response.text
    assert client.patch("/api/me", json={"avatar": "fox"}, headers=as_(token)).status_code == 200
