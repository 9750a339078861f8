"""Who came and went, told to a table's members in one small message now and then.

A socket arriving or leaving changes one seat's ``connected`` or the watcher count.
Telling every member at once would cost each arrival the whole audience (and a crowd
arriving, its square), so the table notes what changed here and says it in one
``presence`` message: a seat's change within ``seat_delay`` seconds, a count-only change
within ``count_delay``. Each arrival costs the same whatever the audience; the shared
message goes out at most once per delay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

SEAT_DELAY = 0.2
COUNT_DELAY = 2.0


class Presence:
    """The changes not told yet; ``on_due()`` is called when they should be."""

    def __init__(
        self,
        on_due: Callable[[], None],
        *,
        seat_delay: float = SEAT_DELAY,
        count_delay: float = COUNT_DELAY,
    ) -> None:
        self._on_due = on_due
        self._seat_delay = seat_delay
        self._count_delay = count_delay
        self._seats: set[int] = set()
        self._count = False
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0

    def seat(self, seat: int) -> None:
        """A seat's presence (connected, stand-in) changed."""
        self._seats.add(seat)
        self._schedule(self._seat_delay)

    def count(self) -> None:
        """The number of watchers changed."""
        self._count = True
        self._schedule(self._count_delay)

    @property
    def pending(self) -> bool:
        return bool(self._seats) or self._count

    def take(self) -> list[int]:
        """The seats changed since the last ``take`` (the count is always told)."""
        seats = sorted(self._seats)
        self._seats.clear()
        self._count = False
        self.cancel()
        return seats

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self, delay: float) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        if self._handle is not None:
            if self._due <= due:
                return
            self._handle.cancel()
        self._due = due
        self._handle = loop.call_at(due, self._fire)

    def _fire(self) -> None:
        self._handle = None
        self._on_due()
