"""The lab on a real Dask cluster: a scheduler and worker processes started with the
``dask`` command as a user starts them, on 127.0.0.1 only, stopped by the tests.

The same seeds give the same report and ratings as the local pool, byte for byte (but
for the measured decision times), and a worker killed mid-run loses and doubles no game.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client
from typer.testing import CliRunner

from crazy_eights.cli import app
from crazy_eights.sim.cluster import ClusterError, connect

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("dask-cluster")]

LOOPBACK = "127.0.0.1"
QUIET = ["--no-dashboard", "--dashboard-address", f"{LOOPBACK}:0"]
"""No dashboard, and the HTTP endpoint the scheduler keeps on loopback too."""
HELD = ("executing", "ready", "constrained")
"""The states of a worker's tasks that it plays now or next (``distributed``'s names)."""


def dask_command() -> str:
    """The ``dask`` command of this Python's environment."""
    found = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    assert found, "the dask command comes with the lab-cluster extra"
    return found


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """A process in a session of its own (so that it and its children stop together)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [dask_command(), *args], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process started by ``start`` and its children; SIGKILL if it lingers."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    """Poll ``check`` until it gives something true (bounded), and return it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``dask scheduler`` on a free loopback port; its address."""
    home = tmp_path_factory.mktemp("dask-scheduler")
    info = home / "scheduler.json"
    process = start(
        ["scheduler", "--host", LOOPBACK, "--port", "0", "--scheduler-file", str(info), *QUIET],
        home / "scheduler.log",
    )
    try:
        wait_for(lambda: info.exists() and info.stat().st_size, "the scheduler", timeout=180)
        address = str(json.loads(info.read_text())["address"])
        assert address.startswith(f"tcp://{LOOPBACK}:")
        yield address
    finally:
        stop(process)


def start_worker(address: str, home: Path, name: str) -> subprocess.Popen[bytes]:
    """``dask worker ADDRESS`` with one worker process of one thread, on loopback."""
    args = ["worker", address, "--nworkers", "1", "--nthreads", "1", "--name", name]
    args += ["--host", LOOPBACK, "--local-directory", str(home), *QUIET]
    return start(args, home / f"{name}.log")


@pytest.fixture(scope="module")
def cluster(scheduler: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Two workers (``dask worker``, one thread each) on the scheduler; its address."""
    home = tmp_path_factory.mktemp("dask-workers")
    workers = [start_worker(scheduler, home, f"steady-{i}") for i in range(2)]
    try:
        with Client(scheduler, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)
        yield scheduler
    finally:
        for worker in workers:
            stop(worker)


def test_a_scheduler_without_workers_is_a_clear_error(scheduler: str) -> None:
    """Runs first in this module, before the workers are started."""
    with pytest.raises(ClusterError, match="has no workers"), connect(scheduler, timeout=3):
        pass


def comparable(path: Path) -> bytes:
    """A report's bytes without the decision times, which are measured, not played."""

    def drop_times(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: drop_times(v) for k, v in value.items() if k != "decision_ms"}
        if isinstance(value, list):
            return [drop_times(v) for v in value]
        return value

    return json.dumps(drop_times(json.loads(path.read_text())), indent=2).encode()


def run_cli(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_sim_on_a_cluster_reports_what_the_local_pool_reports(cluster: str, tmp_path: Path) -> None:
    batch = ["sim", "--rules", "ultimate", "--players", "4", "--set", "mode=single"]
    batch += ["--bots", "heuristic,random,heuristic,ismcts:iterations=8", "--games", "13"]
    batch += ["--seed", "7"]
    local, remote = tmp_path / "local.json", tmp_path / "cluster.json"
    run_cli([*batch, "--jobs", "1", "--json", str(local)])
    output = run_cli([*batch, "--cluster", cluster, "--chunk", "5", "--json", str(remote)])
    assert "2 workers" in output
    assert json.loads(remote.read_text())["games_finished"] == 13
    assert comparable(remote) == comparable(local)


def test_a_tournament_on_a_cluster_rates_as_the_local_pool_does(
    cluster: str, tmp_path: Path
) -> None:
    batch = ["tournament", "--rules", "classic", "--players", "2", "--set", "mode=single"]
    batch += ["--bots", "random,heuristic,ismcts:iterations=8", "--games", "6", "--seed", "3"]
    local, remote = tmp_path / "local.json", tmp_path / "cluster.json"
    run_cli([*batch, "--jobs", "2", "--json", str(local)])
    run_cli([*batch, "--cluster", cluster, "--json", str(remote)])
    data = json.loads(remote.read_text())
    assert [p["games_finished"] for p in data["pairings"]] == [6, 6, 6]
    assert comparable(remote) == comparable(local)


def test_a_worker_killed_mid_run_loses_and_doubles_no_game(cluster: str, tmp_path: Path) -> None:
    """A third worker joins, takes a chunk and is killed (SIGKILL) while it plays it: the
    chunk is played again on another worker and the report is the local pool's."""
    batch = ["sim", "--rules", "classic", "--players", "2", "--set", "mode=single"]
    batch += ["--bots", "heuristic,ismcts:iterations=20", "--games", "40", "--seed", "5"]
    local, remote = tmp_path / "local.json", tmp_path / "cluster.json"
    run_cli([*batch, "--jobs", "1", "--json", str(local)])

    victim = start_worker(cluster, tmp_path, "victim")
    try:
        with Client(cluster, timeout=60, set_as_default=False) as monitor:
            monitor.wait_for_workers(3, timeout=120)
            address = next(
                a
                for a, w in monitor.scheduler_info(n_workers=-1)["workers"].items()
                if w["name"] == "victim"
            )
            on_cluster = ["--cluster", cluster, "--chunk", "4", "--json", str(remote)]
            run = subprocess.Popen(
                [sys.executable, "-m", "crazy_eights.cli", *batch, *on_cluster],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )

            def held(dask_worker: Any) -> list[str]:
                """The chunks a worker holds while it plays one: playing and next in line."""
                state = dask_worker.state
                if not state.executing:
                    return []
                return [str(k) for k, t in state.tasks.items() if t.state in HELD]

            def story(dask_scheduler: Any, keys: list[str]) -> list[tuple[str, str]]:
                return [(str(t[0]), str(t[2])) for t in dask_scheduler.story(*keys)]

            def victim_playing() -> list[str]:
                assert run.poll() is None, "the run ended before the worker played a chunk"
                return list(monitor.run(held, workers=[address]).get(address, []))

            # The command starts in a fresh process: slow to import on a busy machine.
            lost = wait_for(victim_playing, "the worker to play a chunk", timeout=300)
            os.killpg(victim.pid, signal.SIGKILL)
            assert run.poll() is None, "the run ended before the worker was killed"
            output, _ = run.communicate(timeout=300)
            assert run.returncode == 0, output.decode()
            transitions = monitor.run_on_scheduler(story, keys=lost)
    finally:
        stop(victim, signal.SIGKILL)
    assert json.loads(remote.read_text())["games_finished"] == 40
    assert comparable(remote) == comparable(local)
    # The chunks the victim held went back to the scheduler and were played again (one
    # of them at least: the one it played may just have finished as the kill came).
    replayed = [
        key for key in lost if [s for k, s in transitions if k == key].count("processing") >= 2
    ]
    assert replayed, transitions


def test_an_address_without_a_scheduler_is_a_clear_error() -> None:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    with (
        pytest.raises(ClusterError, match="cannot reach"),
        connect(f"tcp://{LOOPBACK}:{port}", timeout=1),
    ):
        pass
