"""Server settings, from flags and ``CE_*`` environment variables (``DATABASE_URL`` too)."""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServerSettings(BaseSettings):
    """Everything the card room can be told; each field's description is its ``--help``."""

    model_config = SettingsConfigDict(env_prefix="CE_", extra="ignore")

    database_url: str = Field(
        default="sqlite+aiosqlite:///crazy-eights.db",
        validation_alias=AliasChoices("DATABASE_URL", "CE_DATABASE_URL", "database_url"),
        description="SQLAlchemy URL; a plain file path means a SQLite file; "
        "postgresql://... uses asyncpg",
    )
    host: str = Field(default="127.0.0.1", description="interface to listen on")
    port: int = Field(default=8000, description="TCP port to listen on")
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="extra Origins allowed for sockets and form posts (the server's own "
        "host is always allowed)",
    )
    secure_cookies: bool = Field(default=False, description="mark the session cookie Secure")
    session_days: int = Field(default=30, description="days a session lasts")
    grace_seconds: float = Field(
        default=120.0, description="seconds a dropped player keeps a seat before a game starts"
    )
    bot_delay: float = Field(
        default=0.8, description="seconds a bot pauses before its move, to feel human"
    )
    bot_workers: int = Field(
        default=1, description="processes for bot thinking (0: a thread, for tests)"
    )
    bot_queue_move: int = Field(
        default=10_000, ge=1, description="bot moves that may wait for a worker"
    )
    bot_queue_hint: int = Field(
        default=32,
        ge=1,
        description="hint searches that may wait for a worker; beyond that a hint is "
        "answered with the error 'busy'",
    )
    bot_queue_background: int = Field(
        default=64, ge=1, description="background analyses that may wait for a worker"
    )
    max_spectators: int = Field(
        default=200, ge=0, description="watchers a table lets in (its players always get in)"
    )
    tables_per_account: int = Field(
        default=4,
        ge=1,
        description="open or running tables one account may hold a seat at (creating, "
        "sitting and quick play are refused beyond it)",
    )
    socket_opens: float = Field(
        default=5.0,
        gt=0,
        description="sockets an account (or, signed out, an address) may open a second, "
        "with bursts of four times as many; beyond that a socket is closed with 4029",
    )
    login_attempts: int = Field(
        default=5, description="failed logins per name or address before throttling"
    )
    login_window: float = Field(default=300.0, description="seconds the login throttle remembers")
    hash_time_cost: int = Field(default=3, description="argon2id passes over memory")
    hash_memory_kib: int = Field(default=65536, description="argon2id memory in KiB")
    web_dir: Path | None = Field(
        default=None, description="folder of the browser client (default: the packaged one)"
    )

    def sqlalchemy_url(self) -> str:
        """The database URL with an async driver, whatever form it was given in."""
        url = self.database_url
        if "://" not in url:
            return f"sqlite+aiosqlite:///{url}"
        if url.startswith("sqlite:///"):
            return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                return "postgresql+asyncpg://" + url[len(prefix) :]
        return url
