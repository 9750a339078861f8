"""How fast a socket may talk: a token bucket for its messages and decaying counts of its
offences (messages over the rate, malformed messages).

The offence counts decay, so a client whose traffic stays under the rate on average is
never closed for a few bursts long ago, while one that keeps flooding is.

>>> clock = [0.0]
>>> guard = Guard(rate=10, burst=2, max_flood=3, max_bad=5, now=lambda: clock[0])
>>> [guard.admit().name for _ in range(6)]
['OK', 'OK', 'DROP', 'DROP', 'DROP', 'CLOSE']
>>> clock[0] = 1.0  # a second later the strikes have drained
>>> [guard.admit().name for _ in range(3)]
['OK', 'OK', 'DROP']
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable


class Verdict(enum.Enum):
    OK = 1
    DROP = 2
    """Over the rate: answer ``rate_limited`` and drop the message."""
    CLOSE = 3
    """Kept flooding, or kept sending nonsense: close the socket (1008)."""


class Bucket:
    """A token bucket: ``take`` is False when the sender goes faster than ``rate`` a second
    for longer than ``burst`` messages."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        self.rate, self.burst, self._now = rate, burst, now
        self.tokens = burst
        self.at = now()

    def take(self) -> bool:
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Strikes:
    """A count that drains by ``decay`` a second; ``add`` says whether it passed ``limit``."""

    def __init__(self, limit: float, decay: float, now: Callable[[], float]) -> None:
        self.limit, self.decay, self._now = limit, decay, now
        self.level = 0.0
        self.at = now()

    def add(self) -> bool:
        now = self._now()
        self.level = max(0.0, self.level - (now - self.at) * self.decay) + 1
        self.at = now
        return self.level > self.limit


class Guard:
    """One socket's limits: ``admit`` each message, report each malformed one to ``bad``.

    Messages over the rate are strikes that drain at half the rate: a sender whose
    average stays under the rate never accumulates them. Malformed messages drain at one
    every five seconds.
    """

    def __init__(
        self,
        *,
        rate: float,
        burst: float,
        max_flood: float,
        max_bad: float,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bucket = Bucket(rate, burst, now)
        self._flood = Strikes(max_flood, rate / 2, now)
        self._bad = Strikes(max_bad, 0.2, now)

    def admit(self) -> Verdict:
        if self._bucket.take():
            return Verdict.OK
        return Verdict.CLOSE if self._flood.add() else Verdict.DROP

    def bad(self) -> bool:
        """Count a malformed message; True when the socket should be closed."""
        return self._bad.add()


class KeyedBuckets:
    """A token bucket per key (an account, an address), for how often each may do
    something (open a socket); buckets that have refilled are forgotten now and then."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        max_keys: int = 10_000,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self._now = rate, burst, now
        self._max_keys = max_keys
        self._buckets: dict[str, Bucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._max_keys:
                self._forget_full()
            bucket = self._buckets[key] = Bucket(self.rate, self.burst, self._now)
        return bucket.take()

    def _forget_full(self) -> None:
        now = self._now()
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.at) * bucket.rate >= bucket.burst:
                del self._buckets[key]
