"""A table's timers: the turn clock, and the grace an absent player's seat is kept for.

Neither decides anything: when a timer runs out it calls back, and the actor (which
owns the rules of the table) decides what that means.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class TurnClock:
    """One turn deadline at a time; ``on_expire(version)`` when it passes unanswered."""

    def __init__(self, on_expire: Callable[[int], None]) -> None:
        self._on_expire = on_expire
        self._handle: asyncio.TimerHandle | None = None
        self._deadline = 0.0

    def arm(self, seconds: float, version: int) -> None:
        """Start the clock for the move that will make ``version + 1``."""
        self.cancel()
        loop = asyncio.get_running_loop()
        self._deadline = loop.time() + seconds
        self._handle = loop.call_at(self._deadline, self._on_expire, version)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    @property
    def running(self) -> bool:
        return self._handle is not None

    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed)."""
        return max(0.0, self._deadline - asyncio.get_running_loop().time())


class GraceTimers:
    """Per seat: how long an absent player's seat is kept before ``on_over(seat)``."""

    def __init__(self, seconds: float, on_over: Callable[[int], None]) -> None:
        self.seconds = seconds
        self._on_over = on_over
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._ends: dict[int, float] = {}

    def start(self, seat: int, seconds: float | None = None) -> None:
        """Start the seat's grace (``seconds``, else the timers' own), unless it is
        already running."""
        if seat in self._handles:
            return
        loop = asyncio.get_running_loop()
        self._ends[seat] = loop.time() + (self.seconds if seconds is None else seconds)
        self._handles[seat] = loop.call_at(self._ends[seat], self._over, seat)

    def cancel(self, seat: int) -> None:
        handle = self._handles.pop(seat, None)
        self._ends.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def running(self, seat: int) -> bool:
        return seat in self._handles

    def left(self, seat: int) -> float | None:
        """Seconds of grace the seat has left, or None when none is running."""
        end = self._ends.get(seat)
        if end is None:
            return None
        return max(0.0, end - asyncio.get_running_loop().time())

    def cancel_all(self) -> None:
        for seat in list(self._handles):
            self.cancel(seat)

    def _over(self, seat: int) -> None:
        self._handles.pop(seat, None)
        self._ends.pop(seat, None)
        self._on_over(seat)
