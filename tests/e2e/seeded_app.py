"""The card room for browser tests, with one test-only addition: ``POST /e2e/seed/{n}``
makes the next table created use deal seed ``n``, so a test can sit down to a chosen
deal (a draw-two to stack, a wild in hand). Everything else is the real server."""

from __future__ import annotations

import secrets as _secrets
from collections import deque
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

from crazy_eights.server import tables
from crazy_eights.server.app import create_app as _create_app

_next: deque[int] = deque()


class _Secrets:
    """``secrets`` for the tables module, except that queued seeds come first."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_secrets, name)

    def randbits(self, k: int) -> int:
        return _next.popleft() if _next else _secrets.randbits(k)


def create_app() -> FastAPI:
    tables.secrets = _Secrets()  # type: ignore[assignment]
    app = _create_app()

    async def seed(n: int) -> dict[str, int]:
        _next.append(n)
        return {"queued": n}

    # ahead of the static files mounted at "/"
    app.router.routes.insert(0, APIRoute("/e2e/seed/{n}", seed, methods=["POST"]))
    return app
