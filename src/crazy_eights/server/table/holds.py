"""Held seats: an empty seat kept for someone on their way, an invited friend (``Hold``,
asked by a player sitting here) or an old player of the game a rematch follows (held
when the rematch is made, ``tables.Tables.create``).

Only the people a seat is held for may take it while a hold lasts; everyone sees the
seat held (``SeatInfo.held_left``). Several invitations may share one seat: the first
invitee to sit takes it and the others' holds end. A hold ends when its time runs out
(``HoldOver``), when its person sits (anywhere here) or declines (``Unhold``), when
another holder takes the seat, and when the game starts; the table then tells the process
whose holds ended without them taking it (``Notices.released``), and the invitations
service withdraws those invitations.
"""

from __future__ import annotations

import time

from ..errors import ApiError
from ..protocol import TableInfo
from . import messages
from .context import TableContext
from .ops import Hold, HoldOver, Unhold
from .seats import Hold as SeatHold
from .seats import Seat
from .state import TableState

EARLY = 0.05
"""A hold whose end is this close is over (a timer may fire a little early)."""


async def on_hold(ctx: TableContext, op: Hold) -> TableInfo:
    """Hold an empty seat for an invited friend: a seat held for nobody, else one already
    held for other invitees (shared); renewed when one is held for them already."""
    table = ctx.table
    if table.status != "open":
        raise ApiError(409, "not_open", "the game has started: there is no seat to hold")
    if table.seat_of(op.by) is None:
        raise ApiError(403, "not_seated", "sit at the table to invite someone to it")
    if table.seat_of(op.player.id) is not None:
        raise ApiError(409, "already_seated", f"{op.player.name} already sits at this table")
    seat = table.seats.held_for(op.player.id) or _seat_to_hold(table)
    if seat is None:
        raise ApiError(409, "full", "no empty seat is left at this table to hold")
    seat.holds[op.player.id] = SeatHold(until=time.time() + op.seconds)
    arm(table, seat)
    ctx.info_changed()
    return messages.table_info(table, for_account=op.by)


def _seat_to_hold(table: TableState) -> Seat | None:
    """An empty seat held for nobody, else one held only for invitees."""
    empty = [s for s in table.seats if not s.taken]
    return next((s for s in empty if not s.holds), None) or next(
        (s for s in empty if not s.rematch_held), None
    )


def on_unhold(ctx: TableContext, op: Unhold) -> None:
    """The hold for one person ends (they said no, or were uninvited)."""
    table = ctx.table
    seat = table.seats.held_for(op.account_id)
    if seat is None:
        return
    del seat.holds[op.account_id]
    arm(table, seat)
    ctx.info_changed()


def on_hold_over(ctx: TableContext, op: HoldOver) -> None:
    """The holds on a seat whose time ran out end; the others keep it."""
    table = ctx.table
    seat = table.seats[op.seat]
    now = time.time() + EARLY
    over = [a for a, h in seat.holds.items() if h.until <= now]
    for account in over:
        del seat.holds[account]
    arm(table, seat)
    if over:
        ctx.notices.released(over)
        ctx.info_changed()


def taken(ctx: TableContext, seat: Seat, account_id: int) -> None:
    """``account_id`` sat in ``seat``: their holds end, and so do the other holds on it."""
    table = ctx.table
    ended = list(seat.holds)
    seat.holds.clear()
    arm(table, seat)
    other = table.seats.held_for(account_id)
    if other is not None:
        del other.holds[account_id]
        ended.append(account_id)
        arm(table, other)
    if ended:
        ctx.notices.released(ended)


def end_all(ctx: TableContext) -> None:
    """Every hold ends (the game starts, or the table is given up)."""
    table = ctx.table
    ended = table.seats.holders()
    for seat in table.seats:
        seat.holds.clear()
    table.holds.cancel_all()
    if ended:
        ctx.notices.released(ended)


def arm(table: TableState, seat: Seat) -> None:
    """Time the seat's first hold to end (none: no timer)."""
    table.holds.cancel(seat.seat)
    if seat.holds:
        first = min(h.until for h in seat.holds.values())
        table.holds.start(seat.seat, max(0.0, first - time.time()))
