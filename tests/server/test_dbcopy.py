"""``crazy-eights db copy``: a room on its SQLite file moves to PostgreSQL with its
accounts, passwords, settings, records, finished games and a game still being played."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from typer.testing import CliRunner

from crazy_eights.cli import app
from crazy_eights.server import ServerSettings, create_app

from .conftest import as_, make_table, until

ROOT = Path(__file__).resolve().parents[2]


def settings(url: str) -> ServerSettings:
    return ServerSettings(
        database_url=url, bot_delay=0.0, bot_workers=0, hash_time_cost=1, hash_memory_kib=8192
    )


def copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *(sys.executable, "-m", "crazy_eights.server.commands", "db", "copy"),
            *("--from", source, "--to", target),
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def social(client: TestClient, token: str) -> None:
    """Ann's friend bob, her pending request to cyd, her block of dan, her settings."""
    people = {}
    for name in ("bob", "cyd", "dan"):
        made = client.post("/api/auth/register", json={"name": name, "password": "s3cret-pass"})
        assert made.status_code == 201, made.text
        people[name] = (made.json()["id"], made.cookies["ce_session"])
        client.cookies.clear()
    bob, cyd, dan = people["bob"], people["cyd"], people["dan"]
    assert client.post("/api/friends/requests", json={"account": bob[0]}, headers=as_(token))
    me = client.get("/api/me", headers=as_(token)).json()["id"]
    accepted = client.post(f"/api/friends/requests/{me}/accept", headers=as_(bob[1]))
    assert accepted.status_code == 200, accepted.text
    asked = client.post("/api/friends/requests", json={"account": cyd[0]}, headers=as_(token))
    assert asked.status_code == 201, asked.text
    blocked = client.post("/api/blocks", json={"account": dan[0]}, headers=as_(token))
    assert blocked.status_code == 201, blocked.text
    chosen = {"refuse_requests": False, "appear_offline": True}
    assert client.put("/api/friends/settings", json=chosen, headers=as_(token)).status_code == 200


def a_room(path: str) -> dict[str, Any]:
    """A room with a registered account that finished a game and has one running."""
    with TestClient(create_app(settings(path))) as client:
        made = client.post("/api/auth/register", json={"name": "ann", "password": "s3cret-pass"})
        assert made.status_code == 201, made.text
        token = made.cookies["ce_session"]
        client.cookies.clear()
        client.put("/api/me/settings", json={"look": "felt"}, headers=as_(token))
        social(client, token)
        rules = {"ruleset": "classic", "players": 2, "mode": "single"}
        done = make_table(client, token, rules=rules, bots=[{"seat": 1, "level": "random"}])
        with client.websocket_connect(f"/ws/tables/{done['id']}", headers=as_(token)) as ws:
            state = until(ws, "welcome")["state"]
            while not state["view"]["over"]:
                if state["view"]["current"] == 0:
                    move = state["legal"][0]
                    move = move if isinstance(move, str) else move["text"]
                    ws.send_json({"type": "move", "seq": state["version"], "move": move})
                state = until(ws, "state")["state"]
        running = make_table(client, token, rules=rules, bots=[{"seat": 1, "level": "random"}])
        with client.websocket_connect(f"/ws/tables/{running['id']}", headers=as_(token)) as ws:
            until(ws, "welcome")
            ws.send_json({"type": "chat", "text": "see you on the other side"})
            until(ws, "chat")
        me = client.get("/api/me", headers=as_(token)).json()
        records = client.get(f"/api/accounts/{me['id']}/records").json()
    # leaving the block shuts the room down, which commits what is queued (the chat line)
    return {
        "account": me,
        "token": token,
        "done": done["id"],
        "running": running["id"],
        "records": records,
    }


def test_a_sqlite_room_moves_to_postgresql_whole(tmp_path: Path, postgres_url: str) -> None:
    source = str(tmp_path / "room.db")
    room = a_room(source)
    copied = copy(source, postgres_url)
    assert copied.returncode == 0, copied.stderr
    assert "Copied" in copied.stdout
    with TestClient(create_app(settings(postgres_url))) as client:
        me = client.get("/api/me", headers=as_(room["token"]))
        assert me.status_code == 200 and me.json()["id"] == room["account"]["id"]  # still in
        login = client.post("/api/auth/login", json={"name": "ann", "password": "s3cret-pass"})
        assert login.status_code == 200
        client.cookies.clear()
        assert client.get("/api/me/settings", headers=as_(room["token"])).json()["look"] == "felt"
        account = room["account"]["id"]
        assert client.get(f"/api/accounts/{account}/records").json() == room["records"]
        history = client.get(f"/api/accounts/{account}/history").json()
        assert [h["table"] for h in history] == [room["done"]]
        replay = client.get(f"/api/tables/{room['done']}/replay", headers=as_(room["token"]))
        assert replay.status_code == 200 and len(replay.json()["moves"]) > 2
        running = room["running"]
        with client.websocket_connect(f"/ws/tables/{running}", headers=as_(room["token"])) as ws:
            welcome = until(ws, "welcome")
            assert welcome["you"]["seat"] == 0 and welcome["state"] is not None
            assert welcome["chat"][-1]["text"] == "see you on the other side"
        friends = client.get("/api/friends", headers=as_(room["token"])).json()
        assert [f["name"] for f in friends["friends"]] == ["bob"]
        assert [r["name"] for r in friends["outgoing"]] == ["cyd"]
        assert friends["settings"]["appear_offline"] is True
        blocked = client.get("/api/blocks", headers=as_(room["token"])).json()
        assert [b["name"] for b in blocked] == ["dan"]
        newcomer = client.post("/api/auth/guest")
        assert newcomer.status_code == 201 and newcomer.json()["id"] > account  # ids go on


def test_copying_into_a_room_that_has_accounts_is_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    source = str(tmp_path / "room.db")
    a_room(source)
    assert copy(source, postgres_url).returncode == 0
    again = copy(source, postgres_url)
    assert again.returncode == 2
    assert "already has accounts" in again.stderr


def test_moderation_moves_with_the_room(tmp_path: Path, postgres_url: str) -> None:
    """Moderators, bans, reports and the audit log are copied, and their ids go on."""
    source = str(tmp_path / "room.db")
    with TestClient(create_app(settings(source))) as client:
        for name in ("mia", "max"):
            made = client.post("/api/auth/register", json={"name": name, "password": "s3cret-pass"})
            assert made.status_code == 201, made.text
        client.cookies.clear()
    runner = CliRunner()
    for args in (["grant", "mia", "moderator"], ["ban", "max", "--days", "3", "--reason", "x"]):
        done = runner.invoke(app, ["admin", *args, "--db", source])
        assert done.exit_code == 0, done.output
    assert copy(source, postgres_url).returncode == 0
    with TestClient(create_app(settings(postgres_url))) as client:
        refused = client.post("/api/auth/login", json={"name": "max", "password": "s3cret-pass"})
        assert refused.status_code == 403 and refused.json()["error"] == "banned"
        login = client.post("/api/auth/login", json={"name": "mia", "password": "s3cret-pass"})
        token = login.cookies["ce_session"]
        client.cookies.clear()
        assert client.get("/api/me/roles", headers=as_(token)).json() == {"roles": ["moderator"]}
        lift = client.post("/api/moderation/bans/2/lift", json={}, headers=as_(token))
        assert lift.status_code == 204  # a new audit line: its id follows the copied ones
        audit = client.get("/api/moderation/audit", headers=as_(token)).json()
        assert [(e["id"], e["action"]) for e in audit] == [(3, "unban"), (2, "ban"), (1, "grant")]
