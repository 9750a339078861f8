"""The lobby over HTTP and its socket: create, list, join and start tables, quick play
at once, and live lobby updates (``/ws/lobby``). The service is ``lobby.py``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pydantic_core
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, model_validator

from crazy_eights.engine import RULESETS, Rules

from ..auth import COOKIE, Account
from ..botpool import BOT_LEVELS
from ..connection import close_quietly, spawn
from ..ejection import BANNED
from ..errors import ApiError
from ..hosted import refuse_seats
from ..lengths import Length, length_settings
from ..lobby import LOBBY, check_table_limit, make_rules, player, stored_table
from ..presence import Where
from ..protocol import LobbyTables, Printable, TableInfo, too_large
from ..quickplay import quick_spec
from ..ratelimit import Guard, Verdict
from ..rematch import REMATCH_RATE
from ..security import origin_allowed
from ..table import ops
from ..table.store import Spec
from ..tables import TableHandle
from .deps import CurrentAccount, OptionalAccount, RoomDep, room_of
from .table_socket import opener


class BotSeat(BaseModel):
    seat: int = Field(ge=0, le=20)
    level: str = Field(description=f"one of {', '.join(BOT_LEVELS)}")


class CreateTable(BaseModel):
    rules: dict[str, Any] = Field(
        description="ruleset and settings of RULES.md; validated by the engine's Rules"
    )
    bots: list[BotSeat] = Field(default_factory=list, max_length=20)
    public: bool = True
    hints: bool = False
    takeover_after: int = Field(default=2, ge=0, le=20, description="0: never")
    name: Printable | None = Field(default=None, max_length=60)

    @model_validator(mode="after")
    def _check(self) -> CreateTable:
        for bot in self.bots:
            if bot.level not in BOT_LEVELS:
                raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}")
        if len({b.seat for b in self.bots}) != len(self.bots):
            raise ValueError("two bots on one seat")
        return self


class Sit(BaseModel):
    seat: int | None = None
    code: str | None = Field(default=None, max_length=32)


class QuickPlay(BaseModel):
    ruleset: str = "classic"
    players: int | None = Field(default=None, ge=2, le=11)
    length: Length | None = Field(default=None, description="default: the ruleset's own")


router = APIRouter(tags=["lobby"])


async def _live(room: RoomDep, table_id: str) -> TableHandle:
    """The live table to seat, unseat or deal at (409 ``hosted_in_chat`` for a table a
    chat host plays: that is done in its channel; 404 for none)."""
    table = await room.tables.handle(table_id)
    if table is None:
        await refuse_seats(room.engine, table_id)
        raise ApiError(404, "no_table", "no such open or running table")
    return table


@router.get("/api/rulesets")
async def rulesets() -> dict[str, Any]:
    """``rulesets``: every ruleset's settings with defaults, allowed values and help, for
    forms; ``bot_levels``: the levels a bot seat can have."""
    return {
        "rulesets": {name: Rules.settings_for(name) for name in RULESETS},
        "bot_levels": list(BOT_LEVELS),
    }


@router.get("/api/tables")
async def list_tables(room: RoomDep) -> list[TableInfo]:
    """Open and running public tables."""
    return await room.lobby.listed()


async def table_limit(room: RoomDep, account: Account, sitting_at: str | None = None) -> None:
    """``check_table_limit`` for this account, its ticket in quick play's queue counted
    (a match seats it at one more table)."""
    waiting = await room.matchmaker.store.of(account.id) is not None
    limit = room.settings.tables_per_account
    check_table_limit(room.tables, limit, account, sitting_at, waiting=waiting)


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Create a table; the creator takes the first seat without a bot."""
    await table_limit(room, account)
    rules = make_rules(body.rules)
    bots = {b.seat: b.level for b in body.bots}
    if any(seat >= rules.players for seat in bots):
        raise ApiError(422, "bad_seat", f"bot seats are 0 to {rules.players - 1}")
    if len(bots) >= rules.players:
        raise ApiError(422, "no_seat_left", "leave at least one seat for yourself")
    spec = Spec(
        name=body.name or f"{account.display_name}'s {rules.ruleset} table",
        rules=rules,
        public=body.public,
        hints=body.hints,
        takeover_after=body.takeover_after,
        bots=bots,
    )
    actor = await room.tables.create(spec, player(account))
    return actor.info(for_account=account.id)


@router.get("/api/tables/{table_id}")
async def get_table(
    table_id: str, room: RoomDep, account: OptionalAccount, code: str | None = None
) -> TableInfo:
    """A table's seats and settings (private tables need their code or a seat)."""
    account_id = account.id if account else None
    table = await room.tables.handle(table_id)
    if table is not None:
        info: TableInfo = await table.request(ops.Describe(account_id, code))
        return info
    return await stored_table(room.engine, table_id, account_id, code)


@router.post("/api/tables/{table_id}/sit")
async def sit(table_id: str, body: Sit, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Take a seat (a free one when ``seat`` is left out)."""
    table = await _live(room, table_id)
    await table_limit(room, account, sitting_at=table_id)
    result: TableInfo = await table.request(ops.Sit(player(account), body.seat, body.code))
    return result


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Give up your seat; leaving a running game counts as a loss and a bot finishes it."""
    table = await _live(room, table_id)
    result: TableInfo = await table.request(ops.Leave(account.id))
    return result


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Start the game now (creator only); empty seats get bots."""
    table = await _live(room, table_id)
    result: TableInfo = await table.request(ops.Start(account.id))
    return result


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Play again with the same people and rules (a player of this finished game only):
    the first to ask gets a new table with the same settings and bots, every later asker
    a seat at that same table; it starts once every seat is taken (or its creator starts
    it). Answers the new table's info; the finished table tells its members. Asked
    too often: 429 ``throttled``."""
    if not room.rematch_asks.take(str(account.id)):
        raise ApiError(
            429,
            "throttled",
            "you asked to play again too often: wait a few seconds",
            headers={"Retry-After": str(round(1 / REMATCH_RATE))},
        )
    await table_limit(room, account)
    table = await room.tables.handle(table_id)
    if table is None:  # unloaded since the game ended: answered from its row
        return await room.follow_ups.from_store(table_id, player(account))
    result: TableInfo = await table.request(ops.Rematch(player(account)))
    return result


@router.get("/api/invite/{code}")
async def invite(code: str, room: RoomDep, account: OptionalAccount) -> TableInfo:
    """The private table an invite code opens."""
    table_id = await room.tables.find_invite(code) if len(code) <= 32 else None
    table = None if table_id is None else await room.tables.handle(table_id)
    if table is None:
        raise ApiError(404, "no_table", "no open table has this invite code")
    info: TableInfo = await table.request(ops.Describe(account.id if account else None, code))
    return info


@router.post("/api/quickplay")
async def quickplay(body: QuickPlay, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Sit at an open public table of the ruleset (and length), or start a new one with
    bots, at once; the browser's quick play waits in the queue (``/api/match``) instead."""
    await table_limit(room, account)
    length = length_settings(body.ruleset, body.length) if body.length else {}
    rules = make_rules(
        {"ruleset": body.ruleset} | ({"players": body.players} if body.players else {}) | length
    )
    for info in await room.lobby.listed():
        if (
            info.status == "open"
            and info.ruleset == rules.ruleset
            and (body.players is None or info.rules.get("players") == body.players)
            and all(info.rules.get(k) == v for k, v in length.items())
            and all(s.account != account.id for s in info.seats)
            and any(s.account is None for s in info.seats)
        ):
            table = await room.tables.handle(info.id)
            if table is None:
                continue
            with contextlib.suppress(ApiError):
                result: TableInfo = await table.request(ops.Sit(player(account)))
                return result
    spec = quick_spec(rules, people=1, level="heuristic")
    actor = await room.tables.create(spec, player(account))
    return actor.info(for_account=account.id)


LOBBY_RATE = 2.0  # messages a second a lobby socket may send (it only pings)
LOBBY_BURST = 10.0


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    room = room_of(ws)
    if not origin_allowed(ws, room.settings):
        await ws.close(4003)
        return
    await ws.accept()
    if not room.socket_opens.take(opener(ws, None)):
        await ws.close(4029, "too many connections: wait a moment")
        return
    account = await room.accounts.from_token(ws.cookies.get(COOKIE))
    account_id = account.id if account else None
    banned = room.moderation.banned(account_id) if account_id is not None else None
    if banned is not None:
        await ws.close(BANNED, banned)
        return
    with room.ejector.held(account_id, lambda code, why: spawn(close_quietly(ws, code, why))):
        await _lobby_member(ws, room, account)


async def _lobby_member(ws: WebSocket, room: RoomDep, account: Account | None) -> None:
    """Serve a lobby socket while its person counts as online (and present)."""
    account_id = account.id if account else None
    async with (
        room.matchmaker.online(account_id),
        room.presence.connected(account_id, Where("lobby")),
    ):
        await _serve_lobby(ws, room, None if account is None or account.guest else account_id)


async def _serve_lobby(ws: WebSocket, room: RoomDep, friend: int | None) -> None:
    """The lobby's tables, then every change to them, until the socket closes; for a
    registered account (``friend``) also its friends' presence and list changes."""
    updates = [room.lobby.bus.subscribe(LOBBY)]
    if friend is not None:
        updates.append(room.presence.listen(friend))

    async def forward(stream: AsyncIterator[dict[str, Any]]) -> None:
        async for message in stream:
            await ws.send_json(message)

    tasks: list[asyncio.Task[None]] = []
    try:
        # the socket can be closed (a ban, the room closing) while the first answers are
        # read from the database: sending on it then is a disconnect like any other
        await ws.send_text(LobbyTables(tables=await room.lobby.listed()).model_dump_json())
        if friend is not None:
            snapshot = await room.presence.snapshot(friend)
            presence = [p.model_dump() for p in snapshot]
            await ws.send_json({"type": "presence", "presence": presence})
        tasks = [asyncio.create_task(forward(stream)) for stream in updates]
        await answer_pings(ws, lambda: room.presence.active(friend))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


async def answer_pings(ws: WebSocket, active: Callable[[], None] | None = None) -> None:
    """Read the lobby socket: pings get a pong; ``{"type": "active"}`` (the person did
    something on the page) is told to ``active``; anything else (binary frames included)
    is ignored; too fast or too large closes it."""
    guard = Guard(rate=LOBBY_RATE, burst=LOBBY_BURST, max_flood=20, max_bad=20)
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        verdict = guard.admit()
        if verdict is Verdict.CLOSE:
            await ws.close(1008, "flooding")
            return
        text = message.get("text")
        if verdict is Verdict.DROP or text is None:
            continue
        if too_large(text):
            await ws.close(1009, "message too large")
            return
        kind = _kind(text)
        if kind == "ping":
            await ws.send_json({"type": "pong"})
        elif kind == "active" and active is not None:
            active()


def _kind(text: str) -> object:
    """The ``type`` of a JSON object sent on the socket (None for anything else)."""
    try:
        data = pydantic_core.from_json(text)
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) else None
