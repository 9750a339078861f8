"""``SqlTableStore``: the table core's ``TableStore`` on the room's database (a SQLite
file or PostgreSQL) through SQLAlchemy Core.

Moves go through the group-commit ``db.Writer`` so that many tables share each commit.
A table is loaded with ``games.load_game``. ``finish`` marks a game finished and
announces it (``finish.GameFinished``) to the subscribers the room gave the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .. import db
from ..measures import measure_safely
from ..table.seats import Seat, Seats
from ..table.store import (
    ChatLine,
    Fenced,
    FollowUpRow,
    Spec,
    Status,
    StoreError,
    TableRecord,
)
from .finish import FinishedSeat, FinishSubscribers, GameFinished, RatingChanges
from .games import StoredGame, load_game


class SqlTableStore:
    """``TableStore`` on the room's SQL database."""

    def __init__(
        self, engine: AsyncEngine, writer: db.Writer, subscribers: FinishSubscribers | None = None
    ) -> None:
        self.engine = engine
        self.writer = writer
        self.subscribers = subscribers or FinishSubscribers()
        """Who hears of a finished game (wired by the room; nobody by default)."""
        self._epochs: dict[str, int] = {}  # tables owned under a fencing token

    async def claim(self, table_id: str) -> int:
        async with self.engine.begin() as conn:
            epoch = (
                await conn.execute(
                    db.tables.update()
                    .where(db.tables.c.id == table_id)
                    .values(epoch=sa.func.coalesce(db.tables.c.epoch, 0) + 1)
                    .returning(db.tables.c.epoch)
                )
            ).scalar_one()
        self._epochs[table_id] = int(epoch)
        return int(epoch)

    def forget(self, table_id: str) -> None:
        """Stop writing for a table this process no longer runs."""
        self._epochs.pop(table_id, None)

    async def create(self, record: TableRecord) -> None:
        spec = record.spec
        async with self.engine.begin() as conn:
            await conn.execute(
                db.tables.insert().values(
                    id=record.id,
                    name=spec.name,
                    creator_id=record.creator,
                    ruleset=spec.rules.ruleset,
                    rules=spec.rules.to_dict(),
                    seed=record.seed,
                    public=spec.public,
                    invite=record.invite,
                    hints=spec.hints,
                    takeover_after=spec.takeover_after,
                    status=record.status,
                    created_at=record.created_at,
                    place=spec.place,
                    unrated=spec.unrated,
                )
            )
            await conn.execute(
                db.seats.insert(),
                [
                    {
                        "table_id": record.id,
                        "seat": s.seat,
                        "account_id": s.account_id,
                        "bot_level": s.bot,
                        "left": s.left,
                    }
                    for s in record.seats
                ],
            )

    async def load(self, table_id: str) -> TableRecord | None:
        async with self.engine.connect() as conn:
            game = await load_game(conn, table_id, "seats", "moves", "chat")
        return None if game is None else record_of(game)

    async def unfinished(self) -> list[str]:
        # a table with a place is played by a chat host, never by the room's processes
        query = sa.select(db.tables.c.id).where(
            db.tables.c.status.in_(("open", "playing")), db.tables.c.place.is_(None)
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    async def find_invite(self, code: str) -> str | None:
        query = sa.select(db.tables.c.id).where(
            db.tables.c.invite == code, db.tables.c.status.in_(("open", "playing"))
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else str(row.id)

    async def claim_rematch(self, table_id: str, follow_up: str) -> str:
        async with self.engine.begin() as conn:
            await conn.execute(
                db.tables.update()
                .where(db.tables.c.id == table_id, db.tables.c.rematch.is_(None))
                .values(rematch=follow_up)
            )
            query = sa.select(db.tables.c.rematch).where(db.tables.c.id == table_id)
            return str((await conn.execute(query)).scalar_one())

    async def rematch_of(self, table_id: str) -> FollowUpRow | None:
        follow_up = db.tables.alias("follow_up")
        query = (
            sa.select(db.tables.c.rematch, follow_up.c.invite, follow_up.c.status)
            .select_from(db.tables.outerjoin(follow_up, follow_up.c.id == db.tables.c.rematch))
            .where(db.tables.c.id == table_id, db.tables.c.rematch.is_not(None))
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else FollowUpRow(row.rematch, row.invite, row.status)

    async def save_seat(self, table_id: str, seat: Seat) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                db.seats.update()
                .where(db.seats.c.table_id == table_id, db.seats.c.seat == seat.seat)
                .values(account_id=seat.account_id, bot_level=seat.bot, left=seat.left)
            )

    async def set_status(self, table_id: str, status: Status, **times: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                db.tables.update().where(db.tables.c.id == table_id).values(status=status, **times)
            )

    async def append_move(self, table_id: str, n: int, seat: int | None, move: str) -> None:
        row = {
            "table_id": table_id,
            "n": n,
            "seat": seat,
            "move": move,
            "at": db.now(),
            "epoch": self._epochs.get(table_id),
        }
        try:
            await self.writer.write(db.moves, row)
        except Exception as exc:
            if "not owned under epoch" in str(exc):
                raise Fenced(f"table {table_id} has a newer owner") from exc
            raise StoreError(f"move {n} of table {table_id} was not saved") from exc

    async def finish(
        self, table_id: str, *, spec: Spec, seats: Seats, result: Mapping[str, Any]
    ) -> RatingChanges:
        game = await self._finished(table_id, spec, seats, result)
        hear = self.subscribers
        async with self.engine.begin() as conn:
            if not await _mark_finished(conn, table_id, result):
                return {}
            changes = {} if hear.rate is None else await hear.rate(conn, game)
            for in_transaction in hear.in_transaction:
                await in_transaction(conn, game)
        for after_commit in hear.after_commit:
            after_commit(game)
        return changes

    async def _finished(
        self, table_id: str, spec: Spec, seats: Seats, result: Mapping[str, Any]
    ) -> GameFinished:
        """The event of a game that ends now, its stored moves replayed (before the
        finishing transaction, off the event loop) for what the subscribers count."""
        async with self.engine.connect() as conn:
            stored = await load_game(conn, table_id, "moves")
        if stored is None:
            raise StoreError(f"table {table_id} is not stored")
        return GameFinished(
            table_id=table_id,
            rules=spec.rules,
            rated=spec.rated,
            public=spec.public,
            seats=tuple(FinishedSeat(s.seat, s.account_id, s.left, s.bot, s.played) for s in seats),
            result=result,
            measured=await measure_safely(table_id, stored.rules, stored.seed, stored.move_texts),
        )

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        self.writer.write_later(
            db.chat,
            {
                "table_id": table_id,
                "account_id": line.account_id,
                "seat": line.seat,
                "text": line.text,
                "at": line.at,
            },
        )


async def _mark_finished(conn: AsyncConnection, table_id: str, result: Mapping[str, Any]) -> bool:
    """Mark the table finished with its result; False when it was finished already."""
    done = await conn.execute(
        db.tables.update()
        .where(db.tables.c.id == table_id, db.tables.c.status != "finished")
        .values(status="finished", finished_at=db.now(), result=result)
    )
    return bool(done.rowcount)


def record_of(game: StoredGame) -> TableRecord:
    """A stored table as the table core rebuilds it (its moves and chat as far as
    ``game`` was loaded with them)."""
    row = game.row
    seats = Seats(
        [
            Seat(
                seat=r.seat,
                account_id=r.account_id,
                name=r.display_name,
                avatar=r.avatar,
                bot=r.bot_level,
                left=r.left,
            )
            for r in game.seats
        ]
    )
    seats.name_bots()
    spec = Spec(
        name=row.name,
        rules=game.rules,
        public=row.public,
        hints=row.hints,
        takeover_after=row.takeover_after,
        bots={r.seat: r.bot_level for r in game.seats if r.bot_level},
        place=row.place,
        unrated=row.unrated,
    )
    return TableRecord(
        id=row.id,
        spec=spec,
        seed=game.seed,
        creator=row.creator_id,
        invite=row.invite,
        status=row.status,
        created_at=row.created_at,
        seats=seats,
        moves=[(m.seat, m.move) for m in game.moves],
        chat=[
            ChatLine(
                seat=r.seat,
                account_id=r.account_id,
                name=r.display_name or "?",
                text=r.text,
                at=r.at,
            )
            for r in game.chat
        ],
    )
