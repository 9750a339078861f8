"""The easiest level: a uniformly random legal move."""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import Any

from crazy_eights.engine.moves import Move

from .base import check_legal


class RandomBot:
    """Plays a legal move chosen uniformly at random (its own seeded generator)."""

    name = "random"

    def __init__(self, *, seed: int) -> None:
        self.rng = _random.Random(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move:
        check_legal(legal)
        return legal[self.rng.randrange(len(legal))]
