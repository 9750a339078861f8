"""The table socket: authenticates, checks the Origin, limits, parses, and hands typed
messages to the table's actor. Nothing a client sends can raise inside a table.

This is the WebSocket transport of ``table/transport.py``: a socket is a ``Member`` that
joins with ``Join``, sends operations (``ops.from_client``) and leaves with ``Part``;
its ``connection.Conn`` is the ``Link`` the table's text reaches it through."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..auth import COOKIE, token_hash
from ..connection import Conn
from ..ejection import BANNED
from ..errors import ApiError
from ..metrics import ERRORS, TABLE_SOCKETS
from ..presence import Presence, Where
from ..protocol import ErrorOut, ProtocolError, TableInfo, parse_client
from ..ratelimit import Guard, Verdict
from ..security import origin_allowed
from ..table.members import Member
from ..table.ops import Describe, Join, Joined, Part, from_client
from ..tables import TableHandle
from .deps import room_of

RATE = 20.0  # messages a second per socket
BURST = 40.0
MAX_BAD = 20  # malformed messages (draining one every 5 s) before the socket is closed
MAX_FLOOD = 40  # rate-limited messages (draining at RATE / 2) before the socket is closed
TRY_AGAIN = 1013  # close code: the table could not be reached now; reconnect
ELSEWHERE = 4307  # close code: the table runs on the node the reason names; reconnect there
Fate = Literal["here", "across", "sent_on"]  # what became of a table socket (a metric label)

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    ws: WebSocket, table_id: str, code: str | None = None, node: str | None = None
) -> None:
    room = room_of(ws)
    if not origin_allowed(ws, room.settings):
        await ws.accept()
        await ws.close(4003, "origin not allowed")
        return
    account = await room.accounts.from_token(ws.cookies.get(COOKIE))
    if not room.socket_opens.take(opener(ws, account.id if account else None)):
        await ws.accept()
        await ws.close(4029, "too many connections: wait a moment")
        return
    await ws.accept()
    banned = room.moderation.banned(account.id) if account else None
    if banned is not None:
        await ws.close(BANNED, banned)
        return
    try:
        table = await room.tables.handle(table_id) or await room.hosted.handle(table_id)
    except ApiError as exc:  # the table is changing hands: the browser retries
        await ws.close(TRY_AGAIN, exc.detail)
        return
    if table is None:
        await ws.close(4004, "no such open or running table")
        return
    fate, there = send_on(table.node, room.node, node)
    TABLE_SOCKETS.labels(fate).inc()
    if there is not None:
        await ws.close(ELSEWHERE, there)
        return
    member = Member(
        account_id=account.id if account else None,
        name=account.display_name if account else "spectator",
        node=room.node,
        hides=tuple(await room.blocks.blocked_by(account.id)) if account else (),
    )
    conn = Conn(ws)
    session = ws.cookies.get(COOKIE)
    room.sockets.add(
        member.id,
        conn,
        table_id=table_id,
        node=table.node,
        account_id=member.account_id,
        session=token_hash(session) if session else None,
    )
    try:
        async with room.matchmaker.online(member.account_id):
            await _member(ws, conn, member, table, table_id, code, room.presence)
    finally:
        room.sockets.remove(member.id)
        conn.stop()


async def _member(
    ws: WebSocket,
    conn: Conn,
    member: Member,
    table: TableHandle,
    table_id: str,
    code: str | None,
    presence: Presence,
) -> None:
    """Join the table, serve the socket until it closes (the person counted at the
    table, seated or watching, meanwhile), and part."""
    try:
        joined: Joined = await table.request(Join(member, code))
    except ApiError:
        await conn.finish(TRY_AGAIN)
        return
    if not joined.ok:
        await conn.finish(joined.close_code, joined.reason)
        return
    try:
        where = await _where(table, table_id, member.account_id, code)
        async with presence.connected(member.account_id, where):
            await _serve(
                ws, conn, member, (table, table_id), lambda: presence.active(member.account_id)
            )
    finally:
        with contextlib.suppress(RuntimeError):
            table.submit(Part(member.id))


async def _where(table: TableHandle, table_id: str, account: int | None, code: str | None) -> Where:
    """Where presence sees a person with this table open: at it, seated or not (a
    private table is not named: friends see "playing" without a Watch button)."""
    if account is None:
        return Where("table", table_id)
    info: TableInfo = await table.request(Describe(account, code))
    seated = info.status in ("open", "playing") and any(
        s.account == account and not s.left for s in info.seats
    )
    return Where("table", table_id if info.public else None, seated=seated)


def send_on(owner: str, here: str, asked: str | None) -> tuple[Fate, str | None]:
    """What becomes of a table socket, and the node to send it on to: the table's own, so
    that the moves of the people at a table never cross between nodes. ``asked`` is the
    node the socket asked for (``?node=``, what the browser sends after being sent on): a
    socket that asked for the owner and still reached another node came through a proxy
    that could not route it there (the node is down, or the proxy does not route by
    node), so it is served here, across nodes, rather than sent round again.

    >>> send_on("b", "a", None)  # a socket for b's table reached a: go to b
    ('sent_on', 'b')
    >>> send_on("b", "a", "b")  # it asked for b and still reached a: serve it here
    ('across', None)
    >>> send_on("c", "a", "b")  # it asked for b, but the table has moved to c since
    ('sent_on', 'c')
    >>> send_on("a", "a", "b")  # at the table's node, whatever it asked for
    ('here', None)
    >>> send_on("", "", None)  # one process: every table is here
    ('here', None)
    """
    if owner == here:
        return "here", None
    if owner == asked:
        return "across", None
    return "sent_on", owner


def opener(ws: WebSocket, account_id: int | None) -> str:
    """Who opens a socket, for the limit on how often: the account, or the address."""
    if account_id is not None:
        return f"account:{account_id}"
    return f"address:{ws.client.host if ws.client else '?'}"


async def _serve(
    ws: WebSocket,
    conn: Conn,
    member: Member,
    at: tuple[TableHandle, str],
    active: Callable[[], None],
) -> None:
    """Read the socket until it closes: limits, parsing, and operations to the table.

    A dead connection (a closed laptop, a lost network) is closed by the server's
    heartbeat, WebSocket pings that go unanswered (``serve``'s ``heartbeat_seconds``),
    and then ends this loop like any other close.
    """
    guard = Guard(rate=RATE, burst=BURST, max_flood=MAX_FLOOD, max_bad=MAX_BAD)
    table, table_id = at
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            verdict = guard.admit()
            if verdict is Verdict.CLOSE:
                await conn.finish(1008, "flooding")
                return
            if verdict is Verdict.DROP:
                conn.send(_error(table_id, "rate_limited", f"at most {RATE:g} messages a second"))
                continue
            try:
                msg = parse_client(raw)
            except ProtocolError as exc:
                conn.send(_error(table_id, exc.code, exc.reason))
                if exc.code == "too_large":
                    await conn.finish(1009, "message too large")
                    return
                if guard.bad():
                    await conn.finish(1008, "too many bad messages")
                    return
                continue
            if msg.type != "ping":
                active()
            table.submit(from_client(member.id, msg))


def _error(table_id: str, code: str, reason: str) -> str:
    """An error the socket answers itself (limits and parsing), before any table sees it."""
    ERRORS.labels(code).inc()
    return ErrorOut(table=table_id, code=code, reason=reason).model_dump_json()
