"""The table's seeded random generator (RULES T3, G4).

SplitMix64 in pure Python: its whole state is one int, so cloning a game is cheap, and
the sequence is the same on every machine and every Python version.
"""

from __future__ import annotations

from typing import TypeVar

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class Rng:
    """A small deterministic generator; ``Rng(seed)`` gives the same numbers everywhere."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next64(self) -> int:
        self.state = z = (self.state + _GAMMA) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (multiply-shift; the bias is below 2**-50 for card games)."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = z = (state + _GAMMA) & _M64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def clone(self) -> Rng:
        copy = Rng.__new__(Rng)
        copy.state = self.state
        return copy
