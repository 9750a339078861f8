"""Token buckets: how fast the host speaks on a network, and how fast one nick may
give it commands (a flood from one nick is cut without slowing the others)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

Clock = Callable[[], float]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; ``take()`` spends one."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now

    def take(self) -> bool:
        """Spend a token if there is one (True), else nothing (False)."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there (0: now)."""
        self._refill()
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) / self.rate


class FloodGate:
    """One bucket per speaker; a speaker over their rate is told once, then ignored
    until a token is back. Keeps at most ``keep`` speakers (the least recent go)."""

    def __init__(
        self, rate: float, burst: int, clock: Clock = time.monotonic, keep: int = 4096
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._keep = keep
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._warned: set[str] = set()

    def admit(self, speaker: str) -> bool | None:
        """True: go on; None: refused, tell them to slow down (once); False: refused."""
        bucket = self._buckets.get(speaker)
        if bucket is None:
            bucket = self._buckets[speaker] = TokenBucket(self.rate, self.burst, self._clock)
            while len(self._buckets) > self._keep:
                old, _ = self._buckets.popitem(last=False)
                self._warned.discard(old)
        self._buckets.move_to_end(speaker)
        if bucket.take():
            self._warned.discard(speaker)
            return True
        if speaker in self._warned:
            return False
        self._warned.add(speaker)
        return None
