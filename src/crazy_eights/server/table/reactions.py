"""Handler: reactions, a small fixed set (``protocol.REACTIONS``) shown for a few
seconds on the sender's panel to everyone at the table, spectators included, except
those who blocked the sender. Each person may react ``state.REACTION_RATE`` times
(3 in 10 s); beyond that the sender alone is told why, and nobody else hears a thing."""

from __future__ import annotations

from ..protocol import ReactionOut
from . import messages
from .context import TableContext
from .ops import React
from .state import REACTION_RATE


async def on_react(ctx: TableContext, op: React) -> None:
    table = ctx.table
    member = table.members.get(op.member_id)
    if member is None:
        return
    if member.account_id is None:
        return ctx.out.error(member, "sign_in_to_react", "sign in or play as a guest to react")
    if not table.reactions.admit(member.account_id):
        limit, window = REACTION_RATE
        return ctx.out.error(
            member,
            "too_many_reactions",
            f"at most {limit} reactions in {window:g} seconds: wait a moment",
        )
    out = ReactionOut(
        table=table.id,
        clock=messages.clock(table),
        seat=member.seat,
        account=member.account_id,
        name=member.name,
        reaction=op.reaction,  # type: ignore[arg-type]
    )
    ctx.out.to_all_from(member.account_id, out)
