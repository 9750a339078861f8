"""Issue 21 in a cluster: a chat host's table (``RoomGateway`` on the cluster's
PostgreSQL database) is listed by every node, none of them runs it, and a watcher on
either node sees each move the host stores; the finished game leaves every lobby."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from crazy_eights.chat.gateway import ChatSeat, ChatTableSpec
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.engine import Rules
from crazy_eights.server.settings import ServerSettings

from ..conftest import run_async
from .conftest import Cluster
from .nodes import Node

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
    finally:
        await gateway.shutdown()


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
