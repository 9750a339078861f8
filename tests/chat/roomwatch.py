"""A chat-hosted table seen from the card room, for the IRC and Matrix room tests: wait
for a state the room reaches, find the table in the lobby by its place, and watch it
over the room's table socket to its end."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx


async def until(check: Any, what: str, seconds: float = 30.0) -> Any:
    """Wait for ``await check()`` to give something (a state the room reaches)."""
    deadline = time.monotonic() + seconds
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        await asyncio.sleep(0.1)


async def listed(http: httpx.AsyncClient, place: str) -> dict[str, Any] | None:
    """The lobby's entry of the table played at ``place`` (None: not listed)."""
    tables = (await http.get("/api/tables")).json()
    return next((t for t in tables if t.get("place") == place), None)


async def watch_to_the_end(ws: Any, seen: list[dict[str, Any]]) -> None:
    """Note every message of a watcher's socket until the table says it finished."""
    async for raw in ws:
        message = json.loads(raw)
        seen.append(message)
        if message["type"] == "table" and message["info"]["status"] == "finished":
            return
