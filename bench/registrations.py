"""A registration burst against a real card room (issue 14, finding 4), loopback only.

Starts ``serve`` on 127.0.0.1 with a fresh SQLite file and the default argon2id cost
(3 passes, 64 MiB), sends ``--burst`` registrations at the same moment and meanwhile asks
``/api/health`` every 50 ms, sampling the server's memory every 10 ms. Prints the resident
memory before and at its peak, the health latency (p50, max) during the burst, how long the
burst took and its answers by status.

Each registration comes from its own loopback address (127.0.0.2, .3, ...), as a burst
from many machines would, so the per-address throttle does not hide what the hashing
costs; ``--one-address`` sends them all from 127.0.0.1 instead (the throttle at work).
``--peer DIR|REV`` runs the same burst, in the same invocation, against another source
tree (a folder holding ``crazy_eights``, or a git revision of this repository, which is
exported to a temporary folder) for a side-by-side comparison.

    python bench/registrations.py --peer 3a686d2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import httpx
from load import free_port, memory_kib  # bench/ is on the path when run as a script

ROOT = Path(__file__).resolve().parents[1]


def rss_kib(pid: int) -> int:
    return memory_kib(pid)["VmRSS"]


@dataclass
class Result:
    label: str
    rss_before: float  # MiB
    rss_peak: float
    health_p50: float  # ms
    health_max: float
    burst_seconds: float
    statuses: Counter[int]


def source_tree(peer: str, keep: list[tempfile.TemporaryDirectory[str]]) -> Path:
    """A folder with ``crazy_eights`` in it: ``peer`` itself, or a git revision exported."""
    if Path(peer).is_dir():
        return Path(peer)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", peer, "src"], check=True, capture_output=True
    ).stdout
    folder = tempfile.TemporaryDirectory(prefix="ce-peer-")
    keep.append(folder)
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder.name, filter="data")
    return Path(folder.name) / "src"


async def wait_ready(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(300):
            try:
                if (await http.get("/api/health", timeout=1)).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def register(base: str, i: int, address: str) -> int:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=120) as http:
        body = {"name": f"burst{i:03d}", "password": "a-fine-password"}
        return (await http.post("/api/auth/register", json=body)).status_code


async def measure(label: str, src: Path, burst: int, one_address: bool) -> Result:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="ce-bench-") as folder:
        env = dict(os.environ, PYTHONPATH=str(src))
        for name in list(env):
            if name.startswith("CE_HASH"):  # the default cost, whatever the shell says
                del env[name]
        command = [sys.executable, "-m", "crazy_eights.server.commands", "serve"]
        command += ["--port", str(port), "--db", f"{folder}/room.db", "--log-level", "warning"]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            await wait_ready(base)
            await asyncio.sleep(1.0)
            before = rss_kib(server.pid)
            peak = before
            done = asyncio.Event()

            async def sample() -> None:
                nonlocal peak
                while not done.is_set():
                    peak = max(peak, rss_kib(server.pid))
                    await asyncio.sleep(0.01)

            latencies: list[float] = []

            async def health() -> None:
                transport = httpx.AsyncHTTPTransport(local_address="127.0.0.254")
                async with httpx.AsyncClient(base_url=base, transport=transport) as http:
                    while not done.is_set():
                        start = time.perf_counter()
                        await http.get("/api/health", timeout=120)
                        latencies.append((time.perf_counter() - start) * 1000)
                        await asyncio.sleep(0.05)

            watchers = [asyncio.create_task(sample()), asyncio.create_task(health())]
            await asyncio.sleep(0.2)
            start = time.perf_counter()
            codes = await asyncio.gather(
                *(
                    register(base, i, "127.0.0.1" if one_address else f"127.0.0.{i + 2}")
                    for i in range(burst)
                )
            )
            seconds = time.perf_counter() - start
            done.set()
            await asyncio.gather(*watchers)
        finally:
            server.terminate()
            server.wait(30)
    return Result(
        label=label,
        rss_before=before / 1024,
        rss_peak=peak / 1024,
        health_p50=statistics.median(latencies),
        health_max=max(latencies),
        burst_seconds=seconds,
        statuses=Counter(codes),
    )


def table(results: list[Result], burst: int) -> str:
    lines = [
        f"{burst} registrations at once, argon2id t=3 m=64 MiB, cores: {os.cpu_count()}",
        "",
        "| server | RSS before | RSS peak | /api/health p50 | max | burst took | answers |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        answers = ", ".join(f"{n}x{code}" for code, n in sorted(r.statuses.items()))
        lines.append(
            f"| {r.label} | {r.rss_before:.0f} MiB | {r.rss_peak:.0f} MiB | "
            f"{r.health_p50:.0f} ms | {r.health_max:.0f} ms | {r.burst_seconds:.1f} s | "
            f"{answers} |"
        )
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> None:
    keep: list[tempfile.TemporaryDirectory[str]] = []
    runs = [("this tree", ROOT / "src")]
    if args.peer:
        runs.insert(0, (f"peer {args.peer}", source_tree(args.peer, keep)))
    results = [await measure(label, src, args.burst, args.one_address) for label, src in runs]
    print(table(results, args.burst))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burst", type=int, default=40, help="registrations sent at once")
    parser.add_argument("--peer", help="another source folder or git revision to compare")
    parser.add_argument("--one-address", action="store_true", help="send them all from 127.0.0.1")
    asyncio.run(main(parser.parse_args()))
