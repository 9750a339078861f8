"""Real services for any test: PostgreSQL, Redis and nginx on 127.0.0.1 (``tests/services.py``).

Fixtures:

- ``postgres_server`` (session): the superuser URL of a cluster; ``CE_TEST_POSTGRES_URL``
  when set (CI), else a cluster started for this session (per xdist worker).
- ``postgres_url``: a fresh, empty database of that cluster, dropped after the test.
- ``postgres_databases`` (session): create and drop databases (``create(template=...)``).
- ``redis_server`` (session): ``CE_TEST_REDIS_URL`` or a server started for the session.
- ``redis_url``: a Redis database of this worker's own, flushed before the test.
- ``nginx``: ``nginx(http_body)`` runs Debian's nginx with that ``http { }`` body (its
  ``listen {listen};`` becomes a free loopback port) and gives the ``Nginx`` back (``.url``).

Without the variables and without the Debian binaries the tests that need a service are
skipped with the reason; with the variables set, a service that does not answer fails them.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

from .hangs import summary, tasks_dump
from .services import POSTGRES_ENV, REDIS_ENV, Nginx, Postgres, Redis, ServiceUnavailable

T = TypeVar("T")

# Property tests judge what the code does, not how fast: on a loaded machine (two cores
# shared by parallel test processes) one example can take longer than Hypothesis's 200 ms
# deadline, or data generation look "too slow", and the run fail for nothing. Tests that
# set their own ``@settings`` start from this profile.
settings.register_profile(
    "crazy-eights", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("crazy-eights")


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on a thread of its own, so that it works from any test, even
    while Playwright's sync API (the browser tests) runs a loop on the main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result()


def worker_number() -> int:
    """0 for the only or the first pytest-xdist worker (``gw0``), 1 for ``gw1``..."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


def _shared_or_own(variable: str, server: Postgres | Redis) -> Iterator[str]:
    """The server an environment variable names (CI's), else ``server`` started for the
    session, or a skip saying what to install."""
    if os.environ.get(variable):
        yield os.environ[variable]
        return
    try:
        url = server.start()
    except ServiceUnavailable as exc:
        server.stop()
        pytest.skip(str(exc))
    except BaseException:
        server.stop()  # whatever was made before it failed
        raise
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    yield from _shared_or_own(POSTGRES_ENV, Postgres())


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    yield from _shared_or_own(REDIS_ENV, Redis())


def with_database(url: str, name: str) -> str:
    """``url`` (any PostgreSQL URL) pointed at database ``name``."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


class Databases:
    """Creates and drops databases on a cluster through asyncpg (the ``postgres`` extra)."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url

    def _execute(self, sql: str) -> None:
        import asyncpg

        async def run() -> None:
            conn = await asyncpg.connect(self.admin_url)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        run_async(run())

    def create(self, template: str | None = None) -> str:
        """A new database (empty, or a copy of ``template``); returns its URL."""
        name = f"ce_test_{secrets.token_hex(6)}"
        copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else " TEMPLATE template0"
        self._execute(f"CREATE DATABASE {name}{copy}")
        return with_database(self.admin_url, name)

    def drop(self, url: str) -> None:
        name = url.rpartition("/")[2]
        self._execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres_databases(postgres_server: str) -> Databases:
    pytest.importorskip("asyncpg", reason="needs the postgres extra: pip install -e '.[postgres]'")
    return Databases(postgres_server)


@pytest.fixture
def postgres_url(postgres_databases: Databases) -> Iterator[str]:
    url = postgres_databases.create()
    try:
        yield url
    finally:
        postgres_databases.drop(url)


@pytest.fixture
def redis_url(redis_server: str) -> str:
    redis = pytest.importorskip(
        "redis", reason="needs the cluster extra: pip install -e '.[cluster]'"
    )
    url = f"{redis_server.rstrip('/')}/{1 + worker_number()}"
    with redis.Redis.from_url(url) as client:
        client.flushdb()
    return url


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Callable[[str], Nginx]]:
    started: list[Nginx] = []

    def start(http: str, **kwargs: Any) -> Nginx:
        server = Nginx(tmp_path / f"nginx{len(started)}", http, **kwargs)
        try:
            server.start()
        except ServiceUnavailable as exc:
            pytest.skip(str(exc))
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the short summary: for each test that ran out of time, the phase and where
    each thread was (``tests/hangs.py``), so the end of a long log says what hung."""
    reports = terminalreporter.stats.get("failed", []) + terminalreporter.stats.get("error", [])
    hung = [report for report in reports if "from pytest-timeout" in report.longreprtext]
    if not hung:
        return
    terminalreporter.section("what the tests that ran out of time were waiting for")
    for report in hung:
        for line in summary(report):
            terminalreporter.line(line)


# A little before pytest-timeout gives up on a test, the tasks of the event loops that run
# then are printed into the test's output (``tests/hangs.py``).
_TASKS_BEFORE = 5.0  # seconds
_watchers: dict[str, threading.Timer] = {}


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    if settings.timeout and settings.timeout > 2 * _TASKS_BEFORE:
        timer = threading.Timer(
            settings.timeout - _TASKS_BEFORE, lambda: print(tasks_dump(), flush=True)
        )
        timer.daemon = True
        timer.start()
        _watchers[item.nodeid] = timer


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    timer = _watchers.pop(item.nodeid, None)
    if timer is not None:
        timer.cancel()
