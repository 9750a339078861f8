"""The soak test's short version (``bench/soak.py`` runs it for minutes): a minute of
tables coming and going, players dropping and returning, the server killed with SIGKILL
and restarted; every acknowledged move is in the database, no table is stuck, memory does
not grow."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _soak_module() -> object:
    spec = importlib.util.spec_from_file_location("soak", ROOT / "bench" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_a_minute_of_churn_and_kills_loses_nothing(tmp_path: Path) -> None:
    soak = _soak_module()
    result = asyncio.run(
        soak.soak(  # type: ignore[attr-defined]
            tmp_path, seconds=60, players=6, kill_every=20, seed=7, drain=60
        )
    )
    report = result.report()
    print(report)
    assert result.kills >= 1 and len(result.acknowledged) > 200 and result.drops > 0, report
    assert not result.missing, result.missing[:5]
    assert not result.stuck, result.stuck[:5]
    for warm, end in result.rss_mib:
        if warm:
            assert end - warm < 48, report
