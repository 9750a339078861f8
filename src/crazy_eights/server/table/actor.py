"""The table actor: one asyncio task per live table owns its game and runs its operations.

Everything that changes a table (a move, a seat taken, a timer running out, a bot's
answer) is an operation (``ops``) run one at a time by the table's task, so two racing
moves can never both be accepted. The actor keeps the queue, the table's life (start,
resume, stop) and the dispatch: ``HANDLERS`` names the function that answers each kind
of operation, in the module of its concern, over the table's ``TableContext``. An
accepted move is made durable by the ``TableStore`` before the ``Fanout`` carries it to
anyone; a table is rebuilt anywhere from its rules, seed and moves (RULES G4).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from crazy_eights.engine import Game, Rules

from ..errors import ApiError
from ..protocol import TableInfo
from . import (
    arrivals,
    between_rounds,
    hinting,
    holds,
    messages,
    ops,
    play,
    reactions,
    rematch,
    rematcher,
    seating,
    standins,
    talk,
)
from .bots import BotTurns, HintDesk, Thinker
from .clock import GraceTimers, TurnClock
from .context import Notices, TableContext
from .members import Members
from .ops import GraceOver, HoldOver, Op, PauseOver, PresenceDue, Timeout
from .outbox import Outbox
from .presence import Presence
from .rounds import RoundPause
from .seats import Seats
from .state import TableState
from .store import Spec, Status, TableRecord, TableStore
from .transport import Fanout

log = logging.getLogger(__name__)

STOP_WAIT = 5.0  # seconds a stopping table waits for the operation under way

Handler = Callable[[TableContext, Any], Any]
"""Answers one kind of operation: ``handler(ctx, op)``, its answer (maybe awaited) is
the operation's answer."""

HANDLERS: Mapping[type[Any], Handler] = {
    # the sockets (arrivals, moves, talk, hints, the round pause)
    ops.Join: arrivals.on_join,
    ops.Part: arrivals.on_part,
    ops.Sync: arrivals.on_sync,
    ops.Ping: arrivals.on_ping,
    ops.Back: standins.on_back,
    ops.Play: play.on_play,
    ops.Say: talk.on_say,
    ops.Call: talk.on_call,
    ops.React: reactions.on_react,
    ops.AskHint: hinting.on_ask,
    ops.NextRound: between_rounds.on_next_round,
    # the lobby (answered with the table's info)
    ops.Sit: seating.on_sit,
    ops.Leave: seating.on_leave,
    ops.Start: seating.on_start,
    ops.Rematch: rematcher.on_rematch,
    ops.Hold: holds.on_hold,
    ops.Unhold: holds.on_unhold,
    ops.Describe: seating.on_describe,
    # the table's own timers and bots
    ops.Timeout: play.on_timeout,
    ops.GraceOver: seating.on_grace_over,
    ops.HoldOver: holds.on_hold_over,
    ops.PauseOver: between_rounds.on_pause_over,
    ops.PresenceDue: arrivals.on_presence_due,
    ops.BotMove: play.on_bot_move,
    ops.HintReady: hinting.on_ready,
    ops.HintRefused: hinting.on_refused,
}


@dataclass(frozen=True)
class TableDeps:
    """What a table needs from the process it runs on."""

    store: TableStore
    fanout: Fanout
    thinker: Thinker
    bot_account: Callable[[str], Awaitable[int]]
    """The account that plays (and is rated) for a bot level."""
    changed: Callable[[TableActor], None]
    """Told whenever the table's public info changes (the lobby listens)."""
    idle: Callable[[TableActor], None]
    """Told when a finished or abandoned table has nobody left watching."""
    lost: Callable[[TableActor], None] = lambda actor: None
    """Told when the store refuses a move because another process owns the table now."""
    bot_delay: float = 0.8
    grace_seconds: float = 120.0
    away_seconds: float = 30.0
    """Seconds a player who dropped out of a running game is waited for, then a stand-in."""
    node: str = ""
    """The node this process is in a cluster ("" on its own)."""
    max_spectators: int = 200
    """Watchers a table lets in (its players always get in)."""
    finished: Callable[[TableActor], None] = lambda actor: None
    """Told once when the table's game is over and stored (game analysis listens)."""
    round_pause: float = 30.0
    """Seconds a table waits between rounds for its players to press "Next round"."""
    titles: Callable[[int | None], list[str]] = lambda account: []
    """The rulesets whose Master Card Archon title an account holds (``archon.Titles``)."""
    follow_ups: rematch.FollowUps | None = None
    """Makes or finds a finished table's rematch ("Play again"); None: no rematches."""
    released: Callable[[TableActor, list[int]], None] = lambda actor, accounts: None
    """Told when seats held here for these people are no longer (``holds``)."""
    muted: Callable[[int], str | None] = lambda account: None
    """Why an account may not chat now (None: it may): a moderator's mute."""


class TableActor:
    """A live table: its state, and its operations run one at a time on its own task."""

    def __init__(self, record: TableRecord, deps: TableDeps) -> None:
        self.deps = deps
        self.state = self._state(record)
        self.ctx = TableContext(
            table=self.state,
            out=Outbox(self.state, deps.fanout),
            store=deps.store,
            notices=Notices(
                changed=lambda: deps.changed(self),
                idle=lambda: deps.idle(self),
                lost=lambda: deps.lost(self),
                finished=lambda: deps.finished(self),
                released=lambda accounts: deps.released(self, accounts),
            ),
            bot_account=deps.bot_account,
            follow_ups=deps.follow_ups,
            away_seconds=deps.away_seconds,
            max_spectators=deps.max_spectators,
            muted=deps.muted,
        )
        self._queue: asyncio.Queue[tuple[Op | _Work, asyncio.Future[Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._idle = asyncio.Event()
        self._idle.set()

    def _state(self, record: TableRecord) -> TableState:
        """The table's state from its record, its timers and bots answering on its queue."""
        deps = self.deps
        return TableState.from_record(
            record,
            clock=TurnClock(lambda version: self.submit(Timeout(version))),
            grace=GraceTimers(deps.grace_seconds, lambda seat: self.submit(GraceOver(seat))),
            rounds=RoundPause(deps.round_pause, lambda version: self.submit(PauseOver(version))),
            presence=Presence(lambda: self.submit(PresenceDue())),
            bots=BotTurns(
                deps.thinker,
                table_id=record.id,
                seed=record.seed,
                delay=deps.bot_delay,
                submit=self.submit,
            ),
            hints=HintDesk(deps.thinker, submit=self.submit, table_id=record.id),
            titles=deps.titles,
            holds=GraceTimers(0.0, lambda seat: self.submit(HoldOver(seat))),
        )

    # -- what the lobby, the process and the records read ------------------------------------

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def node(self) -> str:
        """The node this table runs on ("" on a single process)."""
        return self.deps.node

    @property
    def spec(self) -> Spec:
        return self.state.spec

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def status(self) -> Status:
        return self.state.status

    @property
    def seats(self) -> Seats:
        return self.state.seats

    @property
    def members(self) -> Members:
        return self.state.members

    @property
    def game(self) -> Game | None:
        return self.state.game

    @property
    def version(self) -> int:
        """How many moves have been played: the ``seq`` the next move must carry."""
        return self.state.version

    def seat_of(self, account_id: int | None) -> int | None:
        return self.state.seat_of(account_id)

    @property
    def unlisted(self) -> bool:
        """A rematch still holding its old players' seats: kept off the lobby's list."""
        return self.state.seats.rematch_held

    def info(self, *, for_account: int | None = None) -> TableInfo:
        return messages.table_info(self.state, for_account=for_account)

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._serve(), name=f"table-{self.id}")
        if self.status == "open":  # a seat nobody connects to is freed after the grace
            for seat in self.seats:
                if seat.human:
                    self.state.grace.start(seat.seat)
                if seat.holds:  # a rematch's seats, held for its old players
                    holds.arm(self.state, seat)

    async def resume(self, moves: list[tuple[int | None, str]]) -> None:
        """Rebuild the game from its stored moves and pick up where it stopped."""
        await self._call(lambda: play.resume(self.ctx, moves))

    async def start_game(self) -> None:
        """Deal now (a new table whose seats are all taken)."""
        await self._call(lambda: seating.start(self.ctx))

    async def stop(self, close_code: int = 1012) -> None:
        """Stop after the operation under way (if any): the task, the timers and the bots;
        refuse what is still queued and close every member's socket (1012: reconnect)."""
        self._stopping = True
        state = self.state
        state.clock.cancel()
        state.grace.cancel_all()
        state.holds.cancel_all()
        state.presence.cancel()
        state.rounds.end()
        await state.bots.cancel()
        await state.hints.cancel()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), STOP_WAIT)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if not future.done():
                future.set_exception(ApiError(503, "table_moving", "the table is moving; retry"))
        for member in list(self.members):
            self.ctx.out.close(member, close_code)

    # -- the operation queue ---------------------------------------------------------------

    async def request(self, op: Op) -> Any:
        """Run ``op`` on the table's task and return its answer."""
        return await self.queue(op)

    def queue(self, op: Op) -> asyncio.Future[Any]:
        """Queue ``op`` now and give the future of its answer."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self._stopping:
            future.set_exception(ApiError(503, "table_moving", "the table is moving; retry"))
        else:
            self._queue.put_nowait((op, future))
        return future

    def submit(self, op: Op) -> None:
        """Queue ``op`` without waiting for it."""
        self.queue(op).add_done_callback(_consume)

    async def _call(self, work: Callable[[], Awaitable[Any]]) -> Any:
        if self._stopping:
            raise ApiError(503, "table_moving", "the table is moving; retry")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((_Work(work), future))
        return await future

    async def _serve(self) -> None:
        while not self._stopping:
            op, future = await self._queue.get()
            self._idle.clear()
            try:
                result = await (op.work() if isinstance(op, _Work) else self.run(op))
            except Exception as exc:
                if not isinstance(exc, ApiError):
                    log.exception("table %s: %r failed", self.id, op)
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)
            finally:
                self._idle.set()

    async def run(self, op: Op) -> Any:
        """Answer one operation (on the table's task) with its handler."""
        handler = HANDLERS.get(type(op))
        if handler is None:
            raise AssertionError(f"unhandled operation {op!r}")
        answer = handler(self.ctx, op)
        return await answer if inspect.isawaitable(answer) else answer


@dataclass(frozen=True)
class _Work:
    """A piece of the actor's own work queued behind the operations (restore, start)."""

    work: Callable[[], Awaitable[Any]]


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
