"""Tables hosted elsewhere (by ``crazy-eights chat-host``), as the card room shows them.

A chat host writes its tables to the room's database with the ``place`` they are played
in (``irc:irc.example.net:#cards``); the room never runs them (``SqlTableStore``'s
``unfinished`` leaves them out). ``HostedTables`` lists those that run, public, in the
lobby (a look at the database every ``every`` seconds, so a table of any host on the same
database shows on every process, with or without Redis), and gives the table socket a
``table.follow.FollowedTable`` for one, which its watchers see move by move. At the same
look, the rated hosted tables that finished and whose players' analyses were not started
yet are handed to ``finished`` (``hostedends``: the room's automatic analyses), once.
With a ``bus`` (the lobby's: in a cluster, fed by Redis), word from a host that one of its
tables changed (``cluster.hostednews``, topic ``hosted``) wakes that table's follower.

Seats are taken, given up and dealt in the chat: the lobby's routes refuse them at a
hosted table with ``refuse_seats`` (409 ``hosted_in_chat``, naming the channel), and
change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from . import db, hostedends, tasks
from .bus import Bus
from .connection import spawn
from .errors import ApiError
from .protocol import TableInfo
from .records.finish import AfterFinish
from .records.games import load_game
from .records.info import stored_info
from .records.tables import record_of
from .table.follow import FollowDeps, FollowedTable

log = logging.getLogger(__name__)

LIST_EVERY = 2.0
"""Seconds between two looks for the hosted tables the lobby lists."""
HOSTED_LISTER = "hosted-lister"
"""The cluster-wide role of the node that lists the hosted tables (``Lister``)."""
LISTER_TTL = 3 * LIST_EVERY
"""Seconds the lister's role outlives its last look: a node that died is replaced
within this (its listing waits that long), one that is merely slow is not."""
Listing = tuple[str, int, int, tuple[bool, ...]]
"""What a listed hosted table is announced again for when it changes: its status, moves,
watchers and which seats were left."""


def listing(info: TableInfo) -> Listing:
    """The ``Listing`` of a table's info."""
    return (info.status, info.version, info.spectators, tuple(s.left for s in info.seats))


NEWS_TOPIC = "hosted"
"""The lobby bus's topic of the hosts' word that a table changed (``cluster.hostednews``
publishes it: the same name)."""


def place_parts(place: str) -> tuple[str, str]:
    """A place's network and channel: ``irc:irc.example.net:#cards`` is
    (``irc:irc.example.net``, ``#cards``); a Matrix room (``#cards:example`` or
    ``!id:example``) keeps its own colon.

    >>> place_parts("matrix:https://m.example:8448:#cards:m.example")
    ('matrix:https://m.example:8448', '#cards:m.example')
    >>> place_parts("irc:irc.example.net:#cards")
    ('irc:irc.example.net', '#cards')
    """
    for i in range(1, len(place)):
        if place[i] in "#&!" and place[i - 1] == ":":
            return place[: i - 1], place[i:]
    network, _, channel = place.rpartition(":")
    return network, channel


async def refuse_seats(engine: AsyncEngine, table_id: str) -> None:
    """Refuse (409 ``hosted_in_chat``) to seat, unseat or deal at ``table_id`` if a chat
    host plays it (open or running): that is done in its channel, which the refusal
    names. Anything else (no such table, one of the room's) passes."""
    query = sa.select(db.tables.c.place).where(
        db.tables.c.id == table_id,
        db.tables.c.place.is_not(None),
        db.tables.c.status.in_(("open", "playing")),
    )
    async with engine.connect() as conn:
        place = (await conn.execute(query)).scalar_one_or_none()
    if place is not None:
        channel = place_parts(place)[1]
        raise ApiError(409, "hosted_in_chat", f"This table is played in {channel}: join it there")


class Lister(Protocol):
    """The role of the one node of a cluster that lists the hosted tables in the lobby
    (``cluster.leases.Role``)."""

    async def hold(self) -> bool:
        """Take or keep the role; False while another node holds it."""

    async def let_go(self) -> None:
        """Give the role up (this node stops)."""


class HostedTables:
    """The hosted tables this process lists in its lobby and follows for its sockets."""

    def __init__(
        self,
        deps: FollowDeps,
        *,
        show: Callable[[TableInfo], None],
        hide: Callable[[str], None],
        listed: Callable[[], Awaitable[list[TableInfo]]],
        finished: AfterFinish | None = None,
        bus: Bus | None = None,
        lister: Lister | None = None,
        every: float = LIST_EVERY,
    ) -> None:
        """``show``, ``hide`` and ``listed``: the lobby's (``Lobby``); ``finished``:
        told of each rated hosted game that ended, as the room's own are told to its
        after-commit subscribers (the analyses); ``bus``: where the hosts' word that a
        table changed is heard; ``lister``: in a cluster, the role of the one node that
        lists the hosted tables (None: this process lists them)."""
        self.deps = deps
        self._show = show
        self._hide = hide
        self._lobby = listed
        self._finished = finished
        self._bus = bus
        self._lister = lister
        self._listing = lister is None
        self.every = every
        self.followed: dict[str, FollowedTable] = {}
        self._listed: dict[str, Listing] = {}
        self._opening: dict[str, asyncio.Future[FollowedTable | None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._news_task: asyncio.Task[None] | None = None

    async def handle(self, table_id: str) -> FollowedTable | None:
        """The followed table ``table_id`` if it is hosted elsewhere and still running
        (None otherwise: not hosted, or over)."""
        table = self.followed.get(table_id)
        if table is not None:
            return table
        opening = self._opening.get(table_id)
        if opening is None:  # one load for sockets opening together
            opening = self._opening[table_id] = spawn(self._open(table_id))
        try:
            return await asyncio.shield(opening)
        finally:
            self._opening.pop(table_id, None)

    async def _open(self, table_id: str) -> FollowedTable | None:
        async with self.deps.engine.connect() as conn:
            game = await load_game(conn, table_id, "seats", "moves", "chat")
        if game is None or game.row.place is None or game.row.status not in ("open", "playing"):
            return None
        table = self.followed.get(table_id)
        if table is None:
            began = game.moves[-1].at if game.moves else game.row.started_at
            table = FollowedTable(record_of(game), self.deps, self._empty, turn_began=began)
            self.followed[table_id] = table
        return table

    def _empty(self, table: FollowedTable) -> None:
        if self.followed.get(table.id) is table:
            del self.followed[table.id]

    # -- the lobby -----------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._list_loop(), name="hosted-tables")
        if self._bus is not None:
            self._news_task = asyncio.create_task(self._news_loop(self._bus), name="hosted-news")

    async def stop(self) -> None:
        await tasks.stop(self._task, self._news_task)
        if self._lister is not None and self._listing:
            with contextlib.suppress(Exception):  # else it lapses: another node lists
                await self._lister.let_go()
        for table in list(self.followed.values()):
            table.stop(close_code=1012)  # the watchers reconnect to another process
        self.followed.clear()

    async def _news_loop(self, bus: Bus) -> None:
        """Wake the follower of each table a host says changed (subscribing again if the
        bus drops a subscriber that fell behind)."""
        while True:
            async for news in bus.subscribe(NEWS_TOPIC):
                followed = self.followed.get(str(news.get("table", "")))
                if followed is not None:
                    followed.wake()

    async def _list_loop(self) -> None:
        while True:
            try:
                await self.list_now()
            except Exception:  # the database is away: look again next time
                log.exception("could not list the hosted tables")
            try:
                await self.hand_over_ends()
            except Exception:  # the same: again next time, nothing was claimed
                log.exception("could not read the finished hosted tables")
            await asyncio.sleep(self.every)

    async def hand_over_ends(self) -> int:
        """Tell ``finished`` of each rated hosted table that ended (within
        ``hostedends.WITHIN``) with a person's seat whose analysis was never started;
        answers how many. Told again next time until each such seat is claimed."""
        if self._finished is None:
            return 0
        async with self.deps.engine.connect() as conn:
            games = await hostedends.unanalysed(conn, since=db.now() - hostedends.WITHIN)
        for game in games:
            self._finished(game)
        return len(games)

    async def _may_list(self) -> bool:
        """Whether this process lists the hosted tables now. A node that takes the role
        over starts from the hosted tables the lobby lists (its last lister's): it
        announces those that changed since, and takes off the list those that ended."""
        if self._lister is None:
            return True
        holds = await self._lister.hold()
        if holds and not self._listing:
            listed = await self._lobby()
            self._listed = {t.id: listing(t) for t in listed if t.place is not None}
        self._listing = holds
        return holds

    async def list_now(self) -> None:
        """List each public hosted table that runs (again when it changed) and take off
        the list those that ended; in a cluster, only on the node holding the
        ``lister`` role, so that each change is announced once."""
        if not await self._may_list():
            return
        query = sa.select(db.tables.c.id).where(
            db.tables.c.place.is_not(None),
            db.tables.c.status.in_(("open", "playing")),
            db.tables.c.public == sa.true(),
        )
        shown: dict[str, TableInfo] = {}
        async with self.deps.engine.connect() as conn:
            ids = [r.id for r in (await conn.execute(query)).all()]
            for table_id in ids:
                game = await load_game(conn, table_id, "seats", "move_count")
                if game is not None:
                    shown[table_id] = stored_info(game)
        for table_id, info in shown.items():
            followed = self.followed.get(table_id)
            if followed is not None:
                info = followed.info()
            key = listing(info)
            if self._listed.get(table_id) != key:
                self._listed[table_id] = key
                self._show(info)
        for table_id in set(self._listed) - set(shown):
            del self._listed[table_id]
            self._hide(table_id)
