"""The table actor: one asyncio task per live table owns its game and runs its operations.

Everything that changes a table (a move, a seat taken, a timer running out, a bot's
answer) is an operation (``ops``) run one at a time by the table's task, so two racing
moves can never both be accepted. An accepted move is made durable by the ``TableStore``
before the ``Fanout`` carries it to anyone; a table is rebuilt anywhere from its rules,
seed and moves (RULES G4).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from crazy_eights.engine import TIMEOUT, Game, IllegalMove, Move, MoveSyntaxError, new_game, replay
from crazy_eights.engine.events import RoundOver

from .. import db
from ..errors import ApiError
from ..protocol import (
    MAX_CHAT,
    CalledOut,
    ErrorOut,
    HintOut,
    PongOut,
    RematchOut,
    TableInfo,
    TableOut,
    calls_last_card,
)
from ..protocol import Rematch as RematchOffer
from ..protocol import _Server as ServerMessage
from . import absence, messages, rematch
from .bots import BotTurns, HintDesk, Thinker
from .chat import ChatRoom
from .clock import GraceTimers, TurnClock
from .fanout import Fanout
from .members import Member, Members
from .ops import (
    AskHint,
    Back,
    BotMove,
    Call,
    Describe,
    GraceOver,
    HintReady,
    HintRefused,
    Join,
    Joined,
    Leave,
    NextRound,
    Op,
    Part,
    PauseOver,
    Ping,
    Play,
    Player,
    PresenceDue,
    Rematch,
    Say,
    Sit,
    Start,
    Sync,
    Timeout,
)
from .presence import Presence
from .rounds import RoundPause, blocking, round_ended, round_just_ended
from .seats import STANDIN_LEVEL, Seat
from .store import ChatLine, Fenced, Status, StoreError, TableRecord, TableStore

log = logging.getLogger(__name__)

UNLOAD_AFTER = 60.0  # seconds a finished table stays loaded for its last watchers
STOP_WAIT = 5.0  # seconds a stopping table waits for the operation under way
MAX_TABS = 8  # sockets one account may have open at one table


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


class TableActor:
    """A live table: seats, members, game, timers; operations run one at a time."""

    def __init__(self, record: TableRecord, deps: TableDeps) -> None:
        self.deps = deps
        self.id = record.id
        self.spec = record.spec
        self.rules = record.spec.rules
        self.seed = record.seed
        self.creator = record.creator
        self.invite = record.invite
        self.status: Status = record.status
        self.created_at = record.created_at
        self.seats = record.seats
        self.game: Game | None = None
        self.movers: list[int | None] = []
        self.members = Members()
        self.chat = ChatRoom(record.chat)
        self.clock = TurnClock(lambda version: self.submit(Timeout(version)))
        self.grace = GraceTimers(deps.grace_seconds, lambda seat: self.submit(GraceOver(seat)))
        self.bots = BotTurns(
            deps.thinker,
            table_id=self.id,
            seed=self.seed,
            delay=deps.bot_delay,
            submit=self.submit,
        )
        self.presence = Presence(lambda: self.submit(PresenceDue()))
        self.hints = HintDesk(deps.thinker, submit=self.submit, table_id=self.id)
        self.rounds = RoundPause(deps.round_pause, lambda version: self.submit(PauseOver(version)))
        self.rating_changes: dict[int, tuple[int, int]] = {}
        self.rematch: RematchOffer | None = None
        self._queue: asyncio.Queue[tuple[Op | _Work, asyncio.Future[Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._idle = asyncio.Event()
        self._idle.set()

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._serve(), name=f"table-{self.id}")
        if self.status == "open":  # a seat nobody connects to is freed after the grace
            for seat in self.seats:
                if seat.human:
                    self.grace.start(seat.seat)

    async def resume(self, moves: list[tuple[int | None, str]]) -> None:
        """Rebuild the game from its stored moves and pick up where it stopped."""

        async def rebuild() -> None:
            if self.status != "playing":
                return
            self.game, ended = round_just_ended(self.rules, self.seed, [m for _, m in moves])
            self.movers = [seat for seat, _ in moves]
            for seat in self.seats:
                if seat.bot is None and not seat.left:
                    self.grace.start(seat.seat, self.deps.away_seconds)
            if self.game.is_over:
                await self._finish()
            elif not self._hold_round(ended, here=lambda seat: True):  # they will be back
                self._arm_clock()
                self._let_bots_play()

        await self._call(rebuild)

    async def stop(self, close_code: int = 1012) -> None:
        """Stop after the operation under way (if any): the task, the timers and the bots;
        refuse what is still queued and close every member's socket (1012: reconnect)."""
        self._stopping = True
        self.clock.cancel()
        self.grace.cancel_all()
        self.presence.cancel()
        self.rounds.end()
        await self.bots.cancel()
        await self.hints.cancel()
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
            self.deps.fanout.close(member, close_code)

    # -- the operation queue ---------------------------------------------------------------

    @property
    def node(self) -> str:
        """The node this table runs on ("" on a single process)."""
        return self.deps.node

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
        """Answer one operation (on the table's task)."""
        match op:
            case Join():
                return await self._join(op.member, op.code)
            case Part():
                return await self._part(op.member_id)
            case Play():
                return await self._on_play(op)
            case Say():
                return await self._on_say(op)
            case Call():
                return await self._on_call(op.member_id)
            case AskHint():
                return self._on_hint(op.member_id)
            case Sync():
                return self._on_sync(op.member_id)
            case Back():
                return self._on_back(op.member_id)
            case Ping():
                return self._on_ping(op)
            case NextRound():
                return self._on_next_round(op.member_id)
            case PauseOver():
                return self._on_pause_over(op.version)
            case Sit():
                return await self._sit(op.player, op.seat, op.code)
            case Leave():
                return await self._leave_seat(op.account_id)
            case Start():
                return await self._start_by(op.account_id)
            case Rematch():
                return await self._on_rematch(op.player)
            case Describe():
                return self._describe(op.account_id, op.code)
            case Timeout():
                return await self._on_timeout(op.version)
            case GraceOver():
                return await self._on_grace_over(op.seat)
            case BotMove():
                return await self._on_bot_move(op)
            case HintReady():
                return self._on_hint_ready(op)
            case HintRefused():
                return self._on_hint_refused(op)
            case PresenceDue():
                return self._tell_presence()
        raise AssertionError(f"unhandled operation {op!r}")

    # -- facts -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many moves have been played: the ``seq`` the next move must carry."""
        return len(self.movers)

    @property
    def rated(self) -> bool:
        return self.spec.rated

    def seat_of(self, account_id: int | None) -> int | None:
        return self.seats.seat_of(account_id)

    def connected(self, seat: int) -> bool:
        """Whether the seat is played by a bot or by someone connected now."""
        return self.seats[seat].bot is not None or self.members.at(seat)

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

    def info(self, *, for_account: int | None = None) -> TableInfo:
        return messages.table_info(self, for_account=for_account)

    def _describe(self, account_id: int | None, code: str | None) -> TableInfo:
        if not self.may_watch(account_id, code):
            raise ApiError(403, "invite_needed", "this table is private: use its invite code")
        return self.info(for_account=account_id)

    # -- sending ---------------------------------------------------------------------------

    def _send(self, member: Member, message: ServerMessage) -> None:
        self.deps.fanout.deliver(self.id, [(member, message.model_dump_json())])

    def _to_seat(self, seat: int, message: ServerMessage) -> None:
        text = message.model_dump_json()
        self.deps.fanout.deliver(self.id, [(m, text) for m in self.members if m.seat == seat])

    def _to_all(self, message: ServerMessage) -> None:
        text = message.model_dump_json()
        self.deps.fanout.deliver(self.id, [(m, text) for m in self.members])

    def _error(self, member: Member, code: str, reason: str, seq: int | None = None) -> None:
        message = ErrorOut(
            table=self.id,
            clock=messages.clock(self),
            code=code,
            reason=reason,
            seq=seq,
            version=self.version,
        )
        self._send(member, message)

    def _welcome(self, member: Member) -> None:
        self._send(member, messages.welcome(self, member))

    def _info_changed(self) -> None:
        """Seats or status changed: everyone gets the table's info (which also says any
        presence not told yet)."""
        self.presence.take()
        clock = messages.clock(self)
        texts: dict[bool, str] = {}  # only the creator's copy differs (the invite)
        items = []
        for m in self.members:
            creator = m.account_id is not None and m.account_id == self.creator
            text = texts.get(creator)
            if text is None:
                info = self.info(for_account=self.creator if creator else None)
                text = texts[creator] = TableOut(
                    table=self.id, clock=clock, info=info
                ).model_dump_json()
            items.append((m, text))
        self.deps.fanout.deliver(self.id, items)
        self.deps.changed(self)

    def _tell_presence(self) -> None:
        """Who came and went since the last time, in one message to everyone."""
        if not self.presence.pending:
            return
        text = messages.presence(self, self.presence.take()).model_dump_json()
        self.deps.fanout.deliver(self.id, [(m, text) for m in self.members])
        self.deps.changed(self)

    # -- members ---------------------------------------------------------------------------

    async def _join(self, member: Member, code: str | None) -> Joined:
        if not self.may_watch(member.account_id, code):
            return Joined(False, 4003, "private table: use its invite code")
        member.seat = self.seat_of(member.account_id)
        refusal = self._crowded(member)
        if refusal is not None:
            return Joined(False, 4029, refusal)
        self.members.add(member)
        if member.seat is None:
            self.presence.count()
        else:
            self.grace.cancel(member.seat)
            seat = self.seats[member.seat]
            if seat.standin:
                self._give_back(seat)
            elif self.members.count_at(member.seat) == 1:
                self.presence.seat(member.seat)
            if self.status == "playing" and not self.clock.running:
                self._arm_clock()  # stopped while only bots played
        self._welcome(member)
        return Joined(True)

    def _crowded(self, member: Member) -> str | None:
        """Why a socket may not join (too many of its account's or too many watchers)."""
        if member.account_id is not None and self.members.of_account(member.account_id) >= (
            MAX_TABS
        ):
            return f"at most {MAX_TABS} open tabs per account at a table"
        limit = self.deps.max_spectators
        if member.seat is None and self.members.spectators >= limit:
            return f"this table has its fill of watchers (at most {limit})"
        return None

    async def _part(self, member_id: str) -> None:
        member = self.members.remove(member_id)
        if member is None:
            return
        self.deps.fanout.close(member, 1000)
        if member.seat is None:
            self.presence.count()
        elif not self.members.at(member.seat):
            seconds = self.deps.away_seconds if self.status == "playing" else None
            self.grace.start(member.seat, seconds)
            self.presence.seat(member.seat)
            self._go_on_if_ready()
        if self.status in ("finished", "abandoned") and not self.members:
            self.deps.idle(self)

    def _member(self, member_id: str) -> Member | None:
        return self.members.get(member_id)

    def _on_sync(self, member_id: str) -> None:
        member = self._member(member_id)
        if member is not None:
            self.members.place(member, self.seat_of(member.account_id))
            self._welcome(member)

    def _on_ping(self, op: Ping) -> None:
        member = self._member(op.member_id)
        if member is not None:
            self._send(member, PongOut(table=self.id, clock=messages.clock(self), t=op.t))

    # -- absence ---------------------------------------------------------------------------

    async def _on_grace_over(self, seat_no: int) -> None:
        seat = self.seats[seat_no]
        if self.members.at(seat_no) or seat.bot is not None:
            return
        if self.status == "open" and seat.account_id is not None:
            await self._leave(seat.account_id)
        elif self.status == "playing" and self.spec.takeover_after > 0 and not seat.standin:
            seat.standin = True
            self.presence.seat(seat_no)
            self._tell_presence()  # now: the lobby unlists a table only bots are left at
            self._let_bots_play()

    def _give_back(self, seat: Seat) -> None:
        seat.standin = False
        seat.timeouts = 0
        self.presence.seat(seat.seat)

    def _on_back(self, member_id: str) -> None:
        member = self._member(member_id)
        if member is not None and member.seat is not None and self.seats[member.seat].standin:
            self._give_back(self.seats[member.seat])

    # -- seats -----------------------------------------------------------------------------

    async def _sit(self, player: Player, seat_no: int | None, code: str | None) -> TableInfo:
        if self.status != "open":
            raise ApiError(409, "not_open", "the game has started; you can watch it")
        if not self.spec.public and player.id != self.creator and not self.may_watch(None, code):
            raise ApiError(403, "invite_needed", "this table is private: use its invite code")
        if self.seat_of(player.id) is not None:
            return self.info(for_account=player.id)
        free = self.seats.free()
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
        seat.account_id, seat.name, seat.avatar = player.id, player.name, player.avatar
        await self.deps.store.save_seat(self.id, seat)
        self.members.reseat(self.seats)
        if not self.members.at(seat.seat):
            self.grace.start(seat.seat)
        if self.seats.full:
            await self._start()
        else:
            self._info_changed()
        return self.info(for_account=player.id)

    async def _leave_seat(self, account_id: int) -> TableInfo:
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
            self.grace.cancel(seat_no)
            seat.clear()
            await self.deps.store.save_seat(self.id, seat)
            if not self.seats.any_human:
                await self._set_status("abandoned")
        elif self.status == "playing":
            seat.left = True  # counted as a loss; a bot finishes the game for them
            await self.deps.store.save_seat(self.id, seat)
            self._let_bots_play()
        self.members.reseat(self.seats)
        self._info_changed()
        if self.status == "abandoned" and not self.members:
            self.deps.idle(self)

    async def _set_status(self, status: Status, **times: float) -> None:
        self.status = status
        await self.deps.store.set_status(self.id, status, **times)

    async def _start_by(self, account_id: int) -> TableInfo:
        if account_id != self.creator:
            raise ApiError(403, "not_creator", "only the table's creator can start it")
        if self.seat_of(account_id) is None:
            raise ApiError(403, "not_seated", "you left this table: sit down again to start it")
        if self.status != "open":
            raise ApiError(409, "not_open", "the game has already started")
        await self._start()
        return self.info(for_account=account_id)

    async def start_game(self) -> None:
        """Deal now (a new table whose seats are all taken)."""
        await self._call(self._start)

    async def _start(self) -> None:
        """Fill empty seats with bots and deal."""
        for seat in self.seats:
            if not seat.taken:
                seat.bot = seat.bot or STANDIN_LEVEL
                seat.account_id = await self.deps.bot_account(seat.bot)
                await self.deps.store.save_seat(self.id, seat)
        self.seats.name_bots()
        await self._set_status("playing", started_at=db.now())
        self.game = new_game(self.rules, self.seed)
        self.members.reseat(self.seats)
        for seat in self.seats:  # a seat nobody is connected to waits as in a game now
            if seat.human and not self.members.at(seat.seat):
                self.grace.cancel(seat.seat)
                self.grace.start(seat.seat, self.deps.away_seconds)
        self._arm_clock()
        for member in self.members:
            self._welcome(member)
        self._info_changed()
        self._let_bots_play()

    # -- the rematch (rematch.py) ------------------------------------------------------------

    async def _on_rematch(self, player: Player) -> TableInfo:
        """Seat a player of this finished game at its follow-up (made for the first to
        ask) and tell everyone here who sits there now."""
        ask = rematch.asker(self.status, self.seats, player, self.id, self.spec)
        if self.deps.follow_ups is None:
            raise ApiError(503, "no_rematch", "rematches are not offered here")
        info = await self.deps.follow_ups(ask)
        by = self.rematch.by if self.rematch is not None else player.name
        self.rematch = rematch.offer(info, self.seats, by)
        self._to_all(RematchOut(table=self.id, clock=None, rematch=self.rematch))
        return info

    # -- moves -----------------------------------------------------------------------------

    async def _on_play(self, op: Play) -> None:
        member = self._member(op.member_id)
        if member is None:
            return
        seq = op.seq
        seat_no = member.seat
        game = self.game
        if seat_no is None:
            return self._error(member, "not_seated", "spectators cannot move", seq)
        if game is None:
            return self._error(member, "not_started", "the game has not started", seq)
        if game.is_over:
            return self._error(member, "game_over", "the game is over", seq)
        if self.rounds.active:
            return self._error(member, "between_rounds", "the next round has not begun", seq)
        try:
            move = Move.parse(op.move)
        except MoveSyntaxError as exc:
            return self._error(member, "illegal", str(exc), seq)
        seat = self.seats[seat_no]
        if seat.called and move.is_play and not move.call:
            move = move.with_call()
        if seq != self.version:
            if seq < self.version and self.movers[seq] == seat_no and game.moves[seq] == move.text:
                return self._error(member, "duplicate", f"move {seq} was already played", seq)
            return self._error(
                member, "stale", f"the game is at version {self.version}, not {seq}", seq
            )
        if game.current_player != seat_no:
            return self._error(
                member, "not_your_turn", f"it is seat {game.current_player}'s turn", seq
            )
        if move is TIMEOUT:
            return self._error(member, "illegal", "timeout is issued by the table", seq)
        if seat.standin:
            self._give_back(seat)
        try:
            await self._apply(seat_no, move, ack=seq)
        except IllegalMove as exc:
            self._error(member, "illegal", exc.reason, seq)
        else:
            seat.timeouts = 0

    async def _apply(self, seat_no: int, move: Move, *, ack: int | None = None) -> None:
        """Play, make durable, then broadcast. Raises ``IllegalMove`` with nothing changed."""
        game = self.game
        assert game is not None
        events = game.play(move)
        text = game.moves[-1]
        try:
            await self.deps.store.append_move(self.id, self.version, seat_no, text)
        except Fenced:
            log.warning("table %s: another process owns it now; letting it go", self.id)
            self.game = replay(self.rules, self.seed, game.moves[:-1])
            self.deps.lost(self)
            raise IllegalMove("this table has moved to another server; reconnecting") from None
        except StoreError:
            log.exception("table %s: a move was not saved", self.id)
            self.game = replay(self.rules, self.seed, game.moves[:-1])
            raise IllegalMove("the server could not save the move; try again") from None
        self.movers.append(seat_no)
        self.seats[seat_no].called = False
        if game.is_over:
            self.clock.cancel()
            for seat in absence.abandoned(self.seats, self.members):
                seat.left = True  # never credited with what a stand-in played for them
                await self.deps.store.save_seat(self.id, seat)
            await self._finish()
        elif not self._hold_round(round_ended(game, events)):
            self._arm_clock()
        self.deps.fanout.deliver(self.id, messages.state_texts(self, events, text, seat_no, ack))
        if self.status == "finished":
            self._info_changed()
            self._to_all(messages.ratings_out(self))
            asyncio.get_running_loop().call_later(UNLOAD_AFTER, self._unload_if_idle)
        self._let_bots_play()

    def _unload_if_idle(self) -> None:
        if not self.members:
            self.deps.idle(self)

    async def _finish(self) -> None:
        game = self.game
        assert game is not None and game.result is not None
        self.rating_changes = await self.deps.store.finish(
            self.id, spec=self.spec, seats=self.seats, result=game.result.to_dict()
        )
        self.status = "finished"
        self.deps.finished(self)

    # -- the clock and the bots ------------------------------------------------------------

    def _arm_clock(self) -> None:
        if absence.unattended(self.seats, self.members):
            self.clock.cancel()  # only bots are left: they finish with no timer
        else:
            self.clock.arm(self.rules.turn_timer, self.version)

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
            self.presence.seat(seat_no)
            self._let_bots_play()

    def _let_bots_play(self) -> None:
        """If a bot is to move, let it think (off the loop) after its pause."""
        game = self.game
        if game is None or game.is_over or self.status != "playing" or self.rounds.active:
            return
        seat_no = game.current_player
        if seat_no is None:
            return
        level = self.seats[seat_no].bot_level
        if level is None:
            return
        self.bots.think(
            version=self.version,
            seat=seat_no,
            level=level,
            view=game.view(seat_no, log=True),
            legal=[m.text for m in game.legal_moves()],
            hurry=absence.unattended(self.seats, self.members),
        )

    async def _on_bot_move(self, op: BotMove) -> None:
        game = self.game
        if (
            game is None
            or game.is_over
            or op.version != self.version
            or game.current_player != op.seat
            or self.seats[op.seat].bot_level is None
        ):
            self._let_bots_play()
            return
        try:
            await self._apply(op.seat, Move.parse(op.move))
        except (IllegalMove, MoveSyntaxError):
            log.warning("table %s: bot chose illegal %r", self.id, op.move)
            await self._apply(op.seat, Move.parse(op.legal[0]))

    def _on_hint(self, member_id: str) -> None:
        member = self._member(member_id)
        if member is None:
            return
        game = self.game
        if not self.spec.hints:
            return self._error(member, "hints_off", "hints are off at this table (it is rated)")
        if member.seat is None:
            return self._error(member, "not_seated", "spectators get no hints")
        if game is None or game.is_over or game.current_player != member.seat:
            return self._error(member, "not_your_turn", "hints are given on your turn")
        self.hints.ask(
            member_id=member.id,
            version=self.version,
            seat=member.seat,
            view=game.view(member.seat, log=True),
            legal=[m.text for m in game.legal_moves()],
        )

    def _on_hint_ready(self, op: HintReady) -> None:
        member = self._member(op.member_id)
        game = self.game
        if member is not None and game is not None and op.version == self.version:
            # the hint goes out as one of the legal moves' data, so a client reads it as
            # it reads its moves (and a suggestion the game would refuse never goes out)
            data = next((m for m in game.legal_move_data() if m["text"] == op.move), None)
            if data is None:
                log.warning("table %s: a hint %r that is not a legal move", self.id, op.move)
                return
            message = HintOut(
                table=self.id,
                clock=messages.clock(self),
                version=op.version,
                move=op.move,
                data=dict(data),
            )
            self._send(member, message)

    def _on_hint_refused(self, op: HintRefused) -> None:
        member = self._member(op.member_id)
        if member is not None:
            self._error(member, "busy", op.reason)

    # -- chat and last card ----------------------------------------------------------------

    async def _on_call(self, member_id: str) -> None:
        member = self._member(member_id)
        if member is None:
            return
        if member.seat is None:
            return self._error(member, "not_seated", "spectators cannot call last card")
        if self.game is None or self.game.is_over:
            return self._error(member, "not_started", "no game is running")
        self.seats[member.seat].called = True
        message = CalledOut(table=self.id, clock=messages.clock(self), seat=member.seat)
        self._to_seat(member.seat, message)

    async def _on_say(self, op: Say) -> None:
        member = self._member(op.member_id)
        if member is None:
            return
        if member.account_id is None:
            return self._error(member, "sign_in_to_chat", "sign in or play as a guest to chat")
        text = " ".join(op.text.split())[:MAX_CHAT]
        if not text:
            return self._error(member, "bad_message", "empty chat message")
        refusal = self.chat.refusal(member.account_id)
        if refusal is not None:
            return self._error(member, "rate_limited", refusal)
        call = (
            member.seat is not None
            and self.game is not None
            and not self.game.is_over
            and calls_last_card(text)
        )
        line = ChatLine(
            seat=member.seat,
            account_id=member.account_id,
            name=member.name,
            text=text,
            at=db.now(),
        )
        self.deps.store.add_chat(self.id, line)
        self.chat.add(line)
        self._to_all(messages.chat_out(self.id, line, clock=messages.clock(self), call=call))
        if call:
            await self._on_call(op.member_id)

    # -- between rounds (rounds.py) ---------------------------------------------------------

    def _hold_round(
        self, ended: RoundOver | None, here: Callable[[int], bool] | None = None
    ) -> bool:
        """Pause after the round ``ended`` (if any) when a person is ``here`` (connected,
        unless told) to read it; True when the table now waits (no clock, no bots)."""
        if ended is None or not blocking(self.seats, here or self.members.at):
            return False
        self.clock.cancel()
        self.rounds.begin(ended, self.version)
        return True

    def _on_next_round(self, member_id: str) -> None:
        member = self._member(member_id)
        if member is None:
            return
        if member.seat is None:
            return self._error(member, "not_seated", "spectators do not hold up the table")
        if not self.rounds.active:
            return self._error(member, "not_between_rounds", "no round summary is open")
        if self.rounds.press(member.seat) and not self._go_on_if_ready():
            self._to_all(messages.pause_out(self))

    def _on_pause_over(self, version: int) -> None:
        if self.rounds.active and self.rounds.version == version:
            self._go_on()

    def _go_on_if_ready(self) -> bool:
        """Go on to the next round when nobody here is left to press; True if it did."""
        if not self.rounds.active or self.rounds.waiting(self.seats, self.members.at):
            return False
        self._go_on()
        return True

    def _go_on(self) -> None:
        """End the pause: the next round's clock starts and its bots may move."""
        self.rounds.end()
        self._arm_clock()
        self._to_all(messages.pause_out(self))
        # each seat's state again, now with the legal moves the pause held back
        self.deps.fanout.deliver(self.id, messages.state_texts(self, [], None, None, None))
        self._let_bots_play()


@dataclass(frozen=True)
class _Work:
    """A piece of the actor's own work queued behind the operations (restore, start)."""

    work: Callable[[], Awaitable[Any]]


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
