"""Soak test of the card room (issue 14), on loopback only, bounded in time.

Starts the server on 127.0.0.1 with a fresh SQLite file and keeps ``--players`` guests
busy for ``--minutes``: each creates a table against bots, plays it (sometimes leaving
mid-game, sometimes dropping its socket and coming back), and starts another when it
ends. Every so often the server is killed with SIGKILL and restarted on the same file;
the players reconnect. At the end the players finish their games (the drain), the server
is stopped, and the run checks:

- every move the server acknowledged (a ``state`` with our ``ack``) is in the database;
- no table is stuck: every table still running at the end of the play finishes in the
  drain;
- memory has not grown: the last server's resident memory at the end against after its
  warm-up.

    python bench/soak.py --minutes 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.adversarial.loopback import Guest, Server, free_port, rss_kib, start_server  # noqa: E402


@dataclass
class Soak:
    """The run's counts and findings."""

    acknowledged: dict[tuple[str, int], tuple[int, str]] = field(default_factory=dict)
    tables: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    left: int = 0
    drops: int = 0
    reconnects: int = 0
    kills: int = 0
    missing: list[tuple[str, int]] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    rss_mib: list[tuple[float, float]] = field(default_factory=list)  # per server life

    def report(self) -> dict[str, Any]:
        return {
            "tables": len(self.tables),
            "finished": len(self.finished),
            "left mid-game": self.left,
            "acknowledged moves": len(self.acknowledged),
            "missing moves": len(self.missing),
            "stuck tables": len(self.stuck),
            "socket drops": self.drops,
            "reconnects": self.reconnects,
            "server kills": self.kills,
            "rss MiB (warm, end) per server life": self.rss_mib,
        }


class Room:
    """The server under test, restarted on the same port and database."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "soak.db"
        self.port = free_port()
        self.server: Server | None = None
        self.up = asyncio.Event()
        self.started = 0.0
        self.warm_rss = 0.0

    def start(self) -> None:
        self.server = start_server(
            self.db, port=self.port, bot_workers=1, bot_delay=0.05, log=self.folder / "log"
        )
        self.started = time.monotonic()
        self.warm_rss = 0.0
        self.up.set()

    def kill(self, how: int = signal.SIGKILL) -> float:
        """Stop the server; its resident memory just before, in MiB."""
        assert self.server is not None
        self.up.clear()
        rss = rss_kib(self.server.pid) / 1024
        self.server.stop(how)
        return rss


async def _player(room: Room, soak: Soak, until: float, draining: asyncio.Event, seed: int) -> None:
    rng = random.Random(seed)
    await room.up.wait()
    assert room.server is not None
    guest = await asyncio.to_thread(Guest, room.server)
    table_id: str | None = None
    while True:
        if table_id is None:
            if time.monotonic() > until or draining.is_set():
                return
            table_id = await _new_table(room, guest, rng, soak)
            if table_id is None:
                continue
        over = await _play(room, guest, table_id, rng, soak, until, draining)
        if over:
            soak.finished.add(table_id)
            table_id = None
        elif not draining.is_set() and rng.random() < 0.25:  # leave the game mid-way
            with contextlib.suppress(Exception):
                await asyncio.to_thread(guest.http.post, f"/api/tables/{table_id}/leave")
                soak.left += 1
                table_id = None


async def _new_table(room: Room, guest: Guest, rng: random.Random, soak: Soak) -> str | None:
    await room.up.wait()
    body = {
        "rules": {"ruleset": "classic", "players": rng.choice([2, 3]), "mode": "single"},
        "bots": [{"seat": 1, "level": "heuristic"}, {"seat": 2, "level": "random"}],
    }
    body["bots"] = body["bots"][: body["rules"]["players"] - 1]  # type: ignore[index]
    try:
        response = await asyncio.to_thread(guest.http.post, "/api/tables", json=body)
    except Exception:
        await asyncio.sleep(0.5)
        return None
    if response.status_code != 201:
        await asyncio.sleep(0.5)
        return None
    table_id: str = response.json()["id"]
    soak.tables.add(table_id)
    return table_id


async def _play(
    room: Room,
    guest: Guest,
    table_id: str,
    rng: random.Random,
    soak: Soak,
    until: float,
    draining: asyncio.Event,
) -> bool:
    """Play until the game is over (True), or the socket drops or we drop it (False)."""
    await room.up.wait()
    url = f"ws://127.0.0.1:{room.port}/ws/tables/{table_id}"
    drop_after = rng.uniform(0.5, 8.0)
    opened = time.monotonic()
    try:
        async with connect(url, additional_headers={"cookie": guest.cookie}) as ws:
            soak.reconnects += 1
            sent: dict[int, str] = {}
            async for raw in ws:
                message = json.loads(raw)
                state = message.get("state") if message["type"] in ("welcome", "state") else None
                if state is None:
                    continue
                if state["ack"] is not None and state["ack"] in sent:
                    soak.acknowledged[(table_id, state["ack"])] = (state["by"], state["move"])
                    del sent[state["ack"]]
                if state["view"]["over"]:
                    return True
                late = time.monotonic() > until and not draining.is_set()
                if not draining.is_set() and (time.monotonic() - opened > drop_after or late):
                    soak.drops += 1
                    return False
                if state["legal"]:
                    await asyncio.sleep(rng.uniform(0.0, 0.15))
                    version = state["version"]
                    sent[version] = rng.choice(state["legal"])
                    move = {"type": "move", "seq": version, "move": sent[version]}
                    await ws.send(json.dumps(move))
    except (TimeoutError, OSError, Exception):
        await asyncio.sleep(0.2)
    return False


async def _killer(room: Room, soak: Soak, until: float, rng: random.Random, every: float) -> None:
    while True:
        wait = rng.uniform(every / 2, every * 1.5)
        if time.monotonic() + wait > until:
            return
        await asyncio.sleep(wait)
        end_rss = await asyncio.to_thread(room.kill)
        soak.rss_mib.append((room.warm_rss, round(end_rss)))
        soak.kills += 1
        await asyncio.to_thread(room.start)


async def _memory(room: Room, stop: asyncio.Event) -> None:
    """Each server life's memory once it has warmed up (20 s, or half the time to its end)."""
    while not stop.is_set():
        await asyncio.sleep(1.0)
        warm = time.monotonic() - room.started > 20
        if room.server and room.up.is_set() and not room.warm_rss and warm:
            with contextlib.suppress(OSError):
                room.warm_rss = round(rss_kib(room.server.pid) / 1024)


async def soak(
    folder: Path, *, seconds: float, players: int, kill_every: float, seed: int, drain: float
) -> Soak:
    result = Soak()
    room = Room(folder)
    rng = random.Random(seed)
    await asyncio.to_thread(room.start)
    until = time.monotonic() + seconds
    draining = asyncio.Event()
    stop = asyncio.Event()
    memory = asyncio.create_task(_memory(room, stop))
    killer = asyncio.create_task(_killer(room, result, until, rng, kill_every))
    tasks = [
        asyncio.create_task(_player(room, result, until, draining, seed * 1000 + i))
        for i in range(players)
    ]
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    await killer
    draining.set()  # finish the games that are running; tables still open then are stuck
    deadline = time.monotonic() + drain
    _, pending = await asyncio.wait(tasks, timeout=drain)
    for task in pending:
        task.cancel()
    await _settle(room, result, deadline)  # tables left to the bots finish too
    stop.set()
    await memory
    if room.server is not None:
        end_rss = room.kill(signal.SIGTERM)
        result.rss_mib.append((room.warm_rss, round(end_rss)))
    _check(room.db, result)
    return result


async def _settle(room: Room, result: Soak, deadline: float) -> None:
    """Wait (until ``deadline``) for every table of the run to be over."""
    running = set(result.tables)
    while running and time.monotonic() < deadline:
        with contextlib.closing(sqlite3.connect(room.db)) as conn:
            over = {
                table
                for table, status in conn.execute("SELECT id, status FROM tables")
                if status in ("finished", "abandoned")
            }
        running -= over
        await asyncio.sleep(0.5)


def _check(db: Path, result: Soak) -> None:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        stored = {
            (table, n): (seat, move)
            for table, n, seat, move in conn.execute("SELECT table_id, n, seat, move FROM moves")
        }
        status = dict(conn.execute("SELECT id, status FROM tables"))
    result.missing = [k for k, v in result.acknowledged.items() if stored.get(k) != v]
    result.stuck = sorted(
        t for t in result.tables if status.get(t) not in ("finished", "abandoned")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--kill-every", type=float, default=40.0, help="mean seconds between kills")
    parser.add_argument("--drain", type=float, default=90.0, help="seconds to finish the games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ce-soak-") as tmp:
        result = asyncio.run(
            soak(
                Path(tmp),
                seconds=args.minutes * 60,
                players=args.players,
                kill_every=args.kill_every,
                seed=args.seed,
                drain=args.drain,
            )
        )
    for name, value in result.report().items():
        print(f"{name:>36}: {value}")
    if result.missing or result.stuck:
        print("FAILED:", result.missing[:5], result.stuck[:5])
        sys.exit(1)


if __name__ == "__main__":
    main()
