"""The app factory: ``create_app(settings)`` wires the database, tables, lobby and routes."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url

from . import auth, db, lobby, sockets, stats
from .botpool import BotPool
from .errors import ApiError
from .ratelimit import KeyedBuckets
from .security import OriginMiddleware
from .settings import ServerSettings
from .table.actor import TableDeps
from .table.fanout import Audit, LocalFanout, LocalSockets
from .table.store import SqlTableStore
from .tables import Tables

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Crazy Eights</title>
<h1>Crazy Eights card room</h1><p>The browser client is not installed here.
The API is described at <a href="/docs">/docs</a>.</p>"""


class Room:
    """Everything one card-room process shares: settings, database, tables, lobby, bots."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.engine = db.make_engine(settings.sqlalchemy_url())
        self.writer = db.Writer(self.engine)
        self.accounts = auth.Accounts(self)
        self.store = SqlTableStore(self.engine, self.writer)
        self.sockets = LocalSockets()
        self.fanout = LocalFanout(self.sockets)
        self.bots = BotPool(
            settings.bot_workers,
            {
                "move": settings.bot_queue_move,
                "hint": settings.bot_queue_hint,
                "background": settings.bot_queue_background,
            },
        )
        self.lobby = lobby.Lobby(self, lobby.MemoryBus())
        self.table_deps = TableDeps(
            store=self.store,
            fanout=self.fanout,
            thinker=self.bots,
            bot_account=self.accounts.bot_account,
            changed=self.lobby.table_changed,
            idle=lambda actor: self.tables.unload(actor),
            bot_delay=settings.bot_delay,
            grace_seconds=settings.grace_seconds,
            max_spectators=settings.max_spectators,
        )
        self.tables = Tables(lambda: self.table_deps)
        self.socket_opens = KeyedBuckets(settings.socket_opens, burst=4 * settings.socket_opens)
        self.dummy_hash = ""

    @property
    def audit(self) -> Audit | None:
        """A test hook that sees every message a table sends (table id, seat, text)."""
        return self.fanout.audit

    @audit.setter
    def audit(self, audit: Audit | None) -> None:
        self.fanout.audit = audit

    async def open(self) -> None:
        url = make_url(self.settings.sqlalchemy_url())
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        await db.migrate(self.engine)
        self.dummy_hash = await asyncio.to_thread(self.accounts.hasher.hash, secrets.token_hex(16))
        self.writer.start()
        restored = await self.tables.restore()
        log.info("card room ready; %d unfinished tables restored", restored)

    async def close(self) -> None:
        await self.tables.close()
        await self.writer.stop()
        self.bots.close()
        await self.engine.dispose()


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The card room as an ASGI app."""
    settings = settings or ServerSettings()
    room = Room(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await room.open()
        try:
            yield
        finally:
            await room.close()

    app = FastAPI(
        title="Crazy Eights card room",
        version="0.1.0",
        description="Accounts, lobby, tables and records. Table play is over WebSockets: "
        "see docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.room = room
    app.add_middleware(OriginMiddleware, settings=settings)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return JSONResponse(
            {"error": exc.code, "detail": exc.detail}, status_code=exc.status, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for error in exc.errors()[:5]:
            where = ".".join(str(p) for p in error["loc"] if p != "body")
            parts.append(f"{where}: {error['msg']}" if where else str(error["msg"]))
        return JSONResponse({"error": "invalid", "detail": "; ".join(parts)}, status_code=422)

    for router in (auth.router, lobby.router, stats.router, sockets.router):
        app.include_router(router)

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, object]:
        return {"ok": True, "tables": len(room.tables.live)}

    web = settings.web_dir or WEB

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(PLACEHOLDER)

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    app.mount("/", StaticFiles(directory=web, check_dir=False), name="web")
    return app
