"""The card room: accounts, lobby, real-time tables, persistence and records.

``create_app(settings)`` builds the ASGI app; ``commands.register`` adds ``serve`` to the CLI.
"""

from .app import create_app
from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
