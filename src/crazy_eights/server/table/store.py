"""What a table keeps: its row, seats, moves, chat and result, behind ``TableStore``.

A table is its rules, seed and moves (RULES G4): ``load`` gives everything needed to
rebuild it on any process. This module is the table core's side: what a table is made
of and what it asks of its store. ``records.tables.SqlTableStore`` keeps it in the
room's database; the end of a game is announced from there (``records.finish``), so the
table core imports no feature.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from crazy_eights.engine import Rules

from .seats import Seat, Seats

Status = Literal["open", "playing", "finished", "abandoned"]


@dataclass(frozen=True)
class Spec:
    """What a new table is made of (validated by the lobby before it gets here)."""

    name: str
    rules: Rules
    public: bool
    hints: bool
    takeover_after: int
    bots: dict[int, str] = field(default_factory=dict)
    place: str | None = None
    """Where another process plays the table: a chat channel (``irc:host:#cards``);
    None for the room's own tables."""
    unrated: bool = False
    """Unrated whatever else: a chat table at which a nick not linked to an account sits."""

    @property
    def rated(self) -> bool:
        """Rated: public and without hints (and not ``unrated``). A private game is its
        players' own and counts in no public figure (records, ratings, evaluation,
        achievements)."""
        return not self.hints and self.public and not self.unrated


@dataclass(frozen=True)
class ChatLine:
    seat: int | None
    account_id: int | None
    name: str
    text: str
    at: float


@dataclass
class TableRecord:
    """A table as stored: enough to rebuild its actor anywhere."""

    id: str
    spec: Spec
    seed: int
    creator: int | None
    invite: str | None
    status: Status
    created_at: float
    seats: Seats
    moves: list[tuple[int | None, str]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)


@dataclass(frozen=True)
class FollowUpRow:
    """A finished table's rematch as stored: the follow-up's id, invite and status."""

    id: str
    invite: str | None
    status: Status | None
    """None while the follow-up's row is being made."""


class StoreError(Exception):
    """A write the store could not make; the actor's state must not move on."""


class Fenced(StoreError):
    """The table is owned under a newer epoch: this process has lost it."""


class TableStore(Protocol):
    async def create(self, record: TableRecord) -> None: ...

    async def load(self, table_id: str) -> TableRecord | None: ...

    async def unfinished(self) -> list[str]:
        """Ids of tables that are open or being played."""

    async def find_invite(self, code: str) -> str | None:
        """The id of the open or running table this invite code opens."""

    async def claim(self, table_id: str) -> int:
        """Own the table under a new epoch (a fencing token, one more than the last):
        from now on, moves written under an older epoch are refused."""

    async def save_seat(self, table_id: str, seat: Seat) -> None: ...

    async def set_status(self, table_id: str, status: Status, **times: float) -> None: ...

    async def append_move(self, table_id: str, n: int, seat: int | None, move: str) -> None:
        """Make move number ``n`` durable; raises ``StoreError`` when it cannot."""

    async def finish(
        self, table_id: str, *, spec: Spec, seats: Seats, result: Mapping[str, Any]
    ) -> dict[int, tuple[int, int]]:
        """Mark the table finished with its result and add it to the players' records
        (once: a table already finished is left as it is). Answers each account's
        rating before and after; empty when already finished."""

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Keep a chat line (without waiting for it)."""

    async def claim_rematch(self, table_id: str, follow_up: str) -> str:
        """Name ``follow_up`` the finished table's rematch unless one is named already;
        answers the one that stands (so of two racing askers, one makes the table)."""

    async def rematch_of(self, table_id: str) -> FollowUpRow | None:
        """The finished table's follow-up, if one is named (its row may still be in the
        making: then ``status`` is None)."""
