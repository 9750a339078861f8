"""The operations a table runs, one at a time: from its sockets, the lobby, its timers
and its bots. Each is a frozen value, so that it can travel to the node that owns the
table; the actor hands each to its handler (``actor.HANDLERS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol import (
    BackIn,
    CallIn,
    ChatIn,
    ClientMessage,
    HintIn,
    MoveIn,
    NextRoundIn,
    PingIn,
    ReactIn,
    SyncIn,
)
from .members import Member


@dataclass(frozen=True)
class Player:
    """The account an operation is for, as much of it as a table shows."""

    id: int
    name: str
    avatar: str


# -- sockets --------------------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    """A socket opens at the table (answered with a ``Joined``)."""

    member: Member
    code: str | None = None


@dataclass(frozen=True)
class Joined:
    ok: bool
    close_code: int = 1000
    reason: str = ""


@dataclass(frozen=True)
class Part:
    member_id: str


@dataclass(frozen=True)
class Play:
    member_id: str
    seq: int
    move: str


@dataclass(frozen=True)
class Say:
    member_id: str
    text: str


@dataclass(frozen=True)
class React:
    member_id: str
    reaction: str


@dataclass(frozen=True)
class Call:
    member_id: str


@dataclass(frozen=True)
class AskHint:
    member_id: str


@dataclass(frozen=True)
class Sync:
    member_id: str


@dataclass(frozen=True)
class Back:
    member_id: str


@dataclass(frozen=True)
class Ping:
    member_id: str
    t: float | None


@dataclass(frozen=True)
class NextRound:
    """The member's seat has read the round summary ("Next round")."""

    member_id: str


# -- the lobby (answered with the table's info) ---------------------------------------


@dataclass(frozen=True)
class Sit:
    player: Player
    seat: int | None = None
    code: str | None = None


@dataclass(frozen=True)
class Leave:
    account_id: int


@dataclass(frozen=True)
class Start:
    account_id: int


@dataclass(frozen=True)
class Rematch:
    """A player of the finished table asks to play again (answered with the follow-up's
    info: made for the first asker, the same table for every later one)."""

    player: Player


@dataclass(frozen=True)
class Hold:
    """Hold an empty seat for ``player`` (a friend ``by`` invites; ``by`` sits here) for
    ``seconds``: answered with the table's info, the seat held."""

    by: int
    player: Player
    seconds: float


@dataclass(frozen=True)
class Unhold:
    """The hold for ``account_id`` ends (they declined, or the invitation was taken
    back); answered with None."""

    account_id: int


@dataclass(frozen=True)
class Describe:
    """The table's info as ``account_id`` (holding invite ``code``) may see it."""

    account_id: int | None = None
    code: str | None = None


# -- the table's own timers and bots --------------------------------------------------


@dataclass(frozen=True)
class Timeout:
    version: int


@dataclass(frozen=True)
class GraceOver:
    seat: int


@dataclass(frozen=True)
class HoldOver:
    """The first hold on ``seat`` may have run out."""

    seat: int


@dataclass(frozen=True)
class PauseOver:
    """The pause between rounds that began at ``version`` ran out of time."""

    version: int


@dataclass(frozen=True)
class PresenceDue:
    """Time to tell the members who came and went (see ``presence``)."""


@dataclass(frozen=True)
class BotMove:
    version: int
    seat: int
    move: str
    legal: tuple[str, ...]


@dataclass(frozen=True)
class HintReady:
    member_id: str
    version: int
    move: str


@dataclass(frozen=True)
class HintRefused:
    """The bots had no room for the hint search (the pool's hint queue is full)."""

    member_id: str
    reason: str


Op = (
    Join
    | Part
    | Play
    | Say
    | React
    | Call
    | AskHint
    | Sync
    | Back
    | Ping
    | NextRound
    | Sit
    | Leave
    | Start
    | Rematch
    | Hold
    | Unhold
    | Describe
    | Timeout
    | GraceOver
    | HoldOver
    | PauseOver
    | PresenceDue
    | BotMove
    | HintReady
    | HintRefused
)


def from_client(member_id: str, message: ClientMessage) -> Op:
    """The operation a parsed socket message asks for."""
    match message:
        case MoveIn(seq=seq, move=move):
            return Play(member_id, seq, move)
        case ChatIn(text=text):
            return Say(member_id, text)
        case CallIn():
            return Call(member_id)
        case HintIn():
            return AskHint(member_id)
        case SyncIn():
            return Sync(member_id)
        case BackIn():
            return Back(member_id)
        case PingIn(t=t):
            return Ping(member_id, t)
        case NextRoundIn():
            return NextRound(member_id)
        case ReactIn(reaction=reaction):
            return React(member_id, reaction)
    raise AssertionError(f"unhandled message {message!r}")
