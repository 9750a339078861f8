"""Hostile guests and their victims, as asyncio clients of a loopback card room: the hint
flood (finding 1) and a victim table timing its bots. Shared by the tests and bench/."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from .loopback import Guest, Server


@dataclass
class FloodStats:
    hints_sent: int = 0
    hints_answered: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    moves: int = 0


async def _flood_table(
    server: Server, guest: Guest, table_id: str, until: float, stats: FloodStats
) -> None:
    """At its turn the flooder asks for a hint every 50 ms and moves at once, so every
    position it reaches asks for a new search."""
    url = f"{server.ws}/ws/tables/{table_id}"
    async with connect(url, additional_headers={"cookie": guest.cookie}) as ws:
        state: dict[str, Any] | None = None

        async def reader() -> None:
            nonlocal state
            async for raw in ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind in ("welcome", "state") and message.get("state"):
                    state = message["state"]
                elif kind == "hint":
                    stats.hints_answered += 1
                elif kind == "error":
                    code = message["code"]
                    stats.refusals[code] = stats.refusals.get(code, 0) + 1

        task = asyncio.create_task(reader())
        try:
            played = -1
            while time.monotonic() < until and not task.done():
                await ws.send('{"type":"hint"}')
                stats.hints_sent += 1
                current = state
                if (
                    current is not None
                    and current["legal"]
                    and current["version"] != played
                    and not current["view"]["over"]
                ):
                    played = current["version"]
                    move = {"type": "move", "seq": played, "move": current["legal"][0]}
                    await ws.send(json.dumps(move))
                    stats.moves += 1
                await asyncio.sleep(0.05)
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def hint_flood(
    server: Server, guests: list[Guest], tables_each: int, seconds: float
) -> FloodStats:
    """Every guest opens ``tables_each`` hint tables against a random bot and floods them."""
    stats = FloodStats()
    jobs = []
    until = time.monotonic() + seconds
    for guest in guests:
        for _ in range(tables_each):
            response = guest.http.post(
                "/api/tables",
                json={
                    "rules": {"ruleset": "classic", "players": 2, "mode": "match"},
                    "bots": [{"seat": 1, "level": "random"}],
                    "hints": True,
                },
            )
            if response.status_code != 201:  # a per-account limit: flood with what we have
                break
            jobs.append(_flood_table(server, guest, response.json()["id"], until, stats))
    await asyncio.gather(*jobs)
    return stats


async def first_bot_move(server: Server, guest: Guest, timeout: float = 120.0) -> float:
    """Seconds from a bot's turn starting to its move, at a new two-seat table against a
    heuristic bot (the bot's pause included)."""
    created = time.monotonic()  # a bot dealt the first turn starts thinking at once
    response = guest.http.post(
        "/api/tables",
        json={
            "rules": {"ruleset": "classic", "players": 2, "mode": "match"},
            "bots": [{"seat": 1, "level": "heuristic"}],
        },
    )
    response.raise_for_status()
    table_id = response.json()["id"]
    url = f"{server.ws}/ws/tables/{table_id}"
    async with connect(url, additional_headers={"cookie": guest.cookie}) as ws:
        return await asyncio.wait_for(_time_bot(ws, created), timeout)


async def _time_bot(ws: ClientConnection, created: float) -> float:
    started: float | None = created
    async for raw in ws:
        message = json.loads(raw)
        state = message.get("state") if message["type"] in ("welcome", "state") else None
        if state is None:
            continue
        if state["by"] == 1 and started is not None:
            return time.monotonic() - started
        if state["view"]["current"] == 1:
            started = started or time.monotonic()
        elif state["legal"]:
            started = None
            await ws.send(
                json.dumps({"type": "move", "seq": state["version"], "move": state["legal"][0]})
            )
    raise AssertionError("the socket closed before the bot moved")
