"""Table actors: one asyncio task per live table owns its game and serves a command queue.

Everything that changes a table (a move, a seat taken, a timer running out, a bot's
answer) is a command run one at a time by the table's task, so two racing moves can never
both be accepted. An accepted move is committed to the database before it is broadcast;
a table is rebuilt anywhere from its rules, seed and moves (RULES G4).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import pydantic_core
import sqlalchemy as sa
from starlette.websockets import WebSocket, WebSocketState

from crazy_eights.engine import (
    TIMEOUT,
    Game,
    IllegalMove,
    Move,
    MoveSyntaxError,
    Rules,
    new_game,
    replay,
)

from . import db, stats
from .botpool import BOT_LEVELS, HINT_LEVEL
from .errors import ApiError
from .protocol import (
    MAX_CHAT,
    CalledOut,
    ChatOut,
    Clock,
    ErrorOut,
    HintOut,
    PongOut,
    SeatInfo,
    State,
    TableInfo,
    TableOut,
    Welcome,
    You,
    _Server,
    calls_last_card,
)

if TYPE_CHECKING:
    from .app import Room

log = logging.getLogger(__name__)

Status = Literal["open", "playing", "finished", "abandoned"]
STANDIN_LEVEL = "heuristic"
CHAT_RATE = (5, 10.0)  # messages per seconds, per speaker
OUTBOX = 256  # messages queued for a slow socket before it is dropped


_background: set[asyncio.Task[Any]] = set()


def spawn(coro: Awaitable[Any]) -> asyncio.Task[Any]:
    """A background task kept referenced until it ends."""
    task: asyncio.Task[Any] = asyncio.ensure_future(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


@dataclass
class Seat:
    seat: int
    account_id: int | None = None
    name: str | None = None
    avatar: str | None = None
    bot: str | None = None
    left: bool = False
    standin: bool = False
    timeouts: int = 0
    called: bool = False
    grace: asyncio.TimerHandle | None = None

    @property
    def taken(self) -> bool:
        return self.account_id is not None

    @property
    def bot_level(self) -> str | None:
        """The level of the bot playing this seat now, if a bot is playing it."""
        if self.bot is not None:
            return self.bot
        return STANDIN_LEVEL if self.standin or self.left else None


class Conn:
    """One socket at a table; sends go through a bounded outbox drained by a writer task."""

    def __init__(self, ws: WebSocket, account_id: int | None, name: str) -> None:
        self.ws = ws
        self.account_id = account_id
        self.name = name
        self.seat: int | None = None
        self._out: asyncio.Queue[str | int] = asyncio.Queue(OUTBOX)
        self._task = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        try:
            self._out.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropping a socket that does not read its messages")
            self.abort(1008)

    def close(self, code: int = 1000) -> None:
        """Close after the messages already queued have gone out."""
        try:
            self._out.put_nowait(code)
        except asyncio.QueueFull:
            self.abort(code)

    async def finish(self, code: int) -> None:
        """Close after the queued messages, and wait (briefly) until that is done."""
        self.close(code)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), 2.0)

    def abort(self, code: int) -> None:
        self._task.cancel()
        if self.ws.application_state is WebSocketState.CONNECTED:
            spawn(_close_quietly(self.ws, code))

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                item = await self._out.get()
                while True:
                    if isinstance(item, int):
                        await _close_quietly(self.ws, item)
                        return
                    await self.ws.send_text(item)
                    if self._out.empty():
                        break
                    item = self._out.get_nowait()


async def _close_quietly(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code)


def bot_names(levels: Sequence[str | None]) -> list[str | None]:
    """A display name of its own for each bot seat (None for the others): "Heuristic bot",
    or "Heuristic bot 1", "Heuristic bot 2"... when one level sits more than once."""
    counts: dict[str, int] = {}
    for level in levels:
        if level is not None:
            counts[level] = counts.get(level, 0) + 1
    numbers: dict[str, int] = {}
    names: list[str | None] = []
    for level in levels:
        if level is None:
            names.append(None)
            continue
        numbers[level] = numbers.get(level, 0) + 1
        title = f"{level.capitalize()} bot"
        names.append(f"{title} {numbers[level]}" if counts[level] > 1 else title)
    return names


def name_bots(seats: list[Seat]) -> None:
    """Give each bot seat its own display name (``bot_names``) and the bot avatar."""
    for seat, name in zip(seats, bot_names([s.bot for s in seats]), strict=True):
        if name is not None:
            seat.name, seat.avatar = name, "bot"


@dataclass
class Spec:
    """What a new table is made of (validated by the lobby before it gets here)."""

    name: str
    rules: Rules
    public: bool
    hints: bool
    takeover_after: int
    bots: dict[int, str] = field(default_factory=dict)


class TableActor:
    """A live table: seats, game, sockets, timers; commands run one at a time."""

    def __init__(
        self,
        room: Room,
        *,
        id: str,
        spec: Spec,
        seed: int,
        creator: int | None,
        invite: str | None,
        status: Status,
        created_at: float,
        seats: list[Seat],
    ) -> None:
        self.room = room
        self.id = id
        self.spec = spec
        self.rules = spec.rules
        self.seed = seed
        self.creator = creator
        self.invite = invite
        self.status: Status = status
        self.created_at = created_at
        self.seats = seats
        self.game: Game | None = None
        self.movers: list[int | None] = []
        self.conns: set[Conn] = set()
        self.chat: deque[ChatOut] = deque(maxlen=50)
        self._chat_times: dict[int | None, deque[float]] = {}
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._deadline = 0.0
        self._bot_task: asyncio.Task[None] | None = None

    # -- the command queue ---------------------------------------------------------------

    def start_actor(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop_actor(self) -> None:
        for handle in [self._timer, *(s.grace for s in self.seats)]:
            if handle is not None:
                handle.cancel()
        for task in (self._bot_task, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for conn in list(self.conns):
            conn.abort(1012)

    async def _run(self) -> None:
        while True:
            command, future = await self._queue.get()
            try:
                result = await command()
            except Exception as exc:
                if not isinstance(exc, ApiError):
                    log.exception("table %s: command failed", self.id)
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

    async def ask(self, command: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``command`` on the table's task and return its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future))
        return await future

    def post(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``command`` without waiting for it."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_consume)
        self._queue.put_nowait((command, future))

    # -- facts -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.movers)

    @property
    def rated(self) -> bool:
        return not self.spec.hints

    def seat_of(self, account_id: int | None) -> int | None:
        if account_id is None:
            return None
        for seat in self.seats:
            if seat.account_id == account_id and seat.bot is None and not seat.left:
                return seat.seat
        return None

    def connected(self, seat: Seat) -> bool:
        return seat.bot is not None or any(c.seat == seat.seat for c in self.conns)

    def info(self, *, for_account: int | None = None) -> TableInfo:
        return TableInfo(
            id=self.id,
            name=self.spec.name,
            ruleset=self.rules.ruleset,
            rules=self.rules.to_dict(),
            status=self.status,
            public=self.spec.public,
            rated=self.rated,
            hints=self.spec.hints,
            takeover_after=self.spec.takeover_after,
            creator=self.creator,
            invite=self.invite if for_account is not None and for_account == self.creator else None,
            seats=[
                SeatInfo(
                    seat=s.seat,
                    account=s.account_id,
                    name=s.name,
                    avatar=s.avatar,
                    bot=s.bot,
                    connected=self.connected(s) if s.taken else False,
                    standin=s.standin,
                    left=s.left,
                )
                for s in self.seats
            ],
            spectators=sum(1 for c in self.conns if c.seat is None),
            version=self.version,
            created_at=self.created_at,
        )

    def clock(self) -> Clock | None:
        game = self.game
        if game is None or game.is_over or self.status != "playing":
            return None
        seat = game.current_player
        if seat is None:
            return None
        left = max(0.0, self._deadline - asyncio.get_running_loop().time())
        return Clock(seat=seat, left=round(left, 1), timer=self.rules.turn_timer)

    def may_watch(self, account_id: int | None, code: str | None) -> bool:
        if self.spec.public or self.seat_of(account_id) is not None:
            return True
        if account_id is not None and account_id == self.creator:
            return True
        return (
            code is not None
            and self.invite is not None
            and secrets.compare_digest(code, self.invite)
        )

    # -- sending ---------------------------------------------------------------------------

    def _send(self, conn: Conn, message: _Server) -> None:
        text = message.model_dump_json()
        audit = self.room.audit
        if audit is not None:
            audit(self, conn.seat, text)
        conn.send(text)

    def _to_seat(self, seat: int, message: _Server) -> None:
        for conn in self.conns:
            if conn.seat == seat:
                self._send(conn, message)

    def _to_all(self, message: _Server) -> None:
        text = message.model_dump_json()
        audit = self.room.audit
        for conn in self.conns:
            if audit is not None:
                audit(self, conn.seat, text)
            conn.send(text)

    def _error(self, conn: Conn, code: str, reason: str, seq: int | None = None) -> None:
        self._send(
            conn,
            ErrorOut(
                table=self.id,
                clock=self.clock(),
                code=code,
                reason=reason,
                seq=seq,
                version=self.version,
            ),
        )

    def _state_data(
        self,
        seat: int | None,
        *,
        log: bool = False,
        events: list[Any] = (),  # type: ignore[assignment]
        move: str | None = None,
        by: int | None = None,
        ack: int | None = None,
    ) -> dict[str, Any] | None:
        """The fields of a ``State`` for ``seat`` (None: spectators), as plain data."""
        game = self.game
        if game is None:
            return None
        legal = (
            [m.text for m in game.legal_moves()]
            if seat is not None and game.current_player == seat
            else []
        )
        return {
            "version": self.version,
            "move": move,
            "by": by,
            "ack": ack if seat is not None and seat == by else None,
            "events": [e.for_seat(seat) for e in events],
            "view": game.view(seat, log=log),
            "legal": legal,
            "called": seat is not None and self.seats[seat].called,
        }

    def _state(self, seat: int | None, *, log: bool = False) -> State | None:
        data = self._state_data(seat, log=log)
        return None if data is None else State(**data)

    def _broadcast_state(
        self, events: list[Any], move: str, by: int | None, ack: int | None
    ) -> None:
        """One ``StateOut`` per seat (and one for spectators) to every socket.

        The hot path of every move: the message is dumped straight from plain data (the
        same JSON as ``StateOut.model_dump_json``) rather than through model validation.
        """
        cache: dict[int | None, str] = {}
        clock = self.clock()
        clock_data = None if clock is None else clock.model_dump()
        audit = self.room.audit
        for conn in self.conns:
            text = cache.get(conn.seat)
            if text is None:
                state = self._state_data(conn.seat, events=events, move=move, by=by, ack=ack)
                text = cache[conn.seat] = _dumps(
                    {"table": self.id, "clock": clock_data, "type": "state", "state": state}
                )
            if audit is not None:
                audit(self, conn.seat, text)
            conn.send(text)

    def _welcome(self, conn: Conn) -> Welcome:
        return Welcome(
            table=self.id,
            clock=self.clock(),
            you=You(
                account=conn.account_id,
                seat=conn.seat,
                role="spectator" if conn.seat is None else "player",
            ),
            info=self.info(for_account=conn.account_id),
            state=self._state(conn.seat, log=True),
            chat=list(self.chat),
        )

    def _info_changed(self) -> None:
        for conn in self.conns:
            self._send(
                conn,
                TableOut(
                    table=self.id, clock=self.clock(), info=self.info(for_account=conn.account_id)
                ),
            )
        self.room.lobby.table_changed(self)

    # -- sockets ---------------------------------------------------------------------------

    async def connect(self, conn: Conn) -> None:
        conn.seat = self.seat_of(conn.account_id)
        self.conns.add(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            if seat.standin:
                self._give_back(seat)
        self._send(conn, self._welcome(conn))
        self._info_changed()

    async def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        conn.close()
        seat_no = conn.seat
        if seat_no is not None and not any(c.seat == seat_no for c in self.conns):
            seat = self.seats[seat_no]
            if seat.grace is None:
                self._arm_grace(seat_no)
        self._info_changed()
        if self.status in ("finished", "abandoned") and not self.conns:
            self.room.tables.unload(self)

    def _arm_grace(self, seat_no: int) -> None:
        """Keep the seat for the grace period, then let ``_grace_over`` decide."""

        def over() -> None:
            self.post(lambda: self._grace_over(seat_no))

        loop = asyncio.get_running_loop()
        self.seats[seat_no].grace = loop.call_later(self.room.settings.grace_seconds, over)

    async def _grace_over(self, seat_no: int) -> None:
        seat = self.seats[seat_no]
        seat.grace = None
        if any(c.seat == seat_no for c in self.conns) or seat.bot is not None:
            return
        if self.status == "open" and seat.account_id is not None:
            await self._leave(seat.account_id)
        elif self.status == "playing" and self.spec.takeover_after > 0 and not seat.standin:
            seat.standin = True
            self._info_changed()
            self._after_change()

    def _give_back(self, seat: Seat) -> None:
        seat.standin = False
        seat.timeouts = 0
        self._info_changed()

    async def back(self, conn: Conn) -> None:
        if conn.seat is not None and self.seats[conn.seat].standin:
            self._give_back(self.seats[conn.seat])

    async def sync(self, conn: Conn) -> None:
        conn.seat = self.seat_of(conn.account_id)
        self._send(conn, self._welcome(conn))

    async def ping(self, conn: Conn, t: float | None) -> None:
        self._send(conn, PongOut(table=self.id, clock=self.clock(), t=t))

    # -- seats -----------------------------------------------------------------------------

    async def sit(self, account: Any, seat_no: int | None, code: str | None) -> TableInfo:
        if self.status != "open":
            raise ApiError(409, "not_open", "the game has started; you can watch it")
        if not self.spec.public and account.id != self.creator and not self.may_watch(None, code):
            raise ApiError(403, "invite_needed", "this table is private: use its invite code")
        if self.seat_of(account.id) is not None:
            return self.info(for_account=account.id)
        free = [s for s in self.seats if not s.taken and s.bot is None]
        if seat_no is None:
            if not free:
                raise ApiError(409, "full", "no free seat at this table")
            seat = free[0]
        else:
            if not 0 <= seat_no < len(self.seats):
                raise ApiError(422, "bad_seat", f"seats are 0 to {len(self.seats) - 1}")
            seat = self.seats[seat_no]
            if seat not in free:
                raise ApiError(409, "seat_taken", f"seat {seat_no} is taken")
        seat.account_id, seat.name, seat.avatar = account.id, account.display_name, account.avatar
        await self._save_seat(seat)
        self._refresh_conns()
        if all(s.taken for s in self.seats):
            await self._start()
        else:
            self._info_changed()
        return self.info(for_account=account.id)

    async def leave(self, account_id: int) -> TableInfo:
        if self.seat_of(account_id) is None:
            raise ApiError(409, "not_seated", "you have no seat at this table")
        await self._leave(account_id)
        return self.info(for_account=account_id)

    async def _leave(self, account_id: int) -> None:
        seat_no = self.seat_of(account_id)
        if seat_no is None:
            return
        seat = self.seats[seat_no]
        if self.status == "open":
            seat.account_id = seat.name = seat.avatar = None
            await self._save_seat(seat)
            if not any(s.taken and s.bot is None for s in self.seats):
                await self._set_status("abandoned")
        elif self.status == "playing":
            seat.left = True  # counted as a loss; a bot finishes the game for them
            await self._save_seat(seat)
            self._after_change()
        self._refresh_conns()
        self._info_changed()

    def _refresh_conns(self) -> None:
        for conn in self.conns:
            conn.seat = self.seat_of(conn.account_id)

    async def _save_seat(self, seat: Seat) -> None:
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.seats.update()
                .where(db.seats.c.table_id == self.id, db.seats.c.seat == seat.seat)
                .values(account_id=seat.account_id, bot_level=seat.bot, left=seat.left)
            )

    async def _set_status(self, status: Status, **values: Any) -> None:
        self.status = status
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.tables.update().where(db.tables.c.id == self.id).values(status=status, **values)
            )

    async def start(self, account_id: int) -> TableInfo:
        if account_id != self.creator:
            raise ApiError(403, "not_creator", "only the table's creator can start it")
        if self.status != "open":
            raise ApiError(409, "not_open", "the game has already started")
        await self._start()
        return self.info(for_account=account_id)

    async def _start(self) -> None:
        """Fill empty seats with bots and deal."""
        for seat in self.seats:
            if not seat.taken:
                seat.bot = seat.bot or STANDIN_LEVEL
                seat.account_id = await self.room.accounts.bot_account(seat.bot)
                await self._save_seat(seat)
        name_bots(self.seats)
        await self._set_status("playing", started_at=db.now())
        self.game = new_game(self.rules, self.seed)
        self._refresh_conns()
        self._arm_timer()
        for conn in self.conns:
            self._send(conn, self._welcome(conn))
        self._info_changed()
        self._after_change()

    # -- moves -----------------------------------------------------------------------------

    async def on_move(self, conn: Conn, seq: int, text: str) -> None:
        seat_no = conn.seat
        game = self.game
        if seat_no is None:
            return self._error(conn, "not_seated", "spectators cannot move", seq)
        if game is None:
            return self._error(conn, "not_started", "the game has not started", seq)
        if game.is_over:
            return self._error(conn, "game_over", "the game is over", seq)
        try:
            move = Move.parse(text)
        except MoveSyntaxError as exc:
            return self._error(conn, "illegal", str(exc), seq)
        seat = self.seats[seat_no]
        if seat.called and move.is_play and not move.call:
            move = move.with_call()
        if seq != self.version:
            if seq < self.version and self.movers[seq] == seat_no and game.moves[seq] == move.text:
                return self._error(conn, "duplicate", f"move {seq} was already played", seq)
            return self._error(
                conn, "stale", f"the game is at version {self.version}, not {seq}", seq
            )
        if game.current_player != seat_no:
            return self._error(
                conn, "not_your_turn", f"it is seat {game.current_player}'s turn", seq
            )
        if move is TIMEOUT:
            return self._error(conn, "illegal", "timeout is issued by the table", seq)
        if seat.standin:
            self._give_back(seat)
        try:
            await self._apply(seat_no, move, ack=seq)
        except IllegalMove as exc:
            self._error(conn, "illegal", exc.reason, seq)
        else:
            seat.timeouts = 0

    async def _apply(self, seat_no: int, move: Move, *, ack: int | None = None) -> None:
        """Play, commit, then broadcast. Raises ``IllegalMove`` with nothing changed."""
        game = self.game
        assert game is not None
        events = game.play(move)
        n = self.version
        text = game.moves[-1]
        try:
            await self.room.writer.write(
                db.moves,
                {"table_id": self.id, "n": n, "seat": seat_no, "move": text, "at": db.now()},
            )
        except Exception:
            self.game = replay(self.rules, self.seed, game.moves[:-1])
            raise IllegalMove("the server could not save the move; try again") from None
        self.movers.append(seat_no)
        self.seats[seat_no].called = False
        if game.is_over:
            self._cancel_timer()
            await self._finish()
        else:
            self._arm_timer()
        self._broadcast_state(events, text, seat_no, ack)
        if self.status == "finished":
            self._info_changed()
            asyncio.get_running_loop().call_later(60, self._unload_if_idle)
        self._after_change()

    def _unload_if_idle(self) -> None:
        if not self.conns:
            self.room.tables.unload(self)

    async def _finish(self) -> None:
        game = self.game
        assert game is not None and game.result is not None
        result = game.result.to_dict()
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.tables.update()
                .where(db.tables.c.id == self.id)
                .values(status="finished", finished_at=db.now(), result=result)
            )
            await stats.record_game(
                conn,
                ruleset=self.rules.ruleset,
                rated=self.rated,
                seats=[(s.seat, s.account_id, s.left) for s in self.seats],
                result=result,
            )
        self.status = "finished"

    # -- timer, bots, hints ----------------------------------------------------------------

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm_timer(self) -> None:
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        self._deadline = loop.time() + self.rules.turn_timer
        version = self.version
        self._timer = loop.call_at(
            self._deadline, lambda: self.post(lambda: self._on_timeout(version))
        )

    async def _on_timeout(self, version: int) -> None:
        game = self.game
        if game is None or game.is_over or version != self.version:
            return
        seat_no = game.current_player
        assert seat_no is not None
        seat = self.seats[seat_no]
        await self._apply(seat_no, TIMEOUT)
        seat.timeouts += 1
        takeover = self.spec.takeover_after
        if seat.bot is None and not seat.standin and takeover and seat.timeouts >= takeover:
            seat.standin = True
            self._info_changed()
            self._after_change()

    def _after_change(self) -> None:
        """If a bot is to move, let it think (off the loop) after its pause."""
        game = self.game
        if game is None or game.is_over or self.status != "playing":
            return
        seat_no = game.current_player
        if seat_no is None:
            return
        level = self.seats[seat_no].bot_level
        if level is None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        self._bot_task = asyncio.create_task(self._bot_turn(self.version, seat_no, level))

    async def _bot_turn(self, version: int, seat_no: int, level: str) -> None:
        game = self.game
        assert game is not None
        view = game.view(seat_no, log=True)
        legal = [m.text for m in game.legal_moves()]
        started = time.monotonic()
        try:
            text = await self.room.bots.choose(
                level=level,
                seed=(self.seed + version * 7919 + seat_no) % 2**32,
                view=view,
                legal=legal,
            )
        except Exception:
            log.exception("table %s: bot failed; it plays its first legal move", self.id)
            text = legal[0]
        pause = self.room.settings.bot_delay - (time.monotonic() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        self.post(lambda: self._on_bot_move(version, seat_no, text, legal))

    async def _on_bot_move(self, version: int, seat_no: int, text: str, legal: list[str]) -> None:
        game = self.game
        if (
            game is None
            or game.is_over
            or version != self.version
            or game.current_player != seat_no
            or self.seats[seat_no].bot_level is None
        ):
            self._after_change()
            return
        try:
            await self._apply(seat_no, Move.parse(text))
        except (IllegalMove, MoveSyntaxError):
            log.warning("table %s: bot chose illegal %r", self.id, text)
            await self._apply(seat_no, Move.parse(legal[0]))

    async def on_hint(self, conn: Conn) -> None:
        game = self.game
        if not self.spec.hints:
            return self._error(conn, "hints_off", "hints are off at this table (it is rated)")
        if conn.seat is None:
            return self._error(conn, "not_seated", "spectators get no hints")
        if game is None or game.is_over or game.current_player != conn.seat:
            return self._error(conn, "not_your_turn", "hints are given on your turn")
        version, seat_no = self.version, conn.seat
        view = game.view(seat_no, log=True)
        legal = [m.text for m in game.legal_moves()]

        async def work() -> None:
            level = HINT_LEVEL if HINT_LEVEL in BOT_LEVELS else STANDIN_LEVEL
            move = await self.room.bots.choose(level=level, seed=version, view=view, legal=legal)
            self.post(lambda: self._send_hint(conn, version, move))

        spawn(work())

    async def _send_hint(self, conn: Conn, version: int, move: str) -> None:
        if version == self.version and conn in self.conns:
            self._send(conn, HintOut(table=self.id, clock=self.clock(), version=version, move=move))

    # -- chat and last card ----------------------------------------------------------------

    async def on_call(self, conn: Conn) -> None:
        if conn.seat is None:
            return self._error(conn, "not_seated", "spectators cannot call last card")
        if self.game is None or self.game.is_over:
            return self._error(conn, "not_started", "no game is running")
        self.seats[conn.seat].called = True
        self._to_seat(conn.seat, CalledOut(table=self.id, clock=self.clock(), seat=conn.seat))

    async def on_chat(self, conn: Conn, text: str) -> None:
        text = " ".join(text.split())[:MAX_CHAT]
        if not text:
            return self._error(conn, "bad_message", "empty chat message")
        speaker = conn.account_id
        times = self._chat_times.setdefault(speaker, deque())
        now = time.monotonic()
        limit, window = CHAT_RATE
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= limit:
            return self._error(
                conn, "rate_limited", f"at most {limit} chat messages in {window:g} s"
            )
        times.append(now)
        call = (
            conn.seat is not None
            and self.game is not None
            and not self.game.is_over
            and calls_last_card(text)
        )
        message = ChatOut(
            table=self.id,
            clock=self.clock(),
            seat=conn.seat,
            account=speaker,
            name=conn.name,
            text=html.escape(text),
            at=db.now(),
            call=call,
        )
        self.room.writer.write_later(
            db.chat,
            {
                "table_id": self.id,
                "account_id": speaker,
                "seat": conn.seat,
                "text": text,
                "at": message.at,
            },
        )
        self.chat.append(message)
        self._to_all(message)
        if call:
            await self.on_call(conn)


def _dumps(data: Any) -> str:
    return pydantic_core.to_json(data).decode()


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class Tables:
    """The live tables of this process, by id; creates, restores and unloads actors."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.live: dict[str, TableActor] = {}

    def _actor(self, **kwargs: Any) -> TableActor:
        actor = TableActor(self.room, **kwargs)
        self.live[actor.id] = actor
        actor.start_actor()
        return actor

    def get(self, table_id: str) -> TableActor | None:
        return self.live.get(table_id)

    def by_invite(self, code: str) -> TableActor | None:
        for actor in self.live.values():
            if actor.invite is not None and secrets.compare_digest(actor.invite, code):
                return actor
        return None

    def unload(self, actor: TableActor) -> None:
        if self.live.get(actor.id) is actor:
            del self.live[actor.id]
            spawn(actor.stop_actor())

    async def create(self, spec: Spec, creator: Any) -> TableActor:
        table_id = "t_" + secrets.token_urlsafe(9)
        invite = None if spec.public else secrets.token_urlsafe(6)
        seed = secrets.randbits(63)
        now = db.now()
        seats = [Seat(seat=i) for i in range(spec.rules.players)]
        for seat_no, level in spec.bots.items():
            seat = seats[seat_no]
            seat.bot = level
            seat.account_id = await self.room.accounts.bot_account(level)
        name_bots(seats)
        own = next(s for s in seats if not s.taken)
        own.account_id, own.name, own.avatar = creator.id, creator.display_name, creator.avatar
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.tables.insert().values(
                    id=table_id,
                    name=spec.name,
                    creator_id=creator.id,
                    ruleset=spec.rules.ruleset,
                    rules=spec.rules.to_dict(),
                    seed=seed,
                    public=spec.public,
                    invite=invite,
                    hints=spec.hints,
                    takeover_after=spec.takeover_after,
                    status="open",
                    created_at=now,
                )
            )
            await conn.execute(
                db.seats.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "account_id": s.account_id,
                        "bot_level": s.bot,
                        "left": False,
                    }
                    for s in seats
                ],
            )
        actor = self._actor(
            id=table_id,
            spec=spec,
            seed=seed,
            creator=creator.id,
            invite=invite,
            status="open",
            created_at=now,
            seats=seats,
        )
        if all(s.taken for s in seats):
            await actor.ask(actor._start)
        else:
            self.room.lobby.table_changed(actor)
        return actor

    async def restore(self) -> int:
        """Rebuild every unfinished table from the database (after a restart or a crash)."""
        async with self.room.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(db.tables).where(db.tables.c.status.in_(("open", "playing")))
                )
            ).all()
            count = 0
            for row in rows:
                seat_rows = (
                    await conn.execute(
                        sa.select(db.seats, db.accounts.c.display_name, db.accounts.c.avatar)
                        .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
                        .where(db.seats.c.table_id == row.id)
                        .order_by(db.seats.c.seat)
                    )
                ).all()
                move_rows = (
                    await conn.execute(
                        sa.select(db.moves.c.seat, db.moves.c.move)
                        .where(db.moves.c.table_id == row.id)
                        .order_by(db.moves.c.n)
                    )
                ).all()
                chat_rows = (
                    await conn.execute(
                        sa.select(db.chat, db.accounts.c.display_name)
                        .outerjoin(db.accounts, db.accounts.c.id == db.chat.c.account_id)
                        .where(db.chat.c.table_id == row.id)
                        .order_by(db.chat.c.id.desc())
                        .limit(50)
                    )
                ).all()
                try:
                    await self._restore_one(row, seat_rows, move_rows, chat_rows)
                    count += 1
                except Exception:
                    log.exception("could not restore table %s", row.id)
        return count

    async def _restore_one(
        self,
        row: Any,
        seat_rows: Sequence[Any],
        move_rows: Sequence[Any],
        chat_rows: Sequence[Any],
    ) -> None:
        rules = Rules.from_dict(row.rules)
        spec = Spec(
            name=row.name,
            rules=rules,
            public=row.public,
            hints=row.hints,
            takeover_after=row.takeover_after,
            bots={r.seat: r.bot_level for r in seat_rows if r.bot_level},
        )
        seats = [
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
        name_bots(seats)
        actor = self._actor(
            id=row.id,
            spec=spec,
            seed=int(row.seed),
            creator=row.creator_id,
            invite=row.invite,
            status=row.status,
            created_at=row.created_at,
            seats=seats,
        )
        for r in reversed(chat_rows):
            actor.chat.append(
                ChatOut(
                    table=row.id,
                    seat=r.seat,
                    account=r.account_id,
                    name=r.display_name or "?",
                    text=html.escape(r.text),
                    at=r.at,
                )
            )

        async def rebuild() -> None:
            if row.status != "playing":
                return
            actor.game = replay(rules, actor.seed, [m.move for m in move_rows])
            actor.movers = [m.seat for m in move_rows]
            for seat in actor.seats:
                if seat.bot is None and not seat.left:
                    actor._arm_grace(seat.seat)
            if actor.game.is_over:
                await actor._finish()
            else:
                actor._arm_timer()
                actor._after_change()

        await actor.ask(rebuild)
        self.room.lobby.table_changed(actor)

    async def close(self) -> None:
        for actor in list(self.live.values()):
            await actor.stop_actor()
        self.live.clear()
