"""A table's chat: the recent lines, and how fast each speaker may talk (and react)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable

from .store import ChatLine

HISTORY = 50  # lines a newcomer is shown
RATE = (5, 10.0)  # lines per seconds, per speaker


class ChatRoom:
    def __init__(self, lines: Iterable[ChatLine] = ()) -> None:
        self.lines: deque[ChatLine] = deque(lines, maxlen=HISTORY)
        self._times: dict[object, deque[float]] = {}

    def refusal(self, speaker: object) -> str | None:
        """Why ``speaker`` may not talk now (None: it may); counts the line if it may."""
        times = self._times.setdefault(speaker, deque())
        now = time.monotonic()
        limit, window = RATE
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= limit:
            return f"at most {limit} chat messages in {window:g} s"
        times.append(now)
        return None

    def add(self, line: ChatLine) -> None:
        self.lines.append(line)


class SpeakerRate:
    """At most ``limit`` of something per ``window`` seconds per speaker (reactions)."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window, self._clock = limit, window, clock
        self._times: dict[object, deque[float]] = {}

    def admit(self, speaker: object) -> bool:
        """Whether ``speaker`` may go on now; counts it if so."""
        times = self._times.setdefault(speaker, deque())
        now = self._clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True
