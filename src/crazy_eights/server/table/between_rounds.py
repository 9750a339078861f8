"""The table between rounds: holding it after a round ends, and going on.

The pause itself (its timer, who pressed) is ``rounds.RoundPause``; these steps decide
when a table holds and when it goes on, and tell the members.
"""

from __future__ import annotations

from collections.abc import Callable

from crazy_eights.engine.events import RoundOver

from . import messages, turns
from .context import TableContext
from .ops import NextRound, PauseOver
from .rounds import blocking


def hold_round(
    ctx: TableContext, ended: RoundOver | None, here: Callable[[int], bool] | None = None
) -> bool:
    """Pause after the round ``ended`` (if any) when a person is ``here`` (connected,
    unless told) to read it; True when the table now waits (no clock, no bots)."""
    table = ctx.table
    if ended is None or not blocking(table.seats, here or table.members.at):
        return False
    table.clock.cancel()
    table.rounds.begin(ended, table.version)
    return True


def on_next_round(ctx: TableContext, op: NextRound) -> None:
    """A player pressed "Next round": go on when nobody is left to press, else tell who
    still reads."""
    member = ctx.table.members.get(op.member_id)
    if member is None:
        return
    if member.seat is None:
        return ctx.out.error(member, "not_seated", "spectators do not hold up the table")
    if not ctx.table.rounds.active:
        return ctx.out.error(member, "not_between_rounds", "no round summary is open")
    if ctx.table.rounds.press(member.seat) and not go_on_if_ready(ctx):
        ctx.out.to_all(messages.pause_out(ctx.table))


def on_pause_over(ctx: TableContext, op: PauseOver) -> None:
    """The pause's timer ran out: go on (unless that pause is over already)."""
    rounds = ctx.table.rounds
    if rounds.active and rounds.version == op.version:
        go_on(ctx)


def go_on_if_ready(ctx: TableContext) -> bool:
    """Go on to the next round when nobody here is left to press; True if it did."""
    table = ctx.table
    if not table.rounds.active or table.rounds.waiting(table.seats, table.members.at):
        return False
    go_on(ctx)
    return True


def go_on(ctx: TableContext) -> None:
    """End the pause: the next round's clock starts and its bots may move."""
    ctx.table.rounds.end()
    turns.arm_clock(ctx)
    ctx.out.to_all(messages.pause_out(ctx.table))
    # each seat's state again, now with the legal moves the pause held back
    ctx.out.deliver(messages.state_texts(ctx.table, [], None, None, None))
    turns.let_bots_play(ctx)
