"""What a table keeps: its row, seats, moves, chat and result, behind ``TableStore``.

A table is its rules, seed and moves (RULES G4): ``load`` gives everything needed to
rebuild it on any process. ``SqlTableStore`` keeps it in the room's database (a SQLite
file or PostgreSQL) through SQLAlchemy Core; moves go through the group-commit
``db.Writer`` so that many tables share each commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Rules

from .. import achievements, db, evaluation, stats
from .seats import Seat, Seats

Status = Literal["open", "playing", "finished", "abandoned"]


@dataclass(frozen=True)
class Spec:
    """What a new table is made of (validated by the lobby before it gets here)."""

    name: str
    rules: Rules
    public: bool
    hints: bool
    takeover_after: int
    bots: dict[int, str] = field(default_factory=dict)

    @property
    def rated(self) -> bool:
        return not self.hints


@dataclass(frozen=True)
class ChatLine:
    seat: int | None
    account_id: int | None
    name: str
    text: str
    at: float


@dataclass
class TableRecord:
    """A table as stored: enough to rebuild its actor anywhere."""

    id: str
    spec: Spec
    seed: int
    creator: int | None
    invite: str | None
    status: Status
    created_at: float
    seats: Seats
    moves: list[tuple[int | None, str]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)


@dataclass(frozen=True)
class FollowUpRow:
    """A finished table's rematch as stored: the follow-up's id, invite and status."""

    id: str
    invite: str | None
    status: Status | None
    """None while the follow-up's row is being made."""


class StoreError(Exception):
    """A write the store could not make; the actor's state must not move on."""


class Fenced(StoreError):
    """The table is owned under a newer epoch: this process has lost it."""


class TableStore(Protocol):
    async def create(self, record: TableRecord) -> None: ...

    async def load(self, table_id: str) -> TableRecord | None: ...

    async def unfinished(self) -> list[str]:
        """Ids of tables that are open or being played."""

    async def find_invite(self, code: str) -> str | None:
        """The id of the open or running table this invite code opens."""

    async def claim(self, table_id: str) -> int:
        """Own the table under a new epoch (a fencing token, one more than the last):
        from now on, moves written under an older epoch are refused."""

    async def save_seat(self, table_id: str, seat: Seat) -> None: ...

    async def set_status(self, table_id: str, status: Status, **times: float) -> None: ...

    async def append_move(self, table_id: str, n: int, seat: int | None, move: str) -> None:
        """Make move number ``n`` durable; raises ``StoreError`` when it cannot."""

    async def finish(
        self, table_id: str, *, spec: Spec, seats: Seats, result: Mapping[str, Any]
    ) -> dict[int, tuple[int, int]]:
        """Mark the table finished with its result and add it to the players' records
        (once: a table already finished is left as it is). Answers each account's
        rating before and after (``stats.record_game``); empty when already finished."""

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Keep a chat line (without waiting for it)."""

    async def claim_rematch(self, table_id: str, follow_up: str) -> str:
        """Name ``follow_up`` the finished table's rematch unless one is named already;
        answers the one that stands (so of two racing askers, one makes the table)."""

    async def rematch_of(self, table_id: str) -> FollowUpRow | None:
        """The finished table's follow-up, if one is named (its row may still be in the
        making: then ``status`` is None)."""


class SqlTableStore:
    """``TableStore`` on the room's SQL database."""

    def __init__(self, engine: AsyncEngine, writer: db.Writer) -> None:
        self.engine = engine
        self.writer = writer
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
            row = (
                await conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id))
            ).first()
            if row is None:
                return None
            seat_rows = (
                await conn.execute(
                    sa.select(db.seats, db.accounts.c.display_name, db.accounts.c.avatar)
                    .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
                    .where(db.seats.c.table_id == table_id)
                    .order_by(db.seats.c.seat)
                )
            ).all()
            move_rows = (
                await conn.execute(
                    sa.select(db.moves.c.seat, db.moves.c.move)
                    .where(db.moves.c.table_id == table_id)
                    .order_by(db.moves.c.n)
                )
            ).all()
            chat_rows = (
                await conn.execute(
                    sa.select(db.chat, db.accounts.c.display_name)
                    .outerjoin(db.accounts, db.accounts.c.id == db.chat.c.account_id)
                    .where(db.chat.c.table_id == table_id)
                    .order_by(db.chat.c.id.desc())
                    .limit(50)
                )
            ).all()
        return _record(row, seat_rows, move_rows, chat_rows)

    async def unfinished(self) -> list[str]:
        query = sa.select(db.tables.c.id).where(db.tables.c.status.in_(("open", "playing")))
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
    ) -> dict[int, tuple[int, int]]:
        # the replay for the evaluation runs before the transaction, off the event loop
        stored, measured = await evaluation.measure_stored(self.engine, table_id)
        async with self.engine.begin() as conn:
            done = await conn.execute(
                db.tables.update()
                .where(db.tables.c.id == table_id, db.tables.c.status != "finished")
                .values(status="finished", finished_at=db.now(), result=result)
            )
            if done.rowcount == 0:
                return {}
            changes = await stats.record_game(
                conn,
                ruleset=spec.rules.ruleset,
                rated=spec.rated,
                seats=[(s.seat, s.account_id, s.left) for s in seats],
                result=result,
            )
            await evaluation.add_counts(conn, stored, measured)
            await achievements.award(
                conn,
                table_id=table_id,
                rules=spec.rules,
                seats=[(s.seat, s.account_id, s.left, s.bot) for s in seats],
                result=result,
                measured=measured,
            )
            return changes

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


def _record(
    row: Any, seat_rows: Sequence[Any], move_rows: Sequence[Any], chat_rows: Sequence[Any]
) -> TableRecord:
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
            for r in seat_rows
        ]
    )
    seats.name_bots()
    spec = Spec(
        name=row.name,
        rules=Rules.from_dict(row.rules),
        public=row.public,
        hints=row.hints,
        takeover_after=row.takeover_after,
        bots={r.seat: r.bot_level for r in seat_rows if r.bot_level},
    )
    return TableRecord(
        id=row.id,
        spec=spec,
        seed=int(row.seed),
        creator=row.creator_id,
        invite=row.invite,
        status=row.status,
        created_at=row.created_at,
        seats=seats,
        moves=[(m.seat, m.move) for m in move_rows],
        chat=[
            ChatLine(
                seat=r.seat,
                account_id=r.account_id,
                name=r.display_name or "?",
                text=r.text,
                at=r.at,
            )
            for r in reversed(chat_rows)
        ],
    )
