"""Talk at a table: chat lines, and calling "last card" (with the button or in the chat).

A call marks the caller's seat: their next play carries the call (``play``), and only
their own connections hear that it is armed. A chat line that is a call in the
speaker's own words (``protocol.calls_last_card``) arms it too.
"""

from __future__ import annotations

from .. import db
from ..protocol import MAX_CHAT, CalledOut, calls_last_card
from . import messages
from .context import TableContext
from .members import Member
from .ops import Call, Say
from .store import ChatLine


async def on_call(ctx: TableContext, op: Call) -> None:
    """A player calls "last card" for their next play."""
    member = ctx.table.members.get(op.member_id)
    if member is not None:
        call(ctx, member)


def call(ctx: TableContext, member: Member) -> None:
    """Arm the member's seat's call and tell that seat's connections (or refuse)."""
    table = ctx.table
    if member.seat is None:
        return ctx.out.error(member, "not_seated", "spectators cannot call last card")
    if not table.running:
        return ctx.out.error(member, "not_started", "no game is running")
    table.seats[member.seat].called = True
    ctx.out.to_seat(
        member.seat, CalledOut(table=table.id, clock=messages.clock(table), seat=member.seat)
    )


async def on_say(ctx: TableContext, op: Say) -> None:
    """A chat line: refused while the speaker is muted; tidied, rate-limited, kept,
    told to everyone; a call arms the seat."""
    table = ctx.table
    member = table.members.get(op.member_id)
    if member is None:
        return
    if member.account_id is None:
        return ctx.out.error(member, "sign_in_to_chat", "sign in or play as a guest to chat")
    muted = ctx.muted(member.account_id)
    if muted is not None:
        return ctx.out.error(member, "muted", muted)
    text = " ".join(op.text.split())[:MAX_CHAT]
    if not text:
        return ctx.out.error(member, "bad_message", "empty chat message")
    refusal = table.chat.refusal(member.account_id)
    if refusal is not None:
        return ctx.out.error(member, "rate_limited", refusal)
    is_call = member.seat is not None and table.running and calls_last_card(text)
    line = ChatLine(
        seat=member.seat, account_id=member.account_id, name=member.name, text=text, at=db.now()
    )
    ctx.store.add_chat(table.id, line)
    table.chat.add(line)
    chat = messages.chat_out(table.id, line, clock=messages.clock(table), call=is_call)
    ctx.out.to_all_from(member.account_id, chat)
    if is_call:
        call(ctx, member)
