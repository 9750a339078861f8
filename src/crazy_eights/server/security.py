"""Who may do what from where: Origin checks (sockets and state-changing requests from
other sites are refused), proxy headers believed only from trusted proxies, a bound on
request bodies, and who may see a private table once it is over.

An Origin is the same site only when its scheme, host and port all match the request's
own (``https://room.example`` is not ``http://room.example``). Behind a proxy that
terminates TLS the request's scheme is the proxy's ``X-Forwarded-Proto``, which is
believed only from the addresses in ``forwarded_allow_ips`` (none by default).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .origins import normal_origin

if TYPE_CHECKING:
    from .settings import ServerSettings

_WEB_SCHEMES = {"ws": "http", "wss": "https"}


def own_origin(conn: HTTPConnection) -> str | None:
    """The origin of the site this request was made to: its scheme and Host header."""
    host = conn.headers.get("host")
    if host is None:
        return None
    scheme = conn.url.scheme
    return normal_origin(f"{_WEB_SCHEMES.get(scheme, scheme)}://{host}")


def origin_allowed(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """No Origin (not a browser), the server's own origin, or one of ``allowed_origins``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    wanted = normal_origin(origin)
    if wanted is None:
        return False
    return wanted == own_origin(conn) or wanted in {
        normal_origin(o) for o in settings.allowed_origins
    }


async def _refuse(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


class OriginMiddleware:
    """Answers 403 to POST/PUT/PATCH/DELETE whose Origin is another site (CSRF)."""

    BODY = b'{"error":"bad_origin","detail":"Requests from other sites are refused."}'

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in ("POST", "PUT", "PATCH", "DELETE")
            and not origin_allowed(HTTPConnection(scope), self.settings)
        ):
            await _refuse(send, 403, self.BODY)
            return
        await self.app(scope, receive, send)


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit // 1024} KiB.")


class BodyLimitMiddleware:
    """Refuses a request body over ``limit`` bytes with a 413 in the API's error shape:
    at once when its Content-Length says so, else as soon as the bytes read pass it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            detail = BodyTooLarge(self.limit).detail
            await _refuse(send, 413, b'{"error":"too_large","detail":"%s"}' % detail.encode())
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise BodyTooLarge(self.limit)  # answered by the app's HTTP error handler
            return message

        await self.app(scope, counted, send)


def may_see_private_table(
    *,
    members: Collection[int | None],
    account_id: int | None,
    invite: str | None,
    code: str | None,
) -> bool:
    """A private table (and its replay) is for the accounts that sat at it or made it
    (``members``) and for whoever holds its invite code."""
    if account_id is not None and account_id in members:
        return True
    return code is not None and invite is not None and secrets.compare_digest(code, invite)


class NulMiddleware:
    """Answers 400 to a request (closes a socket) whose path or query holds a NUL.

    No table id, invite code or name has one, and PostgreSQL cannot even compare text
    with a NUL in it: without this, ``/api/tables/a%00b`` would be a 500 there.
    """

    BODY = b'{"error":"bad_request","detail":"The address holds a NUL character."}'

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and _has_nul(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _refuse(send, 400, self.BODY)
            return
        await self.app(scope, receive, send)


def _has_nul(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    return "\x00" in scope["path"] or b"\x00" in query or b"%00" in query
