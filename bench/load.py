"""Load test of the card room, on loopback only, bounded in time.

Starts the card room on 127.0.0.1, makes N tables of four scripted WebSocket players
(each moves about ``--think`` seconds after its turn starts), runs for ``--seconds`` and
prints moves per second, the latency from a move being sent to its broadcast reaching
every seat (p50/p95/p99), errors, CPU and memory.

    python bench/load.py --tables 50 --seconds 30          # one node on a SQLite file
    python bench/load.py --nodes 2 --tables 500            # side by side, in one run:
        # one node on SQLite, one node on PostgreSQL, and N nodes on PostgreSQL and Redis
        # (PostgreSQL and Redis started for the run from Debian's binaries, then stopped)

With several nodes, the four seats of a table first reach different nodes (seat i node
(k + i) mod N, as a balancer without stickiness spreads them); a node that does not run
the table sends the socket on (close code 4307 naming the table's node) and the player
asks for that node, which this script reaches directly, as the proxy of docs/deploy.md
routes ``?node=``: the path a browser takes. The setup ``crossing``
(``--setups pg,cluster,crossing``) asks for the table's node through the node it first
reached, as through a proxy that does not route by node: that node serves the socket
across nodes and every move crosses between them, the worst case for the fan-out. Each
setup also says what a move asked of the services (database commits, Redis commands by
name, counted by the servers themselves).
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
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

try:
    from orjson import loads
except ImportError:  # orjson only makes the client cheaper
    from json import loads

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.adversarial.loopback import cpu_seconds, rss_kib  # noqa: E402
from tests.cluster.nodes import ELSEWHERE, Node  # noqa: E402
from tests.services import Postgres, Redis  # noqa: E402

# Every player of the load signs up and connects from 127.0.0.1: lift the per-address limits.
LOAD_ENV = {
    "CE_SIGNUP_LIMIT": "1000000",
    "CE_SOCKET_OPENS": "1000000",
    "CE_LOGIN_ADDRESS_ATTEMPTS": "1000000",
    # every seat is taken minutes before its socket opens: no stand-in meanwhile
    "CE_AWAY_SECONDS": "3600",
    # the served default (the tests' 3 s lapses when a loaded machine stalls a node)
    "CE_LEASE_TTL": "5",
}


CROSSING = ", every move crossing"  # the setup whose proxy does not route by node


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
    route: dict[str, str],
    cookie: str,
    stats: Stats,
    think: float,
    stop: asyncio.Event,
    rng: random.Random,
    opening: asyncio.Semaphore,
    ready: list[int],
) -> None:
    """One seat: answers each turn with a random legal move after about ``think`` s.

    Sent on to the table's node (close code 4307), it asks for that node where ``route``
    says it is (node name -> the node's address; empty: a proxy that does not route).

    Kept lean (orjson, no task per receive) so the client costs little of the CPU the
    server shares with it."""
    loop = asyncio.get_running_loop()
    table = url.rsplit("/", 1)[-1]
    try:
        ws, first = await opened(url, route, cookie, opening)
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
                task.add_done_callback(sent)

            def sent(task: asyncio.Task[None]) -> None:
                """Forget a finished send; one that failed counts unless we are stopping."""
                sends.discard(task)
                failed = None if task.cancelled() else task.exception()
                if failed is not None and not stop.is_set():
                    stats.error(type(failed).__name__)

            def received(raw: str | bytes) -> None:
                nonlocal answered
                message = loads(raw)
                kind = message["type"]
                if kind == "error":
                    stats.error(message["code"])
                    return
                if kind == "welcome":
                    ready[0] += 1
                elif kind != "state":
                    return
                state = message["state"]
                if state is None:
                    return
                if kind == "state":
                    stats.arrived(table, state["version"])
                if state["legal"] and state["version"] > answered:
                    answered = state["version"]
                    legal = [m if isinstance(m, str) else m["text"] for m in state["legal"]]
                    loop.call_later(
                        think * rng.uniform(0.8, 1.2), move, answered, rng.choice(legal)
                    )

            received(first)
            async for raw in ws:
                received(raw)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        if not stop.is_set():
            stats.error(type(exc).__name__)


async def opened(
    url: str, route: dict[str, str], cookie: str, opening: asyncio.Semaphore
) -> tuple[ClientConnection, str | bytes]:
    """The seat's socket, open at its table (after at most one sending on), and the
    first message it brought."""
    base, path = url.split("/ws/", 1)
    async with opening:
        ws = await socket(url, cookie)
        try:
            return ws, await ws.recv()
        except ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code != ELSEWHERE:
                raise
            node = closed.rcvd.reason
        ws = await socket(f"{route.get(node, base)}/ws/{path}?node={node}", cookie)
        return ws, await ws.recv()


def socket(url: str, cookie: str) -> connect:
    return connect(url, additional_headers={"cookie": cookie}, max_size=2**20, open_timeout=120)


async def make_table(
    nodes: list[Node], limit: asyncio.Semaphore, number: int
) -> list[tuple[Node, str, str]]:
    """Four guests and a classic four-seat match table they all sit at; table k is made
    (and so run) by node k mod N, and its seat i first reaches node (k + i) mod N."""
    nodes = nodes[number % len(nodes) :] + nodes[: number % len(nodes)]
    via = [nodes[seat % len(nodes)] for seat in range(4)]
    async with limit:
        cookies = []
        for seat in range(4):
            node = via[seat]
            async with httpx.AsyncClient(base_url=node.url, timeout=60) as http:
                response = await http.post("/api/auth/guest")
                cookies.append(f"ce_session={response.cookies['ce_session']}")
        rules = {"ruleset": "classic", "players": 4, "mode": "match", "turn_timer": 3600}
        async with httpx.AsyncClient(base_url=nodes[0].url, timeout=60) as http:
            made = await http.post(
                "/api/tables", json={"rules": rules}, headers={"cookie": cookies[0]}
            )
            table = made.json()["id"]
        for seat, cookie in enumerate(cookies[1:], 1):
            node = via[seat]
            async with httpx.AsyncClient(base_url=node.url, timeout=60) as http:
                await http.post(f"/api/tables/{table}/sit", json={}, headers={"cookie": cookie})
        return [(via[seat], table, c) for seat, c in enumerate(cookies)]


@dataclass
class Result:
    name: str
    tables: int = 0
    sockets: int = 0
    seconds: float = 0.0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    cpu: list[float] = field(default_factory=list)  # seconds, per node
    rss: list[int] = field(default_factory=list)  # peak KiB, per node
    counts: dict[str, int] = field(default_factory=dict)  # what the services were asked

    def per_move(self) -> str:
        """What the services were asked a move: database commits and Redis commands."""
        moves = max(1, self.moves)
        return ", ".join(
            f"{name} {count / moves:.2f}"
            for name, count in sorted(self.counts.items(), key=lambda item: -item[1])
            if count / moves >= 0.005
        )

    def pct(self, p: float) -> float:
        lat = sorted(self.latencies)
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")


async def measure(name: str, nodes: list[Node], args: argparse.Namespace) -> Result:
    """The load against running nodes; each node's CPU and memory while measured."""
    setup = time.perf_counter()
    limit = asyncio.Semaphore(8)
    made = await asyncio.gather(*(make_table(nodes, limit, k) for k in range(args.tables)))
    route = {} if name.endswith(CROSSING) else {node.name: node.ws for node in nodes}
    seats = [seat for table in made for seat in table]
    print(
        f"[{name}] setup: {args.tables} tables, {len(seats)} players in "
        f"{time.perf_counter() - setup:.1f} s",
        flush=True,
    )
    stats = Stats(4)
    stop = asyncio.Event()
    rng = random.Random(1)
    opening = asyncio.Semaphore(25)  # handshakes in flight at once
    ready = [0]
    tasks = [
        asyncio.create_task(
            player(
                f"{node.ws}/ws/tables/{table}",
                route,
                cookie,
                stats,
                args.think,
                stop,
                random.Random(rng.random()),
                opening,
                ready,
            )
        )
        for node, table, cookie in seats
    ]
    connecting = time.perf_counter()
    while ready[0] < len(seats) and time.perf_counter() - connecting < 180:
        await asyncio.sleep(0.2)
    print(
        f"[{name}] connected {ready[0]} sockets in {time.perf_counter() - connecting:.1f} s",
        flush=True,
    )
    await asyncio.sleep(args.warmup)
    stats.latencies.clear()
    stats.moves = 0
    stats.errors.clear()
    pids = [node.process.pid for node in nodes if node.process is not None]
    if args.profile:
        for pid in pids:
            os.kill(pid, signal.SIGUSR2)
    started = time.perf_counter()
    asked = await service_counts(nodes[0])
    cpu = [cpu_seconds(pid) for pid in pids]
    peak = [0] * len(pids)
    while time.perf_counter() - started < args.seconds:
        await asyncio.sleep(1)
        peak = [max(p, rss_kib(pid)) for p, pid in zip(peak, pids, strict=True)]
    elapsed = time.perf_counter() - started
    cpu = [cpu_seconds(pid) - c for pid, c in zip(pids, cpu, strict=True)]
    asked = {k: v - asked.get(k, 0) for k, v in (await service_counts(nodes[0])).items()}
    if args.profile:
        for pid in pids:
            os.kill(pid, signal.SIGUSR1)
    stats.measuring = False
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=10)
    return Result(
        name,
        args.tables,
        len(seats),
        elapsed,
        stats.moves,
        stats.latencies,
        dict(stats.errors),
        cpu,
        peak,
        asked,
    )


async def service_counts(node: Node) -> dict[str, int]:
    """Commits on the node's PostgreSQL database and each Redis command's calls so far:
    read before and after the measured window to say what a move asks of the services.
    (PostgreSQL publishes its counters about once a second: close enough over a window.)"""
    counts: dict[str, int] = {}
    if node.database.startswith("postgresql"):
        import asyncpg

        url = node.database.replace("+asyncpg", "")
        conn = await asyncpg.connect(url.rpartition("/")[0] + "/postgres")
        try:
            counts["pg commit"] = await conn.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = $1",
                url.rpartition("/")[2],
            )
        finally:
            await conn.close()
    if node.redis:
        from redis.asyncio import Redis as Client

        client = Client.from_url(node.redis)
        try:
            stats = await client.info("commandstats")
        finally:
            await client.aclose()
        for name, entry in stats.items():
            counts[f"redis {name.removeprefix('cmdstat_')}"] = int(entry["calls"])
    return counts


def start_nodes(
    folder: Path, count: int, *, database: str, redis: str | None, profile: str | None
) -> list[Node]:
    nodes = []
    for i in range(count):
        env = dict(LOAD_ENV)
        if profile:
            env["CE_PROFILE"] = str(Path(f"{profile}.node{i}").resolve())
        nodes.append(Node(folder, database=database, redis=redis, name=f"load{i}", **env))
    for node in nodes:
        node.start()
    for node in nodes:
        node.wait_ready(120)
    return nodes


async def run(
    name: str, folder: Path, count: int, database: str, redis: str | None, args: argparse.Namespace
) -> Result:
    nodes = start_nodes(folder, count, database=database, redis=redis, profile=args.profile)
    try:
        return await measure(name, nodes, args)
    finally:
        for node in nodes:
            if node.running:
                try:
                    node.terminate()
                except subprocess.TimeoutExpired:  # a node that hangs is no reason to leave it
                    node.kill()


def report(results: list[Result], args: argparse.Namespace) -> None:
    print(
        f"\nclassic four-seat tables, a move about {args.think} s after each turn, "
        f"measured {args.seconds:.0f} s after {args.warmup:.0f} s of warm-up"
    )
    print(
        "| setup | tables (sockets) | moves/s | p50 | p95 | p99 | errors "
        "| CPU a move (all nodes) | CPU per node | RSS peak per node |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        rate = r.moves / r.seconds if r.seconds else 0.0
        per_move = 1000 * sum(r.cpu) / max(1, r.moves)
        cpus = ", ".join(f"{100 * c / r.seconds:.0f}%" for c in r.cpu)
        rss = ", ".join(f"{k / 1024:.0f} MiB" for k in r.rss)
        errors = sum(r.errors.values())
        print(
            f"| {r.name} | {r.tables} ({r.sockets}) | {rate:.1f} | {r.pct(0.5):.1f} ms "
            f"| {r.pct(0.95):.1f} ms | {r.pct(0.99):.1f} ms | {errors} {r.errors or ''} "
            f"| {per_move:.2f} ms | {cpus} | {rss} |"
        )
    if len(results) > 1:
        base = sum(results[0].cpu) / max(1, results[0].moves)
        for r in results[1:]:
            ratio = (sum(r.cpu) / max(1, r.moves)) / base if base else float("nan")
            print(f"CPU a move, {r.name} against {results[0].name}: {ratio:.2f}x")
    for r in results:
        if r.counts:
            print(f"asked a move ({r.name}): {r.per_move()}")
    lat = results[-1].latencies
    if lat:
        print(f"mean latency ({results[-1].name}): {1000 * statistics.fmean(lat):.1f} ms")


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ce-load-"))
    if not args.nodes:
        results = [await run("1 node, SQLite", folder, 1, str(folder / "load.db"), None, args)]
        report(results, args)
        return
    postgres, redis = Postgres(folder / "pg"), Redis(folder / "redis")
    try:
        admin = postgres.start()
        redis_url = redis.start().rstrip("/") + "/0"
        base = admin.rpartition("/")[0]
        await _create_databases(admin, ["single", "cluster", "crossing"])
        results = []
        if "sqlite" in args.setups:
            sqlite = str(folder / "load.db")
            results.append(await run("1 node, SQLite", folder, 1, sqlite, None, args))
        if "pg" in args.setups:
            pg = f"{base}/single"
            results.append(await run("1 node, PostgreSQL", folder, 1, pg, None, args))
        if "cluster" in args.setups:
            name = f"{args.nodes} nodes, PostgreSQL + Redis"
            cluster = f"{base}/cluster"
            results.append(await run(name, folder, args.nodes, cluster, redis_url, args))
        if "crossing" in args.setups:
            name = f"{args.nodes} nodes, PostgreSQL + Redis{CROSSING}"
            crossing = f"{base}/crossing"
            # a Redis database of its own: the tables the cluster setup left listed there
            # would be taken for orphans, over and over, by nodes that cannot load them
            crossing_redis = redis_url.rpartition("/")[0] + "/1"
            results.append(await run(name, folder, args.nodes, crossing, crossing_redis, args))
    finally:
        redis.stop()
        postgres.stop()
    report(results, args)


async def _create_databases(admin: str, names: list[str]) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        for name in names:
            await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four players")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured run time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="also run one node on PostgreSQL and this many nodes on PostgreSQL and Redis",
    )
    parser.add_argument(
        "--setups",
        type=lambda text: set(text.split(",")),
        default={"sqlite", "pg", "cluster"},
        help=(
            "with --nodes: which of sqlite,pg,cluster,crossing to run (sqlite,pg,cluster by "
            "default; crossing: the cluster behind a proxy that does not route by node, so "
            "that every move crosses between nodes)"
        ),
    )
    parser.add_argument("--profile", help="run each node under cProfile, writing FILE.nodeI")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    asyncio.run(main(parser.parse_args()))
