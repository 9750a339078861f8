"""Rated hosted tables that finished, as the room's after-finish subscribers hear of them.

A chat host records the end of its tables itself (records, ratings, the evaluation's
counts and achievements, in the finishing transaction: ``chat.roomgateway``) but starts
no analysis: its process has no bot pool for them. The card room does it instead: at
each look at the hosted tables (``hosted.HostedTables``) it reads the rated hosted
tables finished within ``WITHIN`` that have a person's seat without an ``analyses`` row
(``unanalysed``) and tells its after-commit subscribers (``Analyses.game_finished``) as
if it had finished the game itself. A seat's row is made when its analysis is claimed,
so a table is handed over until each person's seat is claimed and never again: across
restarts (the rows are stored) and across the nodes of a cluster (the claim is an
insert only one node makes).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from . import db
from .records.finish import FinishedSeat, GameFinished
from .records.games import load_game

WITHIN = 86400.0
"""Seconds after its end in which a hosted table is still handed over (a room that was
down a while catches up on them; the games of long ago are left alone)."""


async def unanalysed(conn: AsyncConnection, *, since: float) -> list[GameFinished]:
    """The rated hosted tables finished at ``since`` or later with a person's seat that
    has no analysis row yet, each as the game's ``GameFinished`` (not measured)."""
    tables, seats, analyses = db.tables, db.seats, db.analyses
    query = (
        sa.select(tables.c.id)
        .join(seats, seats.c.table_id == tables.c.id)
        .where(
            tables.c.place.is_not(None),
            tables.c.status == "finished",
            tables.c.finished_at >= since,
            tables.c.public == sa.true(),
            tables.c.hints == sa.false(),
            tables.c.unrated == sa.false(),
            seats.c.account_id.is_not(None),
            seats.c.bot_level.is_(None),
            ~sa.exists().where(
                analyses.c.table_id == seats.c.table_id, analyses.c.seat == seats.c.seat
            ),
        )
        .distinct()
    )
    found: list[GameFinished] = []
    for table_id in (await conn.execute(query)).scalars().all():
        game = await load_game(conn, table_id, "seats")
        if game is None or game.row.result is None:
            continue
        found.append(
            GameFinished(
                table_id=table_id,
                rules=game.rules,
                rated=True,
                seats=tuple(
                    FinishedSeat(
                        seat=s.seat, account_id=s.account_id, left=bool(s.left), bot=s.bot_level
                    )
                    for s in game.seats
                ),
                result=game.row.result,
                measured=None,
            )
        )
    return found
