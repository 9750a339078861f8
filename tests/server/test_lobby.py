"""Lobby: rulesets, creating tables (validated by the engine), listing with live updates,
sitting, leaving, starting, private tables, quick play."""

from __future__ import annotations

from starlette.testclient import TestClient

from .conftest import as_, guest, make_table


def test_rulesets_come_from_the_engine(client: TestClient) -> None:
    body = client.get("/api/rulesets").json()
    assert set(body) == {"rulesets", "bot_levels"}
    assert body["rulesets"]["classic"]["draw_policy"]["choices"]
    assert "bot_levels" not in body["rulesets"]
    assert {"random", "heuristic", "ismcts"} <= set(body["bot_levels"])


def test_each_bot_seat_has_a_name_of_its_own(client: TestClient) -> None:
    _, token = guest(client)
    table = make_table(
        client,
        token,
        rules={"ruleset": "classic", "players": 4, "mode": "single"},
        bots=[{"seat": 1, "level": "heuristic"}, {"seat": 2, "level": "heuristic"}],
    )
    names = [s["name"] for s in table["seats"]]
    assert names[1:3] == ["Medium bot", "Medium bot 2"]
    started = client.post(f"/api/tables/{table['id']}/start", headers=as_(token)).json()
    names = [s["name"] for s in started["seats"]]
    assert names[1:] == ["Medium bot", "Medium bot 2", "Medium bot 3"]
    assert len(set(names)) == 4


def test_a_refused_setting_names_itself(client: TestClient) -> None:
    _, token = guest(client)
    response = client.post(
        "/api/tables",
        json={"rules": {"ruleset": "countdown", "action_cards": True}},
        headers=as_(token),
    )
    assert response.status_code == 422
    assert response.json()["error"] == "bad_rules" and "action_cards" in response.json()["detail"]
    response = client.post(
        "/api/tables",
        json={
            "rules": {"ruleset": "classic", "players": 2},
            "bots": [{"seat": 5, "level": "random"}],
        },
        headers=as_(token),
    )
    assert response.status_code == 422


def test_lobby_lists_and_updates_live(client: TestClient) -> None:
    _, creator = guest(client)
    _, other = guest(client)
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json() == {"type": "tables", "tables": []}
        table = make_table(client, creator, rules={"ruleset": "ultimate", "players": 3})
        update = lobby.receive_json()
        assert update["type"] == "table" and update["table"]["id"] == table["id"]
        assert update["table"]["rated"] is True
        listed = client.get("/api/tables").json()
        assert [t["id"] for t in listed] == [table["id"]]
        sat = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 2}, headers=as_(other))
        assert sat.json()["seats"][2]["account"] is not None
        assert lobby.receive_json()["table"]["seats"][2]["name"].startswith("Guest")
        response = client.post(f"/api/tables/{table['id']}/start", headers=as_(other))
        assert response.status_code == 403
        left = client.post(f"/api/tables/{table['id']}/leave", headers=as_(other))
        assert left.json()["seats"][2]["account"] is None
        started = client.post(f"/api/tables/{table['id']}/start", headers=as_(creator))
        assert started.json()["status"] == "playing"
        assert [s["bot"] for s in started.json()["seats"]][1:] == ["heuristic", "heuristic"]


def test_quick_play_seats_you_or_makes_a_table_with_bots(client: TestClient) -> None:
    _, first = guest(client)
    _, second = guest(client)
    open_table = make_table(client, first, rules={"ruleset": "classic", "players": 3})
    joined = client.post("/api/quickplay", json={"ruleset": "classic"}, headers=as_(second))
    assert joined.json()["id"] == open_table["id"]
    fresh = client.post("/api/quickplay", json={"ruleset": "countdown"}, headers=as_(second))
    body = fresh.json()
    assert body["status"] == "playing" and sum(1 for s in body["seats"] if s["bot"]) == 3


def test_invite_links_open_private_tables(client: TestClient) -> None:
    _, creator = guest(client)
    table = make_table(client, creator, public=False)
    assert client.get(f"/api/tables/{table['id']}").status_code == 403
    assert client.get(f"/api/invite/{table['invite']}").json()["id"] == table["id"]
    assert client.get(f"/api/tables/{table['id']}?code={table['invite']}").status_code == 200


def test_static_client_is_served_at_the_root(client: TestClient) -> None:
    assert "Crazy Eights" in client.get("/").text
    assert client.get("/openapi.json").json()["info"]["title"].startswith("Crazy Eights")


def test_bot_names_say_the_level_in_words_and_number_the_second_on() -> None:
    from crazy_eights.server.table.seats import bot_names

    levels = [None, "heuristic", "random", "heuristic", None, "ismcts"]
    names = [None, "Medium bot", "Easy bot", "Medium bot 2", None, "Hard bot"]
    assert bot_names(levels) == names
    # a bot keeps its name when more of its level sit down
    assert bot_names(levels[:2]) == [None, "Medium bot"]
