"""The tables of one node of a cluster: those it runs under a lease, and the way to the
others.

A node runs a table only while it holds the table's lease. It takes a table when it
makes it, when a player reaches a table nobody runs, or when a table's owner has gone
(``ClusterNode`` looks for such tables every second): it draws a fencing token, gives it
to the store, rebuilds the table from the database and tells every node, whose sockets
at that table then reconnect. A draining node stops its tables, gives their leases back
and says so, and another node takes each at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..connection import spawn
from ..errors import ApiError
from ..records.tables import SqlTableStore
from ..table.actor import TableActor, TableDeps
from ..table.store import TableRecord
from ..tables import TableHandle, Tables
from .leases import Leases
from .routing import RoutedTable, Router

log = logging.getLogger(__name__)


class ClusterTables(Tables):
    def __init__(
        self,
        deps: Callable[[], TableDeps],
        *,
        store: SqlTableStore,
        leases: Leases,
        router: Router,
    ) -> None:
        super().__init__(deps)
        self.store = store
        self.leases = leases
        self.router = router
        self.node = leases.node
        self.draining = False
        self._claims: dict[str, asyncio.Future[TableActor | None]] = {}

    # -- finding a table -------------------------------------------------------------------

    async def handle(self, table_id: str) -> TableHandle | None:
        """This node's actor, a route to the owner, or a claim when nobody runs it.

        When the owner's node has stopped saying it is alive, wait (up to a lease's time
        to live) for its lease to lapse and take the table over.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.leases.ttl_ms / 1000 + 1.0
        while True:
            actor = self.live.get(table_id)
            if actor is not None:
                return actor
            owner = await self.leases.owner(table_id)
            if owner is None:
                if not await self.leases.is_live(table_id):
                    return None
                actor = await self.claim(table_id)
                if actor is not None:
                    return actor
            elif owner == self.node:
                claim = self._claims.get(table_id)
                if claim is not None:
                    return await claim
            elif (await self.leases.alive([owner]))[owner]:
                return RoutedTable(self.router, table_id, owner, self.handle)
            if loop.time() > deadline:
                raise ApiError(503, "table_unreachable", "the table's server is gone; retry")
            await asyncio.sleep(0.2)

    # -- taking and giving back ------------------------------------------------------------

    async def claim(self, table_id: str) -> TableActor | None:
        """Take a table nobody runs; None if another node got there first."""
        if self.draining:
            return None
        running = self._claims.get(table_id)
        if running is not None:
            return await running
        future: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._claims[table_id] = future
        try:
            actor = await self._claim(table_id)
        except Exception as exc:
            future.set_exception(exc)
            future.exception()
            raise
        else:
            future.set_result(actor)
            return actor
        finally:
            del self._claims[table_id]

    async def _claim(self, table_id: str) -> TableActor | None:
        if not await self.leases.acquire(table_id):
            return None
        try:
            epoch = await self.store.claim(table_id)
            actor = await self._restore(table_id)
        except Exception:
            self.store.forget(table_id)
            await self.leases.release(table_id)
            raise
        if actor is None:
            self.store.forget(table_id)
            await self.leases.release(table_id)
            await self.leases.drop_live(table_id)
            return None
        log.info("node %s took table %s (epoch %d)", self.node, table_id, epoch)
        self.router.to_all({"k": "moved", "t": table_id, "owner": self.node})
        return actor

    async def _adopt(self, record: TableRecord) -> TableActor:
        if not await self.leases.acquire(record.id):  # a fresh random id: nobody holds it
            raise ApiError(503, "busy", "could not take the new table; retry")
        await self.store.claim(record.id)
        await self.leases.add_live(record.id)
        return self._load(record)

    def unload(self, actor: TableActor) -> None:
        if self.live.get(actor.id) is not actor:
            return
        super().unload(actor)
        self.store.forget(actor.id)
        spawn(self._give_back(actor.id, ended=actor.status in ("finished", "abandoned")))

    async def _give_back(self, table_id: str, *, ended: bool) -> None:
        await self.leases.release(table_id)
        if ended:
            await self.leases.drop_live(table_id)

    def lost(self, actor: TableActor) -> None:
        """Another node owns the table now: stop running it, without touching the lease."""
        super().lost(actor)
        self.store.forget(actor.id)

    async def restore(self) -> int:
        """Make sure Redis knows every unfinished table; the node's rounds take those
        nobody runs."""
        unfinished = await self.store.unfinished()
        await self.leases.add_live(*unfinished)
        return len(unfinished)

    async def close(self) -> None:
        """Hand every table over: stop it, give its lease back, say it is free."""
        self.draining = True
        actors = list(self.live.values())
        self.live.clear()
        await asyncio.gather(*(actor.stop() for actor in actors), return_exceptions=True)
        for actor in actors:
            self.store.forget(actor.id)
            try:
                await self.leases.release(actor.id)
            except Exception:
                log.exception("could not release table %s", actor.id)
            if actor.status in ("finished", "abandoned"):
                await self.leases.drop_live(actor.id)
            else:
                self.router.to_all({"k": "released", "t": actor.id})
        log.info("node %s handed over %d tables", self.node, len(actors))
