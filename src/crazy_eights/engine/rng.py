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
_M32: Final = 0xFFFFFFFF
_COMPILED: Final = not __file__.endswith(".py")
_LAYOUTS: Final[dict[int, Struct]] = {}
"""``Struct`` of ``n`` little-endian 32-bit numbers, by ``n`` (a shuffle's draws)."""


class Rng:
    """A small deterministic generator; ``Rng(seed)`` gives the same numbers everywhere."""

    __slots__ = ("counter", "key")

    def __init__(self, seed: int) -> None:
        self.key = (seed & _M64).to_bytes(8, "little")
        self.counter = 0

    def _bytes(self, count: int) -> bytes:
        self.counter += 1
        return shake_128(self.key + self.counter.to_bytes(8, "little")).digest(count)

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
        layout = _LAYOUTS.get(n)
        if layout is None:
            layout = _LAYOUTS[n] = Struct(f"<{n}I")
        draws: tuple[int, ...] = layout.unpack(self._bytes(4 * n))
        i = n - 1
        if _COMPILED:
            # the same j, as two products below 2**31: mypyc multiplies those natively
            while i:
                d = draws[i]
                j = ((d >> 16) * (i + 1) + (((d & 0xFFFF) * (i + 1)) >> 16)) >> 16
                items[i], items[j] = items[j], items[i]
                i -= 1
            return
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


def xorshift_seed(seed: int) -> int:
    """A nonzero 32-bit state for ``xorshift32`` from any int."""
    return (seed ^ (seed >> 32)) & _M32 or 0x9E3779B9


def xorshift32(x: int) -> int:
    """The next state of Marsaglia's 32-bit xorshift (13, 17, 5): the playouts'
    generator, cheap enough to draw once a move (it is not the table's, T3). A choice
    among ``count`` takes ``below(x, count)``."""
    x ^= (x << 13) & _M32
    x ^= x >> 17
    return x ^ ((x << 5) & _M32)


def below(x: int, count: int) -> int:
    """A choice among ``count`` from a 32-bit state ``x``: its top 30 bits scaled (a
    product below 2**62, which mypyc multiplies natively)."""
    return ((x >> 2) * count) >> 30


def _rebuild(key: bytes, counter: int) -> Rng:
    rng = Rng(int.from_bytes(key, "little"))
    rng.counter = counter
    return rng
