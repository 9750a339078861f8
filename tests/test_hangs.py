"""A test that runs out of time says, at the end of the run, which coroutine it waited on."""

from __future__ import annotations

import doctest
import subprocess
import sys
import textwrap
from pathlib import Path

from tests import hangs

ROOT = Path(__file__).resolve().parents[1]

STUCK = """
import asyncio
import contextlib

from starlette.applications import Starlette
from starlette.testclient import TestClient


async def never_closes() -> None:
    await asyncio.Event().wait()


@contextlib.asynccontextmanager
async def lifespan(app):
    yield
    await never_closes()


def test_a_room_that_never_closes():
    with TestClient(Starlette(lifespan=lifespan)):
        pass
"""


def test_digest_doctests() -> None:
    assert doctest.testmod(hangs).failed == 0


def test_a_test_stuck_in_an_apps_shutdown_names_the_coroutine_at_the_end(tmp_path: Path) -> None:
    (tmp_path / "test_stuck.py").write_text(textwrap.dedent(STUCK))
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import (  # noqa: F401\n"
        "    pytest_terminal_summary, pytest_timeout_cancel_timer, pytest_timeout_set_timer\n"
        ")\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "timeout=11",
         "-W", "ignore::DeprecationWarning", "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    end = run.stdout.splitlines()[-12:]
    assert any("what the tests that ran out of time were waiting for" in line for line in end)
    waiting = [line for line in end if line.lstrip().startswith("task ")]
    assert any("test_stuck.py:10 never_closes < " in line for line in waiting), run.stdout
    assert any("test_a_room_that_never_closes (call); main thread: " in line for line in end)
