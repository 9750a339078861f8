"""Short garbage-collection pauses for a long-running card room.

CPython's cycle collector scans every object it tracks in a full (oldest-generation)
collection, holding the interpreter the whole time. A room with 2,000 sockets tracks
about 440,000 objects (each socket's coroutines, queues and rate limits, each table's
game), and a full collection of them took 300 to 500 ms on the test machine: every
table stalled at once, which was the whole of the SQLite room's p99 in
``bench/load.py``. Most of those objects live as long as their socket or table.

So ``Collector`` keeps what has survived a full collection out of the next ones
(``gc.freeze``): each full collection scans only what became long-lived since the last,
and the interpreter's own rule (a full collection once the newly long-lived objects
pass a quarter of the last full collection's survivors) then runs them small and often.
Objects whose last reference goes are freed at once as always (reference counting does
not look at generations); only reference cycles among frozen objects wait, until every
``sweep_seconds`` everything is handed back (``gc.unfreeze``) for one whole collection.
Each collection's pause is observed in ``ce_gc_pause_seconds`` by generation.

    >>> collector = Collector(sweep_seconds=900.0)
    >>> collector.install()
    >>> gc.get_freeze_count() > 0
    True
    >>> collector.uninstall()
    >>> gc.get_freeze_count()
    0
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import Histogram

from .metrics import GC_PAUSE_SECONDS

log = logging.getLogger(__name__)

OLDEST = 2  # the generation a full collection collects


class Collector:
    """The room's collection policy: freeze the survivors of each full collection,
    give everything back to the collector every ``sweep_seconds`` (``clock`` is
    ``time.monotonic`` but for tests)."""

    def __init__(
        self,
        *,
        sweep_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        pauses: Histogram = GC_PAUSE_SECONDS,
    ) -> None:
        self.sweep_seconds = sweep_seconds
        self._clock = clock
        self._pauses = [pauses.labels(str(g)) for g in range(OLDEST + 1)]  # bound once
        self._started = 0.0
        self._swept = clock()
        self._sweeping = False
        self.installed = False

    def install(self) -> None:
        """Freeze what exists now (the code and the start-up state) and follow every
        full collection from here on."""
        if self.installed:
            return
        gc.collect()
        gc.freeze()
        self._swept = self._clock()
        gc.callbacks.append(self._observe)
        self.installed = True

    def uninstall(self) -> None:
        """Back to the interpreter's own collection, every object collectable again."""
        if not self.installed:
            return
        gc.callbacks.remove(self._observe)
        gc.unfreeze()
        self.installed = False

    @property
    def sweep_due(self) -> bool:
        """Whether the next full collection should see every object (a sweep)."""
        return self._clock() - self._swept >= self.sweep_seconds

    def _observe(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        self._pauses[generation].observe(time.perf_counter() - self._started)
        if generation != OLDEST:
            return
        if self._sweeping:  # this was the sweep: everything was scanned
            self._sweeping = False
            self._swept = self._clock()
            log.info("full sweep collected %d objects", info["collected"])
        elif self.sweep_due:
            gc.unfreeze()  # the next full collection scans every object
            self._sweeping = True
            return
        gc.freeze()


__all__ = ["Collector"]
