"""Issue 23, item 12 on a cluster: a real Prometheus (Debian's, on loopback) scrapes two
nodes of one room while people on both play a table, and reads each node's own figures,
the Redis round trips among them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..server.conftest import eventually
from ..server.test_metrics import prometheus_up, query
from ..services import free_port
from .nodes import Node, Player, start_all
from .test_cluster import THREE_PLAYERS, play, table_of_two

pytestmark = [pytest.mark.xdist_group("cluster"), pytest.mark.slow]

PROMETHEUS = shutil.which("prometheus")


@pytest.mark.skipif(PROMETHEUS is None, reason="needs prometheus (Debian: prometheus)")
def test_a_real_prometheus_scrapes_both_nodes_of_a_cluster(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    ports = [free_port(), free_port()]
    nodes = [
        Node(
            tmp_path,
            database=postgres_url,
            redis=redis_url,
            name=f"m{i}",
            CE_METRICS_PORT=str(port),
        )
        for i, port in enumerate(ports)
    ]
    try:
        start_all(nodes)
        targets = [f"127.0.0.1:{port}" for port in ports]
        with prometheus_up(tmp_path, targets) as base:
            rules = THREE_PLAYERS | {"mode": "single"}
            table, first, second = table_of_two(nodes[0], nodes[1], rules=rules)
            players = [Player(0, first, table, [nodes[0]]), Player(1, second, table, [nodes[1]])]
            play(players, lambda: all(p.over for p in players), 120)
            assert all(p.over for p in players)

            def per_node(expr: str) -> dict[str, float]:
                found = query(base, "/api/v1/query", query=expr)["result"]
                return {r["metric"]["instance"]: float(r["value"][1]) for r in found}

            eventually(
                lambda: per_node('up{job="crazy-eights"}') == dict.fromkeys(targets, 1.0),
                "both nodes scraped",
                60,
            )
            # every node talks to Redis (leases, the bus); the moves were counted where
            # the table ran, and each node's round trips were timed
            eventually(
                lambda: len(per_node("ce_redis_round_trips_total > 0")) == 2,
                "both nodes' Redis round trips",
                30,
            )
            eventually(
                lambda: sum(per_node("ce_moves_total").values()) > 3,
                "the table's moves",
                30,
            )
            timed = per_node("sum by (instance) (ce_redis_seconds_count)")
            assert set(timed) == set(targets) and min(timed.values()) > 0, timed
    finally:
        for node in nodes:
            node.kill()
