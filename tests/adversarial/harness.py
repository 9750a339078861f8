"""The hostile-client harness: honest players at many tables while several guests do the
worst they can within the protocol, and what the honest players got.

Honest: ``tables`` tables, each one guest against a random bot; the guest moves a short
think after its turn starts and times the broadcast of its move (sent to its own ``state``)
and the bot's answer (its lateness past the bot's pause).

Hostile, all at once: a hint flooder; watchers arriving and leaving at the honest tables
as fast as they can; sockets that never read; a spammer sending junk, chat, pings and
oversized frames just under (and over) the limits, reconnecting when closed; clients
looping on the replay of a 10,000-move game; two guests asking for the analyses of
long games, more than they may.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .flood import hint_flood
from .loopback import Guest, Server, rss_kib
from .stored import LONG_COUNTDOWN, store_in_file


@dataclass
class Experience:
    """What the honest players measured."""

    broadcasts: list[float] = field(default_factory=list)  # seconds, move sent to its state
    bot_lateness: list[float] = field(default_factory=list)  # seconds past the bot's pause
    errors: dict[str, int] = field(default_factory=dict)
    rss_kib: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float], q: float) -> float:
            return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else 0.0

        return {
            "moves": len(self.broadcasts),
            "broadcast_p50_ms": 1000 * pct(self.broadcasts, 0.5),
            "broadcast_p95_ms": 1000 * pct(self.broadcasts, 0.95),
            "broadcast_max_ms": 1000 * max(self.broadcasts, default=0.0),
            "bot_moves": len(self.bot_lateness),
            "bot_late_p95_s": pct(self.bot_lateness, 0.95),
            "bot_late_p99_s": pct(self.bot_lateness, 0.99),
            "bot_late_max_s": max(self.bot_lateness, default=0.0),
            "errors": dict(self.errors),
            "rss_mib": [round(k / 1024) for k in self.rss_kib],
        }


async def _honest(
    server: Server,
    guest: Guest,
    table_id: str,
    window: tuple[float, float],
    pause: float,
    seen: Experience,
) -> None:
    """Play a table, recording what happens between ``window``'s times."""
    start, until = window
    url = f"{server.ws}/ws/tables/{table_id}"
    rng = random.Random(table_id)
    async with connect(url, additional_headers={"cookie": guest.cookie}) as ws:
        sent: dict[int, float] = {}
        bot_turn: float | None = None
        async for raw in ws:
            message = json.loads(raw)
            now = time.monotonic()
            if message["type"] == "error":
                seen.errors[message["code"]] = seen.errors.get(message["code"], 0) + 1
            state = message.get("state") if message["type"] in ("welcome", "state") else None
            if state is None:
                continue
            measuring = now > start
            if state["ack"] is not None and state["ack"] in sent:
                took = now - sent.pop(state["ack"])
                if measuring:
                    seen.broadcasts.append(took)
            if state["by"] == 1 and bot_turn is not None and measuring:
                seen.bot_lateness.append(max(0.0, now - bot_turn - pause))
            bot_turn = now if state["view"]["current"] == 1 and not state["view"]["over"] else None
            if now > until or state["view"]["over"]:
                return
            if state["legal"]:
                await asyncio.sleep(rng.uniform(0.1, 0.4))
                version = state["version"]
                sent[version] = time.monotonic()
                move = rng.choice(state["legal"])
                await ws.send(json.dumps({"type": "move", "seq": version, "move": move}))


async def _churn(server: Server, table_ids: list[str], until: float) -> None:
    """Watchers arriving and leaving at once, over and over."""
    rng = random.Random(1)
    while time.monotonic() < until:
        url = f"{server.ws}/ws/tables/{rng.choice(table_ids)}"
        with contextlib.suppress(Exception):
            async with connect(url) as ws:
                await ws.recv()


async def _deaf(server: Server, table_ids: list[str], until: float) -> None:
    """Sockets that never read what they are sent."""
    async with contextlib.AsyncExitStack() as stack:
        for table_id in table_ids:
            with contextlib.suppress(Exception):
                await stack.enter_async_context(
                    connect(f"{server.ws}/ws/tables/{table_id}", max_queue=1)
                )
        await asyncio.sleep(max(0.0, until - time.monotonic()))


CHURNERS = 4  # loops opening and closing watcher sockets as fast as they are let
WARM_UP = 2.0  # seconds not measured while everyone connects and the bot worker starts

JUNK = [
    "{not json",
    '{"type": "teleport"}',
    '{"type": "move", "seq": "0", "move": "draw"}',
    '{"type": "chat", "text": "buy cards"}',
    '{"type": "ping", "t": 1}',
    '{"type": "sync"}',
    '{"type": "hint"}',
]


async def _spam(server: Server, guest: Guest, table_id: str, until: float) -> None:
    """Junk at just under the rate, now and then a burst over it or an oversized frame."""
    rng = random.Random(2)
    url = f"{server.ws}/ws/tables/{table_id}"
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            async with connect(url, additional_headers={"cookie": guest.cookie}) as ws:
                drain = asyncio.create_task(_drain(ws))
                try:
                    while time.monotonic() < until:
                        roll = rng.random()
                        if roll < 0.02:
                            await ws.send("x" * 5000)
                        burst = 60 if roll < 0.1 else 1
                        for _ in range(burst):
                            await ws.send(rng.choice(JUNK))
                        await asyncio.sleep(0.055)
                finally:
                    drain.cancel()


async def _drain(ws: Any) -> None:
    async for _ in ws:
        pass


REPLAY_FLOODERS = 2  # clients looping on a long game's replay, without If-None-Match
ANALYSIS_GAMES = 4  # long games each of two guests asks to have analysed


async def _replay_flood(server: Server, table_id: str, until: float) -> None:
    """Fetch a long game's replay over and over, as fast as the answers come."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        while time.monotonic() < until:
            with contextlib.suppress(httpx.HTTPError):
                await http.get(f"/api/tables/{table_id}/replay")


async def _long_games(server: Server) -> tuple[str, list[tuple[Guest, str]]]:
    """A 10,000-move game (for the replay flood) and long games of two guests (for the
    analysis flood), stored in the server's database beside it."""
    flooders = [Guest(server) for _ in range(2)]
    match = {"ruleset": "classic", "players": 4, "mode": "match", "target": 200}
    games: list[dict[str, Any]] = [{"rules": LONG_COUNTDOWN, "seed": 1}] + [
        {"rules": match, "seed": 10 * k + i, "people": {0: g.id}, "hints": True}
        for i, g in enumerate(flooders)
        for k in range(ANALYSIS_GAMES)
    ]
    stored = await store_in_file(Path(str(server.db)), games)
    owners = [g for g in flooders for _ in range(ANALYSIS_GAMES)]
    return stored[0][0], [(g, t) for g, (t, _) in zip(owners, stored[1:], strict=True)]


async def _analysis_flood(games: list[tuple[Guest, str]]) -> None:
    """Ask for every long game's analysis at once (beyond an account's share: 429)."""
    for guest, table_id in games:
        await asyncio.to_thread(guest.http.post, f"/api/tables/{table_id}/analysis?seat=0")


async def _memory(server: Server, until: float, seen: Experience) -> None:
    while time.monotonic() < until:
        seen.rss_kib.append(rss_kib(server.pid))
        await asyncio.sleep(1.0)


async def attack(
    server: Server,
    *,
    tables: int = 50,
    seconds: float = 20.0,
    pause: float = 0.3,
    hostile: bool = True,
) -> Experience:
    """Honest tables played for ``seconds`` while (if ``hostile``) the attack runs."""
    seen = Experience()
    long_game, analysed = await _long_games(server) if hostile else ("", [])
    players = [Guest(server) for _ in range((tables + 3) // 4)]
    table_ids = []
    for i in range(tables):
        created = players[i // 4].table(
            rules={"ruleset": "classic", "players": 2, "mode": "match"},
            bots=[{"seat": 1, "level": "random"}],
        )
        table_ids.append(created["id"])
    until = time.monotonic() + seconds
    window = (time.monotonic() + WARM_UP, until)
    jobs = [
        _honest(server, players[i // 4], table_id, window, pause, seen)
        for i, table_id in enumerate(table_ids)
    ]
    jobs.append(_memory(server, until, seen))
    if hostile:
        flooders = [Guest(server) for _ in range(2)]
        spammer = Guest(server)
        own = spammer.table(hints=True, bots=[{"seat": 1, "level": "random"}])
        jobs.append(hint_flood(server, flooders, 4, seconds))
        jobs += [_churn(server, table_ids, until) for _ in range(CHURNERS)]
        jobs.append(_deaf(server, table_ids[:20], until))
        jobs.append(_spam(server, spammer, own["id"], until))
        jobs += [_replay_flood(server, long_game, until) for _ in range(REPLAY_FLOODERS)]
        jobs.append(_analysis_flood(analysed))
    await asyncio.gather(*jobs)
    for guest in players:
        guest.close()
    return seen


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
