"""The table's seeded random generator (RULES T3, G4).

Random numbers come from SHAKE-128 over (seed, counter): the sequence is the same on
every machine and every Python version, the whole state is two ints (so cloning a game
is cheap), and one hash call yields the 51 numbers a shuffle of the deck needs.
"""

from __future__ import annotations

from hashlib import shake_128
from struct import Struct
from typing import Any, Final, TypeVar

T = TypeVar("T")
_M64: Final = (1 << 64) - 1
_COMPILED: Final = not __file__.endswith(".py")
_LAYOUTS: Final[dict[int, Struct]] = {}
"""``Struct`` of ``n`` little-endian 32-bit numbers, by ``n`` (a shuffle's draws)."""
_COUNTERS: Final = tuple(c.to_bytes(8, "little") for c in range(256))
"""The counter's 8 bytes for the first counts (a game's draws stay below 256)."""


class Rng:
    """A small deterministic generator; ``Rng(seed)`` gives the same numbers everywhere."""

    __slots__ = ("counter", "key")

    def __init__(self, seed: int) -> None:
        self.key = (seed & _M64).to_bytes(8, "little")
        self.counter = 0

    def _bytes(self, count: int) -> bytes:
        self.counter += 1
        counter = self.counter
        tail = _COUNTERS[counter] if counter < 256 else counter.to_bytes(8, "little")
        return shake_128(self.key + tail).digest(count)

    def next64(self) -> int:
        return int.from_bytes(self._bytes(8), "little")

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (multiply-shift on 64 bits: the bias is negligible)."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place, with 32-bit draws (bias below 2**-26)."""
        n = len(items)
        if n < 2:
            return
        data = self._bytes(4 * n)
        i = n - 1
        if _COMPILED:
            # the same j from the draw's two 16-bit halves read byte by byte, as two
            # products below 2**31: mypyc indexes bytes and multiplies these natively
            while i:
                k = 4 * i
                m = i + 1
                low = (data[k] | data[k + 1] << 8) * m
                j = ((data[k + 2] | data[k + 3] << 8) * m + (low >> 16)) >> 16
                items[i], items[j] = items[j], items[i]
                i -= 1
            return
        layout = _LAYOUTS.get(n)
        if layout is None:
            layout = _LAYOUTS[n] = Struct(f"<{n}I")
        draws: tuple[int, ...] = layout.unpack(data)
        while i:
            j = (draws[i] * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its key and counter (a mypyc-compiled class has no default)."""
        return (_rebuild, (self.key, self.counter))

    def clone(self) -> Rng:
        copy = Rng(0)
        copy.key = self.key
        copy.counter = self.counter
        return copy


PLAYOUT_MASK: Final = (1 << 30) - 1


def playout_seed(seed: int) -> int:
    """The playouts' generator state (30 bits) for any int ``seed``."""
    return (seed ^ (seed >> 30) ^ (seed >> 60)) & PLAYOUT_MASK


def playout_step(x: int) -> int:
    """The playouts' generator: a linear congruential step modulo 2**30 (multiplier
    69069, full period), cheap enough to draw once a move in pure Python, and whose
    products mypyc computes natively. It is not the table's generator (T3)."""
    return (x * 69069 + 1) & PLAYOUT_MASK


def below(x: int, count: int) -> int:
    """A choice among ``count`` from a playout state ``x``: its top 28 bits, scaled."""
    return ((x >> 2) * count) >> 28


def _rebuild(key: bytes, counter: int) -> Rng:
    rng = Rng(int.from_bytes(key, "little"))
    rng.counter = counter
    return rng
