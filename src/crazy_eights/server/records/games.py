"""Reading stored games: ``load_game`` gives a table with the parts a caller asks for.

A stored game is its table row, its seats (with each account's name and avatar), its
moves in order and its chat (RULES G4: rules, seed and moves rebuild it). Every feature
that reads a game reads it here, in one shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from crazy_eights.engine import Rules

from .. import db
from ..security import may_see_private_table

Part = Literal["seats", "moves", "chat", "move_count"]
"""What of a table to read besides its row."""

CHAT_KEPT = 50
"""Chat lines a loaded table brings back (the latest)."""


@dataclass(frozen=True)
class StoredGame:
    """A table as stored: its row and the parts that were asked for (else empty)."""

    row: Any
    """The ``tables`` row."""
    seats: tuple[Any, ...] = ()
    """``seats`` rows in seat order, with the account's ``display_name`` and ``avatar``."""
    moves: tuple[Any, ...] = ()
    """``moves`` rows in play order."""
    chat: tuple[Any, ...] = ()
    """The latest ``chat`` rows, oldest first, with the speaker's ``display_name``."""
    move_count: int = 0

    @property
    def id(self) -> str:
        return str(self.row.id)

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.row.rules)

    @property
    def seed(self) -> int:
        return int(self.row.seed)

    @property
    def move_texts(self) -> tuple[str, ...]:
        return tuple(m.move for m in self.moves)

    def visible_to(self, account_id: int | None, code: str | None) -> bool:
        """Whether a viewer may see this table: any public one; a private one its
        players, its creator and whoever has its invite ``code``."""
        return bool(self.row.public) or may_see_private_table(
            members={s.account_id for s in self.seats} | {self.row.creator_id},
            account_id=account_id,
            invite=self.row.invite,
            code=code,
        )


async def load_game(conn: AsyncConnection, table_id: str, *parts: Part) -> StoredGame | None:
    """The stored table ``table_id`` with ``parts`` (None when there is no such table),
    as this connection's transaction sees it: ``load_game(conn, id, "seats", "moves")``."""
    query = sa.select(db.tables).where(db.tables.c.id == table_id)
    row = (await conn.execute(query)).first()
    if row is None:
        return None
    return StoredGame(
        row=row,
        seats=await _seats(conn, table_id) if "seats" in parts else (),
        moves=await _moves(conn, table_id) if "moves" in parts else (),
        chat=await _chat(conn, table_id) if "chat" in parts else (),
        move_count=await _move_count(conn, table_id) if "move_count" in parts else 0,
    )


async def _seats(conn: AsyncConnection, table_id: str) -> tuple[Any, ...]:
    query = (
        sa.select(db.seats, db.accounts.c.display_name, db.accounts.c.avatar)
        .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
        .where(db.seats.c.table_id == table_id)
        .order_by(db.seats.c.seat)
    )
    return tuple((await conn.execute(query)).all())


async def _moves(conn: AsyncConnection, table_id: str) -> tuple[Any, ...]:
    query = sa.select(db.moves).where(db.moves.c.table_id == table_id).order_by(db.moves.c.n)
    return tuple((await conn.execute(query)).all())


async def _chat(conn: AsyncConnection, table_id: str) -> tuple[Any, ...]:
    query = (
        sa.select(db.chat, db.accounts.c.display_name)
        .outerjoin(db.accounts, db.accounts.c.id == db.chat.c.account_id)
        .where(db.chat.c.table_id == table_id)
        .order_by(db.chat.c.id.desc())
        .limit(CHAT_KEPT)
    )
    return tuple(reversed((await conn.execute(query)).all()))


async def _move_count(conn: AsyncConnection, table_id: str) -> int:
    query = sa.select(sa.func.count()).select_from(db.moves).where(db.moves.c.table_id == table_id)
    return int((await conn.execute(query)).scalar_one())


async def finished_games(
    conn: AsyncConnection, account_id: int, *, limit: int, public_only: bool
) -> list[Any]:
    """The finished tables an account sat at, newest first: each ``tables`` row with the
    account's ``seat`` and whether it ``left``."""
    query = (
        sa.select(db.tables, db.seats.c.seat, db.seats.c.left)
        .join(db.seats, db.seats.c.table_id == db.tables.c.id)
        .where(db.seats.c.account_id == account_id, db.tables.c.status == "finished")
        .order_by(db.tables.c.finished_at.desc())
        .limit(limit)
    )
    if public_only:
        query = query.where(db.tables.c.public == sa.true())
    return list((await conn.execute(query)).all())


async def account_exists(conn: AsyncConnection, account_id: int) -> bool:
    """Whether an account with this id exists."""
    query = sa.select(db.accounts.c.id).where(db.accounts.c.id == account_id)
    return (await conn.execute(query)).first() is not None
