"""Issue 20, item 6, against hostile players: every moderator route refuses a
non-moderator (403) and changes nothing; a flood of reports is throttled (429) and
stops at the open-report limit even when sent all at once; a ban made on one node
closes the person's sockets on another (the bus between them); a banned person can't
open a socket again. On SQLite and on PostgreSQL where the database matters."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from crazy_eights.server import db, reports
from crazy_eights.server.bus import MemoryBus
from crazy_eights.server.ejection import BANNED
from crazy_eights.server.moderation import Actor, Moderation
from crazy_eights.server.ratelimit import KeyedBuckets
from tests.server.test_friends import register
from tests.server.test_moderation import closed, make_moderator

from .conftest import Call, at_once, statuses, warm


def cookie(token: str) -> dict[str, str]:
    return {"cookie": f"ce_session={token}"}


def count(client: TestClient, table: sa.Table) -> int:
    room = client.app.state.room  # type: ignore[attr-defined]

    async def read() -> int:
        async with room.engine.connect() as conn:
            return int(
                (await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one()
            )

    assert client.portal is not None
    return client.portal.call(read)


def test_a_non_moderator_is_refused_everywhere_and_changes_nothing(db_client: TestClient) -> None:
    _, ada = register(db_client, "ada")
    bob_id, bob = register(db_client, "bob")
    mod = make_moderator(db_client)
    filed = db_client.post(
        "/api/reports", json={"account": bob_id, "reason": "abuse"}, headers=cookie(ada)
    )
    report = filed.json()["id"]
    attempts = [
        ("GET", "/api/moderation/reports", None),
        ("GET", "/api/moderation/reports?status=all", None),
        ("GET", "/api/moderation/sanctions", None),
        ("GET", "/api/moderation/audit", None),
        ("POST", f"/api/moderation/reports/{report}/resolve", {"note": "mine now"}),
        ("POST", "/api/moderation/mutes", {"account": bob_id, "minutes": 60, "reason": "x"}),
        ("POST", "/api/moderation/bans", {"account": bob_id, "days": 9, "reason": "x"}),
        ("POST", "/api/moderation/bans", {"name": "mod", "days": 9, "reason": "x"}),
        ("POST", f"/api/moderation/bans/{bob_id}/lift", {}),
        ("POST", f"/api/moderation/mutes/{bob_id}/lift", {}),
        ("POST", "/api/moderation/bans", {"junk": True}),  # refused before it is read
    ]
    for method, url, body in attempts:
        response = db_client.request(method, url, json=body, headers=cookie(ada))
        assert response.status_code == 403, (url, response.text)
        assert response.json()["error"] == "not_a_moderator"
        signed_out = db_client.request(method, url, json=body)
        assert signed_out.status_code == 401, url
    assert count(db_client, db.sanctions) == 0
    assert count(db_client, db.moderation_audit) == 1  # the grant of the moderator only
    open_reports = db_client.get("/api/moderation/reports", headers=cookie(mod)).json()
    assert [r["status"] for r in open_reports] == ["open"]
    assert db_client.get("/api/me", headers=cookie(bob)).status_code == 200


def test_a_report_flood_is_throttled(db_client: TestClient) -> None:
    _, ada = register(db_client, "ada")
    targets = [register(db_client, f"pal{n}")[0] for n in range(8)]
    codes = [
        db_client.post(
            "/api/reports", json={"account": t, "reason": "other"}, headers=cookie(ada)
        ).status_code
        for t in targets
    ]
    assert codes == [201] * 5 + [429] * 3, codes
    refused = db_client.post(
        "/api/reports", json={"account": targets[0], "reason": "abuse"}, headers=cookie(ada)
    )
    assert refused.json()["error"] == "throttled" and "Retry-After" in refused.headers
    assert count(db_client, db.reports) == 5


def test_reports_at_once_stop_at_the_open_limit(
    db_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports, "MAX_OPEN", 3)
    db_client.app.state.room.report_asks = KeyedBuckets(1000.0, burst=1000.0)  # type: ignore[attr-defined]
    _, ada = register(db_client, "ada")
    targets = [register(db_client, f"pal{n}")[0] for n in range(6)]
    warm(db_client)
    burst = [
        Call("POST", "/api/reports", json={"account": t, "reason": "other"}, headers=cookie(ada))
        for t in targets
    ]
    codes = statuses(at_once(db_client, burst))
    assert codes == [201] * 3 + [429] * 3, codes
    assert count(db_client, db.reports) == 3


def test_a_banned_person_cant_open_a_socket_again(client: TestClient) -> None:
    bob_id, bob = register(client, "bob")
    mod = make_moderator(client)
    with client.websocket_connect("/ws/lobby", headers=cookie(bob)) as lobby:
        lobby.receive_json()
        client.post(
            "/api/moderation/bans",
            json={"name": "bob", "days": 1, "reason": "flooding"},
            headers=cookie(mod),
        )
        assert closed(lobby)[0] == BANNED
    room = client.app.state.room  # type: ignore[attr-defined]
    # even a session made before the ban landed (a sign-in racing it) is refused
    assert client.portal is not None
    token = client.portal.call(room.accounts.new_session, bob_id)
    for url in ("/ws/lobby", "/ws/match"):
        with client.websocket_connect(url, headers=cookie(token)) as ws:
            code, reason = closed(ws)
            assert code == BANNED and "flooding" in reason, url


def test_a_ban_on_one_node_closes_sockets_on_another(tmp_path: Any) -> None:
    """Two nodes' moderation services on one bus (as Redis relays it): a ban made on
    the first reaches the second's sockets and its chat check; lifting it too."""

    async def run() -> None:
        engine = db.make_engine(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}")
        await db.migrate(engine)
        async with engine.begin() as conn:
            await conn.execute(
                db.accounts.insert().values(
                    id=7, name="bob", name_key="bob", display_name="bob", created_at=0.0
                )
            )
        bus = MemoryBus()
        here, there = Moderation(engine, bus=bus), Moderation(engine, bus=bus)
        closed_there: list[tuple[int, str]] = []
        there.on_ban.append(lambda account, words: closed_there.append((account, words)))
        await here.start()
        await there.start()
        bob = await here.find(name="bob")
        await here.sanction(Actor("operator"), bob, "ban", 3600, "cheating")
        await here.sanction(Actor("operator"), bob, "mute", 600, "spam")
        for _ in range(100):
            if closed_there and there.muted(7):
                break
            await asyncio.sleep(0.01)
        assert [a for a, _ in closed_there] == [7] and "cheating" in closed_there[0][1]
        assert there.banned(7) is not None and "muted until" in (there.muted(7) or "")
        await here.lift(Actor("operator"), bob, "mute")
        for _ in range(100):
            if there.muted(7) is None:
                break
            await asyncio.sleep(0.01)
        assert there.muted(7) is None and there.banned(7) is not None
        await there.refresh()  # reading again finds no new ban: nothing closed twice
        assert len(closed_there) == 1
        await here.stop()
        await there.stop()
        await engine.dispose()

    asyncio.run(run())
