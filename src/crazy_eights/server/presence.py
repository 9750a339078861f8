"""Presence: whether each person is online, playing (at which table), in quick play's
queue, away (no activity for ``AWAY_SECONDS``) or offline (with when last seen), told
live to their friends' lobby sockets, on every node.

Every socket of a signed-in person (lobby, queue, table) is a *sighting* here while it is
open (``connected``). This process keeps its own sightings; what each node sees of a
person is one entry in a ``PresenceStore`` (in memory on one process, a Redis hash per
person in a cluster), and the person's presence is the best entry of any node. When it
changes, one message goes out on the bus (topic ``presence``) naming the person's
friends; each node hands it to those friends' lobby sockets it holds. So one change
costs one friends-list read, one store read and one bus message, however many people
are online. Someone who chose "appear offline" is sent as offline (with the last
sighting from before), and nothing else of them is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from . import tasks
from .bus import Bus

log = logging.getLogger(__name__)

TOPIC = "presence"
AWAY_SECONDS = 300.0
"""No activity for this long: away."""
SWEEP_SECONDS = 20.0
"""How often this process looks for people gone away and renews its entries."""
STALE_SECONDS = 90.0
"""An entry not renewed for this long is a dead node's: ignored."""
STOP_SECONDS = 5.0
"""How long closing waits for the changes under way."""
MAX_WAITING = 200
"""Messages a lobby socket may have waiting before it misses some (then it re-reads)."""

Status = Literal["online", "playing", "queue", "away", "offline"]
Kind = Literal["lobby", "queue", "table"]
RANK: dict[str, int] = {"playing": 4, "queue": 3, "online": 2, "away": 1}


class FriendPresence(BaseModel):
    """One friend's presence as the friends list shows it."""

    account: int
    status: Status
    table: str | None = None
    last_seen: float | None = None


@dataclass(frozen=True)
class Where:
    """What an open socket says of its person: in the lobby, in the queue, or at a table
    (``seated`` there, or watching)."""

    kind: Kind
    table: str | None = None
    seated: bool = False


@dataclass
class _Sightings:
    """This process's open sockets of one person and when they last did something."""

    open: Counter[Where] = field(default_factory=Counter)
    active: float = 0.0
    away: bool = False


class PresenceStore(Protocol):
    """Where each node's entry for each person is kept (``{status, table, at}``)."""

    async def put(self, account: int, node: str, entry: dict[str, Any] | None) -> None:
        """Set (or, with None, remove) this node's entry for the account."""

    async def entries(self, accounts: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        """Every node's entry for each of the accounts."""


class MemoryPresenceStore:
    """The entries of a room on one process."""

    def __init__(self) -> None:
        self._entries: dict[int, dict[str, dict[str, Any]]] = {}

    async def put(self, account: int, node: str, entry: dict[str, Any] | None) -> None:
        if entry is None:
            self._entries.get(account, {}).pop(node, None)
            if not self._entries.get(account, True):
                del self._entries[account]
        else:
            self._entries.setdefault(account, {})[node] = entry

    async def entries(self, accounts: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        return {a: list(self._entries.get(a, {}).values()) for a in accounts}


class Social(Protocol):
    """What presence asks of the friends service."""

    async def friend_ids(self, account_id: int) -> list[int]: ...

    async def sightings(self, accounts: Sequence[int]) -> dict[int, tuple[bool, float | None]]:
        """For each account that has any: (chose to appear offline, last seen)."""

    async def mark_seen(self, account_id: int, at: float) -> None: ...


def best(entries: Sequence[dict[str, Any]], now: float) -> tuple[str, str | None] | None:
    """The status (and table) to show from the entries of every node (None: offline)."""
    live = [e for e in entries if now - float(e.get("at", 0)) < STALE_SECONDS]
    if not live:
        return None
    top = max(live, key=lambda e: RANK.get(str(e.get("status")), 0))
    return str(top["status"]), top.get("table")


def _local_status(s: _Sightings) -> tuple[str, str | None]:
    """What this process's sockets of one person say: at a table where they sit beats
    the queue beats any other page; with no activity for a while, away."""
    seated = [w for w in s.open if w.kind == "table" and w.seated]
    if seated:
        return "playing", seated[0].table
    if s.away:
        return "away", None
    if any(w.kind == "queue" for w in s.open):
        return "queue", None
    return "online", None


class Presence:
    """This process's sightings, the live presence messages to friends, and the lists'
    first picture (``snapshot``)."""

    def __init__(
        self,
        *,
        bus: Bus,
        store: PresenceStore,
        social: Social,
        node: str = "",
        away_seconds: float = AWAY_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.bus = bus
        self.store = store
        self.social = social
        self.node = node or "solo"
        self.away_seconds = away_seconds
        self.clock = clock
        self._seen: dict[int, _Sightings] = {}
        self._shown: dict[int, tuple[str, str | None]] = {}
        self._listeners: dict[int, set[asyncio.Queue[dict[str, Any] | None]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._turns: dict[int, asyncio.Lock] = {}
        self._asking: Counter[int] = Counter()
        self._closed = False
        self.sent = 0
        """Presence messages put on the bus by this process (for tests and bench)."""

    # ---- life -------------------------------------------------------------------------

    def start(self) -> None:
        updates = self.bus.subscribe(TOPIC)  # registered now: nothing after is missed
        self._tasks = [
            asyncio.create_task(self._relay(updates)),
            asyncio.create_task(self._sweep_forever()),
        ]

    async def stop(self) -> None:
        """Stop telling: sockets that close after this (the room closing) change nothing,
        so no database work starts while the room shuts its engine."""
        self._closed = True
        # the changes under way finish (a task cancelled inside a database transaction
        # could hold the engine's shutdown); then the relay and the sweep stop
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settle(), STOP_SECONDS)
        await tasks.stop(*self._tasks, *self._pending)
        self._tasks = []

    # ---- sightings --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def connected(self, account: int | None, where: Where) -> AsyncIterator[None]:
        """Count a socket of ``account`` at ``where`` while the block runs."""
        if account is None:
            yield
            return
        if self._closed:
            yield
            return
        sightings = self._seen.setdefault(account, _Sightings())
        sightings.open[where] += 1
        sightings.active, sightings.away = self.clock(), False
        # told from a task of its own, as leaving is: a socket's handler cancelled while
        # the room closes is then never inside a database transaction
        self._soon(self._changed(account))
        try:
            yield
        finally:
            sightings.open[where] -= 1
            if sightings.open[where] <= 0:
                del sightings.open[where]
            if not sightings.open:
                self._seen.pop(account, None)
            self._soon(self._changed(account, leaving=True))

    def active(self, account: int | None) -> None:
        """The person did something (a move, a chat line, a click on the lobby page)."""
        sightings = self._seen.get(account) if account is not None else None
        if sightings is None:
            return
        sightings.active = self.clock()
        if sightings.away:
            sightings.away = False
            self._soon(self._changed(account))  # type: ignore[arg-type]

    async def sweep(self) -> None:
        """Mark people with no activity for ``away_seconds`` away, and renew this node's
        entries so other nodes do not take them for a dead node's."""
        now = self.clock()
        for account, sightings in list(self._seen.items()):
            if not sightings.away and now - sightings.active >= self.away_seconds:
                sightings.away = True
            await self._changed(account, renew=True)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.warning("presence sweep failed", exc_info=True)

    async def settle(self) -> None:
        """Wait for the changes being told now (tests wait here, not on a clock)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closed:
            work.close()
            return
        task = asyncio.ensure_future(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # ---- changes ----------------------------------------------------------------------

    async def _changed(self, account: int, *, leaving: bool = False, renew: bool = False) -> None:
        """Write this node's entry for the account; when what friends see changed, tell
        them. Friends are assumed to see offline until told otherwise, so someone who
        appears offline is never the subject of a message.

        One change of an account at a time, in the order they were asked: two at once
        (a lobby socket closing as a table's opens) could otherwise reach the friends in
        the wrong order, "playing" and then "offline"."""
        async with self._turn(account):
            await self._change(account, leaving=leaving, renew=renew)

    @contextlib.asynccontextmanager
    async def _turn(self, account: int) -> AsyncIterator[None]:
        lock = self._turns.setdefault(account, asyncio.Lock())
        self._asking[account] += 1
        try:
            async with lock:
                yield
        finally:
            self._asking[account] -= 1
            if not self._asking[account]:
                del self._asking[account]
                self._turns.pop(account, None)

    async def _change(self, account: int, *, leaving: bool, renew: bool) -> None:
        sightings = self._seen.get(account)
        now = self.clock()
        if sightings is None:
            await self.store.put(account, self.node, None)
        else:
            status, table = _local_status(sightings)
            await self.store.put(account, self.node, {"status": status, "table": table, "at": now})
        previous = self._shown.get(account, ("offline", None))
        if renew and previous == self._local_or_none(account):
            return
        (shown,) = await self.of([account])
        if sightings is None:
            self._shown.pop(account, None)
        else:
            self._shown[account] = (shown.status, shown.table)
        if (shown.status, shown.table) == previous:
            return
        if leaving and shown.status == "offline":
            await self.social.mark_seen(account, now)
            shown.last_seen = now
        await self.tell_friends(account, {"type": "presence", "presence": [shown.model_dump()]})

    def _local_or_none(self, account: int) -> tuple[str, str | None] | None:
        sightings = self._seen.get(account)
        return None if sightings is None else _local_status(sightings)

    async def tell_friends(self, account: int, message: dict[str, Any]) -> None:
        """One bus message for the account's friends (each node hands it to theirs)."""
        friends = await self.social.friend_ids(account)
        if friends:
            self.tell(friends, message)

    def tell(self, accounts: Sequence[int], message: dict[str, Any]) -> None:
        """One bus message for these accounts' lobby sockets, on every node."""
        self.sent += 1
        self.bus.publish(TOPIC, {"to": list(accounts), "message": message})

    async def of(self, accounts: Sequence[int]) -> list[FriendPresence]:
        """The presence of each account as friends see it."""
        entries = await self.store.entries(accounts)
        social = await self.social.sightings(accounts)
        now = self.clock()
        out = []
        for account in accounts:
            hidden, seen = social.get(account, (False, None))
            shown = None if hidden else best(entries[account], now)
            if shown is None:
                out.append(FriendPresence(account=account, status="offline", last_seen=seen))
            else:
                status, table = shown
                out.append(FriendPresence(account=account, status=status, table=table))  # type: ignore[arg-type]
        return out

    async def snapshot(self, account: int) -> list[FriendPresence]:
        """Every friend's presence, for a lobby socket that just opened."""
        return await self.of(await self.social.friend_ids(account))

    def friends_news(self, account: int, other: int, what: str) -> None:
        """``friends.Friends`` heard a change: tell the people concerned soon."""
        self._soon(self.friends_changed(account, other, what))

    async def friends_changed(self, account: int, other: int, what: str) -> None:
        """A friendship or request between two people changed: both lists re-read, and
        new friends see each other's presence at once."""
        if what == "settings":
            await self._changed(account)
            return
        if what in ("blocked", "unblocked"):  # the other is never told of a block
            self.tell([account], {"type": "friends_changed", "what": what})
            if what == "blocked":
                self.tell([other], {"type": "friends_changed", "what": "removed"})
            return
        self.tell([account, other], {"type": "friends_changed", "what": what})
        if what == "friends":
            mine, theirs = await self.of([account, other])
            self.tell([other], {"type": "presence", "presence": [mine.model_dump()]})
            self.tell([account], {"type": "presence", "presence": [theirs.model_dump()]})

    # ---- delivery to this node's lobby sockets ----------------------------------------

    def listen(self, account: int) -> AsyncIterator[dict[str, Any]]:
        """The presence messages for one lobby socket of ``account`` (registered at once)."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(MAX_WAITING)
        self._listeners.setdefault(account, set()).add(queue)
        return self._drain(account, queue)

    async def _drain(
        self, account: int, queue: asyncio.Queue[dict[str, Any] | None]
    ) -> AsyncIterator[dict[str, Any]]:
        try:
            while (message := await queue.get()) is not None:
                yield message
        finally:
            queues = self._listeners.get(account, set())
            queues.discard(queue)
            if not queues:
                self._listeners.pop(account, None)

    async def _relay(self, updates: AsyncIterator[dict[str, Any]]) -> None:
        async for update in updates:
            message = update.get("message")
            for account in update.get("to", ()):
                for queue in list(self._listeners.get(account, ())):
                    try:
                        queue.put_nowait(message)
                    except asyncio.QueueFull:  # too far behind: the socket is closed
                        self._listeners[account].discard(queue)
                        queue.get_nowait()
                        queue.put_nowait(None)

    def listeners(self) -> int:
        """How many lobby sockets of this process hear presence (for tests)."""
        return sum(len(q) for q in self._listeners.values())
