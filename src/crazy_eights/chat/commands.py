"""``crazy-eights chat-host``: the host on IRC networks and a Matrix homeserver.

Settings come from a TOML file (``--config``) and ``CE_CHAT_*`` variables; a password
only from ``CE_CHAT_IRC_PASSWORD`` / ``CE_CHAT_MATRIX_PASSWORD`` or the file's
``[irc] password`` / ``[matrix] password``, never from the command line.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from ..extras import MissingExtra, require
from .config import ConfigError, HostConfig, IrcNetwork, MatrixNetwork, load_config
from .gateway import LocalGateway, TableGateway


def _networks(urls: list[str], extra: dict[str, Any]) -> list[IrcNetwork]:
    irc: dict[str, Any] = dict(extra.get("irc", {}))
    password = os.environ.get("CE_CHAT_IRC_PASSWORD") or irc.get("password")
    found = list(urls) or [u for u in [irc.get("url"), os.environ.get("CE_CHAT_IRC")] if u]
    return [IrcNetwork.from_url(url, password) for url in found]


def _matrix(
    homeserver: str | None, user: str | None, rooms: str | None, extra: dict[str, Any]
) -> MatrixNetwork | None:
    """The Matrix homeserver named by the options, the file's ``[matrix]`` or variables."""
    table: dict[str, Any] = dict(extra.get("matrix", {}))
    homeserver = homeserver or table.get("homeserver") or os.environ.get("CE_CHAT_MATRIX")
    if not homeserver:
        return None
    user = user or table.get("user") or os.environ.get("CE_CHAT_MATRIX_USER")
    names = rooms or table.get("rooms") or os.environ.get("CE_CHAT_MATRIX_ROOMS") or ""
    password = os.environ.get("CE_CHAT_MATRIX_PASSWORD") or table.get("password")
    if not user or not password:
        raise ConfigError(
            "Matrix needs --matrix-user and a password (CE_CHAT_MATRIX_PASSWORD or the file)"
        )
    room_list = names if isinstance(names, list) else names.split(",")
    return MatrixNetwork(
        homeserver=homeserver,
        user=user,
        rooms=tuple(r.strip() for r in room_list if r.strip()),
        password=password,
    )


async def _gateway(config: HostConfig) -> TableGateway:
    """The card room's tables on ``config.db`` (``RoomGateway``), else tables kept in
    this process alone (``LocalGateway``)."""
    if not config.db:
        return LocalGateway()
    from crazy_eights.server.settings import ServerSettings

    from .roomgateway import RoomGateway

    settings = ServerSettings(database_url=config.db)
    return await RoomGateway.open(
        settings, room_url=config.room_url, turn_seconds=config.turn_seconds, redis=config.redis
    )


async def _serve(
    config: HostConfig, networks: list[IrcNetwork], matrix: MatrixNetwork | None
) -> None:
    from .host import Host
    from .irc import IrcAdapter

    gateway = await _gateway(config)
    host = Host(config, gateway)
    adapters: list[Any] = [IrcAdapter(host, n, private=config.private) for n in networks]
    if matrix is not None:
        from .matrix import MatrixAdapter

        adapters.append(MatrixAdapter(host, matrix))
    await _close_orphans(gateway, [adapter.name for adapter in adapters])
    for adapter in adapters:
        adapter.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for adapter in adapters:
        await adapter.stop()
    await host.stop()
    await _shutdown(gateway)


async def _close_orphans(gateway: TableGateway, networks: list[str]) -> None:
    """Tables a crashed host of these networks left running are abandoned first."""
    from .roomgateway import RoomGateway

    if isinstance(gateway, RoomGateway):
        await gateway.close_orphans(networks)


async def _shutdown(gateway: TableGateway) -> None:
    from .roomgateway import RoomGateway

    if isinstance(gateway, RoomGateway):
        await gateway.shutdown()


def register(app: typer.Typer) -> None:
    @app.command("chat-host")
    def chat_host(
        irc: Annotated[
            list[str] | None,
            typer.Option(help="an IRC network: irc://nick@host:port/#chan,#chan2 (repeatable)"),
        ] = None,
        matrix: Annotated[
            str | None, typer.Option(help="a Matrix homeserver, e.g. https://matrix.example:8448")
        ] = None,
        matrix_user: Annotated[
            str | None, typer.Option(help="the host's Matrix user, e.g. @host:example")
        ] = None,
        matrix_rooms: Annotated[
            str | None, typer.Option(help="Matrix rooms to serve: '#cards:example,#b:example'")
        ] = None,
        config: Annotated[
            Path | None,
            typer.Option(help="a TOML file: \\[host] settings, \\[irc] url and password"),
        ] = None,
        db: Annotated[
            str | None,
            typer.Option(
                help="the card room's database (a SQLite file or postgresql://...; "
                "CE_CHAT_DB): every table becomes a table of the room"
            ),
        ] = None,
        room_url: Annotated[
            str | None,
            typer.Option(help="the card room's address, for !link (CE_CHAT_ROOM_URL)"),
        ] = None,
        redis: Annotated[
            str | None,
            typer.Option(
                help="the card room's cluster Redis (redis://...; CE_CHAT_REDIS), with "
                "--db: browsers watching a table see each move at once"
            ),
        ] = None,
    ) -> None:
        """Host card tables in chat channels (docs/chat.md); settings from CE_CHAT_*."""
        try:
            settings, extra = load_config(file=config)
            if db or room_url or redis:
                settings = dataclasses.replace(
                    settings,
                    db=db or settings.db,
                    room_url=room_url or settings.room_url,
                    redis=redis or settings.redis,
                )
            settings.check_whole()
            networks = _networks(irc or [], extra)
            matrix_network = _matrix(matrix, matrix_user, matrix_rooms, extra)
        except ConfigError as exc:
            raise typer.BadParameter(str(exc)) from None
        if not networks and matrix_network is None:
            raise typer.BadParameter("name a network: --irc irc://nick@host/#cards or --matrix")
        try:
            for module in ["irc.client_aio"] * bool(networks) + ["nio"] * bool(matrix_network):
                require(module, extra="chat", feature="chat-host")
        except MissingExtra as exc:
            raise typer.BadParameter(str(exc)) from None
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        asyncio.run(_serve(settings, networks, matrix_network))
