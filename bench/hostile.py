"""Figures for issue 14, each measured side by side on a peer build in one run: the
same loopback card room built from an earlier commit (``--before``, the commit before
the fixes by default) and from this checkout.

    python bench/hostile.py hints        # the next table's first bot move after a hint flood
    python bench/hostile.py spectators   # server CPU per watcher connect at 0/100/400 watchers
    python bench/hostile.py replay --before 92545d5    # issue 24: a long game's replay
    python bench/hostile.py analysis --before 92545d5  # issue 24: an analysis flood

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
from tests.adversarial.loopback import Guest, Server, cpu_seconds, rss_kib, running  # noqa: E402
from tests.adversarial.stored import LONG_COUNTDOWN, store_in_file  # noqa: E402

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


# -- issue 24: a long game's replay, and an analysis flood ---------------------------------


def _flood_replay(url: str, until: float) -> None:
    """A careless client: fetch the replay again and again, without ``If-None-Match``."""
    import httpx

    with httpx.Client(timeout=60) as http:
        while time.monotonic() < until:
            http.get(url)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _p50_p95(values: list[float]) -> str:
    return f"{_percentile(values, 0.5) * 1000:.1f} / {_percentile(values, 0.95) * 1000:.1f} ms"


def _health(server: Server, seconds: float) -> list[float]:
    """``/api/health`` latencies of a look started every 100 ms for ``seconds``, each
    on its own (a server that stops answering is seen waiting, not skipped)."""
    import httpx

    async def looks() -> list[float]:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:

            async def one() -> float:
                start = time.perf_counter()
                await http.get("/api/health")
                return time.perf_counter() - start

            tasks = []
            for _ in range(int(seconds * 10)):
                tasks.append(asyncio.create_task(one()))
                await asyncio.sleep(0.1)
            return list(await asyncio.gather(*tasks))

    return asyncio.run(looks())


def replay(args: argparse.Namespace, builds: dict[str, Path], folder: Path) -> None:
    import multiprocessing
    import shutil

    import httpx

    seed_db = folder / "replay-seed.db"
    ((table_id, moves),) = asyncio.run(
        store_in_file(seed_db, [{"rules": LONG_COUNTDOWN, "seed": 1}])
    )
    print(
        f"a {moves:,}-move countdown game (6 random bots), stored; one request (cold, then "
        f"warm) and /api/health every 100 ms for {args.seconds:g} s while N clients loop on "
        "the replay (no If-None-Match)\n"
    )
    print(
        "| build | first request | again | bytes sent | health p50/p95 calm | "
        + " | ".join(f"{n} flooding: p50/p95" for n in args.flooders)
        + " |"
    )
    print("|---|---|---|---|---|" + "---|" * len(args.flooders))
    spawn = multiprocessing.get_context("spawn")
    for name, src in builds.items():
        db_file = folder / f"{name[:6]}-replay.db"
        shutil.copy(seed_db, db_file)
        with running(db_file, src=src, bot_workers=0) as server:
            url = f"{server.url}/api/tables/{table_id}/replay"
            timings = []
            for _ in range(2):
                start = time.perf_counter()
                answer = httpx.get(url, timeout=120, headers={"accept-encoding": "gzip"})
                timings.append(time.perf_counter() - start)
                answer.raise_for_status()
            sent = (
                len(answer.content)
                if "gzip" not in answer.headers.get("content-encoding", "")
                else int(answer.headers["content-length"])
            )
            calm = _health(server, 3.0)
            cells = []
            for n in args.flooders:
                until = time.monotonic() + args.seconds + 2
                flood = [spawn.Process(target=_flood_replay, args=(url, until)) for _ in range(n)]
                for process in flood:
                    process.start()
                time.sleep(1.0)
                under = _health(server, args.seconds)
                for process in flood:
                    process.join()
                cells.append(_p50_p95(under))
        print(
            f"| {name} | {timings[0]:.2f} s | {timings[1]:.2f} s | {sent / 2**20:.1f} MiB | "
            f"{_percentile(calm, 0.5) * 1000:.1f} / {_percentile(calm, 0.95) * 1000:.1f} ms | "
            + " | ".join(cells)
            + " |"
        )


async def _analysis_wait(server: Server, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Two guests ask for the analyses of ``args.games`` long games each, then an honest
    guest for a short game's: how long the honest one waits, and the server's memory."""
    flooders = [Guest(server) for _ in range(2)]
    honest = Guest(server)
    long_rules = {"ruleset": "classic", "players": 4, "mode": "match", "target": 500}
    games: list[dict[str, Any]] = [
        {"rules": long_rules, "seed": 10 * k + i, "people": {0: g.id}, "hints": True}
        for i, g in enumerate(flooders)
        for k in range(args.games)
    ]
    games.append(
        {
            "rules": {"ruleset": "classic", "players": 2, "mode": "single"},
            "seed": 5,
            "people": {0: honest.id},
            "hints": True,
        }
    )
    stored = await store_in_file(Path(str(server.db)), games)
    lengths = [moves for _, moves in stored[:-1]]
    rss_before = rss_kib(server.pid)
    refused = 0
    for (table_id, _), game in zip(stored[:-1], games[:-1], strict=True):
        guest = flooders[0] if game["people"][0] == flooders[0].id else flooders[1]
        asked = guest.http.post(f"/api/tables/{table_id}/analysis?seat=0")
        refused += asked.status_code == 429
    mine = stored[-1][0]
    start = time.monotonic()
    honest.http.post(f"/api/tables/{mine}/analysis?seat=0").raise_for_status()
    peak = rss_before
    while time.monotonic() - start < args.limit:
        peak = max(peak, rss_kib(server.pid))
        if honest.http.get(f"/api/tables/{mine}/analysis?seat=0").json()["status"] == "done":
            break
        await asyncio.sleep(0.5)
    waited = time.monotonic() - start
    return {
        "waited": waited,
        "done": waited < args.limit,
        "refused": refused,
        "rss": (rss_before / 1024, peak / 1024),
        "moves": (min(lengths), max(lengths)),
    }


def analysis(args: argparse.Namespace, builds: dict[str, Path], folder: Path) -> None:
    print(
        f"two guests ask for the analyses of {args.games} long games each (4-player classic "
        "matches to 500, random bots), then an honest guest for a short game's (2 players, "
        "one round); one bot worker, default worlds\n"
    )
    print("| build | honest analysis waits | flood asks refused | server RSS before / peak |")
    print("|---|---|---|---|")
    for name, src in builds.items():
        with running(folder / f"{name[:6]}-analysis.db", src=src) as server:
            result = asyncio.run(_analysis_wait(server, folder, args))
        wait = f"{result['waited']:.1f} s" if result["done"] else f"over {args.limit:.0f} s"
        before, peak = result["rss"]
        print(
            f"| {name} | {wait} | {result['refused']} of {2 * args.games} | "
            f"{before:.0f} / {peak:.0f} MiB |"
        )
    print(f"\n(long games: {result['moves'][0]:,} to {result['moves'][1]:,} moves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", choices=["hints", "spectators", "replay", "analysis"])
    parser.add_argument("--before", default=BEFORE, help="the peer build's commit")
    parser.add_argument("--seconds", type=float, default=10.0, help="hint flood length")
    parser.add_argument("--guests", type=int, default=3, help="flooding guests")
    parser.add_argument("--tables", type=int, default=20, help="hint tables per flooder")
    parser.add_argument("--audiences", default="0,100,400", help="watchers already there")
    parser.add_argument("--connects", type=int, default=40, help="watchers measured")
    parser.add_argument(
        "--flooders",
        type=lambda t: [int(n) for n in t.split(",")],
        default=[1, 2, 4],
        help="replay flood: clients looping on the replay (comma-separated runs)",
    )
    parser.add_argument("--games", type=int, default=6, help="analysis flood: games a guest")
    parser.add_argument("--limit", type=float, default=300.0, help="analysis: longest wait")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ce-hostile-") as tmp:
        folder = Path(tmp)
        (folder / "before").mkdir()
        builds = {
            f"before ({args.before})": source_of(args.before, folder / "before"),
            "this checkout": ROOT / "src",
        }
        figures = {"hints": hints, "spectators": spectators, "replay": replay}
        figures["analysis"] = analysis
        figures[args.figure](args, builds, folder)
    print(f"\n({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
