"""Bot moves and hints for one table, thought out off the event loop by the bot pool.

The answer comes back to the table as an operation (``BotMove``, ``HintReady``,
``HintRefused``), so the table checks it against the game as it is by then, like any
other move. Bot moves ask the thinker at the ``move`` priority and hints at ``hint``, so
a table's turn never waits behind other tables' hints.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..botpool import HINT_LEVEL, PoolBusy, Priority
from .ops import BotMove, HintReady, HintRefused, Op

log = logging.getLogger(__name__)

BUSY = "the bots are busy: ask for a hint again in a moment"


class Thinker(Protocol):
    async def choose(
        self,
        *,
        level: str,
        seed: int,
        view: Mapping[str, Any],
        legal: list[str],
        table: str,
        priority: Priority,
    ) -> str:
        """The bot's move; raises ``PoolBusy`` when too many jobs of ``priority`` wait."""


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
        self,
        *,
        version: int,
        seat: int,
        level: str,
        view: Mapping[str, Any],
        legal: list[str],
        hurry: bool = False,
    ) -> None:
        """Start a decision for ``seat`` at ``version`` unless one is in flight; in a
        ``hurry`` (nobody is there to watch it) without the human-like pause."""
        if self.busy:
            return
        pause = 0.0 if hurry else self._delay
        self._task = asyncio.create_task(self._turn(version, seat, level, view, legal, pause))

    async def _turn(
        self,
        version: int,
        seat: int,
        level: str,
        view: Mapping[str, Any],
        legal: list[str],
        delay: float,
    ) -> None:
        started = time.monotonic()
        try:
            move = await self._thinker.choose(
                level=level,
                seed=(self._seed + version * 7919 + seat) % 2**32,
                view=view,
                legal=legal,
                table=self._table_id,
                priority="move",
            )
        except PoolBusy:
            log.warning("table %s: bot queue full; the bot plays its first move", self._table_id)
            move = legal[0]
        except Exception:
            log.exception("table %s: bot failed; it plays its first legal move", self._table_id)
            move = legal[0]
        pause = delay - (time.monotonic() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        self._submit(BotMove(version, seat, move, tuple(legal)))

    async def cancel(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class HintDesk:
    """Hints for a table's players: one search in flight per seat, one answer per position.

    Asking again while the seat's search runs adds the asker to those it answers; asking
    at a newer position waits for the running search and then starts the newer one.
    """

    def __init__(
        self, thinker: Thinker, *, submit: Callable[[Op], None], table_id: str = ""
    ) -> None:
        self._thinker = thinker
        self._submit = submit
        self._table_id = table_id
        self._answers: dict[tuple[int, int], str] = {}  # (version, seat) -> move
        self._asked: dict[int, asyncio.Task[None]] = {}  # seat -> the search under way
        self._waiting: dict[tuple[int, int], set[str]] = {}  # (version, seat) -> members
        self._next: dict[int, _Ask] = {}  # seat -> the newer position asked meanwhile

    def searching(self, seat: int) -> bool:
        task = self._asked.get(seat)
        return task is not None and not task.done()

    def ask(
        self, *, member_id: str, version: int, seat: int, view: Mapping[str, Any], legal: list[str]
    ) -> None:
        known = self._answers.get((version, seat))
        if known is not None:
            self._submit(HintReady(member_id, version, known))
            return
        self._waiting.setdefault((version, seat), set()).add(member_id)
        if self.searching(seat):
            running = self._next.get(seat)
            if running is None or running.version <= version:
                self._next[seat] = _Ask(version, view, legal)
            return
        self._start(seat, _Ask(version, view, legal))

    def _start(self, seat: int, ask: _Ask) -> None:
        self._asked[seat] = asyncio.create_task(self._search(seat, ask))

    async def _search(self, seat: int, ask: _Ask) -> None:
        key = (ask.version, seat)
        try:
            move = await self._thinker.choose(
                level=HINT_LEVEL,
                seed=ask.version,
                view=ask.view,
                legal=ask.legal,
                table=self._table_id,
                priority="hint",
            )
        except PoolBusy:
            for member_id in self._waiting.pop(key, ()):
                self._submit(HintRefused(member_id, BUSY))
        except Exception:
            log.exception("a hint search failed")
            self._waiting.pop(key, None)
        else:
            self._answers = {k: v for k, v in self._answers.items() if k[0] >= ask.version}
            self._answers[key] = move
            for member_id in self._waiting.pop(key, ()):
                self._submit(HintReady(member_id, ask.version, move))
        following = self._next.pop(seat, None)
        newest = ask.version if following is None else following.version
        for stale in [k for k in self._waiting if k[1] == seat and k[0] < newest]:
            del self._waiting[stale]
        if following is not None and following.version > ask.version:
            self._start(seat, following)

    async def cancel(self) -> None:
        tasks = list(self._asked.values())
        self._asked.clear()
        self._next.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@dataclass(frozen=True)
class _Ask:
    version: int
    view: Mapping[str, Any]
    legal: list[str]
