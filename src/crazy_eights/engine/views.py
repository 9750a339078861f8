"""Views: what one seat may see of a game (RULES G5), as JSON-ready ``TypedDict``s.

``Game.view(seat)`` returns one of these; ``from_view(view, hidden)`` reads it back
into a playable game. The keys marked ``NotRequired`` are there only for a seat (not a
spectator), only for the seat to move, or only with ``log=True``.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from .events import EventDict
from .moves import LegalMoveData
from .result import ResultDict

SheddingPhase = Literal["play", "drawn", "after_draw", "declare", "over"]
CyclesPhase = Literal["lead", "follow", "over"]


class PlayerView(TypedDict):
    """One seat at a shedding table, as everyone sees it."""

    seat: int
    cards: int
    score: int
    number: NotRequired[int]
    """Countdown: the seat's number (K1)."""
    wild: NotRequired[str]
    """Countdown: the rank letter that is wild for the seat."""


class SheddingView(TypedDict):
    """A classic, ultimate or countdown table as one seat sees it."""

    ruleset: str
    rules: dict[str, Any]
    seat: int | None
    round: int
    dealer: int
    current: int | None
    phase: SheddingPhase
    direction: int
    top: str
    active_suit: str
    declared: bool
    pending_draw: int
    passes: int
    """Passes in a row since the last play or draw (C7, U9, K5: a full round of them
    is a blockade)."""
    stock: int
    discard: list[str]
    players: list[PlayerView]
    target: int | None
    over: bool
    result: ResultDict | None
    goal: str
    """What wins the game, in the engine's words (``Rules.goal``)."""
    hand: NotRequired[list[str]]
    call_matters: NotRequired[bool]
    """A seat: whether its last-card call counts with its next play (``call_matters``)."""
    legal: NotRequired[list[str]]
    """The seat to move: its legal moves as text."""
    legal_moves: NotRequired[list[LegalMoveData]]
    """The seat to move: its legal moves as structured data, in the order of ``legal``."""
    drawn: NotRequired[str]
    """The seat to move after drawing a playable card (``single``): that card."""
    log: NotRequired[list[EventDict]]


class OpenSpielView(SheddingView):
    """The ``openspiel`` ruleset's table: the shedding view and its turn counters."""

    draws: int
    max_draw_cards: int
    plays: int
    max_turns: int


class CyclesPlayerView(TypedDict):
    seat: int
    cards: int
    revealed: int | None
    """Cards of the lead suit a false call revealed (Y13), while the hand is unchanged."""


class CycleCard(TypedDict):
    seat: int | Literal["host"]
    card: str


class CyclesView(TypedDict):
    """A cycles table as one seat sees it."""

    ruleset: str
    rules: dict[str, Any]
    seat: int | None
    phase: CyclesPhase
    current: int | None
    leader: int | Literal["host"] | None
    host_card: str | None
    cycle: list[CycleCard]
    lead_suit: str | None
    winning: int | Literal["host"] | None
    turns_left: int
    forced: bool
    """The player to move must play a card the table drew for them (Y9, Y14)."""
    cycle_number: int
    cycles_left: int
    stock: int
    removed: list[str]
    players: list[CyclesPlayerView]
    last_card: str | None
    over: bool
    result: ResultDict | None
    goal: str
    """What wins the game, in the engine's words (``Rules.goal``)."""
    hand: NotRequired[list[str]]
    call_matters: NotRequired[bool]
    """A seat: whether its last-card call counts with its next play (``call_matters``)."""
    legal: NotRequired[list[str]]
    legal_moves: NotRequired[list[LegalMoveData]]
    forced_card: NotRequired[str]
    log: NotRequired[list[EventDict]]


View = SheddingView | CyclesView


__all__ = [
    "CycleCard",
    "CyclesPhase",
    "CyclesPlayerView",
    "CyclesView",
    "OpenSpielView",
    "PlayerView",
    "SheddingPhase",
    "SheddingView",
    "View",
]
