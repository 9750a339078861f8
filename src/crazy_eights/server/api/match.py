"""Quick play's queue over HTTP (``/api/match``) and its socket (``/ws/match``).

The socket is the waiting person's own: it tells them the queue's state (who waits, the
seconds left) whenever it changes and then which table they got; when it goes away and
no other comes back within a few seconds, the ticket is cancelled. The queue is
``matchmaking.Matchmaker``; its tables are made by ``quickplay``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from ..auth import COOKIE
from ..connection import close_quietly, spawn
from ..ejection import BANNED
from ..errors import ApiError
from ..lengths import Length, length_settings
from ..lobby import check_table_limit, make_rules
from ..matchmaking import Matchmaker, QueueKey, Ticket, new_ticket
from ..presence import Where
from ..protocol import MatchedOut, MatchGone, MatchTicket, TableInfo
from ..quickplay import JOIN_RATE, rating
from ..security import origin_allowed
from ..table.ops import Describe
from .deps import CurrentAccount, RoomDep, room_of
from .lobby import answer_pings
from .table_socket import TRY_AGAIN, opener

router = APIRouter(tags=["matchmaking"])


class JoinQueue(BaseModel):
    ruleset: str = "classic"
    players: int | None = Field(default=None, ge=2, le=11, description="default: the ruleset's")
    length: Length = "round"


async def _ticket_out(mm: Matchmaker, ticket: Ticket) -> MatchTicket:
    return MatchTicket(
        ticket=ticket.id,
        queue=await mm.state(ticket.key),
        table=await mm.store.matched(ticket.account),
    )


@router.post("/api/match", status_code=201)
async def join_queue(body: JoinQueue, account: CurrentAccount, room: RoomDep) -> MatchTicket:
    """Wait in quick play's queue for a ruleset, player count and length (``table`` is set
    at once when a full table could be made)."""
    check_table_limit(room.tables, room.settings.tables_per_account, account)
    rules = make_rules(
        {"ruleset": body.ruleset}
        | ({"players": body.players} if body.players else {})
        | length_settings(body.ruleset, body.length)
    )
    key = QueueKey(rules.ruleset, rules.players, body.length)
    mm = room.matchmaker
    ticket = new_ticket(
        account.id,
        account.display_name,
        account.avatar,
        await rating(room.engine, account.id, rules.ruleset),
        key,
        mm.clock(),
    )
    if not room.match_joins.take(str(account.id)):
        raise ApiError(
            429,
            "throttled",
            "you joined the queue too often: wait a few seconds",
            headers={"Retry-After": str(round(1 / JOIN_RATE))},
        )
    held = await mm.join(ticket)
    out = await _ticket_out(mm, held)
    if await mm.store.of(account.id) is not None:
        out.table = None  # a match remembered from before is not this ticket's
    return out


@router.get("/api/match")
async def my_ticket(account: CurrentAccount, room: RoomDep) -> MatchTicket | None:
    """Your place in the queue, or null when you are not waiting (so that a page can
    look without an error: the browser does on every visit to the lobby)."""
    mm = room.matchmaker
    ticket = await mm.store.of(account.id)
    return None if ticket is None else await _ticket_out(mm, ticket)


@router.delete("/api/match", status_code=204)
async def cancel_queue(account: CurrentAccount, room: RoomDep) -> Response:
    """Stop waiting; nothing is left behind (404 ``not_queued``)."""
    await room.matchmaker.cancel(account.id)
    return Response(status_code=204)


@router.post("/api/match/now", status_code=201)
async def play_now(account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Stop waiting and play now against bots (404 ``not_queued``; 429
    ``too_many_tables`` for an account at its share of tables)."""
    check_table_limit(room.tables, room.settings.tables_per_account, account)
    table_id = await room.matchmaker.play_now(account.id)
    table = await room.tables.handle(table_id)
    if table is None:  # finished already: cannot happen to a table dealt just now
        raise ApiError(404, "no_table", "no such open or running table")
    info: TableInfo = await table.request(Describe(account.id, None))
    return info


@router.websocket("/ws/match")
async def match_socket(ws: WebSocket) -> None:
    """The waiting person's socket: ``queue`` on every change, then ``matched`` (or
    ``gone``), then it closes."""
    room = room_of(ws)
    await ws.accept()
    if not origin_allowed(ws, room.settings):
        await ws.close(4003, "origin not allowed")
        return
    account = await room.accounts.from_token(ws.cookies.get(COOKIE))
    if account is None:
        await ws.close(4001, "sign in first")
        return
    if not room.socket_opens.take(opener(ws, account.id)):
        await ws.close(4029, "too many connections: wait a moment")
        return
    banned = room.moderation.banned(account.id)
    if banned is not None:
        await ws.close(BANNED, banned)
        return
    with room.ejector.held(account.id, lambda code, why: spawn(close_quietly(ws, code, why))):
        await _waiting(ws, room, account.id)


async def _waiting(ws: WebSocket, room: RoomDep, account_id: int) -> None:
    """Serve the socket of a person who may be waiting in the queue."""
    mm = room.matchmaker
    ticket = await mm.store.of(account_id)
    if ticket is None:
        await _finish(ws, mm, account_id)
        return
    updates = mm.bus.subscribe(ticket.key.topic)
    if await mm.store.of(account_id) != ticket:  # matched or cancelled meanwhile
        await updates.aclose()  # type: ignore[attr-defined]
        await _finish(ws, mm, account_id)
        return
    await mm.socket_opened(account_id)
    reader = asyncio.create_task(answer_pings(ws))
    try:
        async with mm.online(account_id), room.presence.connected(account_id, Where("queue")):
            await ws.send_text((await mm.state(ticket.key)).model_dump_json())
            await _forward(ws, mm, updates, account_id, reader)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        await mm.socket_closed(ticket)


async def _forward(
    ws: WebSocket, mm: Matchmaker, updates: Any, account: int, reader: asyncio.Task[None]
) -> None:
    """Pass the queue's news to the socket until this person is matched or gone, or the
    socket closes (``reader`` ends)."""
    nxt = asyncio.ensure_future(anext(updates))
    try:
        while True:
            done, _ = await asyncio.wait({nxt, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                return
            try:
                message = nxt.result()
            except StopAsyncIteration:  # fell far behind the queue's news: reconnect
                await ws.close(TRY_AGAIN)
                return
            if message.get("type") == "matched" and account in message.get("accounts", ()):
                await ws.send_text(MatchedOut(table=message["table"]).model_dump_json())
                await ws.close(1000)
                return
            if message.get("type") == "left" and account in message.get("accounts", ()):
                await _finish(ws, mm, account)
                return
            if message.get("type") == "queue" and any(
                e["account"] == account for e in message["waiting"]
            ):
                left = max(0.0, message["closes_at"] - mm.clock())
                await ws.send_json(message | {"seconds_left": left})
            nxt = asyncio.ensure_future(anext(updates))
    finally:
        nxt.cancel()
        await updates.aclose()


async def _finish(ws: WebSocket, mm: Matchmaker, account: int) -> None:
    """Tell a socket whose person no longer waits where they were seated, or that they
    are gone, and close it."""
    table = await mm.store.matched(account)
    out = MatchedOut(table=table) if table else MatchGone()
    await ws.send_text(out.model_dump_json())
    await ws.close(1000)
