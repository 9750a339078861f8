"""Issue 20, items 4 and 5, across nodes: people at one table through different nodes. A
reaction sent through one node reaches the others; once B has blocked A, A's reactions
and chat lines never reach B while C, on B's node, still gets them; and quick play through
two nodes seats the blocked pair apart, the third person with one of them (PostgreSQL and
Redis as the cluster runs them)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from crazy_eights.server.auth import COOKIE

from ..conftest import run_async
from .nodes import Node, api, start_all
from .test_matchmaking import until_matched
from .test_presence import register

pytestmark = pytest.mark.xdist_group("cluster")

Message = dict[str, Any]


@pytest.fixture
def two_nodes(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[list[Node]]:
    """Two nodes whose quick play waits 3 s for more people, also for the first one."""
    nodes = [
        Node(
            tmp_path,
            database=postgres_url,
            redis=redis_url,
            name=f"b{i}",
            CE_MATCH_WINDOW_SECONDS="3",
            CE_MATCH_ALONE="wait",
        )
        for i in range(2)
    ]
    try:
        yield start_all(nodes)
    finally:
        for node in nodes:
            node.kill()


async def until(ws: Any, wanted: Callable[[Message], bool]) -> tuple[Message, list[Message]]:
    """Read a table socket up to the first message ``wanted``: it, and every one before."""
    before: list[Message] = []
    while True:
        message: Message = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if wanted(message):
            return message, before
        before.append(message)


def reaction(account: int, name: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "reaction" and (m["account"], m["reaction"]) == (account, name)


def chat(account: int, text: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "chat" and (m["account"], m["text"]) == (account, text)


def from_(account: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] in ("chat", "reaction") and m.get("account") == account


def test_reactions_cross_nodes_and_a_block_hides_the_blocked_one(
    two_nodes: list[Node],
) -> None:
    first, second = two_nodes
    ada, ada_token = register(first, "ada")
    _, bob_token = register(second, "bob")
    cyd, cyd_token = register(second, "cyd")
    body = {"rules": {"ruleset": "classic", "players": 3, "mode": "single"}}
    table = api(first, ada_token, "POST", "/api/tables", json=body).json()["id"]
    for token in (bob_token, cyd_token):
        sat = api(second, token, "POST", f"/api/tables/{table}/sit", json={})
        assert sat.status_code == 200, sat.text
    assert sat.json()["status"] == "playing"

    async def scene() -> list[Message]:
        import websockets

        def at_table(node: Node, token: str) -> Any:
            # each asks for the table's node (first) and stays on the node it reached, as
            # behind a proxy that cannot route: second serves bob and cyd across nodes
            return websockets.connect(
                f"{node.ws}/ws/tables/{table}?node={first.name}",
                additional_headers={"cookie": f"{COOKIE}={token}"},
            )

        async with at_table(first, ada_token) as ada_ws, at_table(second, cyd_token) as cyd_ws:
            for ws in (ada_ws, cyd_ws):
                await until(ws, lambda m: m["type"] == "welcome")
            async with at_table(second, bob_token) as bob_ws:
                await until(bob_ws, lambda m: m["type"] == "welcome")
                await ada_ws.send(json.dumps({"type": "react", "reaction": "thumbs_up"}))
                told, _ = await until(bob_ws, reaction(ada, "thumbs_up"))
                assert told["name"] == "ada" and told["seat"] == 0
                await until(cyd_ws, reaction(ada, "thumbs_up"))

            blocked = api(second, bob_token, "POST", "/api/blocks", json={"account": ada})
            assert blocked.status_code == 201, blocked.text
            async with at_table(second, bob_token) as bob_ws:  # the block is read on opening
                await until(bob_ws, lambda m: m["type"] == "welcome")
                await ada_ws.send(json.dumps({"type": "react", "reaction": "wow"}))
                await ada_ws.send(json.dumps({"type": "chat", "text": "hello from ada"}))
                await until(cyd_ws, reaction(ada, "wow"))
                await until(cyd_ws, chat(ada, "hello from ada"))
                # cyd's line reaches bob after anything of ada's the table sent before it
                await cyd_ws.send(json.dumps({"type": "chat", "text": "cyd says hi"}))
                _, before = await until(bob_ws, chat(cyd, "cyd says hi"))
                return before

    heard_by_bob = run_async(scene())
    assert [m for m in heard_by_bob if from_(ada)(m)] == []


def test_quick_play_on_two_nodes_never_seats_a_blocked_pair_together(
    two_nodes: list[Node],
) -> None:
    first, second = two_nodes
    ada, ada_token = register(first, "ada")
    bob, bob_token = register(second, "bob")
    cyd, cyd_token = register(first, "cyd")
    assert api(second, bob_token, "POST", "/api/blocks", json={"account": ada}).status_code == 201
    people = [(first, ada_token), (second, bob_token), (first, cyd_token)]
    for node, token in people:  # ada waits longest: her window closes first
        joined = api(node, token, "POST", "/api/match", json={"ruleset": "classic"})
        assert joined.status_code == 201, joined.text

    async def seated() -> list[str]:
        others = [(second if node is first else first, token) for node, token in people]
        found = await asyncio.gather(*(until_matched(n, t, 3) for n, t in others))
        return [table for _, table in found]

    ada_table, bob_table, cyd_table = run_async(seated())

    def people_at(table: str) -> set[int]:
        seats = httpx.get(f"{first.url}/api/tables/{table}").json()["seats"]
        return {s["account"] for s in seats if s["bot"] is None}

    assert ada_table == cyd_table != bob_table
    assert people_at(ada_table) == {ada, cyd}
    assert people_at(bob_table) == {bob}  # nobody else to take: bots fill his table
