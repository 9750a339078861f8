"""Moving a card room from one database to another: ``crazy-eights db copy``.

The usual move is from the embedded SQLite file to PostgreSQL when a room outgrows one
process. Everything that lasts is copied with its ids: accounts (with their password
hashes), their settings, sessions that have not expired (nobody is signed out), records
and ratings, the accounts chat nicks play as, friends, pending friend requests, blocks
and each account's social settings, and every table with its seats, moves and
chat (a table is its rules, seed and moves, so an unfinished one goes on where it
stopped when the new room starts), and moderation (moderators, mutes and bans, reports,
the audit log). The target is migrated to the newest schema first and must hold no
accounts yet; the source should not be in use while it is copied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from . import db

BATCH = 1000  # rows a statement

# Parents before children, so that foreign keys hold at every step.
ORDER = (
    db.accounts,
    db.account_settings,
    db.sessions,
    db.records,
    db.chat_names,
    db.friends,
    db.friend_requests,
    db.blocks,
    db.social,
    db.tables,
    db.seats,
    db.moves,
    db.chat,
    db.account_roles,
    db.sanctions,
    db.reports,
    db.moderation_audit,
)
SEQUENCES = {
    db.accounts: "id",
    db.chat: "id",
    db.sanctions: "id",
    db.reports: "id",
    db.moderation_audit: "id",
}


class CopyError(Exception):
    """The copy cannot be made (say why); nothing was written to the target."""


@dataclass(frozen=True)
class Copied:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    def __str__(self) -> str:
        return ", ".join(f"{n} {name}" for name, n in self.rows.items())


async def copy(
    source_url: str, target_url: str, *, progress: Callable[[str, int], None] | None = None
) -> Copied:
    """Copy a whole card room from ``source_url`` to ``target_url`` (SQLAlchemy async
    URLs, as ``ServerSettings.sqlalchemy_url`` gives them)."""
    if source_url == target_url:
        raise CopyError("the source and the target are the same database")
    source, target = db.make_engine(source_url), db.make_engine(target_url)
    try:
        await db.migrate(source)
        await db.migrate(target)
        async with source.connect() as reading, target.begin() as writing:
            if (
                await writing.execute(sa.select(sa.func.count()).select_from(db.accounts))
            ).scalar():
                raise CopyError("the target already has accounts: copy into an empty database")
            rows = {}
            for table in ORDER:
                rows[table.name] = await _copy_table(table, reading, writing)
                if progress is not None:
                    progress(table.name, rows[table.name])
            await _advance_sequences(writing)
        return Copied(rows)
    finally:
        await source.dispose()
        await target.dispose()


async def _copy_table(table: sa.Table, reading: AsyncConnection, writing: AsyncConnection) -> int:
    query = sa.select(table)
    if table is db.sessions:
        query = query.where(db.sessions.c.expires_at > db.now())
    result = await reading.stream(query.order_by(*table.primary_key.columns))
    count = 0
    async for chunk in result.partitions(BATCH):
        await writing.execute(table.insert(), [dict(row._mapping) for row in chunk])
        count += len(chunk)
    return count


async def _advance_sequences(writing: AsyncConnection) -> None:
    """On PostgreSQL, start each id sequence after the copied ids."""
    if writing.dialect.name != "postgresql":
        return
    for table, column in SEQUENCES.items():
        await writing.execute(
            sa.text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column}'), "
                f"COALESCE((SELECT MAX({column}) FROM {table.name}), 0) + 1, false)"
            )
        )
