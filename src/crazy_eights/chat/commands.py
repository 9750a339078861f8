"""``crazy-eights chat-host``: the host on one or more IRC networks.

Settings come from a TOML file (``--config``) and ``CE_CHAT_*`` variables; a network's
password only from ``CE_CHAT_IRC_PASSWORD`` or the file's ``[irc] password``, never
from the command line.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from .config import ConfigError, HostConfig, IrcNetwork, load_config


def _networks(urls: list[str], extra: dict[str, Any]) -> list[IrcNetwork]:
    irc: dict[str, Any] = dict(extra.get("irc", {}))
    password = os.environ.get("CE_CHAT_IRC_PASSWORD") or irc.get("password")
    found = list(urls) or [u for u in [irc.get("url"), os.environ.get("CE_CHAT_IRC")] if u]
    return [IrcNetwork.from_url(url, password) for url in found]


async def _serve(config: HostConfig, networks: list[IrcNetwork]) -> None:
    from .gateway import LocalGateway
    from .host import Host
    from .irc import IrcAdapter

    host = Host(config, LocalGateway())
    adapters = [IrcAdapter(host, n, private=config.private) for n in networks]
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


def register(app: typer.Typer) -> None:
    @app.command("chat-host")
    def chat_host(
        irc: Annotated[
            list[str] | None,
            typer.Option(help="an IRC network: irc://nick@host:port/#chan,#chan2 (repeatable)"),
        ] = None,
        config: Annotated[
            Path | None,
            typer.Option(help="a TOML file: \\[host] settings, \\[irc] url and password"),
        ] = None,
    ) -> None:
        """Host card tables in chat channels (docs/chat.md); settings from CE_CHAT_*."""
        try:
            settings, extra = load_config(file=config)
            networks = _networks(irc or [], extra)
        except ConfigError as exc:
            raise typer.BadParameter(str(exc)) from None
        if not networks:
            raise typer.BadParameter("name a network: --irc irc://nick@host/#cards")
        if importlib.util.find_spec("irc") is None:
            raise typer.BadParameter("install the chat extra: pip install crazy-eights[chat]")
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        asyncio.run(_serve(settings, networks))
