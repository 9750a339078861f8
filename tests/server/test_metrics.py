"""Issue 23, item 12: operators can watch the room. ``/metrics`` (prometheus-client) on
a port of its own or behind a token; the alerting rules pass ``promtool check rules``;
a real Prometheus (Debian's, on loopback) scrapes a running room and loads the rules."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server import create_app

from ..adversarial.loopback import free_port, start_server
from .conftest import SettingsFactory, as_, eventually, guest, make_table, until

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "monitoring" / "alerts.yml"
DASHBOARD = ROOT / "docs" / "monitoring" / "grafana-dashboard.json"
FIGURES = [
    "ce_sockets",
    'ce_tables{status="',
    "ce_moves_total",
    "ce_move_seconds_bucket",
    "ce_broadcast_seconds_bucket",
    'ce_bot_queue_depth{priority="move"}',
    "ce_bot_wait_seconds_bucket",
    "ce_db_commit_seconds_bucket",
    "ce_lease_takeovers_total",
    "ce_redis_round_trips_total",
    "ce_redis_seconds_bucket",
    "ce_queue_tickets",
    "ce_errors_total",
    'ce_gc_pause_seconds_bucket{generation="2"',
    'ce_table_sockets_total{where="here"}',
]


def test_metrics_behind_a_token_tell_the_figures(fast_settings: SettingsFactory) -> None:
    with TestClient(create_app(fast_settings(metrics_token="s3cret"))) as client:
        _, token = guest(client)
        table = make_table(client, token, bots=[{"seat": 1, "level": "random"}])
        refused = client.post("/api/tables/nope/sit", json={}, headers=as_(token))
        assert refused.status_code == 404
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
            until(ws, "welcome")  # counted from before its welcome (not at its accept)
            assert client.get("/metrics").status_code == 404
            bad = client.get("/metrics", headers={"authorization": "Bearer nope"})
            assert bad.status_code == 404
            page = client.get("/metrics", headers={"authorization": "Bearer s3cret"})
            assert page.status_code == 200, page.text
            text = page.text
    for figure in FIGURES:
        if figure not in ("ce_lease_takeovers_total", "ce_redis_seconds_bucket"):
            assert figure in text, figure
    assert "ce_sockets 1.0" in text
    assert f'ce_errors_total{{code="{refused.json()["error"]}"}}' in text


def test_no_metrics_route_without_a_token(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 404


def test_the_dashboard_draws_only_figures_the_room_exports() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    assert len(exprs) >= 8
    names = {f.split("{")[0].removesuffix("_bucket") for f in FIGURES}
    for expr in exprs:
        assert any(n in expr for n in names), expr


PROMETHEUS = shutil.which("prometheus")
PROMTOOL = shutil.which("promtool")


@pytest.mark.skipif(PROMTOOL is None, reason="needs promtool (Debian: prometheus)")
def test_the_alerting_rules_pass_promtool() -> None:
    assert PROMTOOL is not None
    done = subprocess.run(
        [PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 8 rules found" in done.stdout


def query(base: str, path: str, **params: str) -> Any:
    """The ``data`` of a Prometheus HTTP API answer."""
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)["data"]


@contextlib.contextmanager
def prometheus_up(folder: Path, targets: list[str]) -> Iterator[str]:
    """Debian's Prometheus on loopback, scraping ``targets`` every second as the job
    ``crazy-eights`` with the alerting rules loaded; its base URL."""
    assert PROMETHEUS is not None
    port = free_port()
    config = folder / "prometheus.yml"
    config.write_text(
        "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
        f"rule_files: ['{RULES}']\n"
        "scrape_configs:\n"
        "  - job_name: crazy-eights\n"
        f"    static_configs: [{{targets: {json.dumps(targets)}}}]\n"
    )
    prometheus = subprocess.Popen(
        [
            PROMETHEUS,
            f"--config.file={config}",
            f"--storage.tsdb.path={folder / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        prometheus.terminate()
        prometheus.wait(30)


@pytest.mark.slow
@pytest.mark.skipif(PROMETHEUS is None, reason="needs prometheus (Debian: prometheus)")
def test_a_real_prometheus_scrapes_a_running_room_and_loads_the_rules(tmp_path: Path) -> None:
    metrics_port = free_port()
    server = start_server(
        tmp_path / "room.db", env={"CE_METRICS_PORT": str(metrics_port)}, bot_workers=0
    )
    try:
        with prometheus_up(tmp_path, [f"127.0.0.1:{metrics_port}"]) as base:

            def scraped(expr: str) -> bool:
                try:
                    return bool(query(base, "/api/v1/query", query=expr)["result"])
                except OSError:
                    return False

            eventually(lambda: scraped('up{job="crazy-eights"} == 1'), "the room scraped", 60)
            eventually(lambda: scraped("ce_sockets"), "the room's own figures", 30)
            assert scraped("ce_bot_queue_depth")
            groups = query(base, "/api/v1/rules")["groups"]
            names = {r["name"] for g in groups for r in g["rules"]}
            assert {"CardRoomDown", "MovesSlow", "DatabaseCommitsSlow"} <= names
            assert all(r["health"] != "err" for g in groups for r in g["rules"])
    finally:
        server.stop()
