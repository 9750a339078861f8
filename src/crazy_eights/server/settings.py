"""Server settings, from flags and ``CE_*`` environment variables (``DATABASE_URL`` too)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .origins import normal_origin

# A cluster node's name: it travels in a close reason (at most 123 bytes) and in ?node=.
NODE_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"


class ServerSettings(BaseSettings):
    """Everything the card room can be told; each field's description is its ``--help``."""

    model_config = SettingsConfigDict(env_prefix="CE_", extra="ignore")

    database_url: str = Field(
        default="sqlite+aiosqlite:///crazy-eights.db",
        validation_alias=AliasChoices("DATABASE_URL", "CE_DATABASE_URL", "database_url"),
        description="SQLAlchemy URL; a plain file path means a SQLite file; "
        "postgresql://... uses asyncpg",
    )
    redis_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("REDIS_URL", "CE_REDIS_URL", "redis_url"),
        description="Redis URL (redis://host:6379/0): run as one node of a cluster; needs "
        "PostgreSQL",
    )
    node: str | None = Field(
        default=None,
        pattern=NODE_NAME,
        description="this node's name in a cluster: letters, digits, '.', '_' and '-', at most "
        "100 (the proxy routes a table's sockets by it; default: host, pid, a tag)",
    )
    lease_ttl: float = Field(
        default=5.0,
        gt=1.0,
        description="seconds a cluster node's lease on a table lasts without renewal: how "
        "long its tables wait after it dies",
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
    away_seconds: float = Field(
        default=30.0,
        ge=0,
        description="seconds a player who dropped out of a running game is waited for (the "
        "others see a countdown on the seat) before a stand-in bot plays the seat until "
        "they return",
    )
    gc_sweep_seconds: float = Field(
        default=900.0,
        ge=0,
        description="garbage collection: what survived a full collection is left out of "
        "the next ones (short pauses), and every this many seconds one collection scans "
        "everything; 0: the interpreter's own collection",
    )
    heartbeat_seconds: float = Field(
        default=10.0,
        gt=0,
        description="the heartbeat: every socket is sent a WebSocket ping each half of "
        "this, and one that has not answered within the other half is closed as dead",
    )
    round_pause_seconds: float = Field(
        default=30.0,
        ge=0,
        description='seconds a table waits between rounds for its players to press "Next round"',
    )
    hold_seconds: float = Field(
        default=60.0,
        gt=0,
        description="seconds an empty seat is held for an invited friend, and a rematch's "
        "seats for the old players (unlisted in the lobby meanwhile), before others may sit",
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
    analysis_worlds: int = Field(
        default=150,
        ge=1,
        le=10_000,
        description="determinizations the search plays every move of a decision in, when "
        "analysing a game",
    )
    analysis_thresholds: tuple[float, float, float] = Field(
        default=(0.05, 0.10, 0.20),
        description="loss of round-win chance (0..1) from which a move is marked an "
        "inaccuracy, a mistake, a blunder (JSON list in CE_ANALYSIS_THRESHOLDS)",
    )
    hosted_poll_seconds: float = Field(
        default=0.5,
        gt=0,
        le=60,
        description="seconds between two reads of a watched chat-hosted table's new moves "
        "(in a cluster, a chat host with --redis wakes the readers at once; this is then "
        "the fallback)",
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
    match_window_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="seconds quick play's queue waits for more people (from the first one "
        "waiting) before it seats them with bots",
    )
    rate_guests: bool = Field(
        default=False,
        description="whether guests' games move ratings (theirs and the others'); off: "
        "a guest's games count in their record only",
    )
    provisional_games: int = Field(
        default=10,
        ge=0,
        le=1000,
        description="rated games before a rating is settled: until then it is shown "
        "with a '?' and kept off the leaderboards",
    )
    metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="serve Prometheus' /metrics on this port of metrics_host (0: not)",
    )
    metrics_host: str = Field(default="127.0.0.1", description="where metrics_port listens")
    metrics_token: str = Field(
        default="",
        description="serve /metrics on the room's own port to requests carrying "
        "'Authorization: Bearer <token>' (empty: not)",
    )
    match_alone: Literal["at_once", "wait"] = Field(
        default="at_once",
        description="quick play when nobody else is online (no socket open, nobody "
        "waiting): at_once seats the person with bots at once; wait waits out the window",
    )
    archon_min_games: int = Field(
        default=10,
        ge=1,
        description="rated games in the last archon_days a person needs to hold the "
        "Master Card Archon title of a ruleset",
    )
    archon_days: int = Field(
        default=30, ge=1, description="days of rated games that count for the Archon title"
    )
    evaluation_min_games: int = Field(
        default=5,
        ge=1,
        description="games in a ruleset that put a person into the room's median of the "
        "player evaluation",
    )
    socket_opens: float = Field(
        default=5.0,
        gt=0,
        description="sockets an account (or, signed out, an address) may open a second, "
        "with bursts of four times as many; beyond that a socket is closed with 4029",
    )
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="proxies (addresses or networks, comma-separated; '*' for any) whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed; none by default",
    )
    login_attempts: int = Field(
        default=5, ge=1, description="failed sign-ins per name and address before throttling"
    )
    login_address_attempts: int = Field(
        default=20, ge=1, description="failed sign-ins per address, any name, before throttling"
    )
    login_window: float = Field(
        default=300.0, gt=0, description="seconds the sign-in throttles remember"
    )
    signup_limit: int = Field(
        default=20, ge=1, description="new accounts (guests included) per address per window"
    )
    signup_window: float = Field(
        default=600.0, gt=0, description="seconds the new-account throttle remembers"
    )
    hash_time_cost: int = Field(default=3, description="argon2id passes over memory")
    hash_memory_kib: int = Field(default=65536, description="argon2id memory in KiB")
    hash_concurrency: int = Field(
        default=0,
        ge=0,
        description="password hashes run at once (0: one per core, within 1/8 of memory)",
    )
    hash_queue: int = Field(
        default=64, ge=0, description="password checks waiting beyond those; more get a 503"
    )
    web_dir: Path | None = Field(
        default=None, description="folder of the browser client (default: the packaged one)"
    )

    @property
    def clustered(self) -> bool:
        return bool(self.redis_url)

    def cluster_problem(self) -> str | None:
        """Why these settings cannot run a cluster node (None when they can, or when no
        cluster is asked for)."""
        if self.clustered and not self.sqlalchemy_url().startswith("postgresql"):
            return (
                "cluster mode (--redis) needs PostgreSQL: several nodes cannot share a "
                "SQLite file. Set DATABASE_URL=postgresql://user:password@host/name."
            )
        return None

    @field_validator("forwarded_allow_ips", mode="before")
    @classmethod
    def _split_ips(cls, value: Any) -> Any:
        """``"10.0.0.1, 10.0.0.2"`` (a flag or ``CE_FORWARDED_ALLOW_IPS``) is a list."""
        if isinstance(value, str):
            value = value.split(",")
        return [p.strip() for p in value if p.strip()] if isinstance(value, list) else value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _check_ips(cls, value: list[str]) -> list[str]:
        for entry in value:
            if entry != "*":
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(f"{entry!r} is not an address, a network or '*'") from None
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _check_origins(cls, value: list[str]) -> list[str]:
        for origin in value:
            if normal_origin(origin) is None:
                raise ValueError(f"{origin!r} is not an origin such as https://cards.example")
        return value

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
