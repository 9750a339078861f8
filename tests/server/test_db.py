"""The database layer on SQLite and PostgreSQL alike: the group-commit writer keeps a bad
row to itself, and text no database can hold (a NUL) is refused before it gets there."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.server import ServerSettings, db

from ..conftest import run_async
from ..services import free_port
from .conftest import SettingsFactory, as_, guest, make_table, until


def test_one_bad_row_fails_only_its_own_writer(fast_settings: SettingsFactory) -> None:
    """Rows of every table share a commit; one the database refuses (here a move of a
    table that does not exist) must not take the others' moves down with it."""

    async def write() -> tuple[list[Any], list[Any], list[Any], int]:
        engine = db.make_engine(fast_settings().sqlalchemy_url())
        await db.migrate(engine)
        async with engine.begin() as conn:
            await conn.execute(
                db.tables.insert().values(
                    id="t_1",
                    name="one",
                    ruleset="classic",
                    rules={},
                    seed=1,
                    public=True,
                    hints=False,
                    takeover_after=2,
                    status="playing",
                    created_at=db.now(),
                )
            )
        writer = db.Writer(engine)
        try:
            writer.write_later(db.chat, {"table_id": "t_1", "text": "hi", "at": db.now()})
            waiters = [
                asyncio.ensure_future(
                    writer.write(
                        db.moves, {"table_id": t, "n": 0, "seat": 0, "move": "draw", "at": 0.0}
                    )
                )
                for t in ("t_1", "t_missing")
            ]
            await asyncio.sleep(0)  # all three rows wait in the queue: one batch
            writer.start()
            results = await asyncio.gather(*waiters, return_exceptions=True)
            async with engine.connect() as conn:
                moves = (await conn.execute(sa.select(db.moves))).all()
                chat = (await conn.execute(sa.select(db.chat))).all()
        finally:
            await writer.stop()
            await engine.dispose()
        return results, moves, chat, writer.commits

    results, moves, chat, commits = run_async(write())
    assert results[0] is None and "foreign key" in str(results[1]).lower()
    assert [(m.table_id, m.move) for m in moves] == [("t_1", "draw")]
    assert [c.text for c in chat] == ["hi"]
    assert commits == 2  # the batch failed; the chat line and the good move, each alone


def test_a_nul_is_refused_with_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    """PostgreSQL cannot store or even compare text holding a NUL: every way one can come
    in is refused up front, the same on both databases, instead of a 500 or a lost row."""
    _, token = guest(client)
    table = make_table(client, token)
    for address in (
        f"/api/tables/{table['id']}%00",
        "/api/tables/a%00b/replay",
        "/api/invite/a%00b",
        "/api/tables?code=a%00b",
    ):
        response = client.get(address, headers=as_(token))
        assert response.status_code == 400, address
        assert response.json()["error"] == "bad_request"
    response = client.post(
        "/api/tables",
        json={"rules": {"ruleset": "classic", "players": 2}, "name": "a\x00b"},
        headers=as_(token),
    )
    assert response.status_code == 422 and "control characters" in response.json()["detail"].lower()
    with pytest.raises(WebSocketDisconnect) as closed:  # refused before it is accepted
        client.websocket_connect(f"/ws/tables/{table['id']}%00", headers=as_(token)).__enter__()
    assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
        until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "hi\x00there"})
        error = until(ws, "error")
        assert error["code"] == "bad_message" and "control characters" in error["reason"]
        ws.send_json({"type": "chat", "text": "hello\tthere\n"})
        assert until(ws, "chat")["text"] == "hello there"
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
        assert [line["text"] for line in until(ws, "welcome")["chat"]] == ["hello there"]
    assert client.get("/api/tables", headers=as_(token)).json()[0]["id"] == table["id"]


MIGRATE = """
import asyncio, sys
from crazy_eights.server import db
asyncio.run(db.migrate(db.make_engine(sys.argv[1])))
"""


def test_servers_starting_together_migrate_an_empty_database_once(postgres_url: str) -> None:
    """Card-room processes started at once on one new PostgreSQL database: one creates
    the schema, the others wait for it and find it done (none fails on 'already exists')."""
    url = ServerSettings(database_url=postgres_url).sqlalchemy_url()
    env = dict(os.environ, PYTHONPATH=str(Path(db.__file__).parents[2]))
    starts = [
        subprocess.Popen([sys.executable, "-c", MIGRATE, url], env=env, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=60)[1].decode() for p in starts]
    assert [p.returncode for p in starts] == [0] * 4, "\n".join(errors)

    async def versions() -> list[str]:
        engine = db.make_engine(url)
        try:
            async with engine.connect() as conn:
                query = sa.text("SELECT version_num FROM alembic_version")
                return list((await conn.execute(query)).scalars())
        finally:
            await engine.dispose()

    head = ScriptDirectory.from_config(db.alembic_config()).get_current_head()
    assert run_async(versions()) == [head]


def test_a_database_out_of_reach_fails_the_batch_at_once() -> None:
    """Tried alone, the first row shows it is the database, not a row: the rest of the
    batch fails with it instead of each row waiting for its own refusal."""
    pytest.importorskip("asyncpg")
    nobody = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/none"
    attempts: list[int] = []

    async def write() -> list[Any]:
        engine = db.make_engine(nobody)
        writer = db.Writer(engine)
        insert = writer._insert

        async def counted(grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
            attempts.append(sum(len(rows) for rows in grouped.values()))
            await insert(grouped)

        writer._insert = counted  # type: ignore[method-assign]
        waiters = [
            asyncio.ensure_future(writer.write(db.chat, {"table_id": "t", "text": str(i)}))
            for i in range(3)
        ]
        await asyncio.sleep(0)
        writer.start()
        try:
            return await asyncio.gather(*waiters, return_exceptions=True)
        finally:
            await writer.stop()
            await engine.dispose()

    results = run_async(write())
    assert all(isinstance(r, OSError | sa.exc.DBAPIError) for r in results), results
    assert attempts == [3, 1]  # the batch, then its first row alone


def test_the_writer_reconnects_when_postgresql_drops_its_connection(postgres_url: str) -> None:
    """The group commit keeps one connection; when the server drops it between batches
    (a restart, an idle timeout), the next batch opens another instead of failing."""

    async def write() -> list[int]:
        engine = db.make_engine(ServerSettings(database_url=postgres_url).sqlalchemy_url())
        await db.migrate(engine)
        async with engine.begin() as conn:
            await conn.execute(
                db.tables.insert().values(
                    id="t_1",
                    name="one",
                    ruleset="classic",
                    rules={},
                    seed=1,
                    public=True,
                    hints=False,
                    takeover_after=2,
                    status="playing",
                    created_at=db.now(),
                )
            )
        writer = db.Writer(engine)
        writer.start()
        try:
            for n in range(3):
                await writer.write(
                    db.moves, {"table_id": "t_1", "n": n, "seat": 0, "move": "draw", "at": 0.0}
                )
                async with engine.begin() as conn:  # every other session is cut off
                    await conn.execute(
                        sa.text(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                        )
                    )
            async with engine.connect() as conn:
                return list((await conn.execute(sa.select(db.moves.c.n))).scalars())
        finally:
            await writer.stop()
            await engine.dispose()

    assert sorted(run_async(write())) == [0, 1, 2]
