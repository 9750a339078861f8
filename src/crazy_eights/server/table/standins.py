"""Stand-ins: a bot playing an absent player's seat, and the seat given back.

A stand-in takes a seat whose player ran out of time too often (``play``) or stayed away
past their grace (``seating``); the player gets the seat back by moving, by coming back
(a new connection) or by pressing "I'm back".
"""

from __future__ import annotations

from . import messages, turns
from .context import TableContext
from .ops import Back
from .seats import Seat


def take_over(ctx: TableContext, seat_no: int, *, tell_now: bool = False) -> None:
    """A stand-in bot plays ``seat_no`` from now on; ``tell_now``: say so at once (the
    lobby unlists a table only bots are left at)."""
    ctx.table.seats[seat_no].standin = True
    ctx.table.seats[seat_no].standin_moves = 0
    ctx.table.presence.seat(seat_no)
    if tell_now:
        ctx.tell_presence()
    turns.let_bots_play(ctx)


def give_back(ctx: TableContext, seat: Seat) -> int:
    """The seat's player plays it again; how many moves the stand-in played for them.
    The others are told the player is back (``back``)."""
    played, seat.standin_moves = seat.standin_moves, 0
    ctx.out.to_all(messages.back_out(ctx.table, seat.seat, played))
    seat.standin = False
    seat.timeouts = 0
    ctx.table.presence.seat(seat.seat)
    return played


def on_back(ctx: TableContext, op: Back) -> None:
    """A player pressed "I'm back": their seat is theirs again."""
    member = ctx.table.members.get(op.member_id)
    if member is not None and member.seat is not None:
        seat = ctx.table.seats[member.seat]
        if seat.standin:
            give_back(ctx, seat)
