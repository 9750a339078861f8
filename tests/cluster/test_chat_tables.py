"""Issue 21 in a cluster: a chat host's table (``RoomGateway`` on the cluster's
PostgreSQL database) is listed by every node, none of them runs it, and a watcher on
either node sees each move the host stores; the finished game leaves every lobby. With
``--redis`` the host's word wakes the watchers at once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from crazy_eights.chat.gateway import ChatSeat, ChatTableSpec
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.engine import Rules
from crazy_eights.server.botpool import BotPool
from crazy_eights.server.cluster import redisclient
from crazy_eights.server.cluster.leases import Leases
from crazy_eights.server.hosted import HOSTED_LISTER, LISTER_TTL, HostedTables
from crazy_eights.server.protocol import TableInfo
from crazy_eights.server.settings import ServerSettings
from crazy_eights.server.table.fanout import LocalFanout, LocalSockets
from crazy_eights.server.table.follow import FollowDeps

from ..conftest import run_async
from .conftest import Cluster
from .nodes import Node, start_all

pytestmark = pytest.mark.slow

PLACE = "irc:irc.example.net:#cards"


async def _listed(node: Node, table_id: str, http: httpx.AsyncClient) -> bool:
    tables = (await http.get(f"{node.url}/api/tables")).json()
    return any(t["id"] == table_id and t["place"] == PLACE for t in tables)


async def _until(check: Any, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        await asyncio.sleep(0.1)


async def _watch_everywhere(nodes: list[Node], database: str) -> None:
    gateway = await RoomGateway.open(ServerSettings(database_url=database))
    rules = Rules.preset("cycles", players=3, cycle_limit=3)
    seats = [ChatSeat(seat=0, name="alice")] + [
        ChatSeat(seat=s, name=f"bot{s + 1}", bot="random") for s in (1, 2)
    ]
    spec = ChatTableSpec(place=PLACE, rules=rules, seed=9)
    lobby = await websockets.connect(f"{nodes[0].ws}/ws/lobby")
    told: list[tuple[Any, ...]] = []
    hearing = asyncio.create_task(_hear(lobby, told))
    try:
        table_id, _ = await gateway.create(spec, seats)
        async with httpx.AsyncClient() as http:
            for node in nodes:
                await _until(lambda n=node: _listed(n, table_id, http), f"listed by {node.name}")
            sockets = [await websockets.connect(f"{n.ws}/ws/tables/{table_id}") for n in nodes]
            try:
                starts = [json.loads(await ws.recv())["state"]["version"] for ws in sockets]
                assert starts == [0, 0]
                moves = 0
                while (current := gateway.view(table_id, None)["current"]) is not None:
                    await gateway.bot_move(table_id, current, "random")
                    moves += 1
                    if moves <= 3:  # each node's watcher sees the move
                        for ws in sockets:
                            await _state(ws, moves)
                await gateway.close(table_id, "over")
                for ws in sockets:
                    await _state(ws, moves)
            finally:
                for ws in sockets:
                    await ws.close()
            for node in nodes:
                await _until(
                    lambda n=node: _gone(n, table_id, http), f"off the lobby of {node.name}"
                )
            await _until(lambda: _heard((table_id, None), told), "taken off, on the lobby socket")
        mine = [t for t in told if t[0] == table_id]
        assert len(mine) == len(set(mine)), mine  # each change told once, not by each node
    finally:
        hearing.cancel()
        await lobby.close()
        await gateway.shutdown()


async def _hear(lobby: Any, told: list[tuple[Any, ...]]) -> None:
    """Keep what a lobby socket is told of the tables: (id, status, moves, watchers),
    or (id, None) when one is taken off."""
    async for raw in lobby:
        message = json.loads(raw)
        if message["type"] == "table":
            info = message["table"]
            told.append((info["id"], info["status"], info["version"], info["spectators"]))
        elif message["type"] == "removed":
            told.append((message["id"], None))


async def _heard(entry: tuple[Any, ...], told: list[tuple[Any, ...]]) -> bool:
    return entry in told


async def _gone(node: Node, table_id: str, http: httpx.AsyncClient) -> bool:
    return not await _listed(node, table_id, http)


async def _state(ws: Any, version: int) -> None:
    """Read the socket until the state of ``version`` (a watcher sees no hand)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "state":
            assert "hand" not in message["state"]["view"]
            if message["state"]["version"] == version:
                return


def test_a_chat_table_is_watched_from_every_node(cluster: Cluster, postgres_url: str) -> None:
    nodes = cluster(2)
    run_async(_watch_everywhere(nodes, postgres_url))


POLL = 20.0
"""The followers' look at the database in the test of the host's word: long, so that
a move seen well before it was brought by the word on Redis."""


async def _woken(node: Node, database: str, redis: str) -> list[float]:
    """Each move's (and the end's) delay from the host's commit to the watcher."""
    gateway = await RoomGateway.open(ServerSettings(database_url=database), redis=redis)
    rules = Rules.preset("cycles", players=2, cycle_limit=2)
    seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
    lags: list[float] = []
    try:
        table_id, _ = await gateway.create(ChatTableSpec(place=PLACE, rules=rules, seed=4), seats)
        async with httpx.AsyncClient() as http:
            await _until(lambda: _listed(node, table_id, http), "listed")
        async with websockets.connect(f"{node.ws}/ws/tables/{table_id}") as ws:
            assert json.loads(await ws.recv())["state"]["version"] == 0
            for version in (1, 2, 3):
                current = gateway.view(table_id, None)["current"]
                began = time.monotonic()
                await gateway.bot_move(table_id, current, "random")
                await _state(ws, version)
                lags.append(time.monotonic() - began)
            while (current := gateway.view(table_id, None)["current"]) is not None:
                await gateway.bot_move(table_id, current, "random")
            began = time.monotonic()
            await gateway.close(table_id, "over")
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 2 * POLL))
                if message["type"] == "table" and message["info"]["status"] == "finished":
                    lags.append(time.monotonic() - began)
                    break
    finally:
        await gateway.shutdown()
    return lags


def test_a_hosts_word_on_redis_wakes_the_watchers(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """``chat-host --redis``: the host tells each committed move and the end on the
    cluster's Redis; the node's follower reads it at once, not at its next look (set to
    20 s here): every move and the end reach the watcher within a tenth of that."""
    [node] = start_all(
        [Node(tmp_path, database=postgres_url, redis=redis_url, CE_HOSTED_POLL_SECONDS=str(POLL))]
    )
    try:
        lags = run_async(_woken(node, postgres_url, redis_url))
    finally:
        node.kill()
    assert len(lags) == 4 and max(lags) < POLL / 10, lags
    print(f"\nmove and end delays with the word on Redis (poll {POLL:g} s): {lags}")


class _Lobby:
    """The lobby both nodes share, as Redis holds it: what is listed, and every
    announcement made on its bus."""

    def __init__(self) -> None:
        self.tables: dict[str, TableInfo] = {}
        self.told: list[tuple[str, int | None]] = []  # table, version (None: taken off)

    def show(self, info: TableInfo) -> None:
        self.tables[info.id] = info
        self.told.append((info.id, info.version))

    def hide(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.told.append((table_id, None))

    async def listed(self) -> list[TableInfo]:
        return list(self.tables.values())


async def _listed_once(database: str, redis_url: str) -> None:
    gateway = await RoomGateway.open(ServerSettings(database_url=database))
    lobby = _Lobby()
    redis = [redisclient.connect(redis_url) for _ in range(2)]
    deps = FollowDeps(engine=gateway.engine, fanout=LocalFanout(LocalSockets()), thinker=BotPool(0))
    nodes = [
        HostedTables(
            deps,
            show=lobby.show,
            hide=lobby.hide,
            listed=lobby.listed,
            lister=Leases(r, f"n{i}", ttl=3).role(HOSTED_LISTER, ttl=LISTER_TTL),
        )
        for i, r in enumerate(redis)
    ]

    async def look() -> None:  # each node's look at the database, in turn
        for node in nodes:
            await node.list_now()

    rules = Rules.preset("cycles", players=2, cycle_limit=2)
    seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
    try:
        table_id, _ = await gateway.create(ChatTableSpec(place=PLACE, rules=rules, seed=4), seats)
        await look()
        assert lobby.told == [(table_id, 0)]  # listed: told once, not once per node
        await gateway.bot_move(table_id, gateway.view(table_id, None)["current"], "random")
        await look()
        assert lobby.told == [(table_id, 0), (table_id, 1)]
        await nodes[0].stop()  # the lister stops: the other node takes the listing over
        await nodes[1].list_now()
        assert len(lobby.told) == 2  # from what the lobby lists: nothing changed, not told
        await gateway.bot_move(table_id, gateway.view(table_id, None)["current"], "random")
        await nodes[1].list_now()
        assert lobby.told[2:] == [(table_id, 2)]
        while (current := gateway.view(table_id, None)["current"]) is not None:
            await gateway.bot_move(table_id, current, "random")
        await gateway.close(table_id, "over")
        await nodes[1].list_now()
        assert lobby.told[3:] == [(table_id, None)] and not lobby.tables
    finally:
        await nodes[1].stop()
        await gateway.shutdown()
        for r in redis:
            await r.aclose()


def test_a_chat_tables_listing_is_told_once_by_the_cluster(
    postgres_url: str, redis_url: str
) -> None:
    """Every node looks at the hosted tables, but one of them (the ``hosted-lister``
    role, on Redis) lists them: each change is told to the lobby once, not once per
    node; when that node stops, another takes the listing over."""
    run_async(_listed_once(postgres_url, redis_url))
