"""A table another process plays (a chat host's), as this process shows it to browsers.

A chat host writes its tables to the room's database (``place`` says where they are
played); no process of the room runs them. When a browser opens such a table's socket,
the process builds a ``FollowedTable`` from the stored record and keeps it up with the
stored moves, read every ``every`` seconds while anyone watches, and tells its members
each move as a table it ran would (``messages.state_texts``, the same ``state``
messages, G5 included). Everyone watches: moves are made in the chat, so a move, a
word or a hint sent here is refused (``played_elsewhere``). Reading the database rather
than a bus works the same on SQLite and PostgreSQL, with or without Redis, and needs
nothing of the host: a move is visible once stored, which is when the chat hears of it.
A host that tells its moves on the cluster's Redis (``cluster.hostednews``) makes the
next look come at once (``wake``); the look every ``every`` seconds stays, should a word
be lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Move, replay

from .. import db
from ..connection import spawn
from ..errors import ApiError
from ..protocol import PongOut, TableInfo, TableOut
from . import messages
from .bots import BotTurns, HintDesk, Thinker
from .clock import GraceTimers, TurnClock
from .members import Member
from .ops import Describe, Join, Joined, Op, Part, Ping, Sync
from .outbox import Outbox
from .presence import Presence
from .rounds import RoundPause
from .state import TableState
from .store import TableRecord
from .transport import Fanout

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.5
"""Seconds between two looks at a followed table's new moves."""


@dataclass(frozen=True)
class FollowDeps:
    """What a followed table needs of the process showing it."""

    engine: AsyncEngine
    fanout: Fanout
    thinker: Thinker
    """Never asked (nobody moves here); the table's state is built with one."""
    node: str = ""
    titles: Callable[[int | None], list[str]] = lambda account: []
    max_spectators: int = 200
    every: float = FOLLOW_EVERY


def _never(*_: Any) -> None:
    """A timer's callback at a table whose timers never run here."""


class FollowedTable:
    """A ``TableHandle`` of a table played elsewhere: watchers in, moves out."""

    def __init__(
        self,
        record: TableRecord,
        deps: FollowDeps,
        on_empty: Callable[[FollowedTable], None],
        *,
        turn_began: float | None = None,
    ) -> None:
        """``turn_began``: when the turn under way began (Unix time: the last move's),
        for the clock its watchers see."""
        self.deps = deps
        self._on_empty = on_empty
        self.state = TableState.from_record(
            record,
            clock=TurnClock(_never),
            grace=GraceTimers(0.0, _never),
            rounds=RoundPause(0.0, _never),
            presence=Presence(self._presence_due),
            bots=BotTurns(
                deps.thinker, table_id=record.id, seed=record.seed, delay=0, submit=_never
            ),
            hints=HintDesk(deps.thinker, submit=_never, table_id=record.id),
            titles=deps.titles,
        )
        if record.status in ("playing", "finished"):
            self.state.game = replay(record.spec.rules, record.seed, [m for _, m in record.moves])
            self.state.movers = [seat for seat, _ in record.moves]
        self.out = Outbox(self.state, deps.fanout)
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._news = asyncio.Event()
        self._time_turn(turn_began)

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def node(self) -> str:
        return self.deps.node

    @property
    def place(self) -> str:
        return self.state.spec.place or "the chat"

    def info(self) -> TableInfo:
        return messages.table_info(self.state)

    # -- the handle ----------------------------------------------------------------------

    async def request(self, op: Op) -> Any:
        async with self._lock:
            return self._run(op)

    def submit(self, op: Op) -> None:
        spawn(self._quietly(op))

    async def _quietly(self, op: Op) -> None:
        with contextlib.suppress(ApiError):
            await self.request(op)

    def _run(self, op: Op) -> Any:
        if isinstance(op, Join):
            return self._join(op)
        if isinstance(op, Part):
            return self._part(op)
        if isinstance(op, Sync | Ping):
            return self._answer(op)
        if isinstance(op, Describe):
            return self.info()
        member = self.state.members.get(getattr(op, "member_id", ""))
        if member is not None:
            return self.out.error(member, "played_elsewhere", self._elsewhere())
        raise ApiError(409, "played_elsewhere", self._elsewhere())

    def _elsewhere(self) -> str:
        return f"this table is played in {self.place}: watch it here, play it there"

    def _join(self, op: Join) -> Joined:
        state = self.state
        member = op.member
        refusal = self._refusal(member, op.code)
        if refusal is not None:
            if not state.members:  # nobody to follow it for
                self._on_empty(self)
            return refusal
        member.seat = None  # the seats are played in the chat
        state.members.add(member)
        state.presence.count()
        self.out.welcome(member)
        if self._task is None:
            self._task = spawn(self._follow())
        return Joined(True)

    def _refusal(self, member: Member, code: str | None) -> Joined | None:
        """Why ``member`` may not watch (None: they may)."""
        if not self.state.may_watch(member.account_id, code):
            return Joined(False, 4003, "private table: use its invite code")
        if self.state.members.spectators >= self.deps.max_spectators:
            return Joined(False, 4029, "this table has its fill of watchers")
        return None

    def _part(self, op: Part) -> None:
        member = self.state.members.remove(op.member_id)
        if member is None:
            return
        self.out.close(member, 1000)
        self.state.presence.count()
        if not self.state.members:
            self.stop()
            self._on_empty(self)

    def _answer(self, op: Sync | Ping) -> None:
        member = self.state.members.get(op.member_id)
        if member is None:
            return
        if isinstance(op, Sync):
            self.out.welcome(member)
        else:
            self.out.send(member, PongOut(table=self.id, clock=None, t=op.t))

    def _presence_due(self) -> None:
        self.out.to_all(messages.presence(self.state, self.state.presence.take()))

    # -- following the stored moves --------------------------------------------------------

    def wake(self) -> None:
        """The host said the table changed: look now rather than at the next look."""
        self._news.set()

    async def _follow(self) -> None:
        while self.state.status in ("open", "playing"):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), self.deps.every)
            self._news.clear()  # a word heard from now on brings another look
            try:
                async with self._lock:
                    await self.catch_up()
            except Exception:  # the database is away: look again next time
                log.exception("table %s: could not read its moves", self.id)

    async def catch_up(self) -> None:
        """Read what was stored since the last look and tell it: each new move, then a
        new status (dealt, finished, abandoned) or seats given up in the chat."""
        state = self.state
        async with self.deps.engine.connect() as conn:
            status = (
                await conn.execute(sa.select(db.tables.c.status).where(db.tables.c.id == self.id))
            ).scalar_one_or_none()
            moves = (
                await conn.execute(
                    sa.select(db.moves.c.seat, db.moves.c.move, db.moves.c.at)
                    .where(db.moves.c.table_id == self.id, db.moves.c.n >= state.version)
                    .order_by(db.moves.c.n)
                )
            ).all()
            left = (
                await conn.execute(
                    sa.select(db.seats.c.seat).where(
                        db.seats.c.table_id == self.id, db.seats.c.left == sa.true()
                    )
                )
            ).scalars()
            newly_left = [s for s in left if s < len(state.seats) and not state.seats[s].left]
        if status is None:
            return
        if state.game is None and status != "open":
            state.game = replay(state.rules, state.seed, [])
        for seat, text, at in moves:
            assert state.game is not None
            events = state.game.play(Move.parse(text))
            state.movers.append(seat)
            self._time_turn(at)
            self.out.deliver(messages.state_texts(state, events, text, seat, None))
        for seat in newly_left:  # given up in the chat: a bot plays it on
            state.seats[seat].left = True
        new_status = status != state.status
        if new_status:
            state.status = status
            state.clock.cancel()
        if new_status or newly_left:
            self.out.to_all(TableOut(table=self.id, clock=None, info=self.info()))

    def _time_turn(self, began: float | None) -> None:
        """Run the watchers' clock for the turn that began at ``began`` (the host's turn
        timer is the table's ``turn_timer``; this clock only shows it, it calls no time)."""
        if began is None or not self.state.running:
            self.state.clock.cancel()
            return
        left = self.state.rules.turn_timer - (db.now() - began)
        self.state.clock.arm(max(0.0, left), self.state.version)

    def stop(self, close_code: int | None = None) -> None:
        """Stop following (nobody watches any more, or the process stops: then close
        every watcher's socket with ``close_code``, 1012 to say "come back")."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.state.presence.cancel()
        self.state.clock.cancel()
        if close_code is not None:
            for member in list(self.state.members):
                self.out.close(member, close_code)
