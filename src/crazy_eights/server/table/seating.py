"""Seats: sitting down, leaving, a seat's grace running out, and dealing.

These are the lobby's operations (answered with the table's info) and the grace
timers'. Before the deal a seat can be taken and given up; a table whose seats are all
taken is dealt at once, empty seats filled with bots when its creator starts it. In a
running game, leaving (or staying away past the grace) hands the seat to a bot.
"""

from __future__ import annotations

from crazy_eights.engine import new_game

from .. import db
from ..errors import ApiError
from ..protocol import TableInfo
from . import holds, messages, standins, turns
from .context import TableContext
from .ops import Describe, GraceOver, Leave, Player, Sit, Start
from .seats import STANDIN_LEVEL, Seat
from .state import TableState


def on_describe(ctx: TableContext, op: Describe) -> TableInfo:
    """The table's info as the asker may see it (private tables need their invite)."""
    if not ctx.table.may_watch(op.account_id, op.code):
        raise ApiError(403, "invite_needed", "this table is private: use its invite code")
    return messages.table_info(ctx.table, for_account=op.account_id)


async def on_sit(ctx: TableContext, op: Sit) -> TableInfo:
    """Seat a player (in ``op.seat``, else the first free seat) before the deal; the
    last seat taken deals."""
    table = ctx.table
    player = op.player
    if table.status != "open":
        raise ApiError(409, "not_open", "the game has started; you can watch it")
    invited = table.seats.held_for(player.id) is not None
    if (
        not table.spec.public
        and player.id != table.creator
        and not invited
        and not table.may_watch(None, op.code)
    ):
        raise ApiError(403, "invite_needed", "this table is private: use its invite code")
    if table.seat_of(player.id) is None:
        await _take(ctx, free_seat(table, op.seat, player.id), player)
    return messages.table_info(table, for_account=player.id)


def free_seat(table: TableState, seat_no: int | None, account_id: int | None = None) -> Seat:
    """The seat asked for (None: the one held for ``account_id``, else the first free
    one), or why it cannot be had (taken, or held for someone else)."""
    free = table.seats.free(account_id)
    if seat_no is None:
        held = table.seats.held_for(account_id) if account_id is not None else None
        if held is not None:
            return held
        if not free:
            raise ApiError(409, "full", "no free seat at this table")
        return free[0]
    if not 0 <= seat_no < len(table.seats):
        raise ApiError(422, "bad_seat", f"seats are 0 to {len(table.seats) - 1}")
    seat = table.seats[seat_no]
    if seat.taken:
        raise ApiError(409, "seat_taken", f"seat {seat_no} is taken")
    if seat not in free:
        raise ApiError(
            409, "seat_held", f"seat {seat_no} is held for an invited player for a few seconds"
        )
    return seat


async def _take(ctx: TableContext, seat: Seat, player: Player) -> None:
    """Seat ``player`` in ``seat``; its grace runs until they connect; deal when full."""
    table = ctx.table
    seat.account_id, seat.name, seat.avatar = player.id, player.name, player.avatar
    await ctx.store.save_seat(table.id, seat)
    holds.taken(ctx, seat, player.id)
    table.members.reseat(table.seats)
    if not table.members.at(seat.seat):
        table.grace.start(seat.seat)
    if table.seats.full:
        await start(ctx)
    else:
        ctx.info_changed()


async def on_leave(ctx: TableContext, op: Leave) -> TableInfo:
    """A player gives up their seat (see ``leave``)."""
    if ctx.table.seat_of(op.account_id) is None:
        raise ApiError(409, "not_seated", "you have no seat at this table")
    await leave(ctx, op.account_id)
    return messages.table_info(ctx.table, for_account=op.account_id)


async def leave(ctx: TableContext, account_id: int) -> None:
    """Before the deal the seat is emptied (a table nobody holds is abandoned); in a
    running game a bot finishes it for them, and it counts as a loss."""
    table = ctx.table
    seat_no = table.seat_of(account_id)
    if seat_no is None:
        return
    seat = table.seats[seat_no]
    if table.status == "open":
        table.grace.cancel(seat_no)
        seat.clear()
        await ctx.store.save_seat(table.id, seat)
        if not table.seats.any_human:
            await ctx.set_status("abandoned")
            holds.end_all(ctx)
    elif table.status == "playing":
        seat.left = True
        await ctx.store.save_seat(table.id, seat)
        turns.let_bots_play(ctx)
    table.members.reseat(table.seats)
    ctx.info_changed()
    if table.status == "abandoned" and not table.members:
        ctx.notices.idle()


async def on_grace_over(ctx: TableContext, op: GraceOver) -> None:
    """A seat's player stayed away too long: before the deal they lose the seat; in a
    running game a stand-in plays it (if the table allows stand-ins)."""
    table = ctx.table
    seat = table.seats[op.seat]
    if table.members.at(op.seat) or seat.bot is not None:
        return
    if table.status == "open" and seat.account_id is not None:
        await leave(ctx, seat.account_id)
    elif table.status == "playing" and table.spec.takeover_after > 0 and not seat.standin:
        standins.take_over(ctx, op.seat, tell_now=True)


async def on_start(ctx: TableContext, op: Start) -> TableInfo:
    """The creator deals now; empty seats get bots."""
    table = ctx.table
    if op.account_id != table.creator:
        raise ApiError(403, "not_creator", "only the table's creator can start it")
    if table.seat_of(op.account_id) is None:
        raise ApiError(403, "not_seated", "you left this table: sit down again to start it")
    if table.status != "open":
        raise ApiError(409, "not_open", "the game has already started")
    await start(ctx)
    return messages.table_info(table, for_account=op.account_id)


async def start(ctx: TableContext) -> None:
    """Fill empty seats with bots and deal; everyone gets the new state."""
    table = ctx.table
    holds.end_all(ctx)
    await _fill_with_bots(ctx)
    await ctx.set_status("playing", started_at=db.now())
    table.game = new_game(table.rules, table.seed)
    table.members.reseat(table.seats)
    for seat in table.seats:  # a seat nobody is connected to waits as in a game now
        if seat.human and not table.members.at(seat.seat):
            table.grace.cancel(seat.seat)
            table.grace.start(seat.seat, ctx.away_seconds)
    turns.arm_clock(ctx)
    for member in table.members:
        ctx.out.welcome(member)
    ctx.info_changed()
    turns.let_bots_play(ctx)


async def _fill_with_bots(ctx: TableContext) -> None:
    """A bot (a stand-in's level unless one was chosen) in every empty seat, named."""
    table = ctx.table
    for seat in table.seats:
        if not seat.taken:
            seat.bot = seat.bot or STANDIN_LEVEL
            seat.account_id = await ctx.bot_account(seat.bot)
            await ctx.store.save_seat(table.id, seat)
    table.seats.name_bots()
