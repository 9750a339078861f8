"""Who is connected to a table: one member per open socket, wherever its node is."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from .seats import Seats


@dataclass(eq=False)
class Member:
    """A socket at a table, as the table sees it.

    ``node`` names the process holding the socket (see ``fanout``); ``seat`` is the seat
    the member plays, or None for a spectator, and follows the seating.
    """

    account_id: int | None
    name: str
    node: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    seat: int | None = None

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else "player"


class Members:
    """The members of one table, by id."""

    def __init__(self) -> None:
        self._by_id: dict[str, Member] = {}

    def __iter__(self) -> Iterator[Member]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, member_id: object) -> bool:
        return member_id in self._by_id

    def get(self, member_id: str) -> Member | None:
        return self._by_id.get(member_id)

    def add(self, member: Member) -> None:
        self._by_id[member.id] = member

    def remove(self, member_id: str) -> Member | None:
        return self._by_id.pop(member_id, None)

    def at(self, seat: int) -> bool:
        """Whether someone is connected to play ``seat``."""
        return any(m.seat == seat for m in self._by_id.values())

    @property
    def spectators(self) -> int:
        return sum(1 for m in self._by_id.values() if m.seat is None)

    def reseat(self, seats: Seats) -> None:
        """Point every member at the seat its account plays now."""
        for member in self._by_id.values():
            member.seat = seats.seat_of(member.account_id)
