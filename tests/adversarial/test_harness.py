"""The hostile-client harness (see ``harness``): while several guests do their worst, the
honest players at 50 tables still get their moves broadcast within 100 ms (p95), their
bots move within a second of their pause (p99), and the server's memory stays bounded.

The broadcast bound is checked against the same tables played without the attack in the
same run: on a machine busy with other work (CI runs tests side by side), the attack
must not make the honest players' p95 worse than twice the calm one (plus 25 ms), even
where the calm one is already over 100 ms."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .harness import attack
from .loopback import running

pytestmark = [pytest.mark.slow, pytest.mark.alone]

PAUSE = 0.3


def test_honest_players_are_not_hurt_by_hostile_ones(tmp_path: Path) -> None:
    with running(tmp_path / "room.db", bot_workers=1, bot_delay=PAUSE) as server:
        calm = asyncio.run(attack(server, tables=50, seconds=10.0, pause=PAUSE, hostile=False))
        seen = asyncio.run(attack(server, tables=50, seconds=20.0, pause=PAUSE))
    summary = seen.summary()
    quiet = calm.summary()["broadcast_p95_ms"]
    print("calm", calm.summary(), "under attack", summary)
    assert summary["moves"] > 200 and summary["bot_moves"] > 200, summary
    assert summary["broadcast_p95_ms"] < max(100.0, 2 * quiet + 25), (quiet, summary)
    # p99, not the maximum: on a shared 2-core machine a lone move can wait for the CPU
    assert summary["bot_late_p99_s"] < 1.0, summary
    assert not summary["errors"], summary
    warm, peak = seen.rss_kib[2], max(seen.rss_kib)
    assert peak - warm < 64 * 1024, summary
