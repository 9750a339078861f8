"""Issue 20: presence across nodes. Two friends on different nodes: one sees the other
come online, sit at a table and leave, through Redis (PostgreSQL and Redis as the cluster
runs them)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from crazy_eights.server.auth import COOKIE

from ..conftest import run_async
from .conftest import Cluster
from .nodes import Node, api

pytestmark = pytest.mark.xdist_group("cluster")


def register(node: Node, name: str) -> tuple[int, str]:
    body = {"name": name, "password": "password-1"}
    response = httpx.post(f"{node.url}/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return int(response.json()["id"]), response.cookies[COOKIE]


async def about(ws: Any, account: int) -> dict[str, Any]:
    """The next presence entry of ``account`` on a lobby socket."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 15))
        for entry in message.get("presence", []) if message["type"] == "presence" else []:
            if entry["account"] == account:
                return dict(entry)


def test_a_friend_on_another_node_is_seen_online_playing_and_offline(cluster: Cluster) -> None:
    first, second = cluster(2)
    ada, ada_token = register(first, "ada")
    bob, bob_token = register(second, "bob")
    asked = api(first, ada_token, "POST", "/api/friends/requests", json={"account": bob})
    assert asked.status_code == 201, asked.text
    assert api(second, bob_token, "POST", f"/api/friends/requests/{ada}/accept").status_code == 200
    body = {"rules": {"ruleset": "classic", "players": 2}}
    table = api(first, ada_token, "POST", "/api/tables", json=body).json()["id"]

    async def watch() -> list[dict[str, Any]]:
        import websockets

        def cookie(token: str) -> dict[str, str]:
            return {"cookie": f"{COOKIE}={token}"}

        seen = []
        async with websockets.connect(
            f"{second.ws}/ws/lobby", additional_headers=cookie(bob_token)
        ) as bob_ws:
            assert json.loads(await bob_ws.recv())["type"] == "tables"
            seen.append(await about(bob_ws, ada))  # the first picture
            async with websockets.connect(
                f"{first.ws}/ws/lobby", additional_headers=cookie(ada_token)
            ):
                seen.append(await about(bob_ws, ada))
                async with websockets.connect(
                    f"{first.ws}/ws/tables/{table}", additional_headers=cookie(ada_token)
                ):
                    seen.append(await about(bob_ws, ada))
                seen.append(await about(bob_ws, ada))
            seen.append(await about(bob_ws, ada))
        return seen

    seen = run_async(watch())
    assert [(e["status"], e["table"]) for e in seen] == [
        ("offline", None),
        ("online", None),
        ("playing", table),
        ("online", None),
        ("offline", None),
    ]
    assert seen[-1]["last_seen"] is not None
