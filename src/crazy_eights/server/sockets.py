"""The table socket: authenticates, checks the Origin, limits, parses, and hands typed
messages to the table's actor. Nothing a client sends can raise inside a table."""

from __future__ import annotations

import contextlib
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .auth import COOKIE, room_of
from .connection import Conn
from .protocol import ErrorOut, ProtocolError, parse_client
from .security import origin_allowed
from .table.members import Member
from .table.ops import Join, Joined, Part, from_client
from .tables import TableHandle

RATE = 20.0  # messages a second per socket
BURST = 40.0
MAX_BAD = 20  # malformed messages before the socket is closed
MAX_FLOOD = 40  # rate-limited messages before the socket is closed

router = APIRouter()


class Bucket:
    """A token bucket: ``take`` is False when the socket sends faster than ``rate``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, code: str | None = None) -> None:
    room = room_of(ws)
    if not origin_allowed(ws, room.settings):
        await ws.accept()
        await ws.close(4003, "origin not allowed")
        return
    account = await room.accounts.from_token(ws.cookies.get(COOKIE))
    table = await room.tables.handle(table_id)
    await ws.accept()
    if table is None:
        await ws.close(4004, "no such open or running table")
        return
    member = Member(
        account_id=account.id if account else None,
        name=account.display_name if account else "spectator",
    )
    conn = Conn(ws)
    room.sockets.add(member.id, conn)
    try:
        joined: Joined = await table.request(Join(member, code))
        if not joined.ok:
            await conn.finish(joined.close_code, joined.reason)
            return
        try:
            await _serve(ws, conn, member, table, table_id)
        finally:
            with contextlib.suppress(RuntimeError):
                table.submit(Part(member.id))
    finally:
        room.sockets.remove(member.id)


async def _serve(
    ws: WebSocket, conn: Conn, member: Member, table: TableHandle, table_id: str
) -> None:
    """Read the socket until it closes: limits, parsing, and operations to the table."""
    bucket = Bucket(RATE, BURST)
    bad = flood = 0
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not bucket.take():
                flood += 1
                conn.send(_error(table_id, "rate_limited", f"at most {RATE:g} messages a second"))
                if flood > MAX_FLOOD:
                    await conn.finish(1008)
                    return
                continue
            try:
                msg = parse_client(raw)
            except ProtocolError as exc:
                conn.send(_error(table_id, exc.code, exc.reason))
                if exc.code == "too_large":
                    await conn.finish(1009)
                    return
                bad += 1
                if bad > MAX_BAD:
                    await conn.finish(1008)
                    return
                continue
            table.submit(from_client(member.id, msg))


def _error(table_id: str, code: str, reason: str) -> str:
    """An error the socket answers itself (limits and parsing), before any table sees it."""
    return ErrorOut(table=table_id, code=code, reason=reason).model_dump_json()
