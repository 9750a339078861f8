"""The ``Bot`` protocol and what every bot shares (``check_legal``).

A bot decides from a seat's view (``game.view(seat, log=True)``) and the legal moves,
with its own seeded generator; it never sees hidden cards. Bots are small picklable
objects, cheap to build, so a card room may build one per decision in a process pool.
``levels.make_bot`` builds a bot of a difficulty level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from crazy_eights.engine.moves import Move


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal moves from a seat's view."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move: ...


def check_legal(legal: Sequence[Move]) -> None:
    """Refuse a decision with no legal move (the caller's mistake, said clearly)."""
    if not legal:
        raise ValueError("a bot was asked to move with no legal move")
