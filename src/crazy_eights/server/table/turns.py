"""Whose turn it is next, and what runs for it: the turn clock, or a bot's thinking.

Called after anything that may change who is to move or whether anyone watches (a
move, an arrival, a pause that ends, a stand-in taking a seat). Neither step changes the
game: the clock and the bot answer later, as operations.
"""

from __future__ import annotations

from . import absence
from .context import TableContext


def arm_clock(ctx: TableContext) -> None:
    """Start the turn clock for the move to come, unless only bots are left playing
    (they finish with no timer)."""
    table = ctx.table
    if absence.unattended(table.seats, table.members):
        table.clock.cancel()
    else:
        table.clock.arm(table.rules.turn_timer, table.version)


def let_bots_play(ctx: TableContext) -> None:
    """If a bot is to move, let it think (off the loop) after its pause."""
    table = ctx.table
    game = table.game
    if game is None or game.is_over or table.status != "playing" or table.rounds.active:
        return
    seat_no = game.current_player
    if seat_no is None:
        return
    level = table.seats[seat_no].bot_level
    if level is None:
        return
    table.bots.think(
        version=table.version,
        seat=seat_no,
        level=level,
        view=game.view(seat_no, log=True),
        legal=[m.text for m in game.legal_moves()],
        hurry=absence.unattended(table.seats, table.members),
    )
