"""The table socket: authenticates, checks the Origin, limits, parses, and hands typed
messages to the table's actor. Nothing a client sends can raise inside a table."""

from __future__ import annotations

import contextlib
import time
from functools import partial

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .auth import COOKIE, room_of
from .protocol import (
    BackIn,
    CallIn,
    ChatIn,
    HintIn,
    MoveIn,
    PingIn,
    ProtocolError,
    SyncIn,
    parse_client,
)
from .security import origin_allowed
from .tables import Conn

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
    account_id = account.id if account else None
    actor = room.tables.get(table_id)
    await ws.accept()
    if actor is None:
        await ws.close(4004, "no such open or running table")
        return
    if not actor.may_watch(account_id, code):
        await ws.close(4003, "private table: use its invite code")
        return
    conn = Conn(ws, account_id, account.display_name if account else "spectator")
    await actor.ask(lambda: actor.connect(conn))
    bucket = Bucket(RATE, BURST)
    bad = flood = 0
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not bucket.take():
                flood += 1
                actor._error(conn, "rate_limited", f"at most {RATE:g} messages a second")
                if flood > MAX_FLOOD:
                    await conn.finish(1008)
                    break
                continue
            try:
                msg = parse_client(raw)
            except ProtocolError as exc:
                actor._error(conn, exc.code, exc.reason)
                if exc.code == "too_large":
                    await conn.finish(1009)
                    break
                bad += 1
                if bad > MAX_BAD:
                    await conn.finish(1008)
                    break
                continue
            if isinstance(msg, MoveIn):
                actor.post(partial(actor.on_move, conn, msg.seq, msg.move))
            elif isinstance(msg, ChatIn):
                actor.post(partial(actor.on_chat, conn, msg.text))
            elif isinstance(msg, CallIn):
                actor.post(lambda: actor.on_call(conn))
            elif isinstance(msg, HintIn):
                actor.post(lambda: actor.on_hint(conn))
            elif isinstance(msg, SyncIn):
                actor.post(lambda: actor.sync(conn))
            elif isinstance(msg, BackIn):
                actor.post(lambda: actor.back(conn))
            elif isinstance(msg, PingIn):
                actor.post(partial(actor.ping, conn, msg.t))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        with contextlib.suppress(RuntimeError):
            actor.post(lambda: actor.disconnect(conn))
