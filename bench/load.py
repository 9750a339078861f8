"""Load test of the card room (issue 6 item 12), on loopback only, bounded in time.

Starts ``crazy-eights serve`` on 127.0.0.1 with a fresh SQLite file, makes N tables of four
scripted WebSocket players (each moves about ``--think`` seconds after its turn starts),
runs for ``--seconds`` and prints moves per second, the latency from a move being sent to
its broadcast reaching every seat (p50/p95/p99), errors and the server's memory.

    python bench/load.py --tables 50 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

try:
    from orjson import loads
except ImportError:  # orjson only makes the client cheaper
    from json import loads

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.adversarial.loopback import cpu_seconds, free_port  # noqa: E402


def memory_kib(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(("VmRSS", "VmHWM")):
                name, value = line.split(":")
                out[name] = int(value.split()[0])
    return out


class Stats:
    def __init__(self, players: int) -> None:
        self.players = players
        self.sent: dict[tuple[str, int], float] = {}
        self.arrivals: dict[tuple[str, int], list[float]] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = True

    def arrived(self, table: str, version: int) -> None:
        key = (table, version)
        times = self.arrivals.setdefault(key, [])
        times.append(time.perf_counter())
        if len(times) == self.players:
            del self.arrivals[key]
            start = self.sent.pop(key, None)
            if start is not None and self.measuring:
                self.latencies.append(max(times) - start)
                self.moves += 1

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def player(
    url: str,
    cookie: str,
    stats: Stats,
    think: float,
    stop: asyncio.Event,
    rng: random.Random,
    opening: asyncio.Semaphore,
    ready: list[int],
) -> None:
    """One seat: answers each turn with a random legal move after about ``think`` s.

    Kept lean (orjson, no task per receive) so the client costs little of the CPU the
    server shares with it."""
    loop = asyncio.get_running_loop()
    table = url.rsplit("/", 1)[-1]
    try:
        async with opening:
            ws = await connect(
                url, additional_headers={"cookie": cookie}, max_size=2**20, open_timeout=120
            )
        async with ws:
            answered = -1
            sends: set[asyncio.Task[None]] = set()

            def move(version: int, text: str) -> None:
                if stop.is_set():
                    return
                stats.sent[(table, version + 1)] = time.perf_counter()
                task = loop.create_task(
                    ws.send(f'{{"type":"move","seq":{version},"move":"{text}"}}')
                )
                sends.add(task)
                task.add_done_callback(sends.discard)

            async for raw in ws:
                message = loads(raw)
                kind = message["type"]
                if kind == "error":
                    stats.error(message["code"])
                    continue
                if kind == "welcome":
                    ready[0] += 1
                elif kind != "state":
                    continue
                state = message["state"]
                if state is None:
                    continue
                if kind == "state":
                    stats.arrived(table, state["version"])
                if state["legal"] and state["version"] > answered:
                    answered = state["version"]
                    loop.call_later(
                        think * rng.uniform(0.8, 1.2),
                        move,
                        answered,
                        rng.choice(state["legal"]),
                    )
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        if not stop.is_set():
            stats.error(type(exc).__name__)


async def make_table(base: str, limit: asyncio.Semaphore) -> list[tuple[str, str]]:
    """Four guests and a classic four-seat match table they all sit at."""
    async with limit, httpx.AsyncClient(base_url=base, timeout=60) as http:
        cookies = []
        for _ in range(4):
            response = await http.post("/api/auth/guest")
            cookies.append(f"ce_session={response.cookies['ce_session']}")
            http.cookies.clear()
        rules = {"ruleset": "classic", "players": 4, "mode": "match", "turn_timer": 3600}
        table = (
            await http.post("/api/tables", json={"rules": rules}, headers={"cookie": cookies[0]})
        ).json()
        for cookie in cookies[1:]:
            await http.post(f"/api/tables/{table['id']}/sit", json={}, headers={"cookie": cookie})
        return [(table["id"], c) for c in cookies]


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    folder = tempfile.mkdtemp(prefix="ce-load-")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), CE_HASH_MEMORY_KIB="8192")
    if args.profile:
        env["CE_PROFILE"] = str(Path(args.profile).resolve())
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crazy_eights.server.commands",
            "serve",
            "--port",
            str(port),
            "--db",
            f"{folder}/load.db",
            "--bot-workers",
            "0",
            "--log-level",
            "warning",
        ],
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(120):
                try:
                    if (await http.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.5)
            idle = memory_kib(server.pid)
            setup = time.perf_counter()
            limit = asyncio.Semaphore(8)
            made = await asyncio.gather(*(make_table(base, limit) for _ in range(args.tables)))
            seats = [seat for table in made for seat in table]
        print(
            f"setup: {args.tables} tables, {len(seats)} players in "
            f"{time.perf_counter() - setup:.1f} s"
        )
        stats = Stats(4)
        stop = asyncio.Event()
        rng = random.Random(1)
        opening = asyncio.Semaphore(25)  # handshakes in flight at once
        ready = [0]
        tasks = [
            asyncio.create_task(
                player(
                    f"ws://127.0.0.1:{port}/ws/tables/{t}",
                    c,
                    stats,
                    args.think,
                    stop,
                    random.Random(rng.random()),
                    opening,
                    ready,
                )
            )
            for t, c in seats
        ]
        connecting = time.perf_counter()
        while ready[0] < len(seats) and time.perf_counter() - connecting < 180:
            await asyncio.sleep(0.2)
        print(f"connected {ready[0]} sockets in {time.perf_counter() - connecting:.1f} s")
        await asyncio.sleep(args.warmup)
        stats.latencies.clear()
        stats.moves = 0
        if args.profile:
            server.send_signal(signal.SIGUSR2)
        started = time.perf_counter()
        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        peak = 0
        while time.perf_counter() - started < args.seconds:
            await asyncio.sleep(1)
            peak = max(peak, memory_kib(server.pid)["VmRSS"])
        elapsed = time.perf_counter() - started
        server_cpu = cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        if args.profile:
            server.send_signal(signal.SIGUSR1)
        stats.measuring = False
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=10)
        lat = sorted(stats.latencies)

        def pct(p: float) -> float:
            return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

        print(
            f"tables {args.tables}, sockets {len(seats)}, think {args.think} s, "
            f"measured {elapsed:.0f} s"
        )
        print(f"moves/s {stats.moves / elapsed:.1f}  (moves {stats.moves})")
        print(
            f"latency move -> all 4 seats: p50 {pct(0.50):.1f} ms  p95 {pct(0.95):.1f} ms  "
            f"p99 {pct(0.99):.1f} ms  max {pct(1.0):.1f} ms"
            + (f"  mean {1000 * statistics.fmean(lat):.1f} ms" if lat else "")
        )
        print(f"errors {sum(stats.errors.values())} {stats.errors or ''}")
        print(
            f"cpu: server {100 * server_cpu / elapsed:.0f}%  "
            f"load client {100 * client_cpu / elapsed:.0f}% (of one core); "
            f"server {1000 * server_cpu / max(1, stats.moves):.2f} ms CPU a move"
        )
        print(f"server RSS idle {idle['VmRSS'] / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four players")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured run time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--profile", help="run the server under cProfile, writing this file")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    asyncio.run(main(parser.parse_args()))
