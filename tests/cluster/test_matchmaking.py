"""Quick play's queue in cluster mode: the same queue on every node. People joining
through different nodes wait together and land at one table; a ticket cancelled through
one node is gone on all; a reload that lands on another node keeps the ticket."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..conftest import run_async
from .nodes import COOKIE, Node, api, guest, start_all

pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture
def two_nodes(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[list[Node]]:
    nodes = [
        Node(
            tmp_path,
            database=postgres_url,
            redis=redis_url,
            name=f"m{i}",
            CE_MATCH_WINDOW_SECONDS="6",
            CE_MATCH_ALONE="wait",  # the queue itself is tested: nobody is seated at once
        )
        for i in range(2)
    ]
    try:
        yield start_all(nodes)
    finally:  # also when a node never got ready
        for node in nodes:
            node.kill()


async def until_matched(node: Node, token: str, waiting: int) -> tuple[list[str], str]:
    """Open the person's match socket on ``node``: the names waiting once ``waiting`` are
    there, and the table they are matched to."""
    import websockets

    headers = {"Cookie": f"{COOKIE}={token}"}
    names: list[str] = []
    async with websockets.connect(f"{node.ws}/ws/match", additional_headers=headers) as ws:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 15))
            if message["type"] == "queue" and len(message["waiting"]) == waiting:
                names = [e["name"] for e in message["waiting"]]
            if message["type"] == "matched":
                return names, str(message["table"])
            assert message["type"] == "queue", message


def test_people_on_two_nodes_wait_in_one_queue_and_share_a_table(
    two_nodes: list[Node],
) -> None:
    first, second = two_nodes
    tokens = [guest(first), guest(second)]
    body = {"ruleset": "classic", "length": "round"}
    for node, token in zip(two_nodes, tokens, strict=True):
        joined = api(node, token, "POST", "/api/match", json=body)
        assert joined.status_code == 201, joined.text
    seen = api(first, tokens[0], "GET", "/api/match").json()
    assert len(seen["queue"]["waiting"]) == 2

    async def both() -> list[tuple[list[str], str]]:
        return list(
            await asyncio.gather(
                until_matched(second, tokens[0], 2), until_matched(first, tokens[1], 2)
            )
        )

    (names_a, table_a), (names_b, table_b) = run_async(both())
    assert table_a == table_b and len(names_a) == 2 and names_a == names_b
    table = httpx.get(f"{first.url}/api/tables/{table_a}").json()
    assert sum(1 for s in table["seats"] if s["bot"] is None) == 2
    assert table["status"] == "playing"
    for node, token in zip(two_nodes, tokens, strict=True):
        assert api(node, token, "GET", "/api/match").json() is None


def test_a_ticket_cancelled_through_one_node_is_gone_on_every_node(
    two_nodes: list[Node],
) -> None:
    first, second = two_nodes
    token = guest(first)
    assert api(first, token, "POST", "/api/match", json={"ruleset": "ultimate"}).is_success
    assert api(second, token, "GET", "/api/match").json()["queue"]["ruleset"] == "ultimate"
    assert api(second, token, "DELETE", "/api/match").status_code == 204
    assert api(first, token, "GET", "/api/match").json() is None
    time.sleep(7.0)  # past the window: no table was made
    assert httpx.get(f"{first.url}/api/tables").json() == []


def test_a_reload_that_lands_on_another_node_keeps_the_ticket(two_nodes: list[Node]) -> None:
    first, second = two_nodes
    token = guest(first)
    assert api(first, token, "POST", "/api/match", json={"ruleset": "countdown"}).is_success

    async def reload() -> tuple[list[str], str]:
        import websockets

        headers = {"Cookie": f"{COOKIE}={token}"}
        async with websockets.connect(f"{first.ws}/ws/match", additional_headers=headers) as ws:
            assert json.loads(await ws.recv())["type"] == "queue"
        # the drop grace (3 s) passes while the socket through the other node is open
        return await until_matched(second, token, 1)

    _, table = run_async(reload())
    seats = httpx.get(f"{first.url}/api/tables/{table}").json()["seats"]
    assert sum(1 for s in seats if s["bot"] is None) == 1
