"""Figures for issue 14, each measured side by side on a peer build in one run: the
same loopback card room built from an earlier commit (``--before``, the commit before
the fixes by default) and from this checkout.

    python bench/hostile.py hints        # the next table's first bot move after a hint flood
    python bench/hostile.py spectators   # server CPU per watcher connect at 0/100/400 watchers

Loopback only; every server is started here on 127.0.0.1 and stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.adversarial.flood import first_bot_move, hint_flood  # noqa: E402
from tests.adversarial.loopback import Guest, Server, cpu_seconds, running  # noqa: E402

BEFORE = "aeab3d1"  # the table actor taken apart, before issue 14's fixes


def source_of(rev: str, into: Path) -> Path:
    """The ``src`` folder of commit ``rev``, unpacked into ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


# -- the hint flood -----------------------------------------------------------------------


async def _hints(server: Server, seconds: float, guests: int, tables: int) -> dict[str, Any]:
    flooders = [Guest(server) for _ in range(guests)]
    victim = Guest(server)
    calm = await first_bot_move(server, victim)
    calm = await first_bot_move(server, victim)  # the worker is warm now
    flood = asyncio.create_task(hint_flood(server, flooders, tables, seconds + 30))
    await asyncio.sleep(seconds)
    after = await first_bot_move(server, victim)
    flood.cancel()
    return {"calm": calm, "after": after}


def hints(args: argparse.Namespace, builds: dict[str, Path], folder: Path) -> None:
    pause = 0.3
    print(
        f"hint flood: {args.guests} guests x {args.tables} hint tables, a hint every 50 ms "
        f"and a move at once on every turn, one bot worker, bot pause {pause} s; the "
        f"victim's first bot move after {args.seconds:g} s of flood (pause included)\n"
    )
    print("| build | calm | after the flood |")
    print("|---|---|---|")
    for name, src in builds.items():
        env = {"CE_TABLES_PER_ACCOUNT": "1000"}
        with running(folder / f"{name}-hints.db", src=src, bot_delay=pause, env=env) as server:
            result = asyncio.run(_hints(server, args.seconds, args.guests, args.tables))
        print(f"| {name} | {result['calm']:.2f} s | {result['after']:.2f} s |")


# -- spectators ---------------------------------------------------------------------------


async def _watch(url: str, ready: asyncio.Event, stop: asyncio.Event) -> None:
    async with connect(url, max_queue=None) as ws:
        async for raw in ws:
            if json.loads(raw)["type"] == "welcome":
                break
        ready.set()
        reader = asyncio.create_task(_drain(ws))
        await stop.wait()
        reader.cancel()


async def _drain(ws: Any) -> None:
    async for _ in ws:
        pass


async def _spectators(server: Server, audience: int, connects: int) -> float:
    """Server CPU seconds per watcher arriving and leaving, with ``audience`` watching."""
    creator = Guest(server)
    table = creator.table(rules={"ruleset": "classic", "players": 4})
    url = f"{server.ws}/ws/tables/{table['id']}"
    stop = asyncio.Event()
    watchers = []
    for start in range(0, audience, 50):
        batch = [asyncio.Event() for _ in range(start, min(audience, start + 50))]
        watchers += [asyncio.create_task(_watch(url, ready, stop)) for ready in batch]
        await asyncio.gather(*(ready.wait() for ready in batch))
    await asyncio.sleep(3.0)  # the arrivals' own news has gone out
    before = cpu_seconds(server.pid)
    for _ in range(connects):
        async with connect(url) as ws:
            async for raw in ws:
                if json.loads(raw)["type"] == "welcome":
                    break
        await asyncio.sleep(0.05)
    await asyncio.sleep(2.5)  # coalesced news of the arrivals is counted too
    used = cpu_seconds(server.pid) - before
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    return used / connects


def spectators(args: argparse.Namespace, builds: dict[str, Path], folder: Path) -> None:
    audiences = [int(a) for a in args.audiences.split(",")]
    print(
        f"server CPU per watcher connecting and leaving ({args.connects} in a row, 50 ms "
        "apart), with an audience already watching a table\n"
    )
    print("| build | " + " | ".join(f"{a} watching" for a in audiences) + " |")
    print("|---|" + "---|" * len(audiences))
    for name, src in builds.items():
        cells = []
        for audience in audiences:
            env = {"CE_MAX_SPECTATORS": "10000", "CE_SOCKET_OPENS": "10000"}
            db = folder / f"{name}-watch-{audience}.db"
            with running(db, src=src, bot_workers=0, env=env) as server:
                cost = asyncio.run(_spectators(server, audience, args.connects))
            cells.append(f"{cost * 1000:.1f} ms")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", choices=["hints", "spectators"])
    parser.add_argument("--before", default=BEFORE, help="the peer build's commit")
    parser.add_argument("--seconds", type=float, default=10.0, help="hint flood length")
    parser.add_argument("--guests", type=int, default=3, help="flooding guests")
    parser.add_argument("--tables", type=int, default=20, help="hint tables per flooder")
    parser.add_argument("--audiences", default="0,100,400", help="watchers already there")
    parser.add_argument("--connects", type=int, default=40, help="watchers measured")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ce-hostile-") as tmp:
        folder = Path(tmp)
        (folder / "before").mkdir()
        builds = {
            f"before ({args.before})": source_of(args.before, folder / "before"),
            "this checkout": ROOT / "src",
        }
        {"hints": hints, "spectators": spectators}[args.figure](args, builds, folder)
    print(f"\n({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
