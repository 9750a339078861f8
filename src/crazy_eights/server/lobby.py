"""The lobby: create, list, join and start tables, quick play, and live lobby updates.

Lobby updates go through a ``Bus`` and the list of tables lives in a ``TableDirectory``;
both are in memory on one process and in Redis when the room runs as several.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

import pydantic_core
import sqlalchemy as sa
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, model_validator

from crazy_eights.engine import RULESETS, Rules, RulesError

from . import db
from .auth import Account, CurrentAccount, OptionalAccount, room_of
from .botpool import BOT_LEVELS
from .bus import Bus
from .directory import TableDirectory
from .errors import ApiError
from .lengths import Length, length_settings
from .protocol import (
    LobbyRemoved,
    LobbyTable,
    LobbyTables,
    Printable,
    SeatInfo,
    TableInfo,
    too_large,
)
from .ratelimit import Guard, Verdict
from .security import may_see_private_table, origin_allowed
from .sockets import opener
from .table import absence, ops
from .table.actor import TableActor
from .table.seats import bot_names
from .table.store import Spec
from .tables import TableHandle

if TYPE_CHECKING:
    from .app import Room

LOBBY = "lobby"


class Lobby:
    """What every lobby page shows: the public tables, kept in a ``TableDirectory`` and
    announced on the ``Bus`` as they change."""

    def __init__(self, bus: Bus, directory: TableDirectory) -> None:
        self.bus = bus
        self.directory = directory

    def table_changed(self, actor: TableActor) -> None:
        if not actor.spec.public:
            return
        if actor.status in ("finished", "abandoned") or (
            actor.status == "playing" and absence.unattended(actor.seats, actor.members)
        ):  # over, or only bots left playing out absent players' seats: not listed
            self.directory.remove(actor.id)
            self.bus.publish(LOBBY, LobbyRemoved(id=actor.id).model_dump(mode="json"))
        else:
            info = actor.info()
            self.directory.put(info)
            self.bus.publish(LOBBY, LobbyTable(table=info).model_dump(mode="json"))

    async def listed(self) -> list[TableInfo]:
        """Open and running public tables, oldest first."""
        return sorted(await self.directory.listed(), key=lambda t: t.created_at)


def player(account: Account) -> ops.Player:
    """An account as a table shows it."""
    return ops.Player(id=account.id, name=account.display_name, avatar=account.avatar)


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


def make_rules(data: dict[str, Any]) -> Rules:
    try:
        return Rules.from_dict(data)
    except (RulesError, TypeError) as exc:
        raise ApiError(422, "bad_rules", str(exc)) from None


router = APIRouter(tags=["lobby"])


async def _live(request: Request, table_id: str) -> TableHandle:
    table = await room_of(request).tables.handle(table_id)
    if table is None:
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
async def list_tables(request: Request) -> list[TableInfo]:
    """Open and running public tables."""
    return await room_of(request).lobby.listed()


def check_table_limit(room: Room, account: Account, sitting_at: str | None = None) -> None:
    """Refuse (429) an account that already holds a seat at its share of live tables
    (the table it is sitting down at does not count)."""
    limit = room.settings.tables_per_account
    held = sum(
        1
        for actor in room.tables.live.values()
        if actor.id != sitting_at
        and actor.status in ("open", "playing")
        and actor.seat_of(account.id) is not None
    )
    if held >= limit:
        raise ApiError(
            429,
            "too_many_tables",
            f"you already play at {held} tables (at most {limit}): finish or leave one first",
        )


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, account: CurrentAccount, request: Request) -> TableInfo:
    """Create a table; the creator takes the first seat without a bot."""
    check_table_limit(room_of(request), account)
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
    actor = await room_of(request).tables.create(spec, player(account))
    return actor.info(for_account=account.id)


@router.get("/api/tables/{table_id}")
async def get_table(
    table_id: str, request: Request, account: OptionalAccount, code: str | None = None
) -> TableInfo:
    """A table's seats and settings (private tables need their code or a seat)."""
    account_id = account.id if account else None
    table = await room_of(request).tables.handle(table_id)
    if table is not None:
        info: TableInfo = await table.request(ops.Describe(account_id, code))
        return info
    return await _stored_info(room_of(request), table_id, account_id, code)


async def _stored_info(
    room: Room, table_id: str, account_id: int | None, code: str | None
) -> TableInfo:
    async with room.engine.connect() as conn:
        row = (await conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id))).first()
        if row is None:
            raise ApiError(404, "no_table", "no such table")
        seat_rows = (
            await conn.execute(
                sa.select(db.seats, db.accounts.c.display_name, db.accounts.c.avatar)
                .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
                .where(db.seats.c.table_id == table_id)
                .order_by(db.seats.c.seat)
            )
        ).all()
        if not row.public and not may_see_private_table(
            members={s.account_id for s in seat_rows} | {row.creator_id},
            account_id=account_id,
            invite=row.invite,
            code=code,
        ):
            raise ApiError(403, "invite_needed", "this table is private: use its invite code")
        count = (
            await conn.execute(
                sa.select(sa.func.count())
                .select_from(db.moves)
                .where(db.moves.c.table_id == table_id)
            )
        ).scalar_one()
    return TableInfo(
        id=row.id,
        name=row.name,
        ruleset=row.ruleset,
        rules=row.rules,
        status=row.status,
        public=row.public,
        rated=not row.hints,
        hints=row.hints,
        takeover_after=row.takeover_after,
        creator=row.creator_id,
        seats=[
            SeatInfo(
                seat=s.seat,
                account=s.account_id,
                name=bot_name or s.display_name,
                avatar=s.avatar,
                bot=s.bot_level,
                left=s.left,
            )
            for s, bot_name in zip(
                seat_rows, bot_names([s.bot_level for s in seat_rows]), strict=True
            )
        ],
        version=int(count),
        created_at=row.created_at,
    )


@router.post("/api/tables/{table_id}/sit")
async def sit(table_id: str, body: Sit, account: CurrentAccount, request: Request) -> TableInfo:
    """Take a seat (a free one when ``seat`` is left out)."""
    table = await _live(request, table_id)
    check_table_limit(room_of(request), account, sitting_at=table_id)
    result: TableInfo = await table.request(ops.Sit(player(account), body.seat, body.code))
    return result


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, account: CurrentAccount, request: Request) -> TableInfo:
    """Give up your seat; leaving a running game counts as a loss and a bot finishes it."""
    table = await _live(request, table_id)
    result: TableInfo = await table.request(ops.Leave(account.id))
    return result


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, account: CurrentAccount, request: Request) -> TableInfo:
    """Start the game now (creator only); empty seats get bots."""
    table = await _live(request, table_id)
    result: TableInfo = await table.request(ops.Start(account.id))
    return result


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, account: CurrentAccount, request: Request) -> TableInfo:
    """Play again with the same people and rules (a player of this finished game only):
    the first to ask gets a new table with the same settings and bots, every later asker
    a seat at that same table; it starts once every seat is taken (or its creator starts
    it). Answers the new table's info; the finished table tells its members."""
    room = room_of(request)
    check_table_limit(room, account)
    table = await room.tables.handle(table_id)
    if table is None:  # unloaded since the game ended: answered from its row
        return await room.follow_ups.from_store(table_id, player(account))
    result: TableInfo = await table.request(ops.Rematch(player(account)))
    return result


@router.get("/api/invite/{code}")
async def invite(code: str, request: Request, account: OptionalAccount) -> TableInfo:
    """The private table an invite code opens."""
    room = room_of(request)
    table_id = await room.tables.find_invite(code) if len(code) <= 32 else None
    table = None if table_id is None else await room.tables.handle(table_id)
    if table is None:
        raise ApiError(404, "no_table", "no open table has this invite code")
    info: TableInfo = await table.request(ops.Describe(account.id if account else None, code))
    return info


def quick_spec(rules: Rules, *, people: int, level: str) -> Spec:
    """A quick-play table: public, rated, the first ``people`` seats for people and bots
    of ``level`` in the others."""
    return Spec(
        name=f"Quick {rules.ruleset}",
        rules=rules,
        public=True,
        hints=False,
        takeover_after=2,
        bots={seat: level for seat in range(people, rules.players)},
    )


@router.post("/api/quickplay")
async def quickplay(body: QuickPlay, account: CurrentAccount, request: Request) -> TableInfo:
    """Sit at an open public table of the ruleset (and length), or start a new one with
    bots, at once; the browser's quick play waits in the queue (``/api/match``) instead."""
    room = room_of(request)
    check_table_limit(room, account)
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
    updates = room.lobby.bus.subscribe(LOBBY)

    async def forward() -> None:
        async for message in updates:
            await ws.send_json(message)

    await ws.send_text(LobbyTables(tables=await room.lobby.listed()).model_dump_json())
    task = asyncio.create_task(forward())
    try:
        await answer_pings(ws)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def answer_pings(ws: WebSocket) -> None:
    """Read the lobby socket: pings get a pong; anything else (binary frames included) is
    ignored; too fast or too large closes it."""
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
        if _is_ping(text):
            await ws.send_json({"type": "pong"})


def _is_ping(text: str) -> bool:
    try:
        data = pydantic_core.from_json(text)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("type") == "ping"
