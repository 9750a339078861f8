"""Origin checks: sockets and state-changing requests from other sites are refused; and
addresses holding a NUL are refused before any route looks them up."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from .settings import ServerSettings


def origin_allowed(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """No Origin (not a browser), the server's own host, or one of ``allowed_origins``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    host = conn.headers.get("host")
    return host is not None and urlsplit(origin).netloc == host


class OriginMiddleware:
    """Answers 403 to POST/PUT/PATCH/DELETE whose Origin is another site (CSRF)."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            conn = HTTPConnection(scope)
            if not origin_allowed(conn, self.settings):
                await _refuse(send, 403, "bad_origin", "requests from other sites are refused")
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
    """An API error answer (``{"error": code, "detail": ...}``) from a middleware."""
    body = json.dumps({"error": code, "detail": detail}).encode()
    headers = [(b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class NulMiddleware:
    """Answers 400 to a request (closes a socket) whose path or query holds a NUL.

    No table id, invite code or name has one, and PostgreSQL cannot even compare text
    with a NUL in it: without this, ``/api/tables/a%00b`` would be a 500 there.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and _has_nul(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _refuse(send, 400, "bad_request", "the address holds a NUL character")
            return
        await self.app(scope, receive, send)


def _has_nul(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    return "\x00" in scope["path"] or b"\x00" in query or b"%00" in query
