"""Quick play's queue of a room on one process, kept in memory and written through to
the database (``match_tickets``), so that a server that stops, however it stops, does
not forget who was waiting. A cluster keeps its queue in Redis instead
(``cluster/matchqueue.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from . import db
from .lengths import Length
from .matchmaking import MemoryQueueStore, QueueKey, Ticket


class KeptQueueStore(MemoryQueueStore):
    """``MemoryQueueStore`` whose tickets are also rows of ``match_tickets``: each join
    writes one, each take deletes its own; ``load`` reads them back on start."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self.engine = engine

    async def add(self, ticket: Ticket) -> Ticket:
        held = await super().add(ticket)
        if held is ticket:
            async with self.engine.begin() as conn:
                await conn.execute(
                    db.dialect_insert(conn, db.match_tickets)
                    .values(_row(ticket))
                    .on_conflict_do_nothing()
                )
        return held

    async def take(self, tickets: Sequence[Ticket]) -> bool:
        if not await super().take(tickets):
            return False
        async with self.engine.begin() as conn:
            for ticket in tickets:
                await conn.execute(
                    db.match_tickets.delete().where(
                        db.match_tickets.c.account_id == ticket.account,
                        db.match_tickets.c.id == ticket.id,
                    )
                )
        return True

    async def load(self) -> list[Ticket]:
        """Put the stored tickets back in the queues (on start); the tickets."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(db.match_tickets))).all()
        tickets = [_ticket(r) for r in rows]
        for ticket in tickets:
            await super().add(ticket)
        return tickets


def _row(ticket: Ticket) -> dict[str, Any]:
    return {
        "account_id": ticket.account,
        "id": ticket.id,
        "name": ticket.name,
        "avatar": ticket.avatar,
        "rating": ticket.rating,
        "ruleset": ticket.key.ruleset,
        "players": ticket.key.players,
        "length": ticket.key.length,
        "joined": ticket.joined,
    }


def _ticket(row: Any) -> Ticket:
    key = QueueKey(row.ruleset, row.players, cast(Length, row.length))
    return Ticket(row.id, row.account_id, row.name, row.avatar, row.rating, key, row.joined)
