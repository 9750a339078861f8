"""Quick play's tables: what a quick table is (``quick_spec``), how the matchmaker makes
one (``table_maker``), and the rating a person waits in the queue with."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Rules

from . import db
from .lengths import length_settings
from .lobby import make_rules
from .matchmaking import QueueKey, TableMaker, Ticket
from .ratings import MODEL, ordinal
from .table.ops import Player
from .table.store import Spec
from .tables import Tables

JOIN_RATE = 0.5  # joins a second an account may make (each tells everyone waiting)
JOIN_BURST = 6.0


def quick_spec(rules: Rules, *, people: int, level: str) -> Spec:
    """A quick-play table: public, rated, the first ``people`` seats for people and bots
    of ``level`` in the others."""
    return Spec(
        name=f"Quick {rules.ruleset}",
        rules=rules,
        public=True,
        hints=False,
        takeover_after=2,
        bots={seat: level for seat in range(people, rules.players)},
    )


def table_maker(tables: Tables) -> TableMaker:
    """How the room's matchmaker makes a table: the people seated in queue order, bots of
    the chosen level in the other seats, dealt at once."""

    async def make(key: QueueKey, group: Sequence[Ticket], level: str) -> str:
        rules = make_rules(
            {"ruleset": key.ruleset, "players": key.players}
            | length_settings(key.ruleset, key.length)
        )
        people = [Player(id=t.account, name=t.name, avatar=t.avatar) for t in group]
        spec = quick_spec(rules, people=len(people), level=level)
        actor = await tables.create(spec, people[0], people[1:])
        return actor.id

    return make


async def rating(engine: AsyncEngine, account: int, ruleset: str) -> float:
    """The account's ordinal for a ruleset (a newcomer's when it has no record)."""
    query = sa.select(db.records.c.mu, db.records.c.sigma).where(
        db.records.c.account_id == account, db.records.c.ruleset == ruleset
    )
    async with engine.connect() as conn:
        row = (await conn.execute(query)).first()
    return ordinal(row.mu, row.sigma) if row else ordinal(MODEL.mu, MODEL.sigma)
