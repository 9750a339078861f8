"""Bot moves and hints for one table, thought out off the event loop by the bot pool.

The answer comes back to the table as an operation (``BotMove``, ``HintReady``), so the
table checks it against the game as it is by then, like any other move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from .ops import BotMove, HintReady, Op

log = logging.getLogger(__name__)

HINT_LEVEL = "ismcts"


class Thinker(Protocol):
    async def choose(
        self, *, level: str, seed: int, view: dict[str, Any], legal: list[str]
    ) -> str: ...


class BotTurns:
    """At most one bot decision in flight per table; each waits out the bot's pause."""

    def __init__(
        self,
        thinker: Thinker,
        *,
        table_id: str,
        seed: int,
        delay: float,
        submit: Callable[[Op], None],
    ) -> None:
        self._thinker = thinker
        self._table_id = table_id
        self._seed = seed
        self._delay = delay
        self._submit = submit
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def think(
        self, *, version: int, seat: int, level: str, view: dict[str, Any], legal: list[str]
    ) -> None:
        """Start a decision for ``seat`` at ``version`` unless one is in flight."""
        if self.busy:
            return
        self._task = asyncio.create_task(self._turn(version, seat, level, view, legal))

    async def _turn(
        self, version: int, seat: int, level: str, view: dict[str, Any], legal: list[str]
    ) -> None:
        started = time.monotonic()
        try:
            move = await self._thinker.choose(
                level=level,
                seed=(self._seed + version * 7919 + seat) % 2**32,
                view=view,
                legal=legal,
            )
        except Exception:
            log.exception("table %s: bot failed; it plays its first legal move", self._table_id)
            move = legal[0]
        pause = self._delay - (time.monotonic() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        self._submit(BotMove(version, seat, move, tuple(legal)))

    async def cancel(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class HintDesk:
    """Hints for a table's players: one in flight per seat, one answer per position."""

    def __init__(self, thinker: Thinker, *, submit: Callable[[Op], None]) -> None:
        self._thinker = thinker
        self._submit = submit
        self._answers: dict[tuple[int, int], str] = {}  # (version, seat) -> move
        self._asked: dict[int, asyncio.Task[None]] = {}  # seat -> the search under way

    def ask(
        self, *, member_id: str, version: int, seat: int, view: dict[str, Any], legal: list[str]
    ) -> None:
        known = self._answers.get((version, seat))
        if known is not None:
            self._submit(HintReady(member_id, version, known))
            return
        running = self._asked.get(seat)
        if running is not None and not running.done():
            return
        self._asked[seat] = asyncio.create_task(self._search(member_id, version, seat, view, legal))

    async def _search(
        self, member_id: str, version: int, seat: int, view: dict[str, Any], legal: list[str]
    ) -> None:
        try:
            move = await self._thinker.choose(
                level=HINT_LEVEL, seed=version, view=view, legal=legal
            )
        except Exception:
            log.exception("a hint search failed")
            return
        self._answers = {k: v for k, v in self._answers.items() if k[0] >= version}
        self._answers[(version, seat)] = move
        self._submit(HintReady(member_id, version, move))

    async def cancel(self) -> None:
        tasks = list(self._asked.values())
        self._asked.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
