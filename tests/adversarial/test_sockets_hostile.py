"""Finding 6, the socket side: who may chat, logout, tables nobody uses, per-account
limits, a creator who left, the byte size limit, the lobby socket's frames and rate,
strict message types, and a flood counter that forgets."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.server.api import table_socket as sockets

from .inprocess import as_, guest, make_table, open_table_of_two, room, until


def closed_code(ws: Any, limit: int = 2000) -> int | None:
    """Read until the socket closes (its code) or a ``pong`` comes (None)."""
    try:
        for _ in range(limit):
            if ws.receive_json()["type"] == "pong":
                return None
    except WebSocketDisconnect as closed:
        return int(closed.code)
    raise AssertionError("neither closed nor answered")


def three_seats(client: TestClient) -> tuple[str, str, str]:
    _, creator = guest(client)
    _, other = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    table = make_table(client, creator, rules=rules, bots=[{"seat": 2, "level": "random"}])
    client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(other))
    return table["id"], creator, other


def test_anonymous_watchers_cannot_chat_signed_in_ones_each_have_a_bucket(
    tmp_path: Path,
) -> None:
    with room(tmp_path) as client:
        table_id, _, _ = three_seats(client)
        _, watcher_a = guest(client)
        _, watcher_b = guest(client)
        url = f"/ws/tables/{table_id}"
        with (
            client.websocket_connect(url) as anon,
            client.websocket_connect(url, headers=as_(watcher_a)) as a,
            client.websocket_connect(url, headers=as_(watcher_b)) as b,
        ):
            for ws in (anon, a, b):
                until(ws, "welcome")
            anon.send_json({"type": "chat", "text": "buy cheap cards"})
            assert until(anon, "error")["code"] == "sign_in_to_chat"
            for i in range(6):
                a.send_json({"type": "chat", "text": f"a{i}"})
            assert until(a, "error")["code"] == "rate_limited"
            b.send_json({"type": "chat", "text": "b still talks"})
            assert until(b, "chat", text="b still talks")["account"] is not None
        actor = client.app.state.room.tables.get(table_id)  # type: ignore[attr-defined]
        history = [line.text for line in actor.state.chat.lines]
        assert "buy cheap cards" not in history


def test_logout_closes_the_sessions_sockets(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        table_id, creator, _ = three_seats(client)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
            until(ws, "welcome")
            assert client.post("/api/auth/logout", headers=as_(creator)).status_code == 204
            ws.send_json({"type": "ping"})
            assert closed_code(ws) == 4001


def test_a_table_nobody_connects_to_expires(tmp_path: Path) -> None:
    with room(tmp_path, grace_seconds=0.3) as client:
        _, creator = guest(client)
        table = make_table(client, creator, rules={"ruleset": "classic", "players": 3})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if client.get(f"/api/tables/{table['id']}").json()["status"] == "abandoned":
                break
            time.sleep(0.05)
        assert client.get(f"/api/tables/{table['id']}").json()["status"] == "abandoned"
        assert client.get("/api/tables").json() == []


def test_one_account_cannot_open_tables_or_quick_plays_without_end(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        _, token = guest(client)
        codes = []
        for _ in range(12):
            response = client.post(
                "/api/tables",
                json={"rules": {"ruleset": "classic", "players": 3}},
                headers=as_(token),
            )
            codes.append(response.status_code)
        assert 201 in codes and codes[-1] == 429, codes
        assert (
            client.post(
                "/api/tables", json={"rules": {"ruleset": "classic"}}, headers=as_(token)
            ).json()["error"]
            == "too_many_tables"
        )
        _, quick = guest(client)
        codes = [
            client.post(
                "/api/quickplay", json={"ruleset": "classic"}, headers=as_(quick)
            ).status_code
            for _ in range(12)
        ]
        assert 200 in codes and codes[-1] == 429, codes


def test_a_creator_who_left_cannot_start_the_table(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        table_id, creator, _ = open_table_of_two(client)
        client.post(f"/api/tables/{table_id}/leave", headers=as_(creator))
        response = client.post(f"/api/tables/{table_id}/start", headers=as_(creator))
        assert response.status_code == 403 and response.json()["error"] == "not_seated"
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "open"


def test_the_size_limit_counts_bytes(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        table_id, creator, _ = three_seats(client)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
            until(ws, "welcome")
            text = json.dumps({"type": "chat", "text": "€" * 1400}, ensure_ascii=False)
            assert len(text) < 4096 < len(text.encode())
            ws.send_text(text)
            assert until(ws, "error")["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 1009


def test_a_binary_frame_on_the_lobby_socket_is_ignored(tmp_path: Path) -> None:
    with room(tmp_path) as client, client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["type"] == "tables"
        lobby.send_bytes(b"\x00\xff binary")
        lobby.send_bytes(b'{"type": "ping"}')
        lobby.send_text('{"type": "ping"}')
        assert lobby.receive_json() == {"type": "pong"}


def test_the_lobby_socket_is_rate_limited(tmp_path: Path) -> None:
    with room(tmp_path) as client, client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["type"] == "tables"
        for _ in range(400):
            lobby.send_text('{"type": "ping"}')
        pongs = 0
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(400):
                if lobby.receive_json()["type"] == "pong":
                    pongs += 1
        assert closed.value.code == 1008 and pongs < 100


@pytest.mark.parametrize(
    "message",
    [
        {"type": "move", "seq": "0", "move": "draw"},
        {"type": "move", "seq": True, "move": "draw"},
        {"type": "move", "seq": 0.0, "move": "draw"},
        {"type": "ping", "t": "1"},
        {"type": "chat", "text": 5},
    ],
    ids=["seq-text", "seq-bool", "seq-float", "t-text", "chat-number"],
)
def test_message_fields_are_strictly_typed(tmp_path: Path, message: dict[str, Any]) -> None:
    with room(tmp_path) as client:
        table_id, creator, _ = three_seats(client)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
            until(ws, "welcome")
            ws.send_json(message)
            assert until(ws, "error")["code"] == "bad_message"


def test_the_flood_counter_forgets_old_bursts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bursts just over the burst size, on average under the rate, must never be closed
    (the limits scaled so the test takes seconds)."""
    monkeypatch.setattr(sockets, "RATE", 100.0)
    monkeypatch.setattr(sockets, "BURST", 40.0)
    monkeypatch.setattr(sockets, "MAX_FLOOD", 15)
    with room(tmp_path) as client:
        table_id, creator, _ = three_seats(client)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
            until(ws, "welcome")
            for _ in range(8):  # 45 every 0.6 s: 75 a second, under the rate of 100
                for _ in range(45):
                    ws.send_text('{"type": "sync"}')
                time.sleep(0.6)
            ws.send_json({"type": "ping"})
            assert closed_code(ws, 10_000) is None
