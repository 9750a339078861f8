"""The end of a game: recording it, telling the members, and letting the table go.

A game ends with a move (``play``) or is found over when a table is rebuilt. Whoever
abandoned it is recorded as having left, the store records the result (and, through it,
the ratings), and the members get the table's last info and the rating changes. A
finished table stays loaded ``UNLOAD_AFTER`` seconds for its last watchers.
"""

from __future__ import annotations

import asyncio

from . import absence, messages
from .context import TableContext

UNLOAD_AFTER = 60.0  # seconds a finished table stays loaded for its last watchers


async def end_game(ctx: TableContext) -> None:
    """The last move was played: stop the clock, mark who abandoned the game, record it."""
    table = ctx.table
    table.clock.cancel()
    for seat in absence.abandoned(table.seats, table.members):
        seat.left = True  # never credited with what a stand-in played for them
        await ctx.store.save_seat(table.id, seat)
    await record(ctx)


async def record(ctx: TableContext) -> None:
    """Store the finished game's result and keep its rating changes; the table is
    finished from now on."""
    table = ctx.table
    game = table.game
    assert game is not None and game.result is not None
    table.rating_changes = await ctx.store.finish(
        table.id, spec=table.spec, seats=table.seats, result=game.result.to_dict()
    )
    table.status = "finished"
    ctx.notices.finished()


def announce(ctx: TableContext) -> None:
    """Tell everyone the finished table's info and the rating changes, and unload the
    table a while later if nobody watches it by then."""
    ctx.info_changed()
    ctx.out.to_all(messages.ratings_out(ctx.table))
    asyncio.get_running_loop().call_later(UNLOAD_AFTER, unload_if_idle, ctx)


def unload_if_idle(ctx: TableContext) -> None:
    """Let the table go when nobody is connected to it any more."""
    if not ctx.table.members:
        ctx.notices.idle()
