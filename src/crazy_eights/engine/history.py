"""A round's public log read back: each event with the table's public facts before it.

A bot sees a round as its view's log (JSON, RULES G5). To read what each opponent's
plays and draws showed, it needs the table as it stood at that moment: the top card,
the active (or lead) suit, whether a suit was declared, a pending draw-two, and so the
cards that followed then. The events carry those facts (a ``Played`` event its
``declared`` suit and the ``pending`` draw it leaves), and the cards that follow come
from the same functions the state machines use, so no rule is restated outside the
engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import UNKNOWN, Card, Mask, Suit
from .cycles import FIT, FULL_DECK
from .events import (
    CycleOver,
    Event,
    EventDict,
    GameStarted,
    HostLed,
    PenaltyDrawn,
    Played,
    RoundStarted,
    StarterTurned,
    SuitDeclared,
    event_from_dict,
)
from .shedding import TWOS, follow_mask


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The public facts of a table between two events.

    ``top`` is the top card of a shedding table (``UNKNOWN`` before the starter);
    ``suit`` the active suit, or in cycles the lead suit (-1 between cycles);
    ``declared`` whether that suit was declared; ``pending`` the cards a draw-two makes
    the player to move draw (U7); ``follow`` the cards that follow, wild cards aside
    (in cycles: that fit the lead suit, Y6, or any card between cycles); ``cycles``
    whether the table plays cycles.
    """

    top: Card
    suit: Suit
    declared: bool
    pending: int
    follow: Mask
    cycles: bool = False

    def playable(self, wild: Mask) -> Mask:
        """What a player whose wild cards are ``wild`` could play: twos against a
        pending draw, else the cards that follow and the wild cards."""
        return TWOS if self.pending else self.follow | wild


_START: Final = TableFacts(top=UNKNOWN, suit=-1, declared=False, pending=0, follow=0)
_BETWEEN_CYCLES: Final = TableFacts(
    top=UNKNOWN, suit=-1, declared=False, pending=0, follow=FULL_DECK, cycles=True
)


def _shedding(top: Card, suit: Suit | None, pending: int) -> TableFacts:
    active = top >> 4 if suit is None else suit
    declared = suit is not None
    follow = follow_mask(top, active, declared)
    return TableFacts(top=top, suit=active, declared=declared, pending=pending, follow=follow)


def _lead(suit: Suit) -> TableFacts:
    return TableFacts(
        top=UNKNOWN, suit=suit, declared=False, pending=0, follow=FIT[suit], cycles=True
    )


def after(facts: TableFacts, event: Event) -> TableFacts:
    """The table's public facts once ``event`` has happened."""
    match event:
        case RoundStarted():
            return _START
        case GameStarted():
            return _BETWEEN_CYCLES
        case StarterTurned(card=card, pending=pending):
            return _shedding(card, None, pending)
        case SuitDeclared(suit=suit):
            return _shedding(facts.top, suit, facts.pending)
        case HostLed(card=card):
            return _lead(card >> 4)
        case CycleOver():
            return _BETWEEN_CYCLES
        case Played(card=card, declared=declared, lead=lead, pending=pending):
            if lead:
                return _lead(card >> 4 if declared is None else declared)
            if facts.cycles:
                return facts  # a follower: the lead suit stays
            return _shedding(card, declared, pending)
        case PenaltyDrawn(reason="draw_two"):
            return TableFacts(facts.top, facts.suit, facts.declared, 0, facts.follow, facts.cycles)
    return facts


def read_log(log: Sequence[EventDict]) -> Iterator[tuple[Event, TableFacts]]:
    """Each event of a round's log (as a view gives it) as its class, with the public
    facts of the table just before it."""
    facts = _START
    for data in log:
        event = event_from_dict(data)
        yield event, facts
        facts = after(facts, event)


__all__ = ["TableFacts", "after", "read_log"]
