"""One node's part in the cluster: its rounds (every second: say it is alive, renew its
leases, let go of members whose node has died, take over tables nobody runs) and its
answers to what other nodes send it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import socket
from collections.abc import Awaitable
from typing import Any

from redis.asyncio import Redis

from .. import tasks
from ..errors import ApiError
from ..metrics import LEASE_TAKEOVERS
from ..settings import NODE_NAME
from ..table.actor import TableActor
from ..table.fanout import LocalFanout, LocalSockets
from ..table.ops import Op, Part
from . import wire
from .leases import Leases, alive_key
from .routing import ClusterFanout, Router
from .shared import RedisBus, RedisDirectory
from .tables import ClusterTables

log = logging.getLogger(__name__)

ROUND = 1.0  # seconds between a node's rounds
RECONNECT = 1012  # close code that tells a browser to reconnect at once


def node_name() -> str:
    """A name for this node that no other node has: host, process and a random tag."""
    host = socket.gethostname()[:60]
    if not re.fullmatch(NODE_NAME, host):  # a host name a proxy could not route by
        host = "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterNode:
    """Wires one node into the cluster and keeps its rounds going."""

    def __init__(self, redis: Redis, sockets: LocalSockets, *, node: str, lease_ttl: float) -> None:
        self.redis = redis
        self.node = node
        self.sockets = sockets
        self.leases = Leases(redis, node, ttl=lease_ttl)
        self.router = Router(redis, node)
        self.fanout = ClusterFanout(LocalFanout(sockets), self.router)
        self.bus = RedisBus(self.router)
        self.directory = RedisDirectory(redis, self.router)
        self.tables: ClusterTables | None = None
        self._rounds: asyncio.Task[None] | None = None
        self._taking: asyncio.Task[None] | None = None
        self.router.handlers.update(
            op=self._on_op,
            out=self._on_out,
            close=self._on_close,
            moved=self._on_moved,
            released=self._on_released,
        )

    @property
    def local(self) -> LocalFanout:
        return self.fanout.local

    async def start(self, tables: ClusterTables) -> None:
        self.tables = tables
        await self.leases.heartbeat()
        await self.router.start()
        self._rounds = asyncio.create_task(self._run_rounds(), name="cluster-rounds")

    async def stop(self) -> None:
        """After the tables have been handed over: stop the rounds and the router."""
        await tasks.stop(self._rounds, self._taking)
        await self.router.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.delete(alive_key(self.node)), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)

    # -- rounds ----------------------------------------------------------------------------

    async def _run_rounds(self) -> None:
        while True:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: a round failed", self.node)
            await asyncio.sleep(ROUND)

    async def round(self) -> None:
        """Say this node is alive and renew its leases; let go of dead nodes' members;
        start taking orphaned tables.

        Taking tables over runs beside the rounds, never inside one: each take reads a
        table from the database, and a round that took many (a dead node's hundreds)
        would renew this node's own leases too late, so that they lapsed and another
        node took its tables in turn."""
        tables = self.tables
        assert tables is not None
        await self.leases.heartbeat()
        for table_id in await self.leases.renew(list(tables.live)):
            actor = tables.live.get(table_id)
            if actor is not None:
                log.warning("node %s lost the lease of table %s", self.node, table_id)
                tables.lost(actor)
        await self._forget_dead_members()
        if not tables.draining and (self._taking is None or self._taking.done()):
            self._taking = asyncio.create_task(self._take_orphans(), name="cluster-takeover")
            self._taking.add_done_callback(_log_takeover_failure)

    async def _forget_dead_members(self) -> None:
        """Members whose sockets were on a node that has died leave their tables."""
        tables = self.tables
        assert tables is not None
        nodes = {m.node for a in tables.live.values() for m in a.members} - {self.node}
        alive = await self.leases.alive(sorted(nodes))
        dead = {n for n, ok in alive.items() if not ok}
        if not dead:
            return
        for actor in list(tables.live.values()):
            for member in list(actor.members):
                if member.node in dead:
                    actor.submit(Part(member.id))

    async def _take_orphans(self) -> None:
        """Take every live table whose owner's lease has lapsed."""
        tables = self.tables
        assert tables is not None
        live = await self.leases.live_tables()
        for table_id, owner in zip(live, await self.leases.owners(live), strict=True):
            if owner is None and table_id not in tables.live:
                try:
                    await tables.claim(table_id)
                except Exception:
                    log.exception("node %s could not take table %s", self.node, table_id)
                else:
                    LEASE_TAKEOVERS.inc()

    # -- what other nodes send -------------------------------------------------------------

    def _on_op(self, message: dict[str, Any]) -> Awaitable[None] | None:
        """Run an operation for a member on another node. One nobody waits for (a move,
        a chat line) is queued at once; only a request needs a task, for its answer."""
        tables = self.tables
        assert tables is not None
        actor = tables.live.get(message["t"])
        try:
            op = wire.op_in(message["op"])
        except (KeyError, TypeError, ValueError):
            log.warning("node %s: a malformed operation %r", self.node, message.get("op"))
            return None
        if actor is None:
            error = ApiError(503, "table_moving", "the table has moved; retry")
            self.router.answer(message, error=error)
            return None
        if message.get("rid") is None:
            actor.submit(op)
            return None
        return self._answer(actor, op, message)

    async def _answer(self, actor: TableActor, op: Op, message: dict[str, Any]) -> None:
        try:
            answer = await actor.queue(op)
        except ApiError as exc:
            self.router.answer(message, error=exc)
        except Exception:
            log.exception("node %s: %r failed", self.node, op)
            self.router.answer(message, error=ApiError(500, "failed", "the operation failed"))
        else:
            self.router.answer(message, answer)

    def _on_out(self, message: dict[str, Any]) -> None:
        texts = message["texts"]
        for member_id, i in message["to"]:
            conn = self.sockets.get(member_id)
            if conn is not None:
                conn.send(texts[i])

    def _on_close(self, message: dict[str, Any]) -> None:
        conn = self.sockets.get(message["m"])
        if conn is not None:
            conn.close(message["code"])

    def _on_moved(self, message: dict[str, Any]) -> None:
        """A table has a new owner: sockets that joined it elsewhere reconnect."""
        for member_id, via in self.sockets.at(message["t"]):
            if via != message["owner"]:
                conn = self.sockets.get(member_id)
                if conn is not None:
                    conn.close(RECONNECT)

    async def _on_released(self, message: dict[str, Any]) -> None:
        tables = self.tables
        if tables is not None and not tables.draining:
            await tables.claim(message["t"])


def _log_takeover_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("cluster: taking over tables failed", exc_info=task.exception())
