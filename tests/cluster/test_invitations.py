"""Issue 20 item 3 on the cluster: friends on different nodes. An invitation sent through
one node holds a seat at a table another node runs, the invitee hears it on a third
socket's node and joins through it; the other invitation to that seat is withdrawn on
the node its invitee listens at; a challenge accepted on one node tells the challenger on
the other where the new table is (PostgreSQL and Redis as the cluster runs them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from ..conftest import run_async
from .conftest import Cluster
from .nodes import Node, api
from .test_presence import register

pytestmark = pytest.mark.xdist_group("cluster")


def befriend(node: Node, a: tuple[int, str], b: tuple[int, str]) -> None:
    asked = api(node, a[1], "POST", "/api/friends/requests", json={"account": b[0]})
    assert asked.status_code == 201, asked.text
    assert api(node, b[1], "POST", f"/api/friends/requests/{a[0]}/accept").status_code == 200


@contextlib.asynccontextmanager
async def lobby(node: Node, token: str) -> AsyncIterator[Any]:
    import websockets

    from crazy_eights.server.auth import COOKIE

    async with websockets.connect(
        f"{node.ws}/ws/lobby", additional_headers={"cookie": f"{COOKIE}={token}"}
    ) as ws:
        assert json.loads(await ws.recv())["type"] == "tables"
        assert json.loads(await ws.recv())["type"] == "presence"
        yield ws


async def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if message["type"] == kind:
            return message


def test_invitations_and_challenges_between_nodes(cluster: Cluster) -> None:
    first, second = cluster(2)
    ada, bob, cyd = register(first, "ada"), register(second, "bob"), register(first, "cyd")
    befriend(first, ada, bob)
    befriend(first, ada, cyd)
    body = {"rules": {"ruleset": "classic", "players": 2, "mode": "single"}}
    table = api(first, ada[1], "POST", "/api/tables", json=body).json()["id"]

    async def play() -> None:
        async with (
            lobby(second, bob[1]) as bob_ws,
            lobby(first, cyd[1]) as cyd_ws,
            lobby(first, ada[1]) as ada_ws,
        ):
            for friend in (bob, cyd):  # sent through the node that doesn't run the table
                sent = api(
                    second,
                    ada[1],
                    "POST",
                    "/api/invitations",
                    json={"account": friend[0], "table": table},
                )
                assert sent.status_code == 201, sent.text
            to_bob = (await next_of(bob_ws, "invitation"))["invitation"]
            to_cyd = (await next_of(cyd_ws, "invitation"))["invitation"]
            seats = api(second, bob[1], "GET", f"/api/tables/{table}").json()["seats"]
            assert seats[1]["held_left"] is not None
            joined = api(second, bob[1], "POST", f"/api/invitations/{to_bob['id']}/accept")
            assert joined.status_code == 200 and joined.json()["status"] == "playing"
            assert (await next_of(cyd_ws, "invitation_withdrawn"))["id"] == to_cyd["id"]
            assert (await next_of(ada_ws, "invitation_answered"))["answer"] == "accepted"

            dare = {"account": bob[0], "ruleset": "classic", "players": 3}
            assert api(first, ada[1], "POST", "/api/challenges", json=dare).status_code == 201
            challenge = (await next_of(bob_ws, "invitation"))["invitation"]
            took = api(second, bob[1], "POST", f"/api/invitations/{challenge['id']}/accept")
            assert took.status_code == 200, took.text
            told = await next_of(ada_ws, "invitation_answered")
            assert told["kind"] == "challenge" and told["table"] == took.json()["id"]
            names = [s["name"] for s in took.json()["seats"]]
            assert names[:2] == ["ada", "bob"] and took.json()["status"] == "playing"

    run_async(play())
