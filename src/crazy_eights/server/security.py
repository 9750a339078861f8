"""Origin checks: sockets and state-changing requests from other sites are refused."""

from __future__ import annotations

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
                body = b'{"error":"bad_origin","detail":"requests from other sites are refused"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
