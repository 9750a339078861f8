"""What one live table is made of: the narrow state every handler works on.

``TableState`` holds the table's facts (its record, its game, who sits and who is
connected) and its moving parts (the turn clock, the seats' grace timers, the round
pause, the presence notes, the bots and the hint desk). The actor builds it; the handlers
(``seating``, ``play``, ``talk``, ...) change it; ``messages`` reads it. Nothing here
sends a message or writes to the store: that is the handlers' ``TableContext``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from crazy_eights.engine import Game, Rules

from ..protocol import Rematch
from .bots import BotTurns, HintDesk
from .chat import ChatRoom, SpeakerRate
from .clock import GraceTimers, TurnClock
from .members import Members
from .presence import Presence
from .rounds import RoundPause
from .seats import Seats
from .store import Spec, Status, TableRecord

REACTION_RATE = (3, 10.0)
"""Reactions per seconds, per person (beyond: refused with ``too_many_reactions``)."""


@dataclass
class TableState:
    """One table's facts and parts, read and changed on its actor's task only."""

    id: str
    spec: Spec
    seed: int
    creator: int | None
    invite: str | None
    status: Status
    created_at: float
    seats: Seats
    clock: TurnClock
    grace: GraceTimers
    rounds: RoundPause
    presence: Presence
    bots: BotTurns
    hints: HintDesk
    chat: ChatRoom
    titles: Callable[[int | None], list[str]]
    """The rulesets whose Master Card Archon title an account holds (shown on seats)."""
    game: Game | None = None
    movers: list[int | None] = field(default_factory=list)
    """The seat that made each stored move, in order (None: the table's own)."""
    members: Members = field(default_factory=Members)
    reactions: SpeakerRate = field(default_factory=lambda: SpeakerRate(*REACTION_RATE))
    rating_changes: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Each person's rating before and after, once the finished game is recorded."""
    rematch: Rematch | None = None
    """The finished table's follow-up, once someone asked to play again."""
    holds: GraceTimers = field(default_factory=lambda: GraceTimers(0.0, lambda seat: None))
    """Per seat, the timer that ends its first hold (``holds.on_hold_over``)."""

    @classmethod
    def from_record(
        cls,
        record: TableRecord,
        *,
        clock: TurnClock,
        grace: GraceTimers,
        rounds: RoundPause,
        presence: Presence,
        bots: BotTurns,
        hints: HintDesk,
        titles: Callable[[int | None], list[str]],
        holds: GraceTimers | None = None,
    ) -> TableState:
        """A stored table's facts and chat, with the moving parts that run it here (an
        actor's, or a follower's that never fire)."""
        state = cls(
            id=record.id,
            spec=record.spec,
            seed=record.seed,
            creator=record.creator,
            invite=record.invite,
            status=record.status,
            created_at=record.created_at,
            seats=record.seats,
            clock=clock,
            grace=grace,
            rounds=rounds,
            presence=presence,
            bots=bots,
            hints=hints,
            chat=ChatRoom(record.chat),
            titles=titles,
        )
        if holds is not None:
            state.holds = holds
        return state

    @property
    def rules(self) -> Rules:
        return self.spec.rules

    @property
    def rated(self) -> bool:
        return self.spec.rated

    @property
    def version(self) -> int:
        """How many moves have been played: the ``seq`` the next move must carry."""
        return len(self.movers)

    @property
    def running(self) -> bool:
        """Whether a game is dealt and not over."""
        return self.game is not None and not self.game.is_over

    def seat_of(self, account_id: int | None) -> int | None:
        """The seat a person plays here (None: a watcher, a bot, one who left)."""
        return self.seats.seat_of(account_id)

    def connected(self, seat: int) -> bool:
        """Whether the seat is played by a bot or by someone connected now."""
        return self.seats[seat].bot is not None or self.members.at(seat)

    def may_watch(self, account_id: int | None, code: str | None) -> bool:
        """Whether an account (holding invite ``code``) may see this table."""
        if self.spec.public or self.seat_of(account_id) is not None:
            return True
        if account_id is not None and account_id == self.creator:
            return True
        return (
            code is not None
            and self.invite is not None
            and secrets.compare_digest(code, self.invite)
        )
