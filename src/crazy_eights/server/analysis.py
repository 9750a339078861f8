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
from collections import Counter, deque
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from crazy_eights.bots.analysis import (
    AnalysisConfig,
    Decision,
    DecisionDict,
    Thresholds,
    decision_count,
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
stopped) may be started again, in a cluster; a process alone on its database knows
which rows it runs, and takes up the others at once."""
BUSY_RETRY = 0.5
"""Seconds to wait when the background queue is full."""
PER_ACCOUNT = 3
"""Analyses an account may have waiting or running at once."""
MAX_WAITING = 256
"""Analyses a process keeps waiting; beyond, new ones are refused."""
RUNNING = 8
"""Analyses a process runs at once. Each has at most one decision in the bot pool,
where the accounts take turns decision by decision (the pool's ``FairQueue``, owner
the account), so a short analysis is not held up by long ones already running."""


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


@dataclass(frozen=True)
class _Job:
    table_id: str
    seat: int
    owner: str
    """Whose turn it is in the round-robin: the account, else the table."""


class TakeTurns:
    """Waiting analyses by owner; ``pop`` serves the owner served longest ago (never
    served first, then in order of arrival), so an owner whose analysis is running
    waits behind everyone else's first one. At most ``limit`` wait.

    >>> turns = TakeTurns(limit=10)
    >>> for owner, job in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("c", "c1")]:
    ...     assert turns.push(owner, job)
    >>> [turns.pop() for _ in range(5)]
    ['a1', 'b1', 'c1', 'a2', None]
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._owners: dict[str, deque[Any]] = {}
        self._served: dict[str, int] = {}
        self._ticks = 0
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def push(self, owner: str, job: Any) -> bool:
        """Queue ``job`` behind the owner's others; False when ``limit`` jobs wait."""
        if self._size >= self.limit:
            return False
        self._owners.setdefault(owner, deque()).append(job)
        self._size += 1
        return True

    def pop(self) -> Any:
        """The next job in turn (None: none waits)."""
        if not self._owners:
            return None
        owner = min(self._owners, key=lambda o: self._served.get(o, -1))
        jobs = self._owners[owner]
        job = jobs.popleft()
        if not jobs:
            del self._owners[owner]
        self._size -= 1
        self._ticks += 1
        self._served[owner] = self._ticks
        if len(self._served) > 4 * self.limit:  # forget owners long gone
            for gone in [o for o in self._served if o not in self._owners][: self.limit]:
                del self._served[gone]
        return job


class Analyses:
    """The analyses this process runs: at most ``RUNNING`` at once, their decisions
    judged in the bot pool with the accounts taking turns; the waiting ones started
    account by account in turn (``TakeTurns``), at most
    ``PER_ACCOUNT`` per account and ``MAX_WAITING`` in all. ``sole``: this process is
    the only one analysing on its database (no cluster), so a ``running`` row none of its
    tasks holds was left by a stopped server (``resume`` takes those up on start)."""

    def __init__(
        self,
        engine: AsyncEngine,
        pool: BotPool,
        config: AnalysisConfig,
        *,
        running: int = RUNNING,
        sole: bool = True,
        per_account: int = PER_ACCOUNT,
        max_waiting: int = MAX_WAITING,
    ):
        self.engine = engine
        self.pool = pool
        self.config = config
        self.sole = sole
        self.per_account = per_account
        self._slots = max(1, running)
        self._waiting = TakeTurns(max_waiting)
        self._queued: set[tuple[str, int]] = set()
        self._claiming: set[tuple[str, int]] = set()
        self._held: Counter[str] = Counter()
        self._tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._progress: dict[tuple[str, int], tuple[int, int]] = {}

    @property
    def busy(self) -> bool:
        """Whether this process is claiming, queueing or running any analysis."""
        return bool(self._tasks or self._queued or self._claiming)

    def _ours(self, key: tuple[str, int]) -> bool:
        """Whether this process is claiming, queueing or running the analysis."""
        return key in self._tasks or key in self._queued or key in self._claiming

    async def status(self, table_id: str, seat: int) -> AnalysisOut:
        """The stored analysis of ``seat`` at the table, or how far it has got; a row
        left ``running`` by a stopped server reads ``failed`` (ask again)."""
        ours = self._ours((table_id, seat))  # before the read: it may end meanwhile
        async with self.engine.connect() as conn:
            row = await _stored(conn, table_id, seat)
        done, total = self._progress.get((table_id, seat), (0, 0))
        if row is None:
            return _out(table_id, seat, "none", 0, 0, None)
        if row.status == "done":
            count = len(row.payload["decisions"])
            return _out(table_id, seat, "done", count, count, row.payload)
        if row.status == "running" and not ours and self._abandoned(row):
            return _out(table_id, seat, "failed", 0, 0, None)
        return _out(table_id, seat, row.status, done, total, None)

    def _abandoned(self, row: Any) -> bool:
        """Whether a ``running`` row that this process does not hold (the caller has
        checked) is nobody's any more: its server stopped."""
        return self.sole or db.now() - row.created_at >= STALE_AFTER

    async def start(
        self,
        table_id: str,
        seat: int,
        account_id: int | None,
        ruleset: str,
        *,
        asked: bool = False,
    ) -> bool:
        """Queue the analysis of ``seat`` unless it is stored, queued or running (here,
        or elsewhere and not stale); True when it was queued. An account past its
        ``PER_ACCOUNT``, or a full queue, refuses: a player who ``asked`` gets a 429
        ``too_many_analyses`` or ``busy``, an automatic analysis is left out."""
        key = (table_id, seat)
        if self._ours(key):
            return False
        owner = f"account:{account_id}" if account_id is not None else f"table:{table_id}"
        if self._held[owner] >= self.per_account:
            if asked:
                raise ApiError(
                    429,
                    "too_many_analyses",
                    f"At most {self.per_account} of your analyses run at once; "
                    "ask again when one is done.",
                )
            return False
        self._held[owner] += 1  # held while the row is claimed, so no one else passes
        self._claiming.add(key)
        try:
            queued = await self._claim(table_id, seat, account_id, ruleset) and self._queue(
                _Job(table_id, seat, owner)
            )
        except BaseException:
            self._release(owner)
            raise
        finally:
            self._claiming.discard(key)
        if not queued:
            self._release(owner)
        return queued

    def _queue(self, job: _Job) -> bool:
        """Put a claimed analysis in line (False, and its row marked failed, when the
        queue is full)."""
        key = (job.table_id, job.seat)
        if not self._waiting.push(job.owner, job):
            self._fail_later(job.table_id, job.seat)
            return False
        self._queued.add(key)
        self._progress[key] = (0, 0)
        self._next()
        return True

    def _release(self, owner: str) -> None:
        self._held[owner] -= 1
        if self._held[owner] <= 0:
            del self._held[owner]

    async def _claim(self, table_id: str, seat: int, account_id: int | None, ruleset: str) -> bool:
        """Mark the seat's row ``running`` for this process (made if new); False when it
        is done, or running elsewhere and not abandoned, or another claim came first."""
        async with self.engine.begin() as conn:
            row = await _stored(conn, table_id, seat)
            now = db.now()
            if row is None:
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
                return bool(inserted.rowcount)  # 0: another process claimed it now
            if row.status == "done":
                return False
            if row.status == "running" and not self._abandoned(row):
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
            return bool(claimed.rowcount)

    def _next(self) -> None:
        """Start waiting analyses while a slot is free, accounts taking turns."""
        while len(self._tasks) < self._slots:
            job = self._waiting.pop()
            if job is None:
                return
            key = (job.table_id, job.seat)
            self._queued.discard(key)
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks[key] = task
            task.add_done_callback(partial(self._ended, job))

    def _ended(self, job: _Job, _task: asyncio.Task[None]) -> None:
        key = (job.table_id, job.seat)
        self._tasks.pop(key, None)
        self._progress.pop(key, None)
        self._release(job.owner)
        with contextlib.suppress(RuntimeError):  # the loop is closing
            self._next()

    async def _run(self, job: _Job) -> None:
        """Judge each decision of the seat in the bot pool, one job at a time, and store
        the whole. The decisions are read one by one from a replay (in a thread), so a
        long game never holds more than one decision's view."""
        table_id, seat = job.table_id, job.seat
        try:
            rules, seed, moves = await self._game(table_id)
            total = await asyncio.to_thread(decision_count, rules, seed, moves, seat)
            turns = decisions(rules, seed, moves, seat)
            out: list[DecisionDict] = []
            while (turn := await asyncio.to_thread(next, turns, None)) is not None:
                self._progress[(table_id, seat)] = (len(out), total)
                out.append(await self._judge(job.owner, turn))
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

    async def _judge(self, owner: str, turn: Decision) -> DecisionDict:
        """One decision judged in the bot pool (background class, in the owner's turn)."""
        args = (turn.n, turn.view, list(turn.legal), turn.played, self.config)
        while True:
            try:
                result: DecisionDict = await self.pool.run(judge, *args, table=f"analysis:{owner}")
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
        """A finished game's subscriber (once it is stored): a rated game has each seat
        a person played analysed, in the background (not a seat only a stand-in bot
        played: its player never came, or left)."""
        if not game.rated:
            return
        for seat in game.seats:
            if seat.human and seat.played and seat.account_id:
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
        await self.start(table_id, seat, account_id, game.row.ruleset, asked=True)
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

    async def resume(self) -> int:
        """Take up the analyses a stopped server left ``running`` (on start): alone on
        the database, all of them are queued again; in a cluster, those stale for
        ``STALE_AFTER`` (the others may be running on another node). Answers how many."""
        query = sa.select(db.analyses).where(db.analyses.c.status == "running")
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        resumed = 0
        for row in rows:
            if self._ours((row.table_id, row.seat)) or not self._abandoned(row):
                continue
            owner = f"account:{row.account_id}"
            self._held[owner] += 1
            if self._queue(_Job(row.table_id, row.seat, owner)):
                resumed += 1
            else:
                self._release(owner)
        if resumed:
            log.info("%d game analyses taken up again", resumed)
        return resumed

    def _fail_later(self, table_id: str, seat: int) -> None:
        """Mark a row the queue has no room for ``failed`` (its player may ask again)."""
        task = asyncio.get_running_loop().create_task(self._store(table_id, seat, "failed", None))
        task.add_done_callback(_log_failure)

    async def close(self) -> None:
        self._waiting = TakeTurns(0)
        self._queued.clear()
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _log_failure(task: asyncio.Task[Any]) -> None:
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
    query = (
        sa.select(db.analyses.c.ruleset, db.analyses.c.payload)
        .join(db.tables, db.tables.c.id == db.analyses.c.table_id)
        .where(
            db.analyses.c.account_id == account_id,
            db.analyses.c.status == "done",
            db.tables.c.public == sa.true(),  # a private game's figures are its players'
        )
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
