"""A card room of our own on 127.0.0.1 for the adversarial tests and benches: a real
uvicorn process on a free port and a fresh SQLite file, and small helpers to act as a
guest over HTTP and sockets. Nothing here talks to any other address."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise ProcessLookupError(pid)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """Every live descendant of a process (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found.extend(kids)
        frontier.extend(kids)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@dataclass
class Server:
    """A card room process; ``url`` is its base URL."""

    process: subprocess.Popen[bytes]
    port: int
    db: Path | str
    src: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, sig: int = signal.SIGKILL, wait: float = 30.0) -> None:
        """Stop the server, and whatever it started (an older build's bot workers may
        outlive it)."""
        descendants = children(self.pid) if self.process.poll() is None else []
        if self.process.poll() is None:
            self.process.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(wait)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        time.sleep(0.5 if descendants else 0)  # ours exit by themselves within 0.25 s
        for pid in descendants:
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def start_server(
    db: Path | str,
    *,
    port: int | None = None,
    src: Path | None = None,
    env: dict[str, str] | None = None,
    bot_workers: int = 1,
    bot_delay: float = 0.3,
    log: Path | None = None,
) -> Server:
    """Start ``crazy-eights serve`` from the source tree ``src`` (this checkout's by
    default) and wait until it answers."""
    src = src or ROOT / "src"
    port = port or free_port()
    environ = dict(os.environ, PYTHONPATH=str(src), CE_HASH_MEMORY_KIB="8192")
    environ["CE_HASH_TIME_COST"] = "1"
    environ["CE_SIGNUP_LIMIT"] = "100000"  # its guests all sign up from 127.0.0.1
    environ.update(env or {})
    command = [
        sys.executable,
        "-m",
        "crazy_eights.server.commands",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        str(bot_delay),
        "--bot-workers",
        str(bot_workers),
        "--log-level",
        "warning",
    ]
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - handed to the child
    process = subprocess.Popen(command, env=environ, stdout=out, stderr=out)
    server = Server(process, port, db, src)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            if httpx.get(f"{server.url}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError("the server did not start")


@contextlib.contextmanager
def running(db: Path, **options: Any) -> Iterator[Server]:
    server = start_server(db, **options)
    try:
        yield server
    finally:
        server.stop()


class Guest:
    """A guest account over HTTP (its own cookie jar)."""

    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        response = self.http.post("/api/auth/guest")
        response.raise_for_status()
        self.id: int = response.json()["id"]
        self.cookie = f"ce_session={self.http.cookies['ce_session']}"

    def table(self, **body: Any) -> dict[str, Any]:
        body.setdefault("rules", {"ruleset": "classic", "players": 2, "mode": "single"})
        response = self.http.post("/api/tables", json=body)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def close(self) -> None:
        self.http.close()
