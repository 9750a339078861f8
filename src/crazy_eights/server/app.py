"""The app factory: ``create_app(settings)`` wires the database, tables, lobby and routes."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from . import auth, db, lobby, sockets, stats
from .botpool import BotPool
from .errors import ApiError
from .messages import http_error, readable
from .passwords import Passwords
from .security import BodyLimitMiddleware, OriginMiddleware
from .settings import ServerSettings
from .throttle import Throttles

if TYPE_CHECKING:
    from .tables import TableActor

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Crazy Eights</title>
<h1>Crazy Eights card room</h1><p>The browser client is not installed here.
The API is described at <a href="/docs">/docs</a>.</p>"""

Audit = Callable[["TableActor", int | None, str], None]
MAX_BODY = 64 * 1024  # bytes of any request body


class Room:
    """Everything one card-room process shares: settings, database, tables, lobby, bots."""

    def __init__(self, settings: ServerSettings) -> None:
        from .tables import Tables

        self.settings = settings
        self.engine = db.make_engine(settings.sqlalchemy_url())
        self.writer = db.Writer(self.engine)
        self.accounts = auth.Accounts(self)
        self.passwords = Passwords(
            time_cost=settings.hash_time_cost,
            memory_kib=settings.hash_memory_kib,
            slots=settings.hash_concurrency,
            queue=settings.hash_queue,
        )
        self.throttles = Throttles(settings)
        self.tables = Tables(self)
        self.lobby = lobby.Lobby(self, lobby.MemoryBus())
        self.bots = BotPool(settings.bot_workers)
        self.audit: Audit | None = None

    async def open(self) -> None:
        url = make_url(self.settings.sqlalchemy_url())
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        await db.migrate(self.engine)
        await self.passwords.start()
        self.writer.start()
        restored = await self.tables.restore()
        log.info("card room ready; %d unfinished tables restored", restored)

    async def close(self) -> None:
        await self.tables.close()
        await self.writer.stop()
        self.bots.close()
        self.passwords.close()
        await self.engine.dispose()


class ErrorResponse(JSONResponse):
    """``{"error": code, "detail": text}``, ASCII-escaped so no text can break the JSON."""

    def render(self, content: object) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode()


def _form_rules(request: Request) -> dict[str, str] | None:
    """The ``RULES`` of the route's body model (``auth.Form``), if it has any."""
    field = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    rules = getattr(model, "RULES", None)
    return rules if isinstance(rules, dict) else None


def add_error_handlers(app: FastAPI) -> None:
    """Every error the API answers has the shape ``{"error": code, "detail": sentence}``."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        body = {"error": exc.code, "detail": exc.detail}
        return ErrorResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        detail = readable(exc.errors(), _form_rules(request))
        return ErrorResponse({"error": "invalid", "detail": detail}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        code, detail = http_error(exc.status_code, str(exc.detail))
        body = {"error": code, "detail": detail}
        return ErrorResponse(body, status_code=exc.status_code, headers=exc.headers)


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
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY)
    app.add_middleware(OriginMiddleware, settings=settings)
    if settings.forwarded_allow_ips:  # outermost: the Origin check sees the real scheme
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    add_error_handlers(app)

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
