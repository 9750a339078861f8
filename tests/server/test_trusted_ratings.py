"""Issue 23, item 8: ratings people trust. A guest's games move no rating (theirs or the
others') unless the room's ``rate_guests`` says so; a rating is provisional (shown with
a "?") until ``provisional_games`` rated games; the leaderboards list registered people
(and bot levels) whose rating is settled, never guests."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from crazy_eights.server.auth import COOKIE

from .conftest import as_, eventually, guest, make_table


def register(client: TestClient, name: str) -> tuple[int, str]:
    response = client.post("/api/auth/register", json={"name": name, "password": "pass-word-1"})
    assert response.status_code == 201, response.text
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return int(response.json()["id"]), token


def lose_a_game(client: TestClient, token: str) -> None:
    """Sit with a random bot and leave at once: a loss, once the bot has finished."""
    table = make_table(
        client,
        token,
        rules={"ruleset": "classic", "players": 2, "mode": "single"},
        bots=[{"seat": 1, "level": "random"}],
    )
    client.post(f"/api/tables/{table['id']}/leave", headers=as_(token))
    actor = client.app.state.room.tables.get(table["id"])  # type: ignore[attr-defined]
    eventually(lambda: actor.status == "finished", "the bot finishing the game")


def classic(client: TestClient, account: int) -> dict[str, Any]:
    records = client.get(f"/api/accounts/{account}/records").json()["records"]
    found: dict[str, Any] = next(r for r in records if r["ruleset"] == "classic")
    return found


def test_guests_are_unrated_registered_people_provisional_until_settled(
    make_client: Any,
) -> None:
    client = make_client(provisional_games=2)
    visitor, visitor_token = guest(client)
    ada, ada_token = register(client, "ada")
    lose_a_game(client, visitor_token)
    lose_a_game(client, ada_token)
    assert classic(client, visitor)["rated_games"] == 0
    assert classic(client, visitor)["rating"]["display"] == 1000
    assert classic(client, ada)["rated_games"] == 1
    assert classic(client, ada)["rating"]["provisional"] is True
    assert classic(client, ada)["rating"]["display"] < 1000
    assert client.get("/api/leaderboard/classic").json() == []  # nobody settled yet
    lose_a_game(client, ada_token)
    lose_a_game(client, visitor_token)
    assert classic(client, ada)["rating"]["provisional"] is False
    board = client.get("/api/leaderboard/classic").json()
    assert [r["account"] for r in board if r["bot"] is None] == [ada]
    assert all(not r["guest"] and not r["rating"]["provisional"] for r in board)


def test_a_room_may_rate_guests(make_client: Any) -> None:
    client = make_client(rate_guests=True, provisional_games=1)
    visitor, token = guest(client)
    lose_a_game(client, token)
    assert classic(client, visitor)["rated_games"] == 1
    assert classic(client, visitor)["rating"]["display"] < 1000
    # rated, yet a guest is never on the leaderboards
    assert visitor not in [r["account"] for r in client.get("/api/leaderboard/classic").json()]
