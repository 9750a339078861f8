"""``crazy-eights admin``: an operator grants and revokes the moderator role, bans,
mutes and lifts them, reads the reports and the audit log, on the room's database
(SQLite and PostgreSQL); a running room picks up a ban made there and closes the
person's sockets; unknown names and roles are refused with a reason."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from crazy_eights.cli import app
from crazy_eights.server import ServerSettings, create_app
from crazy_eights.server.ejection import BANNED

from .conftest import SettingsFactory, as_
from .test_friends import register
from .test_moderation import closed

runner = CliRunner()


def admin(db: str, *args: str) -> Any:
    return runner.invoke(app, ["admin", *args, "--db", db])


@pytest.fixture
def room(fast_settings: SettingsFactory) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings())) as client:
        yield client


def test_grant_ban_mute_reports_and_audit(room: TestClient, database_url: str) -> None:
    _, ada = register(room, "ada")
    bob_id, bob = register(room, "bob")
    body = {"account": bob_id, "reason": "abuse", "text": "rude"}
    filed = room.post("/api/reports", json=body, headers=as_(ada))
    assert filed.status_code == 201

    granted = admin(database_url, "grant", "ada", "moderator")
    assert granted.exit_code == 0 and "ada is a moderator now" in granted.output
    assert "already" in admin(database_url, "grant", "ADA", "moderator").output
    assert room.get("/api/me/roles", headers=as_(ada)).json() == {"roles": ["moderator"]}

    listed = admin(database_url, "reports")
    assert listed.exit_code == 0 and "ada reported bob" in listed.output and "rude" in listed.output

    with room.websocket_connect("/ws/lobby", headers=as_(bob)) as lobby:
        lobby.receive_json()
        banned = admin(database_url, "ban", "bob", "--days", "2", "--reason", "cheating")
        assert banned.exit_code == 0, banned.output
        assert "bob is banned until" in banned.output
        # the room reads the sanctions again (every 15 s; here at once) and closes them
        assert room.portal is not None
        room.portal.call(room.app.state.room.moderation.refresh)  # type: ignore[attr-defined]
        code, reason = closed(lobby)
        assert code == BANNED and "cheating" in reason
    assert room.get("/api/me", headers=as_(bob)).status_code == 401
    login = room.post("/api/auth/login", json={"name": "bob", "password": "password-1"})
    assert login.status_code == 403 and "banned until" in login.json()["detail"]

    assert admin(database_url, "unban", "bob").exit_code == 0
    muted = admin(database_url, "mute", "bob", "--minutes", "15")
    assert muted.exit_code == 0 and "bob is muted until" in muted.output
    assert admin(database_url, "unmute", "bob", "--reason", "ok now").exit_code == 0
    assert admin(database_url, "revoke", "ada", "moderator").exit_code == 0
    assert room.get("/api/me/roles", headers=as_(ada)).json() == {"roles": []}

    log = admin(database_url, "audit")
    assert log.exit_code == 0
    actions = [line.split("  ")[2].split()[0] for line in log.output.strip().splitlines()]
    assert actions == ["revoke", "unmute", "mute", "unban", "ban", "grant"]
    assert "operator (" in log.output and "ban bob (until" in log.output


def test_refusals_say_why_and_change_nothing(tmp_path: Any) -> None:
    db = str(tmp_path / "room.db")
    missing = admin(db, "grant", "nobody", "moderator")
    assert missing.exit_code == 2 and "There is no player named 'nobody'" in missing.output
    assert admin(db, "reports").output.strip() == "No open reports."
    assert admin(db, "audit").output.strip() == "The audit log is empty."
    settings = ServerSettings(database_url=db, hash_time_cost=1, hash_memory_kib=8192)
    with TestClient(create_app(settings)) as client:
        register(client, "ada")
    role = admin(db, "grant", "ada", "admin")
    assert role.exit_code == 2 and "There is no role 'admin'" in role.output
    never = admin(db, "unban", "ada")
    assert never.exit_code == 2 and "ada is not banned now" in never.output
    no_reason = admin(db, "ban", "ada", "--days", "1", "--reason", " ")
    assert no_reason.exit_code == 2 and "Give a reason" in no_reason.output
    zero_days = admin(db, "ban", "ada", "--days", "0", "--reason", "x")
    assert zero_days.exit_code == 2
    assert admin(db, "audit").output.strip() == "The audit log is empty."
