"""Hints: a player asks on their turn, the hint desk searches, the answer goes to them.

The search runs off the loop (``bots.HintDesk``) and comes back as an operation, so an
answer for a position the game has left is dropped.
"""

from __future__ import annotations

import logging

from ..protocol import HintOut
from . import messages
from .context import TableContext
from .ops import AskHint, HintReady, HintRefused

log = logging.getLogger(__name__)


def on_ask(ctx: TableContext, op: AskHint) -> None:
    """Start (or join) a hint search for the asker's seat, if hints may be given now."""
    table = ctx.table
    member = table.members.get(op.member_id)
    if member is None:
        return
    game = table.game
    if not table.spec.hints:
        return ctx.out.error(member, "hints_off", "hints are off at this table (it is rated)")
    if member.seat is None:
        return ctx.out.error(member, "not_seated", "spectators get no hints")
    if game is None or game.is_over or game.current_player != member.seat:
        return ctx.out.error(member, "not_your_turn", "hints are given on your turn")
    table.hints.ask(
        member_id=member.id,
        version=table.version,
        seat=member.seat,
        view=game.view(member.seat, log=True),
        legal=[m.text for m in game.legal_moves()],
    )


def on_ready(ctx: TableContext, op: HintReady) -> None:
    """A hint found: sent to the asker if the game is still at its position."""
    table = ctx.table
    member = table.members.get(op.member_id)
    game = table.game
    if member is None or game is None or op.version != table.version:
        return
    # the hint goes out as one of the legal moves' data, so a client reads it as it
    # reads its moves (and a suggestion the game would refuse never goes out)
    data = next((m for m in game.legal_move_data() if m["text"] == op.move), None)
    if data is None:
        log.warning("table %s: a hint %r that is not a legal move", table.id, op.move)
        return
    message = HintOut(
        table=table.id,
        clock=messages.clock(table),
        version=op.version,
        move=op.move,
        data=dict(data),
    )
    ctx.out.send(member, message)


def on_refused(ctx: TableContext, op: HintRefused) -> None:
    """No room for the search now: the asker is told to ask again."""
    member = ctx.table.members.get(op.member_id)
    if member is not None:
        ctx.out.error(member, "busy", op.reason)
