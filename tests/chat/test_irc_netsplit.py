"""Issue 21: the host as a citizen of a real IRC server (ngircd). A netsplit (the
server restarts mid-game): the host reconnects with backoff, joins its channel again,
and the table goes on where it was, the players who come back getting their hands
again. A nick already taken: the host takes another. A kick: the host leaves the
channel alone and its table ends."""

from __future__ import annotations

import asyncio

import pytest

from crazy_eights.chat.config import HostConfig, IrcNetwork
from crazy_eights.chat.gateway import LocalGateway
from crazy_eights.chat.host import Host
from crazy_eights.chat.irc import IrcAdapter

from ..conftest import run_async
from ..services import Ngircd
from .ircclient import Msg, Person
from .test_irc_game import CHANNEL, HOST, Turn, in_channel, notice, turn_notice

pytestmark = pytest.mark.slow
CONFIG = HostConfig(turn_seconds=60, lines_per_second=40, burst=20, bot_delay=0, seed=3)


async def play_turn(people: dict[str, Person], since: dict[str, int]) -> str:
    """Whoever has the turn plays their first playable card; their nick."""
    waits = {
        asyncio.create_task(p.wait_for(turn_notice, since=since[n])): n for n, p in people.items()
    }
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    task = done.pop()
    nick = waits[task]
    msg: Msg = task.result()
    card, suit = Turn.read(msg).choice()
    person = people[nick]
    mark = person.mark()
    person.say(CHANNEL, f"!play {card}" + (f" {suit}" if suit else ""))
    await person.wait_for(in_channel(f"{nick} "), since=mark)
    return nick


async def netsplit(server: Ngircd) -> None:
    gateway = LocalGateway()
    host = Host(CONFIG, gateway)
    network = IrcNetwork(host="127.0.0.1", port=server.port, nick=HOST, channels=(CHANNEL,))
    adapter = IrcAdapter(host, network, private="notice")
    people = {n: Person(n, server.port) for n in ("ann", "ben")}
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 30)
        for person in people.values():
            await person.connect()
            await person.join(CHANNEL)
        ann, ben = people["ann"], people["ben"]
        ann.say(CHANNEL, "!new cycles 2 30")
        await ann.wait_for(in_channel("ann opens a cycles table"))
        for p in (ann, ben):
            mark = p.mark()
            p.say(CHANNEL, "!join")
            await p.wait_for(in_channel(f"{p.nick} joins"), since=mark)
        since = {n: p.mark() for n, p in people.items()}
        ann.say(CHANNEL, "!start")
        await play_turn(people, since)

        await asyncio.to_thread(server.restart)  # the split: every connection is cut
        while adapter.connected.is_set():
            await asyncio.sleep(0.05)
        await asyncio.wait_for(adapter.connected.wait(), 30)  # the host is back in
        for nick in list(people):
            old = people[nick]
            await old.close()
            people[nick] = Person(nick, server.port)
            await people[nick].connect()
            since[nick] = people[nick].mark()
            await people[nick].join(CHANNEL)
            await people[nick].wait_for(notice(f"{CHANNEL}:"), since=since[nick])
        mover = await play_turn(people, since)  # the table goes on
        ann = people["ann"]
        mark = ann.mark()
        ann.say(CHANNEL, "!end")
        await ann.wait_for(in_channel("the table is closed by ann"), since=mark)
        [record] = gateway.records
        assert len(record.moves) >= 2 and mover in ("ann", "ben")
    finally:
        await adapter.stop()
        await host.stop()
        for person in people.values():
            await person.close()


def test_the_table_goes_on_after_a_netsplit(ngircd: Ngircd) -> None:
    run_async(netsplit(ngircd))


async def nick_taken(server: Ngircd) -> None:
    squatter = Person(HOST, server.port)  # someone holds the host's nick already
    await squatter.connect()
    host = Host(CONFIG, LocalGateway())
    network = IrcNetwork(host="127.0.0.1", port=server.port, nick=HOST, channels=(CHANNEL,))
    adapter = IrcAdapter(host, network, private="notice")
    zed = Person("zed", server.port)
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 30)
        assert adapter.nick == HOST + "_"
        await zed.connect()
        await zed.join(CHANNEL)
        zed.say(CHANNEL, "!help")
        reply = await zed.wait_for(lambda m: m.source == HOST + "_")
        assert reply.private and reply.text.startswith("commands: !new")
    finally:
        await adapter.stop()
        await host.stop()
        await zed.close()
        await squatter.close()


def test_a_taken_nick_gets_another(ngircd: Ngircd) -> None:
    run_async(nick_taken(ngircd))


async def kicked(server: Ngircd) -> None:
    op = Person("opal", server.port)  # the first in a channel is its operator
    await op.connect()
    await op.join(CHANNEL)
    host = Host(CONFIG, LocalGateway())
    network = IrcNetwork(host="127.0.0.1", port=server.port, nick=HOST, channels=(CHANNEL,))
    adapter = IrcAdapter(host, network, private="notice")
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 30)
        mark = op.mark()
        op.say(CHANNEL, "!new cycles 2")
        await op.wait_for(in_channel("opal opens a cycles table"), since=mark)
        assert adapter.is_moderator(CHANNEL, "opal")
        op.raw(f"KICK {CHANNEL} {HOST} :no bots here")
        await op.wait_for(lambda m: m.command == "KICK", since=mark)

        async def table_gone() -> None:  # the host hears the kick a moment later
            while adapter.link.places:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(table_gone(), 30)
        assert CHANNEL in adapter.lost and CHANNEL not in adapter.link.channels
    finally:
        await adapter.stop()
        await host.stop()
        await op.close()


def test_a_channel_the_host_is_kicked_from_is_left_alone(ngircd: Ngircd) -> None:
    run_async(kicked(ngircd))
