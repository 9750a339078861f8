"""Real bots at tables: heuristic bots finish games (in a thread and in the process pool),
hints come from the search bot, the bot pause is kept; absence: a dropped player's seat
goes to a bot after the grace period and comes back on return; lobby removals."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import as_, guest, make_table, until


def actor_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.room.tables.get(table_id)  # type: ignore[attr-defined]


def room_of(client: TestClient) -> Any:
    return client.app.state.room  # type: ignore[attr-defined]


def seat_news(ws: Any, seat: int) -> dict[str, Any]:
    """The next ``presence`` message that tells of ``seat``: that seat's info."""
    for _ in range(100):
        for info in until(ws, "presence")["seats"]:
            if info["seat"] == seat:
                return dict(info)
    raise AssertionError(f"no news of seat {seat}")


def wait_for(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize("workers", [0, 1], ids=["thread", "process-pool"])
def test_heuristic_bots_play_a_game_to_the_end(make_client: Any, workers: int) -> None:
    client = make_client(bot_workers=workers)
    account_id, token = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    bots = [{"seat": 1, "level": "heuristic"}, {"seat": 2, "level": "heuristic"}]
    table = make_table(client, token, rules=rules, bots=bots)
    assert table["status"] == "playing"  # every seat taken: it starts at once
    actor = actor_of(client, table["id"])
    # Leaving hands the seat to a heuristic bot for good: three bots finish the game.
    assert client.post(f"/api/tables/{table['id']}/leave", headers=as_(token)).status_code == 200
    wait_for(lambda: actor.status == "finished", 60)
    assert actor.game.is_over and actor.version > 3
    assert set(actor.state.movers) == {0, 1, 2}
    records = client.get(f"/api/accounts/{account_id}/records").json()["records"]
    assert [(r["ruleset"], r["games"], r["wins"]) for r in records] == [("classic", 1, 0)]


def test_a_hint_is_the_search_bots_move_and_rated_tables_refuse(make_client: Any) -> None:
    client = make_client()
    asked: list[str] = []
    bots = room_of(client).bots
    choose = bots.choose

    async def spy(**kwargs: Any) -> str:
        asked.append(kwargs["level"])
        move: str = await choose(**kwargs)
        return move

    bots.choose = spy
    _, token = guest(client)
    rules = {"ruleset": "classic", "players": 2, "mode": "single"}
    for hints in (False, True):
        table = make_table(
            client, token, rules=rules, bots=[{"seat": 1, "level": "random"}], hints=hints
        )
        assert table["rated"] is not hints
        actor = actor_of(client, table["id"])
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
            until(ws, "welcome")
            wait_for(lambda a=actor: a.game.current_player == 0 or a.game.is_over)
            asked.clear()
            ws.send_json({"type": "hint"})
            if not hints:
                assert until(ws, "error")["code"] == "hints_off"
                assert asked == []
                continue
            hint = until(ws, "hint")
            assert hint["version"] == actor.version
            assert hint["move"] in [m.text for m in actor.game.legal_moves()]
            # the hint comes as the legal move's data too, so a client reads no text
            assert hint["data"] in actor.game.legal_move_data()
            assert hint["data"]["text"] == hint["move"]
            assert asked == ["ismcts"]


def test_bots_wait_their_pause_before_moving(make_client: Any) -> None:
    client = make_client(bot_delay=0.4)
    _, token = guest(client)
    rules = {"ruleset": "classic", "players": 2, "mode": "single"}
    table = make_table(client, token, rules=rules, bots=[{"seat": 1, "level": "random"}])
    actor = actor_of(client, table["id"])
    gaps = []
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
        state = until(ws, "welcome")["state"]
        while len(gaps) < 3 and not state["view"]["over"]:
            if state["legal"]:
                ws.send_json({"type": "move", "seq": state["version"], "move": state["legal"][0]})
            state = until(ws, "state", version=state["version"] + 1)["state"]
            if state["by"] == 0 and actor.game.current_player == 1:
                before = time.monotonic()
                state = until(ws, "state", version=state["version"] + 1)["state"]
                assert state["by"] == 1
                gaps.append(time.monotonic() - before)
    assert gaps and min(gaps) >= 0.35, gaps


def test_a_dropped_player_gets_a_bot_after_the_grace_and_the_seat_back(
    make_client: Any,
) -> None:
    client = make_client(away_seconds=0.3)
    _, creator = guest(client)
    _, other = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    table = make_table(
        client, creator, rules=rules, bots=[{"seat": 2, "level": "random"}], takeover_after=2
    )
    client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(other))
    actor = actor_of(client, table["id"])
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(creator)) as ws0:
        until(ws0, "welcome")
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(other)) as ws1:
            assert until(ws1, "welcome")["you"]["seat"] == 1
        # Seat 1 dropped: still its own during the grace, then a stand-in bot plays it.
        assert actor.seats[1].standin is False
        news = seat_news(ws0, 1)
        assert news["connected"] is False and news["standin"] is False
        assert 0 < news["away_left"] <= 0.3  # the countdown the others see on the seat
        wait_for(lambda: actor.seats[1].standin, 5)
        for _ in range(20):  # the other seats hear of it
            if seat_news(ws0, 1)["standin"]:
                break
        else:
            raise AssertionError("no presence message shows the stand-in")
        dropped_at = actor.version
        deadline = time.monotonic() + 30
        # play seat 0 until the bot has played a turn for seat 1
        while not (1 in actor.state.movers[dropped_at:] or actor.game.is_over):
            assert time.monotonic() < deadline, "the stand-in never played for seat 1"
            if actor.game.current_player == 0:
                version = actor.version
                ws0.send_json(
                    {"type": "move", "seq": version, "move": actor.game.legal_moves()[0].text}
                )
                until(ws0, "state", version=version + 1)
            else:
                time.sleep(0.02)
        assert 1 in actor.state.movers[dropped_at:] or actor.game.is_over
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(other)) as ws1:
            back = until(ws1, "welcome")
            assert back["you"]["seat"] == 1
            assert actor.seats[1].standin is False
            assert back["state"]["view"]["hand"] == actor.game.view(1)["hand"]


def test_the_lobby_hears_when_a_table_goes_away(make_client: Any) -> None:
    client = make_client()
    _, creator = guest(client)
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["type"] == "tables"
        table = make_table(client, creator, rules={"ruleset": "classic", "players": 3})
        assert lobby.receive_json()["table"]["id"] == table["id"]
        # The last person leaves an open table: it is abandoned and leaves the lobby.
        client.post(f"/api/tables/{table['id']}/leave", headers=as_(creator))
        for _ in range(10):
            message = lobby.receive_json()
            if message["type"] == "removed":
                break
        assert message == {"type": "removed", "id": table["id"]}
        assert client.get("/api/tables").json() == []
        # A game only bots are left playing leaves the lobby at once, and they finish it.
        rules = {"ruleset": "classic", "players": 2, "mode": "single", "stock_empty": "block"}
        table = make_table(client, creator, rules=rules, bots=[{"seat": 1, "level": "random"}])
        client.post(f"/api/tables/{table['id']}/leave", headers=as_(creator))
        for _ in range(50):
            message = lobby.receive_json()
            if message["type"] == "removed":
                break
        assert message == {"type": "removed", "id": table["id"]}
        actor = actor_of(client, table["id"])
        wait_for(lambda: actor.status == "finished", 30)
