"""Card-room nodes as real processes (``crazy-eights serve``), and scripted players that
reconnect like the browser does: for the cluster tests and ``bench/load.py --nodes``."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from crazy_eights.server.api.table_socket import ELSEWHERE
from tests.conftest import run_async
from tests.server.test_tables import cards_in
from tests.services import free_port

ROOT = Path(__file__).resolve().parents[2]
COOKIE = "ce_session"
METRICS_TOKEN = "cluster-metrics"  # CE_METRICS_TOKEN of nodes whose /metrics a test reads


class Node:
    """One ``crazy-eights serve`` process on 127.0.0.1 (a cluster node when ``redis``)."""

    def __init__(
        self, folder: Path, *, database: str, redis: str | None = None, name: str = "", **env: str
    ) -> None:
        self.folder = folder
        self.database = database
        self.redis = redis
        self.name = name or f"node{free_port()}"
        self.port = free_port()
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / f"{self.name}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Node:
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(
                filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])
            ),
            DATABASE_URL=self.database,
            CE_BOT_DELAY="0.05",
            CE_BOT_WORKERS="0",
            CE_HASH_TIME_COST="1",
            CE_HASH_MEMORY_KIB="8192",
            CE_LEASE_TTL="3",
            PYTHONFAULTHANDLER="1",
        )
        env.update(self.env)  # the node's own settings win over the quick defaults
        env.pop("REDIS_URL", None)
        command = [
            sys.executable,
            "-m",
            "crazy_eights.server.commands",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.database,
            "--log-level",
            os.environ.get("CE_TEST_LOG_LEVEL", "warning"),
        ]
        if self.redis:
            command += ["--redis", self.redis, "--node", self.name]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self, seconds: float = 120) -> Node:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/ready", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"{self.name} did not get ready:\n{self.log.read_text()[-3000:]}")

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9."""
        if self.process is not None and self.running:
            self.process.kill()
            self.process.wait()

    def terminate(self, seconds: float = 30) -> float:
        """SIGTERM, and how long the node took to hand over and exit."""
        assert self.process is not None
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            # faulthandler (PYTHONFAULTHANDLER) writes every thread's stack to the log
            self.process.send_signal(signal.SIGABRT)
            self.process.wait(10)
            raise AssertionError(
                f"{self.name} did not exit {seconds} s after SIGTERM:\n"
                + self.log.read_text()[-6000:]
            ) from None
        return time.monotonic() - started

    def restart(self) -> float:
        """SIGTERM, start again, wait until ready: the seconds it was gone."""
        started = time.monotonic()
        self.terminate()
        self.start().wait_ready()
        return time.monotonic() - started


# docs/deploy.md's nginx names three nodes: their addresses and names, in order
DOCS_NODES = [
    ("10.0.0.11:8001", "cards1-8001"),
    ("10.0.0.11:8002", "cards1-8002"),
    ("10.0.0.12:8001", "cards2-8001"),
]


def nginx_config(nodes: list[Node]) -> str:
    """The ``http`` body of docs/deploy.md's nginx, as written there, in front of
    ``nodes`` (up to three): their addresses and names for the guide's, plain HTTP on a
    loopback port for its HTTPS. Any node for a page or a socket, the named node for a
    socket that asks for one (``?node=``), any node again when that one is down."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    config = text.split("```nginx\n", 1)[1].split("```", 1)[0]
    assert len(nodes) <= len(DOCS_NODES)
    for (address, name), node in zip(DOCS_NODES, nodes, strict=False):
        config = config.replace(address, f"127.0.0.1:{node.port}")
        config = config.replace(f"{name} ", f"{node.name} ")
    unused = [part for pair in DOCS_NODES[len(nodes) :] for part in pair]
    lines = [line for line in config.splitlines() if not any(u in line for u in unused)]
    lines = [line for line in lines if "server_name" not in line and "ssl_cert" not in line]
    return "\n".join(lines).replace("listen 443 ssl;", "listen {listen};")


def front(proxy_url: str, nodes: list[Node]) -> Node:
    """A stand-in ``Node`` for the proxy at ``proxy_url``: the players' way in; "running"
    while the first node is (nginx fails over to the others)."""
    node = Node(nodes[0].folder, database=nodes[0].database, name="nginx")
    node.port = int(proxy_url.rsplit(":", 1)[1])
    node.process = nodes[0].process
    return node


def table_sockets(nodes: list[Node]) -> dict[str, dict[str, float]]:
    """Each node's ``ce_table_sockets_total`` so far, by where the socket's table ran."""
    from prometheus_client.parser import text_string_to_metric_families

    counts: dict[str, dict[str, float]] = {}
    for node in nodes:
        text = httpx.get(
            f"{node.url}/metrics", headers={"authorization": f"Bearer {METRICS_TOKEN}"}
        ).text
        counts[node.name] = {
            sample.labels["where"]: sample.value
            for family in text_string_to_metric_families(text)
            if family.name == "ce_table_sockets"
            for sample in family.samples
            if sample.name == "ce_table_sockets_total"
        }
    return counts


def start_all(nodes: list[Node]) -> list[Node]:
    """Start ``nodes`` together (so they migrate and join at once), then wait for each."""
    for node in nodes:
        node.start()
    for node in nodes:
        node.wait_ready()
    return nodes


def guest(node: Node) -> str:
    """A new guest's session token, made through ``node``."""
    response = httpx.post(f"{node.url}/api/auth/guest")
    response.raise_for_status()
    return response.cookies[COOKIE]


def api(node: Node, token: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, f"{node.url}{path}", cookies={COOKIE: token}, **kwargs)


@dataclass
class Player:
    """A scripted player at one seat: plays a random legal move on its turn and, like the
    browser, reconnects when its socket closes (to the next node when its node is down).

    ``acked`` holds the numbers of the moves the server acknowledged to this seat;
    ``seen`` every card text the seat was shown, per message, for the hidden-card check.
    """

    seat: int
    token: str
    table: str
    nodes: list[Node]
    think: tuple[float, float] = (0.02, 0.1)
    state: dict[str, Any] | None = None
    acked: set[int] = field(default_factory=set)
    reconnects: int = 0
    sent_to: str | None = None  # the node the server sent this seat's socket on to
    sent_on: int = 0
    hops: int = 0  # sent on since the last message
    messages: int = 0
    over: bool = False
    leaks: list[str] = field(default_factory=list)

    @property
    def version(self) -> int:
        return -1 if self.state is None else int(self.state["version"])

    async def run(self, stop: asyncio.Event) -> None:
        import websockets

        while not stop.is_set() and not self.over:
            node = self.nodes[0]
            asked = f"?node={self.sent_to}" if self.sent_to else ""
            try:
                async with websockets.connect(
                    f"{node.ws}/ws/tables/{self.table}{asked}",
                    additional_headers={"cookie": f"{COOKIE}={self.token}"},
                    open_timeout=10,
                ) as ws:
                    await self._play(ws, stop)
            except websockets.ConnectionClosed as closed:
                rcvd = closed.rcvd
                if rcvd is not None and rcvd.code == ELSEWHERE and self.follow(rcvd.reason):
                    continue
                await self.reconnect()
            except Exception:
                await self.reconnect()

    def follow(self, node: str) -> bool:
        """Sent on to the table's node: ask for it, and go there when it is one of ours
        (as a proxy that routes ``?node=`` would); otherwise ask through the same node.
        True to reconnect at once: like the browser, three times in a row at most."""
        self.sent_to = node
        self.sent_on += 1
        self.hops += 1
        named = [n for n in self.nodes if n.name == node]
        if named:
            self.nodes.remove(named[0])
            self.nodes.insert(0, named[0])
        return self.hops <= 3

    async def reconnect(self) -> None:
        """Like a browser behind a balancer: try another node after a pause."""
        self.reconnects += 1
        self.nodes.append(self.nodes.pop(0))
        await asyncio.sleep(0.3)

    async def _play(self, ws: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            message = json.loads(await ws.recv())
            self.messages += 1
            self.hops = 0
            state = message.get("state") if message["type"] in ("welcome", "state") else None
            if not state:
                continue
            self._audit(state)
            if state.get("ack") is not None:
                self.acked.add(int(state["ack"]))
            self.state = state
            if state["view"]["over"]:
                self.over = True
                return
            if state["view"]["current"] == self.seat and state["legal"]:
                await asyncio.sleep(random.uniform(*self.think))
                move = random.choice(state["legal"])
                await ws.send(json.dumps({"type": "move", "seq": state["version"], "move": move}))

    def _audit(self, state: dict[str, Any]) -> None:
        """RULES G5: a seat is shown no card but its own hand and the discard pile (and
        every hand once a round is over, for its scoring)."""
        view = state["view"]
        if view.get("over"):
            return
        public = ("round_over", "played")  # every hand at a round's end; a card played
        events = [e for e in state.get("events", []) if e.get("type") not in public]
        shown = cards_in(
            {
                **state,
                "move": None,
                "pause": None,  # the summary of a round that is over: every hand, face up
                "events": events,
                "view": {k: v for k, v in view.items() if k != "log"},
            }
        )
        leaked = shown - set(view.get("hand", [])) - set(view["discard"])
        if leaked:
            self.leaks.append(f"seat {self.seat} was shown {sorted(leaked)} in {state}")


def stored_moves(database: str, table: str) -> list[tuple[int, int | None]]:
    """(n, seat) of every move of a table in the database, in order."""

    async def read() -> list[tuple[int, int | None]]:
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            rows = await conn.fetch(
                "SELECT n, seat FROM moves WHERE table_id = $1 ORDER BY n", table
            )
        finally:
            await conn.close()
        return [(r["n"], r["seat"]) for r in rows]

    return run_async(read())


def lost_moves(database: str, players: list[Player]) -> list[str]:
    """Acknowledged moves missing from the database (or stored for another seat), and
    tables whose moves are not numbered 0, 1, 2... without a gap."""
    problems = []
    for table in sorted({p.table for p in players}):
        stored = stored_moves(database, table)
        if [n for n, _ in stored] != list(range(len(stored))):
            problems.append(f"{table}: moves {[n for n, _ in stored]} have gaps")
        seats = dict(stored)
        for player in players:
            if player.table == table:
                problems += [
                    f"{table}: move {n} of seat {player.seat} acknowledged, stored: {seats.get(n)}"
                    for n in sorted(player.acked)
                    if seats.get(n, -1) != player.seat
                ]
    return problems
