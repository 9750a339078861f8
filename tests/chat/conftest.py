"""A real IRC server (Debian's ngircd, ``tests/services.Ngircd``) and a real Matrix
homeserver (``tests/services.Synapse``) for the chat host's tests;
the card room's database fixtures (a SQLite file, a PostgreSQL database), a real card
room on it (``crazy-eights serve``, ``card_room``) and a loop for the host beside it,
for the tests of its tables in the room."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..server.conftest import (  # noqa: F401 - the card room's database fixtures
    database_url,
    fast_settings,
    postgres_template,
)
from ..services import Ngircd, ServiceUnavailable, Synapse, free_port
from .loops import Loop

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ngircd(tmp_path: Path) -> Iterator[Ngircd]:
    """An ngircd on a free loopback port for this test alone (skipped if not installed)."""
    server = Ngircd(tmp_path / "ngircd")
    try:
        server.start()
    except ServiceUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def synapse(tmp_path: Path) -> Iterator[Synapse]:
    """A Synapse on a free loopback port for this test alone (skipped if not installed)."""
    server = Synapse(tmp_path / "synapse")
    try:
        server.start()
    except ServiceUnavailable as exc:
        server.stop()
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


def room_env(url: str) -> dict[str, str]:
    """The environment of a card room (or host) process of this checkout on ``url``."""
    env = dict(os.environ)
    env.update(
        {
            "CE_DATABASE_URL": url,
            "CE_BOT_WORKERS": "0",
            "CE_HASH_TIME_COST": "1",
            "CE_HASH_MEMORY_KIB": "8192",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")])),
        }
    )
    return env


def cli(*args: str) -> list[str]:
    """A ``crazy-eights`` command line run by this Python."""
    return [sys.executable, "-c", "from crazy_eights.cli import main; main()", *args]


@pytest.fixture
def card_room(database_url: str, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """A real card room (``crazy-eights serve``) on the test's database: its URL."""
    port = free_port()
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        cli(
            "serve",
            *("--host", "127.0.0.1", "--port", str(port), "--db", database_url),
            *("--log-level", "warning"),
        ),
        env=room_env(database_url),
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the card room did not start"
            time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def host_loop() -> Iterator[Loop]:
    """A loop of the chat host's own, beside a card room run by something else."""
    loop = Loop()
    yield loop
    loop.close()
