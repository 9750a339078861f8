"""Game analyses: asked for by a player after a finished game (and started on their own
for rated games), run in the bot workers at background priority, stored for good.

An analysis of one seat is one row of ``analyses``. While it runs, each of the seat's
decisions is one job of the bot pool's ``background`` class (``bots.analysis.judge``,
given the seat's view only), so a table's bot move waits at most for one decision's
search, never for a whole game's. ``accuracy`` sums the stored analyses for a profile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from crazy_eights.bots.analysis import (
    AnalysisConfig,
    DecisionDict,
    Thresholds,
    decisions,
    judge,
    thresholds_of,
)
from crazy_eights.engine import Rules

from . import db
from .botpool import BotPool, PoolBusy
from .errors import ApiError
from .records.finish import GameFinished
from .records.games import StoredGame, load_game

if TYPE_CHECKING:
    from .settings import ServerSettings

log = logging.getLogger(__name__)

Status = Literal["none", "running", "done", "failed"]
STALE_AFTER = 900.0
"""Seconds after which a ``running`` row that no task of this process runs (its server
stopped) may be started again."""
BUSY_RETRY = 0.5
"""Seconds to wait when the background queue is full."""


class AnalysisOut(TypedDict):
    """What ``GET`` and ``POST /api/tables/{id}/analysis`` answer."""

    table: str
    seat: int
    status: Status
    done: int
    """Decisions judged so far (while running)."""
    total: int
    analysis: dict[str, Any] | None


class AccuracyDict(TypedDict):
    ruleset: str
    games: int
    decisions: int
    """The player's analysed decisions where it had a choice."""
    accurate: int
    """Those that matched the search's move or cost less than the inaccuracy threshold."""
    accuracy: float


def config_from(settings: ServerSettings) -> AnalysisConfig:
    inaccuracy, mistake, blunder = settings.analysis_thresholds
    return AnalysisConfig(
        worlds=settings.analysis_worlds,
        thresholds=Thresholds(inaccuracy=inaccuracy, mistake=mistake, blunder=blunder),
    )


class Analyses:
    """The analyses this process runs; at most ``slots`` at once (one per bot worker)."""

    def __init__(self, engine: AsyncEngine, pool: BotPool, config: AnalysisConfig, slots: int):
        self.engine = engine
        self.pool = pool
        self.config = config
        self._slots = asyncio.Semaphore(max(1, slots))
        self._tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._progress: dict[tuple[str, int], tuple[int, int]] = {}

    async def status(self, table_id: str, seat: int) -> AnalysisOut:
        """The stored analysis of ``seat`` at the table, or how far it has got."""
        async with self.engine.connect() as conn:
            row = await _stored(conn, table_id, seat)
        done, total = self._progress.get((table_id, seat), (0, 0))
        if row is None:
            return _out(table_id, seat, "none", 0, 0, None)
        if row.status == "done":
            count = len(row.payload["decisions"])
            return _out(table_id, seat, "done", count, count, row.payload)
        return _out(table_id, seat, row.status, done, total, None)

    async def start(self, table_id: str, seat: int, account_id: int | None, ruleset: str) -> bool:
        """Begin analysing ``seat`` unless it is stored, running, or running elsewhere
        (and not stale); True when a new run started."""
        key = (table_id, seat)
        if key in self._tasks:
            return False
        async with self.engine.begin() as conn:
            row = await _stored(conn, table_id, seat)
            now = db.now()
            if row is not None:
                if row.status == "done":
                    return False
                if row.status == "running" and now - row.created_at < STALE_AFTER:
                    return False
                claimed = await conn.execute(
                    db.analyses.update()
                    .where(
                        db.analyses.c.table_id == table_id,
                        db.analyses.c.seat == seat,
                        db.analyses.c.created_at == row.created_at,
                    )
                    .values(status="running", created_at=now, payload=None, finished_at=None)
                )
                if claimed.rowcount == 0:
                    return False
            else:
                inserted = await conn.execute(
                    db.dialect_insert(conn, db.analyses)
                    .values(
                        table_id=table_id,
                        seat=seat,
                        account_id=account_id,
                        ruleset=ruleset,
                        status="running",
                        created_at=now,
                    )
                    .on_conflict_do_nothing()
                )
                if inserted.rowcount == 0:
                    return False  # another process claimed it at the same moment
        self._progress[key] = (0, 0)
        task = asyncio.get_running_loop().create_task(self._run(table_id, seat))
        self._tasks[key] = task
        task.add_done_callback(lambda _t: self._forget(key))
        return True

    def _forget(self, key: tuple[str, int]) -> None:
        self._tasks.pop(key, None)
        self._progress.pop(key, None)

    async def _run(self, table_id: str, seat: int) -> None:
        """Judge each decision of the seat in the bot pool, one job at a time, and store
        the whole."""
        try:
            async with self._slots:
                rules, seed, moves = await self._game(table_id)
                turns = await asyncio.to_thread(lambda: list(decisions(rules, seed, moves, seat)))
                out: list[DecisionDict] = []
                for k, turn in enumerate(turns):
                    self._progress[(table_id, seat)] = (k, len(turns))
                    judged = await self._judge(table_id, turn.n, turn.view, turn.legal, turn.played)
                    out.append(judged)
                payload = {
                    "seat": seat,
                    "decisions": out,
                    "thresholds": thresholds_of(self.config),
                    "worlds": self.config.worlds,
                }
                await self._store(table_id, seat, "done", payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis of table %s seat %d failed", table_id, seat)
            await self._store(table_id, seat, "failed", None)

    async def _judge(
        self, table_id: str, n: int, view: dict[str, Any], legal: Sequence[str], played: str
    ) -> DecisionDict:
        while True:
            try:
                result: DecisionDict = await self.pool.run(
                    judge, n, view, list(legal), played, self.config, table=f"analysis:{table_id}"
                )
                return result
            except PoolBusy:
                await asyncio.sleep(BUSY_RETRY)

    async def _game(self, table_id: str) -> tuple[Rules, int, list[str]]:
        async with self.engine.connect() as conn:
            game = await load_game(conn, table_id, "moves")
        if game is None:
            raise LookupError(f"table {table_id} is not stored")
        return game.rules, game.seed, list(game.move_texts)

    async def _store(
        self, table_id: str, seat: int, status: Status, payload: dict[str, Any] | None
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                db.analyses.update()
                .where(db.analyses.c.table_id == table_id, db.analyses.c.seat == seat)
                .values(status=status, payload=payload, finished_at=db.now())
            )

    def game_finished(self, game: GameFinished) -> None:
        """A finished game's subscriber (once it is stored): a rated game has each human
        seat analysed, in the background."""
        if not game.rated:
            return
        for seat in game.seats:
            if seat.human and seat.account_id:
                task = asyncio.get_running_loop().create_task(
                    self.start(game.table_id, seat.seat, seat.account_id, game.rules.ruleset)
                )
                task.add_done_callback(_log_failure)

    async def request(self, table_id: str, seat: int, account_id: int) -> AnalysisOut:
        """A player asks for the analysis of the seat they sat at in a finished game
        (403 for anyone else's seat); answers how far it has got."""
        game = await self._finished(table_id)
        mine = [
            s
            for s in game.seats
            if s.seat == seat and s.account_id == account_id and not s.bot_level
        ]
        if not mine:
            raise ApiError(403, "not_your_seat", "Only the player who sat there can ask for it.")
        await self.start(table_id, seat, account_id, game.row.ruleset)
        return await self.status(table_id, seat)

    async def shown(
        self, table_id: str, seat: int, viewer: int | None, code: str | None
    ) -> AnalysisOut:
        """The analysis of a seat, for whoever may see the game's replay (403 else)."""
        game = await self._finished(table_id)
        if not game.visible_to(viewer, code):
            raise ApiError(403, "private", "Analyses of private tables are for their players.")
        return await self.status(table_id, seat)

    async def _finished(self, table_id: str) -> StoredGame:
        """The stored game with its seats: 404 without one, 409 while it is not over."""
        async with self.engine.connect() as conn:
            game = await load_game(conn, table_id, "seats")
        if game is None:
            raise ApiError(404, "no_table", "no such table")
        if game.row.status != "finished":
            raise ApiError(409, "not_finished", "games are analysed once they are over")
        return game

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _log_failure(task: asyncio.Task[bool]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("could not start an analysis", exc_info=task.exception())


async def _stored(conn: AsyncConnection, table_id: str, seat: int) -> Any:
    """The ``analyses`` row of a table's seat, or None."""
    query = sa.select(db.analyses).where(
        db.analyses.c.table_id == table_id, db.analyses.c.seat == seat
    )
    return (await conn.execute(query)).first()


def _out(
    table: str, seat: int, status: Status, done: int, total: int, payload: dict[str, Any] | None
) -> AnalysisOut:
    return {
        "table": table,
        "seat": seat,
        "status": status,
        "done": done,
        "total": total,
        "analysis": payload,
    }


async def accuracy(
    conn: AsyncConnection,
    account_id: int,
    ruleset: str | None = None,
) -> list[AccuracyDict]:
    """Per ruleset, the share of the account's analysed decisions (where it had a
    choice) that matched the search's move or cost less than the inaccuracy threshold,
    i.e. were not marked."""
    query = sa.select(db.analyses.c.ruleset, db.analyses.c.payload).where(
        db.analyses.c.account_id == account_id, db.analyses.c.status == "done"
    )
    if ruleset is not None:
        query = query.where(db.analyses.c.ruleset == ruleset)
    totals: dict[str, list[int]] = {}
    for row in (await conn.execute(query)).all():
        games, count, good = totals.setdefault(row.ruleset, [0, 0, 0])
        chosen = [d for d in row.payload["decisions"] if not d["forced"]]
        totals[row.ruleset] = [
            games + 1,
            count + len(chosen),
            good + sum(1 for d in chosen if d["mark"] is None),
        ]
    return [
        {
            "ruleset": name,
            "games": games,
            "decisions": count,
            "accurate": good,
            "accuracy": round(good / count, 4) if count else 0.0,
        }
        for name, (games, count, good) in sorted(totals.items())
    ]


__all__ = [
    "AccuracyDict",
    "Analyses",
    "AnalysisOut",
    "accuracy",
    "accuracy_share",
    "config_from",
]


async def accuracy_share(conn: AsyncConnection, account_id: int, ruleset: str) -> float | None:
    """The player evaluation's accuracy line (``evaluation.AccuracySource``): the share
    of the account's analysed decisions in ``ruleset`` that were not marked, or None when
    none of its games there has been analysed."""
    for row in await accuracy(conn, account_id, ruleset):
        if row["decisions"]:
            return row["accuracy"]
    return None
