"""The database: schema, engine set-up, migrations on start, and the group-commit writer.

SQLAlchemy Core tables, the same on SQLite (a WAL-mode file, the default) and PostgreSQL
(asyncpg). The schema is created and upgraded by the Alembic migrations in
``server/migrations``; ``metadata`` here mirrors them for queries. Times are Unix seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from crazy_eights.extras import require

from .metrics import COMMIT_SECONDS, timed

log = logging.getLogger(__name__)

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False, unique=True),
    # the name NFKC-normalised and case-folded (names.name_key): one account per spelling
    sa.Column("name_key", sa.String(64), nullable=True),
    sa.Column("display_name", sa.String(40), nullable=False),
    sa.Column("avatar", sa.String(16), nullable=False, server_default="default"),
    sa.Column("password_hash", sa.String(200), nullable=True),
    sa.Column("guest", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("bot_level", sa.String(16), nullable=True, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

sa.Index("ux_accounts_name_key", accounts.c.name_key, unique=True)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("invite", sa.String(16), nullable=True, unique=True),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("takeover_after", sa.Integer, nullable=False),
    sa.Column("status", sa.String(12), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("epoch", sa.BigInteger, nullable=True),
    sa.Column("rematch", sa.String(24), nullable=True),  # the follow-up table ("Play again")
    # a table another process plays in a chat channel ("irc:irc.example.net:#cards")
    sa.Column("place", sa.String(200), nullable=True, index=True),
    sa.Column("unrated", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True, index=True),
    sa.Column("bot_level", sa.String(16), nullable=True),
    sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("move", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("epoch", sa.BigInteger, nullable=True),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

records = sa.Table(
    "records",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("ruleset", sa.String(16), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
    sa.Column("points", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("streak", sa.Integer, nullable=False, server_default="0"),
    sa.Column("best_streak", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
)

account_settings = sa.Table(
    "account_settings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True, index=True),
    sa.Column("ruleset", sa.String(16), nullable=False),
    # running | done | failed; payload is bots.analysis.AnalysisDict once done
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("payload", sa.JSON, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
)

MEASURE_COUNTS = (
    "games",
    "turns",
    "shed",
    "rounds",
    "hand_points",
    "pressure_turns",
    "disruptions",
    "disruption_cost",
    "wilds_played",
    "wilds_needed",
    "declarations",
    "declarations_long",
    "draws_forced",
)
"""The running totals of ``measures`` (``evaluation.Counts`` has one field for each)."""

measures = sa.Table(
    "measures",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("ruleset", sa.String(16), primary_key=True),
    *(
        sa.Column(name, sa.BigInteger, nullable=False, server_default="0")
        for name in MEASURE_COUNTS
    ),
)

unlocks = sa.Table(
    "unlocks",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("achievement", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(24), nullable=True),
    sa.Column("earned_at", sa.Float, nullable=False),
)

# quick play's tickets of a room on one process (a cluster keeps them in Redis), so that a
# server that stops does not forget who was waiting (ticketstore.KeptQueueStore)
match_tickets = sa.Table(
    "match_tickets",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("id", sa.String(24), nullable=False),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("avatar", sa.String(16), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("length", sa.String(8), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
)

# chat names (a nick on a network) and the accounts they play as: a chat guest made on
# first sight, or the account the nick was linked to; and the one-time links (``!link``)
chat_names = sa.Table(
    "chat_names",
    metadata,
    sa.Column("network", sa.String(200), primary_key=True),
    sa.Column("nick_key", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("linked", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.Float, nullable=False),
)

chat_links = sa.Table(
    "chat_links",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("network", sa.String(200), nullable=False),
    sa.Column("nick", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float, nullable=True),
)

# friends (a friendship is two rows, one from each side), pending requests, blocks and
# each account's social choices and last sighting (friends.py, blocks.py, presence.py)
friends = sa.Table(
    "friends",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("friend_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("since", sa.Float),
)

friend_requests = sa.Table(
    "friend_requests",
    metadata,
    sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

social = sa.Table(
    "social",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("refuse_requests", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("appear_offline", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("last_seen", sa.Float, nullable=True),
)

# invitations to a table and challenges between friends (invitations.py)
invitations = sa.Table(
    "invitations",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(10), nullable=False),  # invite, challenge
    sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("table_id", sa.String(24), nullable=True, index=True),
    sa.Column("rules", sa.JSON, nullable=True),  # a challenge's ruleset, players, length
    sa.Column("status", sa.String(10), nullable=False),  # pending accepted declined withdrawn
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

# moderation (moderation.py, reports.py): roles such as moderator, mutes and bans with
# their end, reports with what was attached, and the audit log of every action
account_roles = sa.Table(
    "account_roles",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("role", sa.String(16), primary_key=True),
    sa.Column("granted_at", sa.Float, nullable=False),
    sa.Column("granted_by", sa.String(64), nullable=False),
)

sanctions = sa.Table(
    "sanctions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("kind", sa.String(8), nullable=False),  # mute | ban
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("until", sa.Float, nullable=False, index=True),
    sa.Column("by_name", sa.String(64), nullable=False),
    sa.Column("lifted_at", sa.Float, nullable=True),
    sa.Column("lifted_by", sa.String(64), nullable=True),
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("target_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.String(1000), nullable=False),
    sa.Column("table_id", sa.String(24), nullable=True),
    sa.Column("context", sa.JSON, nullable=False),  # the table and its chat lines, as filed
    sa.Column("status", sa.String(12), nullable=False, index=True),  # open | resolved
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("resolved_by", sa.String(64), nullable=True),
    sa.Column("resolution", sa.String(500), nullable=True),
)

moderation_audit = sa.Table(
    "moderation_audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("actor_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("actor_name", sa.String(64), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("target_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("target_name", sa.String(64), nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("detail", sa.String(200), nullable=False),
)

MIGRATIONS = Path(__file__).parent / "migrations"


def dialect_insert(conn: AsyncConnection, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    """``table.insert()`` in the connection's own dialect, for ``on_conflict_do_*``
    (an upsert, or an insert that skips rows already there); both dialects spell them
    the same way."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """An Alembic config for the packaged migrations (optionally on an open connection)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


_SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=30000",
)


def make_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite files get WAL, normal sync and a busy timeout.

    PostgreSQL needs asyncpg (the ``postgres`` extra): without it, ``MissingExtra``.
    """
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            for pragma in _SQLITE_PRAGMAS:
                cursor.execute(pragma)
            cursor.close()

        return engine
    if url.startswith("postgresql+asyncpg"):
        require("asyncpg", extra="postgres", feature="PostgreSQL (a postgresql:// database URL)")
    return create_async_engine(url, pool_size=10, max_overflow=20)


MIGRATION_LOCK = 0x6365_6D69_6772  # any number; PostgreSQL advisory lock of `migrate`


async def migrate(engine: AsyncEngine) -> None:
    """Create or upgrade the schema to the newest migration.

    On PostgreSQL, servers starting together take turns under an advisory lock held to
    the end of the migration's transaction: the first migrates, the others then find
    the schema at its newest and do nothing.
    """
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            lock = sa.text("SELECT pg_advisory_xact_lock(:key)")
            await conn.execute(lock, {"key": MIGRATION_LOCK})
        await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))


class _SqliteSink:
    """Inserts a batch on one plain ``sqlite3`` connection in its own thread.

    On SQLite the group commit is the hot path of every move; a whole batch (every
    statement and the commit) is one hop to this thread instead of several round trips
    through SQLAlchemy and aiosqlite, which cost the event loop most of a move's time.
    """

    CHECKPOINT_EVERY = 200  # commits (a few WAL pages each) between checkpoints

    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._sql: dict[tuple[str, tuple[str, ...]], str] = {}
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="db-writer")
        # Checkpoints (copying the WAL into the file, with its fsync) run on a connection
        # of their own, so a commit never waits for one.
        self._checkpointer = ThreadPoolExecutor(1, thread_name_prefix="db-checkpoint")
        self._checkpointing = False
        self._commits = 0  # since the last checkpoint

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            for pragma in _SQLITE_PRAGMAS:
                conn.execute(pragma)
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._conn = conn
        return self._conn

    def _checkpoint(self) -> None:
        try:
            conn = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()
        except sqlite3.Error:
            log.exception("checkpoint failed")
        finally:
            self._checkpointing = False

    def _insert(self, grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for table, rows in grouped.items():
                names = tuple(rows[0])
                sql = _insert_sql(self._sql, table, names, lambda i: "?")
                conn.executemany(sql, [tuple(row[n] for n in names) for row in rows])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._commits += 1
        if self._commits >= self.CHECKPOINT_EVERY and not self._checkpointing:
            self._commits = 0
            self._checkpointing = True
            self._checkpointer.submit(self._checkpoint)

    async def insert(self, grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._insert, grouped)

    def close(self) -> None:
        def shut() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        self._thread.submit(shut)
        self._thread.shutdown(wait=True)
        self._checkpointer.shutdown(wait=True)


def _insert_sql(
    cache: dict[tuple[str, tuple[str, ...]], str],
    table: sa.Table,
    names: tuple[str, ...],
    mark: Callable[[int], str],
) -> str:
    """``INSERT INTO table (names) VALUES (...)`` with the driver's ``mark`` for the
    i-th parameter, built once per table and column set."""
    key = (table.name, names)
    sql = cache.get(key)
    if sql is None:
        columns = ", ".join(f'"{name}"' for name in names)
        marks = ", ".join(mark(i) for i in range(1, len(names) + 1))
        sql = cache[key] = f'INSERT INTO "{table.name}" ({columns}) VALUES ({marks})'
    return sql


class _PostgresSink:
    """Inserts a batch on PostgreSQL through one asyncpg connection of its own.

    Under load the group commit through SQLAlchemy's asyncio layer (a greenlet hop and
    statement compilation for every execute) took about 40 % of a cluster node's CPU;
    a prepared ``executemany`` in one transaction is the same SQL without that. A lost
    connection is raised as ``ConnectionError`` (the database, not the row) and
    opened again for the next batch.
    """

    def __init__(self, url: sa.URL) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._asyncpg: Any = require("asyncpg", extra="postgres", feature="PostgreSQL")
        self._conn: Any = None
        self._sql: dict[tuple[str, tuple[str, ...]], str] = {}

    async def insert(self, grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
        lost = (OSError, self._asyncpg.InterfaceError, self._asyncpg.PostgresConnectionError)
        try:
            transaction = await self._begin()
            try:
                for table, rows in grouped.items():
                    names = tuple(rows[0])
                    sql = _insert_sql(self._sql, table, names, lambda i: f"${i}")
                    await self._conn.executemany(
                        sql, [tuple(row[n] for n in names) for row in rows]
                    )
            except BaseException:
                with contextlib.suppress(*lost):
                    await transaction.rollback()
                raise
            await transaction.commit()
        except lost as exc:
            await self.close()
            raise ConnectionError(f"PostgreSQL connection lost: {exc}") from exc

    async def _begin(self) -> Any:
        """A started transaction; a kept connection that turns out to be gone (the server
        restarted, an idle timeout) is replaced once, as nothing was written on it yet.

        A connection the server has just cut off can fail in more ways than ``lost``
        (asyncpg's ``InternalClientError`` while the termination notice is still being
        read), so any failure to start is taken as a dead connection: beginning has no
        effect to lose, and a database that is really down fails again on the new one."""
        if self._conn is not None and not self._conn.is_closed():
            transaction = self._conn.transaction()
            try:
                await transaction.start()
                return transaction
            except Exception:
                conn, self._conn = self._conn, None
                conn.terminate()
        self._conn = await self._asyncpg.connect(self._dsn)
        transaction = self._conn.transaction()
        await transaction.start()
        return transaction

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)


_Item = tuple[sa.Table, dict[str, Any], "asyncio.Future[None] | None"]  # row and its waiter


class Writer:
    """Group commit: rows from every table actor are inserted in one transaction per batch.

    ``await write(...)`` returns once the row is committed, so a move is durable before
    it is broadcast, yet many tables share each commit. ``write_later`` does not wait.
    On a SQLite file the batch goes through ``_SqliteSink``; otherwise through the engine.
    """

    def __init__(self, engine: AsyncEngine, *, batch: int = 500) -> None:
        self._engine = engine
        self._batch = batch
        self._queue: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._sink: _SqliteSink | None = None
        self._pg: _PostgresSink | None = None
        url = engine.url
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._sink = _SqliteSink(url.database)
        elif url.get_driver_name() == "asyncpg" and not url.query:
            self._pg = _PostgresSink(url)  # (connection options in the URL: SQLAlchemy's)
        self.commits = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="db-writer")

    async def stop(self) -> None:
        """Commit every row queued so far, then stop. The queue empties when the last
        batch is taken, not when it is committed: wait for the batch itself (or for a
        writer that has died), so a row written just before shutdown is not lost."""
        if self._task is not None:
            written = asyncio.ensure_future(self._queue.join())
            await asyncio.wait({written, self._task}, return_when=asyncio.FIRST_COMPLETED)
            written.cancel()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._sink is not None:
            self._sink.close()
        if self._pg is not None:
            await self._pg.close()

    async def write(self, table: sa.Table, row: dict[str, Any]) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((table, row, future))
        await future

    def write_later(self, table: sa.Table, row: dict[str, Any]) -> None:
        self._queue.put_nowait((table, row, None))

    async def _insert(self, grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
        with timed(COMMIT_SECONDS):
            await self._write_batch(grouped)

    async def _write_batch(self, grouped: dict[sa.Table, list[dict[str, Any]]]) -> None:
        if self._sink is not None:
            await self._sink.insert(grouped)
            return
        if self._pg is not None:
            await self._pg.insert(grouped)
            return
        async with self._engine.begin() as conn:
            for table, rows in grouped.items():
                await conn.execute(table.insert(), rows)

    async def _run(self) -> None:
        while True:
            items = [await self._queue.get()]
            while len(items) < self._batch and not self._queue.empty():
                items.append(self._queue.get_nowait())
            errors = await self._commit(items)
            for (_, _, future), error in zip(items, errors, strict=True):
                self._queue.task_done()
                if future is None or future.done():
                    continue
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

    async def _commit(self, items: list[_Item]) -> list[Exception | None]:
        """Insert a batch in one transaction; each row's error (None: committed).

        If the batch fails, its rows are tried again one by one, so that one row the
        database refuses fails only its own writer, never the moves of other tables
        that happened to share its commit.
        """
        try:
            await self._insert(_grouped(items))
        except Exception as exc:
            if len(items) == 1:
                log.exception("database write failed")
                return [exc]
            log.warning("a batch of %d rows failed (%s); writing them one by one", len(items), exc)
        else:
            self.commits += 1
            return [None] * len(items)
        errors: list[Exception | None] = []
        for item in items:
            try:
                await self._insert(_grouped([item]))
            except _UNREACHABLE as exc:  # not this row: the database; the rest fail alike
                log.exception("database write failed")
                return errors + [exc] * (len(items) - len(errors))
            except Exception as exc:
                log.exception("database write failed (a row of %s)", item[0].name)
                errors.append(exc)
            else:
                self.commits += 1
                errors.append(None)
        return errors


# The database cannot be reached or is busy, whatever the row.
_UNREACHABLE = (OSError, sa.exc.OperationalError, sa.exc.InterfaceError, sqlite3.OperationalError)


def _grouped(items: list[_Item]) -> dict[sa.Table, list[dict[str, Any]]]:
    """A batch's rows by table, each table's in the order they came."""
    grouped: dict[sa.Table, list[dict[str, Any]]] = {}
    for table, row, _ in items:
        grouped.setdefault(table, []).append(row)
    return grouped


def now() -> float:
    return time.time()
