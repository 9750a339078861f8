"""Matchmaking: quick play's queues, one per (ruleset, players, length).

People who join a queue within its window (``match_window_seconds``, counted from the
longest-waiting person) are seated at one table; when the window closes, or as soon as
the queue holds a full table of people with close ratings, the table is made with the
people seated and bots in the other seats.

Ratings (openskill ordinals, ``mu - 3 sigma``, the leaderboards' order) decide two things:

- who meets whom: a full table forms at once only from people within ``SPREAD`` ordinal
  points of the one who waited longest; when someone's window closes, they are
  seated with everyone waiting if all fit at one table, and otherwise the queue is cut by
  rating into as few tables as it needs and they get their share;
- the bots' level, from the people's mean ordinal: below ``HARD_FROM`` (a newcomer has 0,
  shown as 1000) "heuristic" (Medium), from it "ismcts" (Hard).

The queue itself lives behind ``QueueStore`` (``MemoryQueueStore`` on one process); taking
a group out of it is atomic, so whichever process takes a group is the one that seats it.
Everyone waiting in a queue hears its state on the bus topic ``match:<key>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import tasks
from .bus import Bus
from .errors import ApiError
from .lengths import Length
from .protocol import QueueEntry, QueueState

log = logging.getLogger(__name__)

SPREAD = 5.0  # ordinal points (200 shown rating points) a full table may span at once
HARD_FROM = 8.0  # mean ordinal (1320 shown) from which the bots are "ismcts"
DROP_GRACE = 3.0  # seconds a ticket outlives its last socket (a reload keeps it)
RESTORED_GRACE = 30.0  # seconds a ticket read back on start waits for its person's socket
COALESCE = 0.2  # seconds over which a queue's changes are told in one message
POLL = 1.0  # seconds between looks at the queues (other processes' joins included)
MATCHED_KEEP = 120.0  # seconds a process remembers where a matched account was seated


@dataclass(frozen=True)
class QueueKey:
    """Which queue: people in one queue want the same game."""

    ruleset: str
    players: int
    length: Length

    @property
    def topic(self) -> str:
        """The bus topic where the queue's state is told."""
        return f"match:{self.ruleset}:{self.players}:{self.length}"


@dataclass(frozen=True)
class Ticket:
    """One person waiting in one queue."""

    id: str
    account: int
    name: str
    avatar: str
    rating: float  # openskill ordinal for the queue's ruleset
    key: QueueKey
    joined: float  # time.time()


class QueueStore(Protocol):
    """Where the queues are kept: one process's memory, or a store shared by a cluster."""

    async def add(self, ticket: Ticket) -> Ticket:
        """Queue ``ticket``, or return the account's ticket already queued."""

    async def of(self, account: int) -> Ticket | None:
        """The account's ticket, if it is waiting."""

    async def waiting(self, key: QueueKey) -> list[Ticket]:
        """Everyone in a queue, longest-waiting first."""

    async def keys(self) -> list[QueueKey]:
        """The queues someone is waiting in."""

    async def take(self, tickets: Sequence[Ticket]) -> bool:
        """Remove all of ``tickets`` at once, or none (False) if any is gone already."""

    async def note_match(self, accounts: Sequence[int], table_id: str) -> None:
        """Remember for a while which table matched accounts were seated at."""

    async def matched(self, account: int) -> str | None:
        """The table the account was seated at by a recent match."""

    async def sockets(self, account: int, change: int) -> int:
        """Count the account's open match sockets up or down by ``change`` (on every
        process); the count after it."""

    async def online(self, account: int, change: int) -> None:
        """Count the account's open sockets of any kind (lobby, queue, table) up or down
        by ``change``, on every process: who is online."""

    async def others_online(self, account: int) -> bool:
        """Whether anyone but ``account`` has a socket open (on any process)."""


class MemoryQueueStore:
    """The queues of one process."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._tickets: dict[int, Ticket] = {}
        self._matched: dict[int, tuple[str, float]] = {}
        self._sockets: Counter[int] = Counter()
        self._online: Counter[int] = Counter()
        self._clock = clock

    async def add(self, ticket: Ticket) -> Ticket:
        return self._tickets.setdefault(ticket.account, ticket)

    async def of(self, account: int) -> Ticket | None:
        return self._tickets.get(account)

    async def waiting(self, key: QueueKey) -> list[Ticket]:
        return sorted((t for t in self._tickets.values() if t.key == key), key=_age)

    async def keys(self) -> list[QueueKey]:
        return list({t.key for t in self._tickets.values()})

    async def take(self, tickets: Sequence[Ticket]) -> bool:
        if any(self._tickets.get(t.account) != t for t in tickets):
            return False
        for ticket in tickets:
            del self._tickets[ticket.account]
        return True

    async def note_match(self, accounts: Sequence[int], table_id: str) -> None:
        now = self._clock()
        self._matched = {a: m for a, m in self._matched.items() if m[1] > now}
        for account in accounts:
            self._matched[account] = (table_id, now + MATCHED_KEEP)

    async def matched(self, account: int) -> str | None:
        found = self._matched.get(account)
        return found[0] if found and found[1] > self._clock() else None

    async def sockets(self, account: int, change: int) -> int:
        self._sockets[account] += change
        count = self._sockets[account]
        if count <= 0:
            del self._sockets[account]
        return max(0, count)

    async def online(self, account: int, change: int) -> None:
        self._online[account] += change
        if self._online[account] <= 0:
            del self._online[account]

    async def others_online(self, account: int) -> bool:
        return len(self._online) > (1 if account in self._online else 0)


def _age(ticket: Ticket) -> tuple[float, str]:
    return (ticket.joined, ticket.id)


def groups(
    tickets: Sequence[Ticket],
    players: int,
    now: float,
    window: float,
    apart: Set[frozenset[int]] = frozenset(),
) -> list[list[Ticket]]:
    """The tables to make now from one queue's tickets, each a list of tickets (the
    longest-waiting first): a full table of close ratings, or, when someone's window has
    closed, that person with the closest-rated others there are. Two accounts of a pair
    in ``apart`` (one blocked the other) never share a table: when nobody else is
    there, bots fill the seats."""
    pending = sorted(tickets, key=_age)
    out: list[list[Ticket]] = []
    while pending:
        group = _next_group(pending, players, now, window, apart)
        if group is None:
            break
        out.append(group)
        pending = [t for t in pending if t not in group]
    return out


def _next_group(
    pending: list[Ticket],
    players: int,
    now: float,
    window: float,
    apart: Set[frozenset[int]] = frozenset(),
) -> list[Ticket] | None:
    for first in pending:
        close = sorted(
            (t for t in pending if t is not first and abs(t.rating - first.rating) <= SPREAD),
            key=lambda t: (abs(t.rating - first.rating), _age(t)),
        )
        group = _together([first, *close], apart)
        if len(group) >= players:
            return sorted(group[:players], key=_age)
        if now >= first.joined + window:
            share = _rating_share(first, pending, players)
            share.sort(key=lambda t: t is not first)  # first, then the rest in order
            return sorted(_together(share, apart), key=_age)
    return None


def _together(candidates: Sequence[Ticket], apart: Set[frozenset[int]]) -> list[Ticket]:
    """The candidates in order, leaving out each one kept apart from someone before it."""
    if not apart:
        return list(candidates)
    out: list[Ticket] = []
    for ticket in candidates:
        if all(frozenset((ticket.account, t.account)) not in apart for t in out):
            out.append(ticket)
    return out


def _rating_share(first: Ticket, pending: list[Ticket], players: int) -> list[Ticket]:
    """``first``'s table when its window closes: everyone waiting when they fit at one
    table; from a longer queue, ``first``'s share of it cut by rating into as few tables
    as it needs, of sizes as even as can be."""
    if len(pending) <= players:
        return list(pending)
    ordered = sorted(pending, key=lambda t: (t.rating, _age(t)))
    tables = -(-len(ordered) // players)
    size, extra = divmod(len(ordered), tables)
    start = 0
    for n in range(tables):
        end = start + size + (1 if n < extra else 0)
        if first in ordered[start:end]:
            return ordered[start:end]
        start = end
    raise AssertionError("first is waiting")


def bot_level(ratings: Sequence[float]) -> str:
    """The bots' level for a table of people with these ordinals."""
    mean = sum(ratings) / len(ratings) if ratings else 0.0
    return "ismcts" if mean >= HARD_FROM else "heuristic"


# Makes the table for a group: (queue, tickets longest-waiting first, bot level) -> id.
TableMaker = Callable[[QueueKey, Sequence[Ticket], str], Awaitable[str]]


@dataclass
class Matchmaker:
    """Joins, cancels and seats quick play's queues; tells each queue's state on the bus."""

    store: QueueStore
    bus: Bus
    make_table: TableMaker
    window: float
    clock: Callable[[], float] = time.time
    alone_at_once: bool = True
    """Seat a person with bots at once when nobody else is online (no window to wait)."""
    apart: Callable[[Sequence[int]], Awaitable[Set[frozenset[int]]]] | None = None
    """The pairs among these accounts never to seat together (blocks)."""
    waiting_now: int = 0
    """People waiting in every queue at the timer's last look (for the metrics)."""
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _task: asyncio.Task[None] | None = None
    _later: set[asyncio.Task[None]] = field(default_factory=set)
    _dirty: set[QueueKey] = field(default_factory=set)
    _socket_news: dict[int, int] = field(default_factory=dict)
    """Per account, how many of its match sockets opened or closed here (a drop's timer
    acts only if nothing happened since it started)."""

    async def join(self, ticket: Ticket) -> Ticket:
        """Queue a person (their ticket already waiting elsewhere: 409 ``already_queued``)
        and seat whoever can be seated now."""
        held = await self.store.add(ticket)
        if held.key != ticket.key:
            raise ApiError(
                409, "already_queued", "you are waiting in another queue: cancel it first"
            )
        if held is ticket:
            if self.alone_at_once and await self._alone(ticket):
                await self.play_now(ticket.account)
                return held
            await self.publish(ticket.key)
            await self.settle(ticket.key)
            self._wake.set()
        return held

    async def _alone(self, ticket: Ticket) -> bool:
        """Whether nobody else could come to this person's table within the window: no
        one else online (a socket open) and no one else waiting in any queue."""
        if await self.store.others_online(ticket.account):
            return False
        for key in await self.store.keys():
            if any(t.account != ticket.account for t in await self.store.waiting(key)):
                return False
        return True

    async def cancel(self, account: int) -> Ticket:
        """Leave the queue; nothing of the ticket is left (404 ``not_queued``)."""
        ticket = await self.store.of(account)
        if ticket is None or not await self.store.take([ticket]):
            raise ApiError(404, "not_queued", "you are not waiting in a queue")
        self.bus.publish(ticket.key.topic, {"type": "left", "accounts": [account]})
        await self.publish(ticket.key)
        return ticket

    async def play_now(self, account: int) -> str:
        """Stop waiting and play at once: the person (alone) and bots; the table's id."""
        ticket = await self.store.of(account)
        if ticket is None or not await self.store.take([ticket]):
            raise ApiError(404, "not_queued", "you are not waiting in a queue")
        await self.publish(ticket.key)
        return await self._seat(ticket.key, [ticket])

    async def state(self, key: QueueKey) -> QueueState:
        """Who waits in a queue and when its window closes."""
        waiting = await self.store.waiting(key)
        closes = waiting[0].joined + self.window if waiting else self.clock()
        return QueueState(
            ruleset=key.ruleset,
            players=key.players,
            length=key.length,
            waiting=[QueueEntry(account=t.account, name=t.name, avatar=t.avatar) for t in waiting],
            closes_at=closes,
            seconds_left=max(0.0, closes - self.clock()),
        )

    async def publish(self, key: QueueKey) -> None:
        """Tell the queue's state soon: changes within ``COALESCE`` seconds are told in
        one message, so people joining and leaving fast cost the others little."""
        if key not in self._dirty:
            self._dirty.add(key)
            self._run_later(self._publish_later(key))

    async def _publish_later(self, key: QueueKey) -> None:
        await asyncio.sleep(COALESCE)
        self._dirty.discard(key)
        self.bus.publish(key.topic, (await self.state(key)).model_dump(mode="json"))

    def _run_later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def settle(self, key: QueueKey) -> None:
        """Seat every group the queue can seat now."""
        async with self._lock:
            waiting = await self.store.waiting(key)
            apart = await self.apart([t.account for t in waiting]) if self.apart else set()
            for group in groups(waiting, key.players, self.clock(), self.window, apart):
                if await self.store.take(group):
                    try:
                        await self._seat(key, group)
                    except Exception:  # they wait again; the timer tries once more
                        log.exception("could not seat %d people from %s", len(group), key)
            if waiting:
                await self.publish(key)

    async def _seat(self, key: QueueKey, group: Sequence[Ticket]) -> str:
        """Make the group's table and tell them; if that fails they wait again."""
        try:
            table_id = await self.make_table(key, group, bot_level([t.rating for t in group]))
        except Exception:
            for ticket in group:
                await self.store.add(ticket)
            raise
        accounts = [t.account for t in group]
        await self.store.note_match(accounts, table_id)
        self.bus.publish(key.topic, {"type": "matched", "accounts": accounts, "table": table_id})
        return table_id

    # -- the window's timer ----------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    async def stop(self) -> None:
        await tasks.stop(self._task, *self._later)
        self._task = None

    async def _tick(self) -> None:
        """Settle each queue when its window closes (and look at least every ``POLL``
        seconds, for joins made by other processes)."""
        while True:
            try:
                delay = await self._settle_all()
            except Exception:  # the store unreachable for a moment: look again soon
                log.exception("could not look at the queues")
                delay = POLL
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.05, delay))

    async def _settle_all(self) -> float:
        """Settle every queue; the seconds until the next window closes (at most
        ``POLL``)."""
        delay = POLL
        self.waiting_now = 0
        for key in await self.store.keys():
            await self.settle(key)
            waiting = await self.store.waiting(key)
            self.waiting_now += len(waiting)
            if waiting:
                delay = min(delay, waiting[0].joined + self.window - self.clock())
        return delay

    # -- sockets ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def online(self, account: int | None) -> AsyncIterator[None]:
        """Count the signed-in ``account`` as online while the block runs (a socket of
        theirs is open); a store that cannot be reached only loses the count."""
        if account is None:
            yield
            return
        try:
            await self.store.online(account, +1)
        except Exception:
            log.warning("could not count account %s online", account, exc_info=True)
            yield
            return
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await self.store.online(account, -1)

    async def socket_opened(self, account: int) -> None:
        self._socket_news[account] = self._socket_news.get(account, 0) + 1
        await self.store.sockets(account, +1)

    async def socket_closed(self, ticket: Ticket) -> None:
        """The person's socket went away: cancel their ticket unless one of theirs is
        open again within ``DROP_GRACE`` seconds (on any process). Only the grace of
        the last socket to close counts: an earlier one's timer does nothing."""
        news = self._socket_news[ticket.account] = self._socket_news.get(ticket.account, 0) + 1
        if await self.store.sockets(ticket.account, -1) == 0:
            self._run_later(self._drop_later(ticket, news))

    def restored(self, tickets: Sequence[Ticket]) -> None:
        """Tickets read back on start (their sockets died with the last server): each is
        dropped unless a socket of its person opens within ``RESTORED_GRACE``."""
        for ticket in tickets:
            news = self._socket_news[ticket.account] = self._socket_news.get(ticket.account, 0) + 1
            self._run_later(self._drop_later(ticket, news, RESTORED_GRACE))

    async def _drop_later(self, ticket: Ticket, news: int, grace: float | None = None) -> None:
        await asyncio.sleep(DROP_GRACE if grace is None else grace)
        if self._socket_news.get(ticket.account) != news:
            return  # a socket of theirs opened or closed since: its own grace counts
        del self._socket_news[ticket.account]
        if (
            await self.store.sockets(ticket.account, 0) == 0
            and await self.store.of(ticket.account) == ticket
        ):
            with contextlib.suppress(ApiError):
                await self.cancel(ticket.account)


def new_ticket(
    account: int, name: str, avatar: str, rating: float, key: QueueKey, now: float
) -> Ticket:
    """A fresh ticket with an id of its own."""
    return Ticket(
        id="q_" + secrets.token_urlsafe(9),
        account=account,
        name=name,
        avatar=avatar,
        rating=rating,
        key=key,
        joined=now,
    )
