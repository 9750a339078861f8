"""What a finished table's rematch is made of, and how the table tells it.

"Play again" at the match end makes one follow-up table per finished table: the same
rules (and so the same length), hints, privacy, name and bots in the same seats; each
player of the finished table who asks is seated there, in their old seat when it is free.
The lobby makes or finds the follow-up (``server/rematch.py``); the finished table runs
each ask as one operation, so asks are answered one at a time, and tells its members.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..errors import ApiError
from ..protocol import Rematch, TableInfo
from .ops import Player
from .seats import Seats
from .store import Spec, Status


@dataclass(frozen=True)
class FollowUpAsk:
    """One player of finished table ``table_id`` asking to play again."""

    table_id: str
    spec: Spec
    """The follow-up's spec (``follow_up_spec``)."""
    seat: int
    """The asker's seat at the finished table, taken again if free."""
    player: Player
    others: tuple[tuple[int, int], ...] = ()
    """The finished table's other people (seat, account): their seats are held for them
    at a follow-up made now."""


FollowUps = Callable[[FollowUpAsk], Awaitable[TableInfo]]
"""Makes the follow-up for the first ask, seats every later asker there; answers the
follow-up's info as the asker sees it."""


def follow_up_spec(spec: Spec, seats: Seats) -> Spec:
    """The finished table's spec with every bot it ended with in the same seat (bots
    dealt into empty seats at the start too; a person's seat stays open for them)."""
    bots = {seat.seat: seat.bot for seat in seats if seat.bot is not None}
    return Spec(
        name=spec.name,
        rules=spec.rules,
        public=spec.public,
        hints=spec.hints,
        takeover_after=spec.takeover_after,
        bots=bots,
    )


def asker(status: Status, seats: Seats, player: Player, table_id: str, spec: Spec) -> FollowUpAsk:
    """The ask of ``player``, or the reason it is refused: the game must be over and the
    asker must have played it."""
    if status != "finished":
        raise ApiError(409, "not_finished", "a rematch is asked for once the game is over")
    seat = next((s.seat for s in seats if s.human and s.account_id == player.id), None)
    if seat is None:  # (one who left the game or was away at its end still may)
        raise ApiError(403, "not_player", "only the players of this game can ask for a rematch")
    others = tuple(
        (s.seat, s.account_id)
        for s in seats
        if s.human and s.account_id is not None and s.account_id != player.id
    )
    return FollowUpAsk(table_id, follow_up_spec(spec, seats), seat, player, others)


def offer(info: TableInfo, seats: Seats, by: str) -> Rematch:
    """The rematch as the finished table shows it: who made it (``by`` if they are gone
    from it) and who of this table's people sit there now."""
    people = {seat.account_id for seat in seats if seat.human}
    here = [s for s in info.seats if s.account in people and s.account and s.name and not s.bot]
    maker = next((s.name for s in info.seats if s.account == info.creator and s.name), by)
    return Rematch(
        table=info.id,
        by=maker,
        seated=[s.name for s in here if s.name],
        accounts=[s.account for s in here if s.account],
    )
