"""The app factory: ``create_app(settings)`` makes the room (``room.Room``, the
composition root), adds the middleware, the error shape and the routes (``api/``), and
serves the browser client."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .api import (
    achievements,
    analysis,
    auth,
    blocks,
    chatlinks,
    evaluation,
    friends,
    invitations,
    lobby,
    match,
    meta,
    moderation,
    records,
    table_socket,
)
from .errors import ApiError
from .messages import http_error, readable
from .metrics import ERRORS, REGISTRY
from .room import Room
from .security import BodyLimitMiddleware, NulMiddleware, OriginMiddleware
from .settings import ServerSettings

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Crazy Eights</title>
<h1>Crazy Eights card room</h1><p>The browser client is not installed here.
The API is described at <a href="/docs">/docs</a>.</p>"""

MAX_BODY = 64 * 1024  # bytes of any request body


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
        ERRORS.labels(exc.code).inc()
        return ErrorResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        detail = readable(exc.errors(), _form_rules(request))
        ERRORS.labels("invalid").inc()
        return ErrorResponse({"error": "invalid", "detail": detail}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        code, detail = http_error(exc.status_code, str(exc.detail))
        ERRORS.labels(code).inc()
        body = {"error": code, "detail": detail}
        return ErrorResponse(body, status_code=exc.status_code, headers=exc.headers)


def _metrics_route(app: FastAPI, token: str) -> None:
    """``/metrics`` on the room's port, for a scraper that sends the token (Prometheus'
    ``authorization: {credentials: ...}``); anyone else gets 404, as if there were none."""
    expected = f"Bearer {token}".encode()

    @app.get("/metrics", include_in_schema=False)
    async def _metrics(request: Request) -> Response:
        given = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            raise ApiError(404, "not_found", "no such page")
        return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


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
    if settings.metrics_token:
        _metrics_route(app, settings.metrics_token)
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY)
    app.add_middleware(OriginMiddleware, settings=settings)
    app.add_middleware(NulMiddleware)
    if settings.forwarded_allow_ips:  # outermost: the Origin check sees the real scheme
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    add_error_handlers(app)

    for router in (
        auth.router,
        lobby.router,
        match.router,
        records.router,
        analysis.router,
        evaluation.router,
        achievements.router,
        chatlinks.router,
        friends.router,
        blocks.router,
        invitations.router,
        moderation.router,
        table_socket.router,
        meta.router,
    ):
        app.include_router(router)

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
