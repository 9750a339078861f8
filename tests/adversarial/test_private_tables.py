"""Finding 6 (records): a finished private game is shown only to those who were seated at
it or hold its invite code; others' history does not list it."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from ..server.conftest import as_, eventually, guest, make_table


def finished_private_table(client: TestClient, token: str) -> dict[str, Any]:
    """A private two-seat table whose creator left at once, so the bot finished it; then
    unloaded from memory as an idle finished table is, so it is read from the database."""
    table = make_table(client, token, public=False, bots=[{"seat": 1, "level": "random"}])
    assert client.post(f"/api/tables/{table['id']}/leave", headers=as_(token)).is_success
    room = client.app.state.room  # type: ignore[attr-defined]
    actor = room.tables.get(table["id"])
    eventually(lambda: actor.status == "finished", "the bot finishing the game")
    client.portal.call(lambda: _unload(room, actor))  # type: ignore[union-attr]
    return table


async def _unload(room: Any, actor: Any) -> None:
    room.tables.unload(actor)


def test_a_finished_private_table_answers_only_its_players(client: TestClient) -> None:
    _, owner = guest(client)
    _, stranger = guest(client)
    table = finished_private_table(client, owner)
    url = f"/api/tables/{table['id']}"
    assert client.get(url, headers=as_(owner)).status_code == 200
    for who in (as_(stranger), {}):
        response = client.get(url, headers=who)
        assert response.status_code == 403, response.text
        assert response.json()["error"] == "invite_needed"
        assert client.get(f"{url}/replay", headers=who).status_code == 403
    code = table["invite"]
    assert code
    assert client.get(url, params={"code": code}, headers=as_(stranger)).status_code == 200
    replay = client.get(f"{url}/replay", params={"code": code}, headers=as_(stranger))
    assert replay.status_code == 200
    assert client.get(url, params={"code": "wrong-code"}).status_code == 403


def test_history_lists_private_games_to_their_player_only(client: TestClient) -> None:
    owner_id, owner = guest(client)
    _, stranger = guest(client)
    public = make_table(client, owner, bots=[{"seat": 1, "level": "random"}])
    client.post(f"/api/tables/{public['id']}/leave", headers=as_(owner))
    private = finished_private_table(client, owner)
    history = f"/api/accounts/{owner_id}/history"

    def mine() -> set[str]:
        return {g["table"] for g in client.get(history, headers=as_(owner)).json()}

    eventually(lambda: public["id"] in mine(), "the public game in the history")
    assert mine() == {public["id"], private["id"]}
    for who in (as_(stranger), {}):
        theirs = {g["table"] for g in client.get(history, headers=who).json()}
        assert theirs == {public["id"]}
