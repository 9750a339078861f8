"""Events: what a move caused, for clients to animate and players to read.

An event is built cheaply on the hot path (a few fields, card ids) and rendered to a
JSON-ready dict only when somebody asks, for one seat at a time (RULES G5): cards in
``secret`` (a drawn card, a dealt hand) are shown only to the event's own seat; every
other seat and spectators see how many there were.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_TEXT, SUITS, Card


class Event:
    """One thing that happened: ``type`` names it, ``seat`` says who (or None)."""

    __slots__ = ("cards", "data", "seat", "secret", "type")

    type: str
    seat: int | None
    cards: tuple[Card, ...]
    secret: bool
    data: dict[str, Any] | None

    def __init__(
        self,
        type: str,
        seat: int | None = None,
        cards: tuple[Card, ...] = (),
        secret: bool = False,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.type = type
        self.seat = seat
        self.cards = cards
        self.secret = secret
        self.data = data

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields (a mypyc-compiled class has no default pickling)."""
        return (Event, (self.type, self.seat, self.cards, self.secret, self.data))

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator)."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            if not self.secret or (seat is not None and seat == self.seat):
                out["cards"] = [CARD_TEXT[c] for c in self.cards]
            out["count"] = len(self.cards)
        elif self.secret:
            out["count"] = 0
        if self.data:
            out.update(self.data)
        return out

    def public(self) -> dict[str, Any]:
        """The event as a spectator sees it."""
        return self.for_seat(None)

    def __repr__(self) -> str:
        fields = [repr(self.type)]
        if self.seat is not None:
            fields.append(f"seat={self.seat}")
        if self.cards:
            fields.append(f"cards={[CARD_TEXT[c] for c in self.cards]}")
        if self.secret:
            fields.append("secret=True")
        if self.data:
            fields.append(f"data={self.data!r}")
        return f"Event({', '.join(fields)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self.type == other.type
            and self.seat == other.seat
            and self.cards == other.cards
            and self.secret == other.secret
            and self.data == other.data
        )

    __hash__ = None  # type: ignore[assignment]


def suit_text(suit: int) -> str:
    return SUITS[suit]
