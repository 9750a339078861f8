"""Issue 20, item 6, across nodes: a moderator on one node bans a person whose lobby and
table sockets are on the other, and both close with the reason (the word travels on
Redis); a mute made on one node refuses the chat line at a table another node runs."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from crazy_eights.cli import app
from crazy_eights.server.auth import COOKIE
from crazy_eights.server.ejection import BANNED

from ..conftest import run_async
from .conftest import Cluster
from .nodes import api
from .test_presence import register

pytestmark = pytest.mark.xdist_group("cluster")


def cookie(token: str) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={token}"}


async def until_type(ws: Any, kind: str, **match: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return dict(message)


async def say(ws: Any, text: str) -> dict[str, Any]:
    """Send a chat line; the table's answer: the line told back, or an error."""
    await ws.send(json.dumps({"type": "chat", "text": text}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if message["type"] == "error" or (
            message["type"] == "chat" and message.get("text") == text
        ):
            return dict(message)


def test_a_ban_and_a_mute_reach_the_other_node(cluster: Cluster, postgres_url: str) -> None:
    first, second = cluster(2)
    _, mod = register(first, "mod")
    _, ada = register(second, "ada")
    bob, bob_token = register(second, "bob")
    carl, carl_token = register(first, "carl")
    granted = CliRunner().invoke(app, ["admin", "grant", "mod", "moderator", "--db", postgres_url])
    assert granted.exit_code == 0, granted.output
    body = {"rules": {"ruleset": "classic", "players": 3, "mode": "single"}}
    table = api(second, ada, "POST", "/api/tables", json=body).json()["id"]  # run by second

    async def scene() -> tuple[Any, ...]:
        import websockets

        async with (
            websockets.connect(
                f"{second.ws}/ws/lobby", additional_headers=cookie(bob_token)
            ) as lobby,
            websockets.connect(
                f"{second.ws}/ws/tables/{table}", additional_headers=cookie(bob_token)
            ) as at_table,
            websockets.connect(  # served by first, across nodes (see test_blocks)
                f"{first.ws}/ws/tables/{table}?node={second.name}",
                additional_headers=cookie(carl_token),
            ) as carl_ws,
        ):
            assert json.loads(await lobby.recv())["type"] == "tables"
            await until_type(at_table, "welcome")
            await until_type(carl_ws, "welcome")
            muted = api(
                first,
                mod,
                "POST",
                "/api/moderation/mutes",
                json={"account": carl, "minutes": 10, "reason": "spam"},
            )
            assert muted.status_code == 201, muted.text
            # the table's node hears of the mute on the bus: carl's line is refused there
            refusal: dict[str, Any] = {}
            for n in range(4):  # within the chat's rate (5 in 10 s)
                answer = await say(carl_ws, f"buy cheap chips {n}")
                if answer.get("code") == "muted":
                    refusal = answer
                    break
                await asyncio.sleep(0.25)  # not told yet: the bus is on its way
            banned = api(
                first,
                mod,
                "POST",
                "/api/moderation/bans",
                json={"account": bob, "days": 2, "reason": "threats"},
            )
            assert banned.status_code == 201, banned.text
            closes = []
            for ws in (lobby, at_table):
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), 15)
                closes.append((ws.close_code, ws.close_reason))
            return refusal, closes

    refusal, closes = run_async(scene())
    assert "muted until" in refusal["reason"]
    for code, reason in closes:
        assert code == BANNED and "threats" in reason and "banned until" in reason
    assert api(second, bob_token, "GET", "/api/me").status_code == 401
