"""The ``serve`` command; ``register(app)`` adds it to the ``crazy-eights`` CLI."""

from __future__ import annotations

import cProfile
import logging
import os
import signal
from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.", envvar="CE_HOST")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port to listen on.", envvar="CE_PORT")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="Database: a SQLite file path (created and migrated on first start, WAL "
            "mode) or a URL such as postgresql://user:pass@host/name (asyncpg).",
            envvar="DATABASE_URL",
        ),
    ] = "crazy-eights.db",
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An extra Origin allowed to open sockets and post forms (repeatable); "
            "the server's own host is always allowed.",
            envvar="CE_ALLOWED_ORIGINS",
        ),
    ] = None,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            help="Mark the session cookie Secure (behind HTTPS).", envvar="CE_SECURE_COOKIES"
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: "
            "addresses or networks, comma-separated, or '*' for any. None by default, so "
            "a client cannot choose the address its throttles count.",
            envvar="CE_FORWARDED_ALLOW_IPS",
        ),
    ] = None,
    grace: Annotated[
        float,
        typer.Option(
            help="Seconds a dropped player keeps a seat before a game starts.",
            envvar="CE_GRACE_SECONDS",
        ),
    ] = 120.0,
    away: Annotated[
        float,
        typer.Option(
            help="Seconds a player who dropped out of a running game is waited for before a "
            "stand-in bot plays their seat.",
            envvar="CE_AWAY_SECONDS",
        ),
    ] = 30.0,
    bot_delay: Annotated[
        float,
        typer.Option(
            help="Seconds a bot pauses before each move, to feel human.", envvar="CE_BOT_DELAY"
        ),
    ] = 0.8,
    bot_workers: Annotated[
        int,
        typer.Option(help="Processes for bot thinking (0: one thread).", envvar="CE_BOT_WORKERS"),
    ] = 1,
    web_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the browser client (default: the packaged one).", envvar="CE_WEB_DIR"
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            help="Redis URL (redis://host:6379/0): run as one node of a cluster of any "
            "number of nodes sharing PostgreSQL and Redis.",
            envvar="REDIS_URL",
        ),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(
            help="This node's name in a cluster, which the proxy routes a table's sockets "
            "by: letters, digits, '.', '_' and '-' (default: host, pid and a tag).",
            envvar="CE_NODE",
        ),
    ] = None,
    lease_ttl: Annotated[
        float,
        typer.Option(
            help="Seconds a cluster node's tables wait after it dies before another node "
            "takes them over (its leases' time to live).",
            envvar="CE_LEASE_TTL",
        ),
    ] = 5.0,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="Compress socket messages (permessage-deflate): less traffic, more CPU.",
            envvar="CE_WS_DEFLATE",
        ),
    ] = False,
) -> None:
    """Run the card room: accounts, lobby, tables and records on http://HOST:PORT."""
    import uvicorn
    from pydantic import ValidationError

    from crazy_eights.extras import MissingExtra

    from .app import create_app
    from .collector import Collector
    from .settings import ServerSettings

    try:
        settings = ServerSettings(
            database_url=db,
            host=host,
            port=port,
            allowed_origins=allowed_origin or [],
            secure_cookies=secure_cookies,
            forwarded_allow_ips=(forwarded_allow_ips or "").split(","),
            grace_seconds=grace,
            away_seconds=away,
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            web_dir=web_dir,
            redis_url=redis,
            node=node,
            lease_ttl=lease_ttl,
        )
    except ValidationError as exc:
        for error in exc.errors():
            typer.echo(f"{'.'.join(map(str, error['loc']))}: {error['msg']}", err=True)
        raise typer.Exit(2) from None
    problem = settings.cluster_problem()
    if problem is not None:
        typer.echo(f"Error: {problem}", err=True)
        raise typer.Exit(2)
    try:
        app = create_app(settings)
    except MissingExtra as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    if settings.gc_sweep_seconds > 0:
        Collector(sweep_seconds=settings.gc_sweep_seconds).install()
    where = f"database: {db}" + (f", cluster via {redis}" if redis else "")
    typer.echo(f"Crazy Eights card room on http://{host}:{port}  ({where})")
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s:     [%(name)s] %(message)s")
    profile = os.environ.get("CE_PROFILE")
    if profile:  # bench/load.py: SIGUSR2 starts profiling, SIGUSR1 writes the file
        profiler = cProfile.Profile()
        signal.signal(signal.SIGUSR2, lambda *_: profiler.enable())
        signal.signal(signal.SIGUSR1, lambda *_: profiler.dump_stats(profile))
    uvicorn.run(
        app,
        host=host,
        port=port,
        # The app believes proxy headers itself, from --forwarded-allow-ips only; uvicorn
        # would believe them from loopback by default.
        proxy_headers=False,
        log_level=log_level,
        ws_max_size=65536,
        # The heartbeat: every socket is pinged (WebSocket ping frames, which browsers and
        # socket libraries answer by themselves); one that does not answer is closed, so a
        # dead connection is noticed within the heartbeat's time.
        ws_ping_interval=settings.heartbeat_seconds / 2,
        ws_ping_timeout=settings.heartbeat_seconds / 2,
        ws_per_message_deflate=ws_deflate,
        timeout_graceful_shutdown=SHUTDOWN_WAIT,
    )


SHUTDOWN_WAIT = 10  # seconds SIGTERM waits for open connections before the handover


def copy(
    source: Annotated[
        str,
        typer.Option(
            "--from", help="The room's database now: a SQLite file path or a database URL."
        ),
    ],
    target: Annotated[
        str,
        typer.Option(
            "--to",
            help="The database to move to, e.g. postgresql://user:pass@host/name (migrated "
            "first; it must hold no accounts yet).",
        ),
    ],
) -> None:
    """Copy a card room to another database: accounts, settings, sessions, records and
    every table with its moves and chat. Stop the room before copying."""
    import asyncio

    from crazy_eights.extras import MissingExtra

    from .dbcopy import CopyError
    from .dbcopy import copy as copy_room
    from .settings import ServerSettings

    urls = [ServerSettings(database_url=url).sqlalchemy_url() for url in (source, target)]
    try:
        copied = asyncio.run(
            copy_room(*urls, progress=lambda name, n: typer.echo(f"  {name}: {n} rows"))
        )
    except (CopyError, MissingExtra) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"Copied {copied}.")


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``db`` and ``admin`` to a Typer app (``crazy_eights.cli`` does)."""
    app.command("serve")(serve)
    database = typer.Typer(help="The card room's database.", no_args_is_help=True)
    database.command("copy")(copy)
    app.add_typer(database, name="db")
    from .admin import app as admin

    app.add_typer(admin, name="admin")


def main() -> None:
    """``python -m crazy_eights.server.commands`` runs the server alone."""
    app = typer.Typer(add_completion=False)
    register(app)
    app.command("version", hidden=True)(lambda: None)
    app()


if __name__ == "__main__":
    main()
