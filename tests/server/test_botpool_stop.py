"""Issue 23, item 11: a stopped bot pool lets go of its worker processes' queues, whose
named semaphores multiprocessing's resource tracker otherwise reports as "leaked" when
the server is ended by SIGTERM (uvicorn re-raises it after shutting down: no exit
handlers run)."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing.synchronize
import time
from collections.abc import Mapping
from typing import Any

from crazy_eights.engine import Rules, new_game
from crazy_eights.server.botpool import BotPool


def slow_first(
    level: str, seed: int, view: Mapping[str, Any], legal: list[str], time_ms: float | None
) -> str:
    """A bot that thinks for half a second (runs in the worker process)."""
    time.sleep(0.5)
    return legal[0]


def semaphores() -> int:
    gc.collect()
    return sum(isinstance(o, multiprocessing.synchronize.SemLock) for o in gc.get_objects())


def test_a_stopped_pool_holds_no_semaphores_and_its_workers_are_gone() -> None:
    async def run() -> None:
        before = semaphores()
        pool = BotPool(1)
        game = new_game(Rules.preset("classic", players=2), seed=3)
        seat = game.current_player
        assert seat is not None
        legal = [str(m) for m in game.legal_moves()]
        move = await pool.choose(level="heuristic", seed=1, view=game.view(seat), legal=legal)
        assert move in legal
        assert semaphores() > before  # the process pool's queues
        await pool.stop()
        assert semaphores() == before
        assert multiprocessing.active_children() == []

    async def stopped_while_thinking() -> None:
        before = semaphores()
        pool = BotPool(1, work=slow_first)
        thinking = asyncio.ensure_future(
            pool.choose(level="heuristic", seed=1, view={}, legal=["draw"])
        )
        while pool.running == 0:
            await asyncio.sleep(0.01)
        await pool.stop()  # waits for the job in hand and the worker's exit
        assert semaphores() == before
        assert multiprocessing.active_children() == []
        await asyncio.gather(thinking, return_exceptions=True)

    asyncio.run(run())
    asyncio.run(stopped_while_thinking())
