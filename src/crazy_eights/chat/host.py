"""The host: what a network hears goes to the table of its channel, what the tables say
goes out through the network's outbox, and each table is woken when its clock says.

A network adapter calls ``heard``, ``joined``, ``left``, ``renamed`` and
``channel_lost`` on its ``NetworkLink``; the host calls the adapter's ``send`` (through
the outbox) and ``is_moderator``. One table's work is done one step at a time (a lock
per table), the tables of other channels go on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from .config import HostConfig
from .gateway import TableGateway
from .limits import FloodGate, TokenBucket
from .outbox import Line, Outbox
from .parse import PRIVATE_OK, Command, Unknown, help_text, read_line
from .table import ChatTable, read_new

log = logging.getLogger(__name__)
Step = Callable[["ChatTable"], Awaitable[list[Line]]]
"""One piece of a table's work, run under its lock: the lines it says."""


class Network(Protocol):
    """What the host asks of a network adapter."""

    name: str

    def send(self, line: Line) -> None:
        """Say one line (already cut and paced) in a channel or to a nick."""
        ...

    def is_moderator(self, channel: str, nick: str) -> bool:
        """Whether ``nick`` may moderate ``channel`` (an IRC channel operator)."""
        ...


@dataclass
class _Place:
    table: ChatTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None


class NetworkLink:
    """One network as the host sees it: its channels' tables, its outbox, its flood gate."""

    def __init__(self, host: Host, network: Network) -> None:
        self.host = host
        self.network = network
        config = host.config
        bucket = TokenBucket(config.lines_per_second, config.burst, host.clock)
        self.outbox = Outbox(network.send, bucket, config.line_bytes)
        self.gate = FloodGate(config.commands_per_second, config.command_burst, host.clock)
        self.channels: set[str] = set()
        self.places: dict[str, _Place] = {}

    def _key(self, channel: str) -> str:
        return channel.lower()

    # -- what the network tells ------------------------------------------------------------

    async def heard(self, channel: str | None, nick: str, text: str) -> None:
        """A line from ``nick`` in ``channel`` (None: said to the host privately)."""
        if channel is not None and self._key(channel) not in self.channels:
            return  # a channel the host was not asked to serve
        prefix = self.host.config.prefix
        cmd = read_line(text, prefix)
        if cmd is None:
            if channel is not None:
                await self._in_table(channel, lambda t: self._talk(t, nick, text))
            return
        admitted = self.gate.admit(nick.lower())
        if admitted is None:
            self.outbox.put([Line(nick, "slow down: your commands are ignored for a moment", True)])
        if not admitted:
            return
        if isinstance(cmd, Unknown):
            self.outbox.put([Line(nick, f"unknown command; {prefix}help lists them", True)])
            return
        if channel is None:
            await self._private(nick, cmd)
            return
        await self._command(channel, nick, cmd)

    async def _talk(self, table: ChatTable, nick: str, text: str) -> list[Line]:
        """Conversation: what the table answers (a call noted) counts against the
        speaker's bucket, so repeating "uno" cannot make the host flood."""
        lines = table.talk(nick, text)
        if any(line.private for line in lines) and not self.gate.admit(nick.lower()):
            return [line for line in lines if not line.private]
        return lines

    async def _private(self, nick: str, cmd: Command) -> None:
        """A command said privately: help, rules and the player's own hand are answered
        here; the rest belong in the table's channel."""
        places = [p for p in self.places.values() if p.table.seat_of(nick) is not None]
        if cmd.name == "help":
            self.outbox.put([Line(nick, help_text(cmd.args, self.host.config.prefix), True)])
            return
        if cmd.name == "link":
            await self._link(nick)
            return
        if cmd.name not in PRIVATE_OK or not places:
            where = places[0].table.channel if len(places) == 1 else "the table's channel"
            self.outbox.put([Line(nick, f"say that in {where}, not privately", True)])
            return
        channel = places[0].table.channel
        await self._in_table(channel, lambda t: t.command(nick, cmd))

    async def _link(self, nick: str) -> None:
        link = await self.host.gateway.link(nick, self.network.name)
        text = link or "linking a nick to an account is not offered by this host"
        self.outbox.put([Line(nick, text, True)])

    async def _command(self, channel: str, nick: str, cmd: Command) -> None:
        key = self._key(channel)
        place = self.places.get(key)
        if cmd.name == "help":
            self.outbox.put([Line(nick, help_text(cmd.args, self.host.config.prefix), True)])
            return
        if cmd.name == "link":
            await self._link(nick)
            return
        if cmd.name == "new" and (place is None or place.table.status == "over"):
            self._open(channel, nick, cmd.args)
            return
        if place is None:
            self.outbox.put([Line(nick, "no table here: !new opens one", True)])
            return
        moderator = self.network.is_moderator(channel, nick)
        await self._in_table(channel, lambda t: t.command(nick, cmd, moderator=moderator))

    def _open(self, channel: str, nick: str, args: str) -> None:
        config = self.host.config
        read = read_new(args)
        if isinstance(read, str):
            self.outbox.put([Line(nick, read.replace("!", config.prefix), True)])
            return
        rules, capacity = read
        table = ChatTable(
            channel,
            nick,
            rules,
            config,
            self.host.gateway,
            capacity=capacity,
            place=f"{self.network.name}:{channel}",
            seed=self.host.next_seed(),
            clock=self.host.clock,
        )
        self.places[self._key(channel)] = _Place(table)
        text = (
            f"{table.maker_name} opens a {rules.ruleset} table for up to {capacity}: "
            f"{config.prefix}join to sit, {config.prefix}start to deal"
        )
        self.outbox.put([Line(channel, text)])

    async def joined(self, channel: str, nick: str) -> None:
        """``nick`` joined ``channel``: a player coming back gets their seat again."""
        await self._in_table(channel, lambda t: _sync(t.came_back(nick)))

    async def left(self, channel: str | None, nick: str) -> None:
        """``nick`` left ``channel`` (parted or was kicked), or the network (None)."""
        keys = list(self.places) if channel is None else [self._key(channel)]
        for key in keys:
            place = self.places.get(key)
            if place is not None:
                await self._in_table(place.table.channel, lambda t: _sync(t.went_away(nick)))

    def renamed(self, old: str, new: str) -> None:
        for place in self.places.values():
            place.table.renamed(old, new)

    async def channel_lost(self, channel: str) -> None:
        """The host was kicked from or banned in ``channel``: its table ends there."""
        key = self._key(channel)
        self.channels.discard(key)
        self.outbox.drop(channel)
        place = self.places.pop(key, None)
        if place is not None:
            if place.timer is not None:
                place.timer.cancel()
            async with place.lock:
                await place.table._close("channel lost")

    # -- running a table ------------------------------------------------------------------

    async def _in_table(
        self, channel: str, step: Callable[[ChatTable], Awaitable[list[Line]]]
    ) -> None:
        """Run ``step`` on the channel's table under its lock, say what it returns, close
        a game that ended, and set the table's next wake-up."""
        place = self.places.get(self._key(channel))
        if place is None:
            return
        async with place.lock:
            if self.places.get(self._key(channel)) is not place:
                return
            try:
                lines = await step(place.table)
                await place.table.finish()
            except Exception:
                log.exception("table in %s failed a step", channel)
                lines = [Line(channel, "the host hit a snag; the table goes on")]
            self.outbox.put(lines)
            self._schedule(place)

    def _schedule(self, place: _Place) -> None:
        if place.timer is not None:
            place.timer.cancel()
            place.timer = None
        due = place.table.next_wakeup()
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, due - self.host.clock())
        channel = place.table.channel
        place.timer = loop.call_later(
            delay, lambda: self.host.spawn(self._in_table(channel, _wake))
        )


async def _sync(lines: list[Line]) -> list[Line]:
    return lines


def _wake(table: ChatTable) -> Awaitable[list[Line]]:
    return table.wake()


class Host:
    """The chat host: one ``NetworkLink`` per network, all on one table gateway."""

    def __init__(
        self,
        config: HostConfig,
        gateway: TableGateway,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.gateway = gateway
        self.clock = clock
        self.links: list[NetworkLink] = []
        self._seeds = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self, network: Network, channels: tuple[str, ...]) -> NetworkLink:
        link = NetworkLink(self, network)
        link.channels = {c.lower() for c in channels}
        link.outbox.start()
        self.links.append(link)
        return link

    def next_seed(self) -> int | None:
        """Each table's seed: from the configured seed in order (tests), else random."""
        if self.config.seed is None:
            return None
        self._seeds += 1
        return self.config.seed + self._seeds - 1

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine as a task the host keeps until it ends."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        for link in self.links:
            for place in link.places.values():
                if place.timer is not None:
                    place.timer.cancel()
            await link.outbox.stop()
        for task in list(self._tasks):
            task.cancel()
