"""Between rounds: the pause after a round of a match ends, until the people have read it.

The engine deals the next round at once (it knows no time); the table holds that round
back. While a ``RoundPause`` is active the actor arms no turn clock, lets no bot move
and refuses moves; every human seat that is here presses "Next round" (``next_round``),
and the table goes on when none is left to press or when the pause's timer runs out.
Bots, stand-ins, players who left and players who are away never hold a table up.

The pause is derived from the moves alone, so it survives a restart: a table whose last
stored move ended a round (and not the game) comes back paused (``round_just_ended``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import TypedDict

from crazy_eights.engine import Game, Rules, replay
from crazy_eights.engine.events import Event, EventDict, RoundOver

from .seats import Seat


class PauseData(TypedDict):
    """What a ``state`` (and a ``pause`` message) says about the pause."""

    summary: EventDict
    """The round's ``round_over`` event: how it ended, every hand, points, totals."""
    waiting: list[int]
    """The seats still to press "Next round"."""
    pressed: list[int]
    """The seats that pressed it."""
    left: float
    """Seconds until the table goes on by itself."""
    seconds: float
    """How long the whole pause lasts."""


class RoundPause:
    """One pause at a time; ``on_over(version)`` when its timer runs out.

    ``version`` is the table's version when the pause began, so a timer of an older
    pause can be told from the current one.
    """

    def __init__(self, seconds: float, on_over: Callable[[int], None]) -> None:
        self.seconds = seconds
        self._on_over = on_over
        self._handle: asyncio.TimerHandle | None = None
        self._deadline = 0.0
        self.summary: RoundOver | None = None
        self.version = -1
        self.pressed: set[int] = set()

    @property
    def active(self) -> bool:
        return self.summary is not None

    def begin(self, summary: RoundOver, version: int) -> None:
        """Hold the table after the round ``summary`` ended, at ``version``."""
        self.end()
        loop = asyncio.get_running_loop()
        self.summary = summary
        self.version = version
        self.pressed = set()
        self._deadline = loop.time() + self.seconds
        self._handle = loop.call_at(self._deadline, self._on_over, version)

    def press(self, seat: int) -> bool:
        """``seat`` pressed "Next round"; False when no pause is running or it had."""
        if not self.active or seat in self.pressed:
            return False
        self.pressed.add(seat)
        return True

    def waiting(self, seats: Sequence[Seat], here: Callable[[int], bool]) -> list[int]:
        """The seats that still hold the table: people who are here and have not pressed."""
        return [s for s in blocking(seats, here) if s not in self.pressed]

    def end(self) -> None:
        """The pause is over (or never was): forget it and its timer."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self.summary = None
        self.pressed = set()

    def left(self) -> float:
        """Seconds until the timer runs out (0 with no pause)."""
        if not self.active:
            return 0.0
        return max(0.0, self._deadline - asyncio.get_running_loop().time())

    def data(self, seats: Sequence[Seat], here: Callable[[int], bool]) -> PauseData | None:
        """The pause as the messages carry it (the same for every seat: a round summary
        shows every hand face up), or None with no pause."""
        if self.summary is None:
            return None
        return {
            "summary": self.summary.for_seat(None),
            "waiting": self.waiting(seats, here),
            "pressed": sorted(self.pressed),
            "left": round(self.left(), 1),
            "seconds": self.seconds,
        }


def blocking(seats: Iterable[Seat], here: Callable[[int], bool]) -> list[int]:
    """The seats a pause waits for: a person plays it (no bot, no stand-in, not left)
    and is connected now."""
    return [
        s.seat
        for s in seats
        if s.human and not s.standin and not s.left and s.bot_level is None and here(s.seat)
    ]


def round_ended(game: Game, events: Iterable[Event]) -> RoundOver | None:
    """The ``RoundOver`` among a move's events when that move ended a round but not the
    game (the engine has dealt the next round already), else None."""
    if game.is_over:
        return None
    for event in events:
        if isinstance(event, RoundOver):
            return event
    return None


def round_just_ended(
    rules: Rules, seed: int, moves: Sequence[str]
) -> tuple[Game, RoundOver | None]:
    """The game rebuilt from its moves, and the round its last move ended (if it ended
    one and not the game): a table restored there is between rounds again."""
    if not moves:
        return replay(rules, seed, []), None
    game = replay(rules, seed, list(moves[:-1]))
    events = game.play(moves[-1])
    return game, round_ended(game, events)
