"""Game analysis at the server: rated games are analysed on their own, players ask for
theirs, the result is stored (a second look is instant), strangers are refused, and
``accuracy`` sums a player's analysed decisions."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server import create_app
from crazy_eights.server.analysis import accuracy

from .conftest import SettingsFactory, as_, guest, make_table, until


@pytest.fixture
def client(fast_settings: SettingsFactory) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(analysis_worlds=6))) as test_client:
        yield test_client


def play_out(client: TestClient, table_id: str, tokens: dict[int, str]) -> None:
    """The human seats play random legal moves until the game is over."""
    rng = random.Random(3)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url, headers=as_(tokens[0])) as ws0,
        client.websocket_connect(url, headers=as_(tokens[1])) as ws1,
    ):
        sockets = {0: ws0, 1: ws1}
        latest = {s: until(ws, "welcome")["state"] for s, ws in sockets.items()}
        version = latest[0]["version"]
        for _ in range(600):
            for seat, ws in sockets.items():
                if latest[seat]["version"] < version:
                    latest[seat] = until(ws, "state", version=version)["state"]
            view = latest[0]["view"]
            if view["over"]:
                return
            mover = view["current"]
            if mover in sockets:
                move = rng.choice(latest[mover]["legal"])
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            version += 1
    raise AssertionError("the game did not end")


def analysis_of(client: TestClient, table_id: str, seat: int, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        out = client.get(f"/api/tables/{table_id}/analysis?seat={seat}", headers=as_(token))
        assert out.status_code == 200, out.text
        body: dict[str, Any] = out.json()
        if body["status"] not in ("running", "none"):
            return body
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.1)


def test_rated_games_are_analysed_and_stored(client: TestClient) -> None:
    creator_id, creator = guest(client)
    _, other = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    table = make_table(client, creator, rules=rules, bots=[{"seat": 2, "level": "random"}])
    table_id = table["id"]
    early = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(creator))
    assert early.status_code == 409  # not finished (not even started)
    assert (
        client.post(f"/api/tables/{table_id}/sit", json={}, headers=as_(other)).status_code == 200
    )
    play_out(client, table_id, {0: creator, 1: other})

    done = analysis_of(client, table_id, 0, creator)  # started on its own: rated
    assert done["status"] == "done"
    decisions = done["analysis"]["decisions"]
    moves = client.get(f"/api/tables/{table_id}/replay").json()["moves"]
    ours = [m for m in moves if m["seat"] == 0 and m["move"] != "timeout"]
    assert [d["n"] for d in decisions] == [m["n"] + 1 for m in ours]  # n: the replay's step
    for d in decisions:
        assert moves[d["n"] - 1]["move"] == d["played"]
        assert 0.0 <= d["after"] <= d["before"] <= 1.0
    assert done["analysis"]["thresholds"] == {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2}

    again = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(creator))
    # stored: the answer is the same finished analysis at once, not a new one "running"
    assert again.status_code == 200 and again.json() == done

    stranger_id, stranger = guest(client)
    refused = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(stranger))
    assert refused.status_code == 403 and refused.json()["error"] == "not_your_seat"
    bot_seat = client.post(f"/api/tables/{table_id}/analysis?seat=2", headers=as_(creator))
    assert bot_seat.status_code == 403
    assert client.get(f"/api/tables/{table_id}/analysis?seat=99").status_code == 422
    assert client.get("/api/tables/nosuch/analysis?seat=0").status_code == 404
    assert client.get(f"/api/tables/{table_id}/analysis?seat=2").json()["status"] == "none"

    async def figures() -> Any:
        room = client.app.state.room  # type: ignore[attr-defined]
        async with room.engine.connect() as conn:
            return await accuracy(conn, creator_id), await accuracy(conn, stranger_id)

    mine, none = client.portal.call(figures)  # type: ignore[union-attr]
    chosen = [d for d in decisions if not d["forced"]]
    assert none == []
    assert mine == [
        {
            "ruleset": "classic",
            "games": 1,
            "decisions": len(chosen),
            "accurate": sum(1 for d in chosen if d["mark"] is None),
            "accuracy": pytest.approx(
                sum(1 for d in chosen if d["mark"] is None) / len(chosen), abs=1e-4
            ),
        }
    ]


def test_unrated_games_wait_to_be_asked(client: TestClient) -> None:
    _, creator = guest(client)
    _, other = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    table = make_table(
        client, creator, rules=rules, bots=[{"seat": 2, "level": "random"}], hints=True
    )
    table_id = table["id"]
    client.post(f"/api/tables/{table_id}/sit", json={}, headers=as_(other))
    play_out(client, table_id, {0: creator, 1: other})
    time.sleep(0.3)
    assert client.get(f"/api/tables/{table_id}/analysis?seat=1").json()["status"] == "none"
    asked = client.post(f"/api/tables/{table_id}/analysis?seat=1", headers=as_(other))
    assert asked.status_code == 200 and asked.json()["status"] in ("running", "done")
    assert analysis_of(client, table_id, 1, other)["status"] == "done"
