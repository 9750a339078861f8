"""Persistence and records: moves are in the database before anyone hears of them, a
restart rebuilds every unfinished table by replay, finished games count in records."""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets.sync.client as wsclient
from starlette.testclient import TestClient

from crazy_eights.server import create_app, db, stats
from crazy_eights.server.room import Room

from ..adversarial.loopback import free_port, start_server
from ..conftest import run_async
from .conftest import SettingsFactory, as_, eventually, guest, make_table, until


def test_restart_rebuilds_unfinished_tables(fast_settings: SettingsFactory) -> None:
    settings = fast_settings()
    with TestClient(create_app(settings)) as client:
        _, token = guest(client)
        table = make_table(client, token, rules={"ruleset": "classic", "players": 3})
        client.post(f"/api/tables/{table['id']}/start", headers=as_(token))
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
            state = until(ws, "welcome")["state"]
            while state["view"]["current"] != 0:
                state = until(ws, "state", version=state["version"] + 1)["state"]
            ws.send_json({"type": "move", "seq": state["version"], "move": state["legal"][0]})
            ws.send_json({"type": "chat", "text": "remember me"})
            until(ws, "chat")  # kept before it is echoed; what is not yet echoed may be lost
        before = client.app.state.room.tables.get(table["id"])  # type: ignore[attr-defined]
        moves, hand = before.game.moves, before.game.view(0)["hand"]
    with TestClient(create_app(settings)) as client:
        after = client.app.state.room.tables.get(table["id"])  # type: ignore[attr-defined]
        assert after.game.moves[: len(moves)] == moves
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
            welcome = until(ws, "welcome")
            assert welcome["you"]["seat"] == 0
            assert welcome["chat"][-1]["text"] == "remember me"
            if len(after.game.moves) == len(moves):
                assert welcome["state"]["view"]["hand"] == hand


def test_finished_games_make_records_and_leaving_is_a_loss(client: TestClient) -> None:
    account, token = guest(client)
    table = make_table(
        client,
        token,
        rules={"ruleset": "classic", "players": 2, "mode": "single"},
        bots=[{"seat": 1, "level": "random"}],
    )
    response = client.post(f"/api/tables/{table['id']}/leave", headers=as_(token))
    assert response.json()["seats"][0]["left"] is True
    actor = client.app.state.room.tables.get(table["id"])  # type: ignore[attr-defined]
    eventually(lambda: actor.status == "finished", "the bot finishing the game")
    records = client.get(f"/api/accounts/{account}/records").json()["records"]
    assert records[0]["games"] == 1 and records[0]["wins"] == 0 and records[0]["streak"] == 0
    history = client.get(f"/api/accounts/{account}/history").json()
    assert history[0]["left"] is True and history[0]["won"] is False
    assert records[0]["rated_games"] == 0  # a guest's game moves no rating (issue 23)
    replay = client.get(f"/api/tables/{table['id']}/replay").json()
    assert len(replay["steps"]) == len(replay["moves"]) + 1
    assert all(isinstance(h, list) for h in replay["steps"][0]["hands"])


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 is POSIX")
def test_kill_9_and_restart_lose_nothing(database_url: str) -> None:
    db, port = database_url, free_port()
    server = start_server(db, port=port, bot_workers=0, bot_delay=0.0)
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}")
        http.post("/api/auth/guest")
        table = http.post(
            "/api/tables",
            json={"rules": {"ruleset": "classic", "players": 2, "mode": "match"}},
        ).json()
        http.post(f"/api/tables/{table['id']}/start")
        cookie = f"ce_session={http.cookies['ce_session']}"
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
        played = 0
        with wsclient.connect(url, additional_headers={"cookie": cookie}) as ws:
            import json

            seen = None
            while played < 6:
                message = json.loads(ws.recv(timeout=10))
                state = message.get("state")
                if not state or state["view"]["over"]:
                    continue
                if state["legal"] and state["version"] != seen:
                    seen = state["version"]
                    ws.send(json.dumps({"type": "move", "seq": seen, "move": state["legal"][0]}))
                    played += 1
            # the answer to our last move is the proof it was committed
            while True:
                state = json.loads(ws.recv(timeout=10)).get("state")
                if state and state["ack"] == seen:
                    break
            version, hand = state["version"], state["view"]["hand"]
    finally:
        server.stop(signal.SIGKILL)
    server = start_server(db, port=port, bot_workers=0, bot_delay=0.0)
    try:
        with wsclient.connect(url, additional_headers={"cookie": cookie}) as ws:
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome"
            assert welcome["state"]["version"] >= version
            if welcome["state"]["version"] == version:
                assert welcome["state"]["view"]["hand"] == hand
    finally:
        server.stop(signal.SIGKILL)


def test_games_finishing_together_all_count_in_a_shared_record(
    fast_settings: SettingsFactory,
) -> None:
    """A bot account plays at many tables: games that finish at the same moment each add
    to its record and rating, none overwrites another's (and the first ones make it)."""

    async def finish_together(games: int) -> Any:
        room = Room(fast_settings())
        await room.open()
        try:
            bots = [await room.accounts.bot_account(level) for level in ("random", "heuristic")]
            result = {"standings": [0, 1], "winner": 0, "points": [0, 5]}

            async def finish() -> None:
                async with room.engine.begin() as conn:
                    seats = [(0, bots[0], False), (1, bots[1], False)]
                    await stats.record_game(
                        conn, ruleset="classic", rated=True, seats=seats, result=result
                    )

            await asyncio.gather(*(finish() for _ in range(games)))
            async with room.engine.connect() as conn:
                query = sa.select(db.records).order_by(db.records.c.account_id)
                return (await conn.execute(query)).all()
        finally:
            await room.close()

    winner, loser = run_async(finish_together(12))
    assert (winner.games, winner.wins, winner.rated_games) == (12, 12, 12)
    assert (loser.games, loser.wins, loser.points) == (12, 0, 60)
    assert winner.mu > loser.mu
