"""The end of a game as an event: the store announces ``GameFinished``; the features
that keep something of a finished game (records and ratings, the evaluation's counts,
achievements, game analysis) hear of it. The room wires them (``FinishSubscribers``),
so the table core imports none of them.

Two moments, as the finish needs: subscribers ``in_transaction`` write inside the
transaction that marks the table finished (a game counts in the records, the counts and
the achievements together or not at all, and only once); ``after_commit`` subscribers
are told once it is stored (they start work of their own, such as an analysis).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncConnection

from crazy_eights.engine import Rules

from ..measures import GameMeasures

RatingChanges = dict[int, tuple[int, int]]
"""Each account's rating as people read it, before and after the game."""


@dataclass(frozen=True)
class FinishedSeat:
    """Who sat at a seat when the game ended."""

    seat: int
    account_id: int | None
    left: bool
    """A person who left the running game (it counts as a loss)."""
    bot: str | None
    """The bot level that sat here from the start, if a bot did."""
    played: bool = True
    """Whether the person made a move of the seat themselves (False: only a stand-in
    bot did, as far as the table saw since it was last loaded)."""

    @property
    def human(self) -> bool:
        """A person sat here (who may have left)."""
        return self.account_id is not None and self.bot is None


@dataclass(frozen=True)
class GameFinished:
    """A game the store is marking finished, with what its replay counted."""

    table_id: str
    rules: Rules
    rated: bool
    """Public and without hints (``Spec.rated``)."""
    seats: tuple[FinishedSeat, ...]
    result: Mapping[str, Any]
    measured: GameMeasures | None
    """Each seat's counts and penalties from replaying the stored moves (measured
    once, before the transaction, as the replay takes a while); None when it could not
    be replayed."""
    public: bool = True
    """A private game counts in no public figure (records, evaluation, accuracy,
    achievements): it is its players' own, in their history."""


class Rater(Protocol):
    """Writes the game into the players' records and ratings, in the transaction."""

    async def __call__(self, conn: AsyncConnection, game: GameFinished) -> RatingChanges: ...


class InFinish(Protocol):
    """Writes a feature's part of the game, in the transaction (after the rater's)."""

    async def __call__(self, conn: AsyncConnection, game: GameFinished) -> None: ...


AfterFinish = Callable[[GameFinished], None]
"""Told once the finished game is stored (it must not block: start a task if needed)."""


@dataclass(frozen=True)
class FinishSubscribers:
    """Who hears of a finished game, in order: ``rate`` first (its rating changes are
    what the table tells its players), then each of ``in_transaction``, all in the
    finishing transaction; then each of ``after_commit``."""

    rate: Rater | None = None
    in_transaction: tuple[InFinish, ...] = ()
    after_commit: tuple[AfterFinish, ...] = ()
