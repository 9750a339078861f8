"""A finished table's "Play again", as the table runs it (what a rematch is made of is
``rematch``; the lobby makes or finds the follow-up table)."""

from __future__ import annotations

from ..errors import ApiError
from ..protocol import RematchOut, TableInfo
from . import rematch
from .context import TableContext
from .ops import Rematch


async def on_rematch(ctx: TableContext, op: Rematch) -> TableInfo:
    """Seat a player of this finished game at its follow-up (made for the first to
    ask) and tell everyone here who sits there now (when that changed)."""
    table = ctx.table
    ask = rematch.asker(table.status, table.seats, op.player, table.id, table.spec)
    if ctx.follow_ups is None:
        raise ApiError(503, "no_rematch", "rematches are not offered here")
    info = await ctx.follow_ups(ask)
    by = table.rematch.by if table.rematch is not None else op.player.name
    offer = rematch.offer(info, table.seats, by)
    if offer != table.rematch:  # a repeated ask changes nothing: nothing to tell
        table.rematch = offer
        ctx.out.to_all(RematchOut(table=table.id, clock=None, rematch=offer))
    return info
