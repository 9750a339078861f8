"""The card room: accounts, lobby, real-time tables, persistence and records.

``create_app(settings)`` builds the ASGI app; ``commands.register`` adds ``serve`` to the CLI.
Both names are imported on first use, so that the command line (which imports
``server.commands``) does not load FastAPI and SQLAlchemy just to show ``--help``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]

_HOMES = {"create_app": ".app", "ServerSettings": ".settings"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
