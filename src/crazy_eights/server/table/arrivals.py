"""Members coming and going: a connection joins the table, catches up, pings, leaves.

A member is one connection (see ``transport``); it plays the seat its account holds, or
watches. Arriving cancels the seat's grace and takes it back from a stand-in; the last
connection of a seat leaving starts the grace (and no longer holds a round pause up).
"""

from __future__ import annotations

from ..protocol import PongOut
from . import between_rounds, messages, standins, turns
from .context import TableContext
from .members import Member
from .ops import Join, Joined, Part, Ping, PresenceDue, Sync

MAX_TABS = 8  # connections one account may have open at one table


def on_join(ctx: TableContext, op: Join) -> Joined:
    """Let a connection in (or say why not), welcome it, and note its seat is here."""
    table = ctx.table
    member = op.member
    if not table.may_watch(member.account_id, op.code):
        return Joined(False, 4003, "private table: use its invite code")
    member.seat = table.seat_of(member.account_id)
    refusal = crowded(ctx, member)
    if refusal is not None:
        return Joined(False, 4029, refusal)
    table.members.add(member)
    stood_in = 0
    if member.seat is None:
        table.presence.count()
    else:
        stood_in = _seat_is_here(ctx, member.seat)
    ctx.out.welcome(member, stood_in=stood_in)
    return Joined(True)


def _seat_is_here(ctx: TableContext, seat_no: int) -> int:
    """A connection for ``seat_no`` arrived: its grace ends, a stand-in gives the seat
    back, and the clock runs again if only bots were playing. How many moves a stand-in
    played for the seat (0 without one)."""
    table = ctx.table
    table.grace.cancel(seat_no)
    seat = table.seats[seat_no]
    stood_in = 0
    if seat.standin:
        stood_in = standins.give_back(ctx, seat)
    elif table.members.count_at(seat_no) == 1:
        table.presence.seat(seat_no)
    if table.status == "playing" and not table.clock.running:
        turns.arm_clock(ctx)  # stopped while only bots played
    return stood_in


def crowded(ctx: TableContext, member: Member) -> str | None:
    """Why a connection may not join (too many of its account's, or too many watchers)."""
    members = ctx.table.members
    if member.account_id is not None and members.of_account(member.account_id) >= MAX_TABS:
        return f"at most {MAX_TABS} open tabs per account at a table"
    limit = ctx.max_spectators
    if member.seat is None and members.spectators >= limit:
        return f"this table has its fill of watchers (at most {limit})"
    return None


def on_part(ctx: TableContext, op: Part) -> None:
    """A connection closed: a seat nobody is connected to now waits out its grace."""
    table = ctx.table
    member = table.members.remove(op.member_id)
    if member is None:
        return
    ctx.out.close(member, 1000)
    if member.seat is None:
        table.presence.count()
    elif not table.members.at(member.seat):
        seconds = ctx.away_seconds if table.status == "playing" else None
        table.grace.start(member.seat, seconds)
        table.presence.seat(member.seat)
        between_rounds.go_on_if_ready(ctx)
    if table.status in ("finished", "abandoned") and not table.members:
        ctx.notices.idle()


def on_sync(ctx: TableContext, op: Sync) -> None:
    """A member asks for everything again (after a gap): welcomed as on arrival."""
    member = ctx.table.members.get(op.member_id)
    if member is not None:
        ctx.table.members.place(member, ctx.table.seat_of(member.account_id))
        ctx.out.welcome(member)


def on_ping(ctx: TableContext, op: Ping) -> None:
    """Answer a member's ping (with the clock, so a client can check its own)."""
    member = ctx.table.members.get(op.member_id)
    if member is not None:
        pong = PongOut(table=ctx.table.id, clock=messages.clock(ctx.table), t=op.t)
        ctx.out.send(member, pong)


def on_presence_due(ctx: TableContext, op: PresenceDue) -> None:
    """Time to tell everyone who came and went (``presence``)."""
    ctx.tell_presence()
