"""The IRC adapter: one connection to one network, with the ``irc`` library's asyncio
client (jaraco's ``irc``: maintained, parses the protocol and its numerics, pure
Python, asyncio-native).

It joins the configured channels, hands every line to the host's ``NetworkLink``,
sends the host's lines (NOTICE or PRIVMSG to a nick, PRIVMSG to a channel), keeps
track of channel operators, picks another nick when its own is taken, reconnects
with backoff, and leaves alone a channel it was kicked from or banned in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import irc.client
import irc.client_aio
import irc.connection

from .config import IrcNetwork, PrivateKind
from .host import Host, NetworkLink
from .outbox import Line

log = logging.getLogger(__name__)

MESSAGE_BYTES = 512
"""An IRC message's limit, its CR LF included (RFC 2812 2.3)."""
PREFIX_ROOM = 100
"""Bytes left for the ``:nick!user@host`` prefix the server puts before a relayed line."""


def payload_limit(command: str, target: str) -> int:
    """How many bytes of text fit in one ``COMMAND target :text`` line once relayed."""
    return MESSAGE_BYTES - 2 - PREFIX_ROOM - len(f"{command} {target} :".encode())


class IrcAdapter:
    """The host on one IRC network."""

    def __init__(self, host: Host, network: IrcNetwork, *, private: PrivateKind) -> None:
        self.name = f"irc:{network.host}"
        self.network = network
        self.private = private
        self.host = host
        self.link: NetworkLink = host.attach(self, network.channels)
        self.nick = network.nick
        self.ops: dict[str, set[str]] = {}
        self.lost: set[str] = set()
        self.connected = asyncio.Event()
        self._reactor = irc.client_aio.AioReactor(loop=asyncio.get_running_loop())
        self._conn: Any = self._reactor.server()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        for event in (
            "welcome",
            "pubmsg",
            "privmsg",
            "pubnotice",
            "join",
            "part",
            "quit",
            "kick",
            "nick",
            "namreply",
            "mode",
            "nicknameinuse",
            "erroneusnickname",
            "bannedfromchan",
            "inviteonlychan",
            "channelisfull",
            "badchannelkey",
            "disconnect",
        ):
            self._conn.add_global_handler(event, getattr(self, f"_on_{event}"))

    # -- the host's side ---------------------------------------------------------------

    def send(self, line: Line) -> None:
        """Say a line; a line for a channel the host left is dropped."""
        if not self._conn.is_connected():
            return
        command = "NOTICE" if line.private and self.private == "notice" else "PRIVMSG"
        limit = payload_limit(command, line.target)
        text = line.text.encode()[:limit].decode(errors="ignore")
        with contextlib.suppress(irc.client.ServerNotConnectedError):
            if command == "NOTICE":
                self._conn.notice(line.target, text)
            else:
                self._conn.privmsg(line.target, text)

    def is_moderator(self, channel: str, nick: str) -> bool:
        return nick.lower() in self.ops.get(channel.lower(), set())

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self._stopping = True
        if self._conn.is_connected():
            self._conn.disconnect("the host goes to sleep")
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        """Connect, and connect again after a loss, waiting 1, 2, 4 ... 60 s between."""
        delay = 1.0
        while not self._stopping:
            self._closed.clear()
            try:
                factory = irc.connection.AioFactory(ssl=self.network.tls)
                await self._conn.connect(
                    self.network.host,
                    self.network.port,
                    self.nick,
                    password=self.network.password,
                    username="eights",
                    ircname="crazy-eights card host",
                    connect_factory=factory,
                )
            except OSError as exc:
                log.warning("%s: cannot connect: %s", self.name, exc)
            else:
                await self._closed.wait()
                if self.connected.is_set():
                    delay = 1.0  # it was up: start the backoff again
                self.connected.clear()
            if self._stopping:
                return
            await asyncio.sleep(delay)
            delay = min(60.0, delay * 2)

    # -- what the server says --------------------------------------------------------------

    def _on_welcome(self, conn: Any, event: Any) -> None:
        self.nick = conn.get_nickname()
        for channel in self.network.channels:
            if channel.lower() not in self.lost:
                conn.join(channel)

    def _on_join(self, conn: Any, event: Any) -> None:
        nick = event.source.nick
        channel = event.target
        if nick.lower() == conn.get_nickname().lower():
            self.ops[channel.lower()] = set()
            self.link.outbox.set_connected(True)
            self.connected.set()
            return
        self.host.spawn(self.link.joined(channel, nick))

    def _on_pubmsg(self, conn: Any, event: Any) -> None:
        self.host.spawn(self.link.heard(event.target, event.source.nick, event.arguments[0]))

    def _on_privmsg(self, conn: Any, event: Any) -> None:
        self.host.spawn(self.link.heard(None, event.source.nick, event.arguments[0]))

    def _on_pubnotice(self, conn: Any, event: Any) -> None:
        """Notices are never answered (RFC 2812 3.3.2): no loops between bots."""

    def _on_part(self, conn: Any, event: Any) -> None:
        nick = event.source.nick
        self._drop_op(event.target, nick)
        if nick.lower() != conn.get_nickname().lower():
            self.host.spawn(self.link.left(event.target, nick))

    def _on_quit(self, conn: Any, event: Any) -> None:
        nick = event.source.nick
        for ops in self.ops.values():
            ops.discard(nick.lower())
        self.host.spawn(self.link.left(None, nick))

    def _on_kick(self, conn: Any, event: Any) -> None:
        channel, nick = event.target, event.arguments[0]
        self._drop_op(channel, nick)
        if nick.lower() == conn.get_nickname().lower():
            self._lose(channel)
        else:
            self.host.spawn(self.link.left(channel, nick))

    def _on_nick(self, conn: Any, event: Any) -> None:
        old, new = event.source.nick, event.target
        for ops in self.ops.values():
            if old.lower() in ops:
                ops.discard(old.lower())
                ops.add(new.lower())
        if old.lower() == self.nick.lower():
            self.nick = new
        self.link.renamed(old, new)

    def _on_namreply(self, conn: Any, event: Any) -> None:
        channel = event.arguments[1].lower()
        for name in event.arguments[2].split():
            if name.startswith(("@", "~", "&")):
                self.ops.setdefault(channel, set()).add(name.lstrip("@~&%+").lower())

    def _on_mode(self, conn: Any, event: Any) -> None:
        channel = event.target.lower()
        if channel[:1] not in "#&" or not event.arguments:
            return
        modes, *nicks = event.arguments
        adding = True
        for char in modes:
            if char in "+-":
                adding = char == "+"
            elif char == "o" and nicks:
                nick = nicks.pop(0).lower()
                ops = self.ops.setdefault(channel, set())
                (ops.add if adding else ops.discard)(nick)
            elif char in "vhbkleIqa" and nicks:
                nicks.pop(0)

    def _drop_op(self, channel: str, nick: str) -> None:
        self.ops.get(channel.lower(), set()).discard(nick.lower())

    def _on_nicknameinuse(self, conn: Any, event: Any) -> None:
        """Our nick is taken: try another with an underscore after it (``eights_``)."""
        tried = event.arguments[0] if event.arguments else self.nick
        self.nick = tried[:15] + "_"
        conn.nick(self.nick)

    _on_erroneusnickname = _on_nicknameinuse

    def _on_bannedfromchan(self, conn: Any, event: Any) -> None:
        self._lose(event.arguments[0])

    _on_inviteonlychan = _on_bannedfromchan
    _on_channelisfull = _on_bannedfromchan
    _on_badchannelkey = _on_bannedfromchan

    def _lose(self, channel: str) -> None:
        """Kicked or banned: leave the channel alone (no rejoin) and end its table."""
        log.warning("%s: lost %s; leaving it alone", self.name, channel)
        self.lost.add(channel.lower())
        self.host.spawn(self.link.channel_lost(channel))

    def _on_disconnect(self, conn: Any, event: Any) -> None:
        self.link.outbox.set_connected(False)
        self._closed.set()
