"""Browser tests: the real card room on 127.0.0.1 and Debian's Chromium driven by Playwright.

The server runs as a child process (uvicorn, a free port, a SQLite file in a temp folder,
fast bots) and serves this checkout's client. Tests skip when ``/usr/bin/chromium`` is
missing; nothing is downloaded.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("CE_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "crazy_eights" / "web"
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``) every browser test runs on one worker,
    which starts the card room and Chromium once; the other workers take the rest."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.xdist_group("browser"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def server_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the card room's SQLite file and log."""
    return tmp_path_factory.mktemp("cardroom")


@pytest.fixture(scope="session")
def server_db(server: str, server_folder: Path) -> str:
    """The card room's database (for the command line: ``admin --db``)."""
    return str(server_folder / "e2e.db")


@pytest.fixture(scope="session")
def server(server_folder: Path) -> Iterator[str]:
    """The card room's base URL; the server is stopped after the session."""
    folder = server_folder
    port = _free_port()
    env = dict(os.environ)
    env.update(
        {
            "CE_DATABASE_URL": str(folder / "e2e.db"),
            "CE_WEB_DIR": str(WEB),
            "CE_BOT_DELAY": "0.05",
            "CE_ROUND_PAUSE_SECONDS": "20",
            "CE_BOT_WORKERS": "0",
            "CE_HASH_TIME_COST": "1",
            "CE_HASH_MEMORY_KIB": "8192",
            # every browser of the session signs up from 127.0.0.1
            "CE_SIGNUP_LIMIT": "100000",
            # a player who closes the tab mid-game gets a stand-in after this (test_absence)
            "CE_AWAY_SECONDS": "8",
            # game analysis: a quick search, and low marks so a seeded game has some
            "CE_ANALYSIS_WORLDS": "16",
            "CE_ANALYSIS_THRESHOLDS": "[0.02, 0.05, 0.12]",
            # the browser tests' guests are rated, and settled after one game, as before
            # issue 23 (tests/server/test_trusted_ratings.py checks the defaults)
            "CE_RATE_GUESTS": "1",
            "CE_PROVISIONAL_GAMES": "1",
            # quick play's queue waits 5 s for more people (10 s by default)
            "CE_MATCH_WINDOW_SECONDS": "5",
            # the Master Card Archon title after one rated game (test_progress.py)
            "CE_ARCHON_MIN_GAMES": "1",
            # and people with one game in the evaluation's room median
            "CE_EVALUATION_MIN_GAMES": "1",
        }
    )
    if "CE_E2E_PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ["CE_E2E_PYTHONPATH"]])
    else:
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT), str(ROOT / "src"), env.get("PYTHONPATH")])
        )
    log = open(folder / "server.log", "w")  # noqa: SIM115 - closed below
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "tests.e2e.seeded_app:create_app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as res:
                if res.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            raise RuntimeError(
                f"the card room did not start:\n{(folder / 'server.log').read_text()}"
            )
        time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Playwright's sync API keeps an asyncio loop running
    on the main thread while it is open, and ``asyncio.run`` refuses to start under it:
    a session-long browser would break every later test of the process that uses one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Console:
    """Console errors and page errors seen by a page; tests assert there are none."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def new_page(browser: Any, server: str, console: Console) -> Iterator[Any]:
    """Make pages in fresh browser contexts (each its own cookies: its own player)."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800, **kwargs: Any) -> Any:
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=server, **kwargs
        )
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        console.watch(page)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(Exception):  # let flying cards land first
        page.wait_for_function("() => !document.querySelector('.fly-card, .spark')", timeout=3000)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
