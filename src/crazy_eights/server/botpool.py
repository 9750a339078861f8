"""Bots at tables think here, off the event loop: a process pool (or one thread for tests).

The bots package contract is ``make_bot(level, seed=...).choose(view, legal)``. Until
``crazy_eights.bots`` exists, a clearly marked stand-in picks a seeded random legal move.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from crazy_eights.engine import Move

log = logging.getLogger(__name__)

try:
    from crazy_eights.bots import BOT_LEVELS, make_bot

    FALLBACK = False
except ImportError:  # FALLBACK: the bots package has not landed yet.
    BOT_LEVELS = ("random", "heuristic", "ismcts")
    FALLBACK = True

    class _FallbackBot:
        """FALLBACK ONLY, used while ``crazy_eights.bots`` is missing: a seeded random pick."""

        def __init__(self, seed: int) -> None:
            self._random = random.Random(seed)

        def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move:
            return self._random.choice(list(legal))

    def make_bot(level: str, *, seed: int | None = None) -> Any:
        return _FallbackBot(seed or 0)


HINT_LEVEL = "ismcts"


def think(level: str, seed: int, view: dict[str, Any], legal: list[str]) -> str:
    """Choose a move; runs in a worker process. Returns move text."""
    bot = make_bot(level, seed=seed)
    return str(bot.choose(view, [Move.parse(m) for m in legal]))


class BotPool:
    """Where bot decisions run: ``workers`` processes, or a thread when ``workers`` is 0."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._executor: Executor | None = None
        if FALLBACK:
            log.warning("crazy_eights.bots is not installed: bots play random legal moves")

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._workers > 0:
                self._executor = ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("spawn")
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="bots")
        return self._executor

    async def choose(self, *, level: str, seed: int, view: dict[str, Any], legal: list[str]) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), think, level, seed, view, legal)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
