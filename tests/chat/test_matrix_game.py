"""Issue 21 on Matrix: the same host core behind a matrix-nio adapter, against a real
Synapse (on SQLite, accounts made with the shared secret). Three scripted people
(plain matrix-nio clients) and a bot play a whole game of cycles in a public room,
with last card said in free words and in the play's line, a false call and its reveal,
a turn left to time out and skipped, a player who leaves the room and comes back,
hands told in direct rooms the host opens, bad input answered there, and no direct
message that shows anyone another seat's cards."""

from __future__ import annotations

import asyncio
import os

import pytest

from crazy_eights.chat.config import HostConfig, MatrixNetwork
from crazy_eights.chat.gateway import LocalGateway
from crazy_eights.chat.host import Host
from crazy_eights.engine import Rules, replay
from crazy_eights.engine.events import Dealt, Drew, PenaltyDrawn, PickedUp

from ..conftest import run_async
from ..services import Synapse
from .scripted import Plan, Room, drive, examples

pytestmark = pytest.mark.slow
nio = pytest.importorskip("nio")

CHANNEL = "#cards:test"
HOST = "@eights:test"
ROOM = Room(CHANNEL, HOST, 12.0)
CONFIG = HostConfig(turn_seconds=ROOM.turn, lines_per_second=50, burst=50, bot_delay=0, seed=12)


async def game(server: Synapse, passwords: dict[str, str]) -> None:
    from crazy_eights.chat.matrix import MatrixAdapter

    from .matrixclient import Person

    people = {n: Person(server.url, f"@{n}:test", passwords[n]) for n in ("alice", "bob", "carol")}
    for person in people.values():
        await person.connect()
    alice, bob, carol = people["alice"], people["bob"], people["carol"]
    await alice.create_room(CHANNEL)
    await bob.join(CHANNEL)
    await carol.join(CHANNEL)
    gateway = LocalGateway()
    host = Host(CONFIG, gateway)
    network = MatrixNetwork(
        homeserver=server.url, user=HOST, rooms=(CHANNEL,), password=passwords["eights"]
    )
    adapter = MatrixAdapter(host, network)
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 60)

        async def ask(p: Person, text: str, expect: object) -> None:
            mark = p.mark()
            p.say(CHANNEL, text)
            await p.wait_for(expect, since=mark)  # type: ignore[arg-type]

        await ask(alice, "!frobnicate", ROOM.notice("unknown command"))
        await ask(alice, "!new cycles 4 12", ROOM.in_channel("opens a cycles table for up to 4"))
        for p in (alice, bob, carol):
            await ask(p, "!join", ROOM.in_channel(f"{p.nick} joins"))
        await ask(alice, "!bots 1 random", ROOM.in_channel("1 random bot(s) sit down"))
        await ask(bob, "!start", ROOM.notice("starts the table"))
        marks = {n: p.mark() for n, p in people.items()}
        await ask(alice, "!start", ROOM.in_channel("dealing cycles"))
        await ask(carol, "!join", ROOM.notice("you already sit at the table"))

        mark = alice.mark()  # bob leaves the room and comes back: his seat waited
        await bob.leave(CHANNEL)
        await alice.wait_for(ROOM.in_channel("@bob:test left: their seat waits"), since=mark)
        mark = bob.mark()
        await bob.join(CHANNEL)
        await bob.wait_for(ROOM.in_channel("welcome back, @bob:test"), since=mark)

        plan = Plan()
        drivers = [drive(people[n], plan, marks[n], ROOM) for n in ("alice", "bob", "carol")]
        await asyncio.wait_for(asyncio.gather(*drivers), 300)

        text = "\n".join(m.text for m in alice.lines if ROOM.from_host(m) and not m.private)
        assert plan.false_call_done and "false call by @bob:test: they hold" in text
        assert plan.free_calls >= 1 and "last card!" in text
        assert plan.idle_done and "@carol:test is skipped" in text
        assert "game over (" in text

        [record] = gateway.records
        again = replay(Rules.from_dict(record.rules), record.seed, record.moves)
        assert again.result is not None and dict(again.result.to_dict()) == record.result
        held: dict[int, set[str]] = {s: set() for s in range(4)}
        for event in again.log:
            if isinstance(event, Dealt | Drew | PenaltyDrawn | PickedUp):
                held[event.seat].update(event.for_seat(event.seat).get("cards", []))
        seat_of = {s.name: s.seat for s in record.seats}
        for nick, p in people.items():
            typed = {c for _, said in p.sent for c in _cards(said)}
            told = [m for m in p.lines if ROOM.from_host(m) and m.private]
            assert any(m.text.startswith(f"your turn at {CHANNEL}") for m in told)
            for m in told:
                leaked = m.cards() - held[seat_of[f"@{nick}:test"]] - typed - examples(m)
                assert not leaked, f"{nick} was told {leaked}: {m.text}"
    finally:
        transcript = os.environ.get("CE_CHAT_TRANSCRIPT")
        if transcript:  # alice's view, with times, for docs/chat.md
            with open(transcript, "w") as out:
                for m in alice.lines:
                    out.write(f"{m.at:.3f} {m.source} {m.target} {m.text}\n")
        await adapter.stop()
        await host.stop()
        for person in people.values():
            await person.close()


def _cards(text: str) -> set[str]:
    from .ircclient import Msg

    return Msg(0, "", "", "", text).cards()


def test_a_whole_cycles_game_on_matrix(synapse: Synapse) -> None:
    passwords = {n: f"pw-{n}" for n in ("eights", "alice", "bob", "carol")}
    for name, password in passwords.items():
        synapse.register(name, password)
    run_async(game(synapse, passwords))
