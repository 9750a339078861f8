"""Who is connected to a table: one member per open socket, wherever its node is.

The counts a table asks about on every arrival (is a seat's player here, how many
watchers, how many sockets an account has open) are kept as counters, so an arrival or a
departure costs the same whatever the audience.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from .seats import Seats


@dataclass(eq=False)
class Member:
    """A socket at a table, as the table sees it.

    ``node`` names the process holding the socket (see ``fanout``); ``seat`` is the seat
    the member plays, or None for a spectator, and follows the seating (change it through
    ``Members.place`` once the member is added). ``hides`` is read when the socket
    opens (``blocks.Blocks.blocked_by``).
    """

    account_id: int | None
    name: str
    node: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    seat: int | None = None
    hides: tuple[int, ...] = ()
    """The accounts this member blocked: their chat and reactions are not sent to it."""

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else "player"


class Members:
    """The members of one table, by id."""

    def __init__(self) -> None:
        self._by_id: dict[str, Member] = {}
        self._at: Counter[int | None] = Counter()  # seat (None: watching) -> members
        self._accounts: Counter[int] = Counter()

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
        self._at[member.seat] += 1
        if member.account_id is not None:
            self._accounts[member.account_id] += 1

    def remove(self, member_id: str) -> Member | None:
        member = self._by_id.pop(member_id, None)
        if member is not None:
            self._at[member.seat] -= 1
            if member.account_id is not None:
                self._accounts[member.account_id] -= 1
        return member

    def place(self, member: Member, seat: int | None) -> None:
        """Move a member to ``seat`` (None: watching)."""
        self._at[member.seat] -= 1
        member.seat = seat
        self._at[seat] += 1

    def at(self, seat: int) -> bool:
        """Whether someone is connected to play ``seat``."""
        return self._at[seat] > 0

    def count_at(self, seat: int) -> int:
        return self._at[seat]

    def of_account(self, account_id: int) -> int:
        """How many sockets the account has open here."""
        return self._accounts[account_id]

    @property
    def spectators(self) -> int:
        return self._at[None]

    def reseat(self, seats: Seats) -> None:
        """Point every member at the seat its account plays now."""
        for member in self._by_id.values():
            member.seat = seats.seat_of(member.account_id)
        self._at = Counter(m.seat for m in self._by_id.values())
