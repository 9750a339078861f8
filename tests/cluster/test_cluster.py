"""Cluster mode against real servers: nodes as processes over PostgreSQL and Redis, players
on different nodes at one table, kill -9 of a table's owner, a rolling restart of every
node during live games, and two nodes behind Debian's nginx."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..conftest import run_async
from .conftest import Cluster
from .nodes import (
    METRICS_TOKEN,
    ROOT,
    Node,
    Player,
    api,
    front,
    guest,
    lost_moves,
    nginx_config,
    table_sockets,
)

pytestmark = pytest.mark.xdist_group("cluster")

THREE_PLAYERS = {"ruleset": "classic", "players": 3}


def table_of_two(
    creator_node: Node, other_node: Node, *, rules: dict[str, Any] | None = None
) -> tuple[str, str, str]:
    """A running table: a guest through ``creator_node`` (seat 0), one through
    ``other_node`` (seat 1) and a random bot; (table, token 0, token 1)."""
    first, second = guest(creator_node), guest(other_node)
    body = {"rules": rules or THREE_PLAYERS, "bots": [{"seat": 2, "level": "random"}]}
    made = api(creator_node, first, "POST", "/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    sat = api(other_node, second, "POST", f"/api/tables/{table}/sit", json={})
    assert sat.status_code == 200, sat.text
    assert sat.json()["status"] == "playing"
    return table, first, second


def play(
    players: list[Player],
    until: Callable[[], bool],
    seconds: float,
    meanwhile: Callable[[], None] | None = None,
) -> None:
    """Let the players play until ``until()`` or the time is up; ``meanwhile`` (which may
    block: restarting nodes) runs in a thread beside them, and what it raises fails the
    test at once."""

    async def main() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(p.run(stop)) for p in players]
        side = None if meanwhile is None else asyncio.create_task(asyncio.to_thread(meanwhile))
        deadline = time.monotonic() + seconds
        while not until() and time.monotonic() < deadline:
            if side is not None and side.done() and side.exception() is not None:
                break
            await asyncio.sleep(0.1)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if side is not None and side.done():
            side.result()  # its exception, if it raised one

    run_async(main())


def owner_of(redis_url: str, table: str) -> str | None:
    import redis

    with redis.Redis.from_url(redis_url) as client:
        value = client.get(f"ce:owner:{table}")
    return None if value is None else value.decode()


def _serve(folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``crazy-eights serve --db room.db FLAGS`` in ``folder``, for settings it refuses."""
    return subprocess.run(
        [sys.executable, "-m", "crazy_eights.server.commands", "serve", "--db", "room.db", *flags],
        cwd=folder,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_redis_with_a_sqlite_file_is_refused(tmp_path: Path) -> None:
    done = _serve(tmp_path, "--redis", "redis://127.0.0.1:1/0")
    assert done.returncode == 2
    assert "needs PostgreSQL" in done.stderr
    assert not (tmp_path / "room.db").exists()


def test_a_node_name_the_proxy_cannot_route_by_is_refused(tmp_path: Path) -> None:
    """A node's name travels in a close reason and in ``?node=``: letters, digits, '.',
    '_' and '-' only."""
    done = _serve(tmp_path, "--node", "node one")
    assert done.returncode == 2
    assert done.stderr.startswith("node:")
    assert not (tmp_path / "room.db").exists()


def test_nodes_starting_together_migrate_once_and_share_one_lobby(
    cluster: Cluster, postgres_url: str
) -> None:
    nodes = cluster(3)
    import asyncpg

    async def versions() -> list[str]:
        conn = await asyncpg.connect(postgres_url)
        try:
            return [r[0] for r in await conn.fetch("SELECT version_num FROM alembic_version")]
        finally:
            await conn.close()

    assert len(run_async(versions())) == 1
    token = guest(nodes[0])
    body = {"rules": THREE_PLAYERS, "name": "shared"}
    table = api(nodes[0], token, "POST", "/api/tables", json=body).json()["id"]

    async def lobby_hears_a_sit_through_another_node() -> dict[str, Any]:
        import websockets

        async with websockets.connect(f"{nodes[2].ws}/ws/lobby") as ws:
            first = json.loads(await ws.recv())
            assert table in [t["id"] for t in first["tables"]]
            sitter = guest(nodes[1])
            await asyncio.to_thread(
                api, nodes[1], sitter, "POST", f"/api/tables/{table}/sit", json={}
            )
            while True:
                update = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if update["type"] == "table" and update["table"]["id"] == table:
                    return dict(update["table"])

    for node in nodes:
        listed = httpx.get(f"{node.url}/api/tables").json()
        assert [t["id"] for t in listed] == [table]
    seen = run_async(lobby_hears_a_sit_through_another_node())
    assert sum(s["account"] is not None for s in seen["seats"]) == 2


def test_players_on_two_nodes_play_one_table_each_seeing_only_their_own_cards(
    cluster: Cluster, postgres_url: str
) -> None:
    nodes = cluster(2)
    rules = THREE_PLAYERS | {"mode": "single"}
    table, first, second = table_of_two(nodes[0], nodes[1], rules=rules)
    players = [Player(0, first, table, [nodes[0]]), Player(1, second, table, [nodes[1]])]
    play(players, lambda: all(p.over for p in players), 120)
    assert all(p.over for p in players)
    assert not players[0].leaks and not players[1].leaks
    assert players[0].version == players[1].version > 3
    assert players[0].acked and players[1].acked
    assert lost_moves(postgres_url, players) == []
    for node, token in ((nodes[1], first), (nodes[0], second)):
        me = api(node, token, "GET", "/api/me").json()["id"]
        records = httpx.get(f"{node.url}/api/accounts/{me}/records").json()["records"]
        assert [r["games"] for r in records] == [1]  # finished and rated exactly once


def test_kill_9_of_a_tables_owner_loses_no_acknowledged_move(
    cluster: Cluster, postgres_url: str, redis_url: str
) -> None:
    nodes = cluster(3)
    rules = THREE_PLAYERS | {"target": 100}
    table, first, second = table_of_two(nodes[0], nodes[1], rules=rules)
    assert owner_of(redis_url, table) == nodes[0].name
    players = [
        Player(0, first, table, [nodes[0], nodes[2]]),
        Player(1, second, table, [nodes[1]]),
    ]
    marks: dict[str, float] = {}

    def script() -> bool:
        if "killed" not in marks and players[0].version > 10:
            marks["version"] = players[0].version
            nodes[0].kill()
            marks["killed"] = time.monotonic()
        moved_on = "killed" in marks and min(p.version for p in players) > marks["version"] + 3
        if moved_on and "moving" not in marks:
            marks["moving"] = time.monotonic()
        return "moving" in marks and min(p.version for p in players) > marks["version"] + 30

    play(players, script, 120)
    assert "moving" in marks, f"the game did not go on after the kill: {players[0].version}"
    assert marks["moving"] - marks["killed"] < 15
    assert owner_of(redis_url, table) in (nodes[1].name, nodes[2].name)
    assert lost_moves(postgres_url, players) == []
    assert not players[0].leaks and not players[1].leaks


def test_rolling_restart_of_three_nodes_during_20_live_games_loses_nothing(
    cluster: Cluster, postgres_url: str
) -> None:
    nodes = cluster(3)
    rules = THREE_PLAYERS | {"target": 500}
    players: list[Player] = []
    for i in range(20):
        a, b = nodes[i % 3], nodes[(i + 1) % 3]
        table, first, second = table_of_two(a, b, rules=rules)
        players += [Player(0, first, table, [a, b]), Player(1, second, table, [b, a])]
    progress: dict[str, Any] = {}

    def restart_every_node() -> None:
        # the restarts come once every game is under way: each player has seen moves
        deadline = time.monotonic() + 60
        while min(p.version for p in players) < 2:
            assert time.monotonic() < deadline, "the games never got going"
            time.sleep(0.1)
        for node in nodes:
            progress.setdefault("gone", []).append(node.restart())
        progress["restarted"] = {p.table: p.version for p in players}

    def done() -> bool:
        if "restarted" not in progress:
            return False
        after = {p.table: p.version for p in players}
        return all(after[t] > v + 2 for t, v in progress["restarted"].items())

    play(players, done, 240, meanwhile=restart_every_node)
    assert "restarted" in progress, f"restarts took {progress.get('gone')} s"
    stalled = [
        t
        for t, v in progress["restarted"].items()
        if max(p.version for p in players if p.table == t) <= v + 2
    ]
    assert stalled == [], f"tables that did not go on after the restarts: {stalled}"
    assert lost_moves(postgres_url, players) == []
    assert [leak for p in players for leak in p.leaks] == []


def test_two_nodes_behind_nginx_with_no_stickiness(
    cluster: Cluster, postgres_url: str, redis_url: str, nginx: Any
) -> None:
    """docs/deploy.md's nginx: pages round robin, each table's sockets on its node, and
    when that node is killed, a socket asking for it reaches another node."""
    nodes = cluster(2, CE_METRICS_TOKEN=METRICS_TOKEN)
    way_in = front(nginx(nginx_config(nodes)).url, nodes)
    served_by = {httpx.get(f"{way_in.url}/api/health").json()["node"] for _ in range(6)}
    assert served_by == {n.name for n in nodes}  # round robin: no stickiness
    table, first, second = table_of_two(way_in, way_in, rules=THREE_PLAYERS | {"target": 100})
    owner = next(n for n in nodes if n.name == owner_of(redis_url, table))
    players = [Player(0, first, table, [way_in]), Player(1, second, table, [way_in])]
    players[1].sent_to = owner.name  # as if sent on already: it asks for the owner from the start
    marks: dict[str, Any] = {}

    def script() -> bool:
        if "killed" not in marks and players[0].version > 10:
            marks["killed"] = players[0].version
            marks["sockets"] = table_sockets(nodes)
            owner.kill()
        return "killed" in marks and min(p.version for p in players) > marks["killed"] + 20

    play(players, script, 120)
    assert "killed" in marks and min(p.version for p in players) > marks["killed"] + 20
    assert lost_moves(postgres_url, players) == []
    # before the kill, nginx took each seat's socket to the node that runs the table:
    # one there for each seat, none served across nodes
    sockets = marks["sockets"]
    assert sockets[owner.name]["here"] >= 2 and sockets[owner.name]["across"] == 0, sockets
    assert all(s["here"] == s["across"] == 0 for n, s in sockets.items() if n != owner.name)


def test_a_table_socket_reaching_another_node_is_sent_on_to_the_tables_node(
    cluster: Cluster, redis_url: str
) -> None:
    """The socket is closed with 4307 naming the table's node; one that asked for that node
    and still reached another (a proxy that could not route it) is served across nodes;
    one that asked for a node the table has left, or for nonsense, is sent on again."""
    nodes = cluster(2, CE_METRICS_TOKEN=METRICS_TOKEN)
    table, first, _ = table_of_two(nodes[0], nodes[1])
    owner = next(n for n in nodes if n.name == owner_of(redis_url, table))
    other = next(n for n in nodes if n is not owner)
    before = table_sockets(nodes)

    async def opened(node: Node, asked: str | None) -> tuple[int | None, str]:
        """The close code and reason, or (None, the first message's type)."""
        import websockets

        query = "" if asked is None else f"?node={asked}"
        async with websockets.connect(
            f"{node.ws}/ws/tables/{table}{query}",
            additional_headers={"cookie": f"ce_session={first}"},
        ) as ws:
            try:
                return None, json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None
                return closed.rcvd.code, closed.rcvd.reason

    assert run_async(opened(other, None)) == (4307, owner.name)
    assert run_async(opened(other, "gone-node")) == (4307, owner.name)
    assert run_async(opened(other, "x" * 500)) == (4307, owner.name)
    assert run_async(opened(other, owner.name)) == (None, "welcome")  # across nodes
    assert run_async(opened(owner, None)) == (None, "welcome")
    assert run_async(opened(owner, other.name)) == (None, "welcome")
    after = table_sockets(nodes)
    grew = {
        name: {k: v - before[name][k] for k, v in counts.items()} for name, counts in after.items()
    }
    assert grew[other.name] == {"here": 0, "across": 1, "sent_on": 3}
    assert grew[owner.name] == {"here": 2, "across": 0, "sent_on": 0}


def test_send_on_doctests() -> None:
    """The four cases of where a table socket goes (``table_socket.send_on``)."""
    import doctest

    from crazy_eights.server.api import table_socket

    results = doctest.testmod(table_socket)
    assert results.attempted >= 4 and results.failed == 0
