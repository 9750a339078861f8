"""Issue 21: a whole game of cycles hosted on a real IRC server (ngircd), played by three
scripted people (plain IRC clients) and a bot, with everything chat brings: last card
said in free words (rule G7), a false call and its penalty (Y13), a timeout and a skip
(Y15), a player who quits and comes back, a flood from one nick, bad input of every
kind, and no private line that shows anyone another seat's cards (G5)."""

from __future__ import annotations

import asyncio
import os

import pytest

from crazy_eights.chat.config import HostConfig, IrcNetwork
from crazy_eights.chat.gateway import LocalGateway
from crazy_eights.chat.host import Host
from crazy_eights.chat.irc import IrcAdapter
from crazy_eights.engine import Rules, replay
from crazy_eights.engine.cards import CARD_TEXT
from crazy_eights.engine.events import Dealt, Drew, PenaltyDrawn, PickedUp

from ..conftest import run_async
from ..services import Ngircd
from .ircclient import Msg, Person
from .scripted import Plan, Room, Turn, drive, examples

pytestmark = pytest.mark.slow

CHANNEL = "#cards"
HOST = "eights"
TURN = 8.0
CONFIG = HostConfig(
    turn_seconds=TURN,
    away_seconds=60,
    lines_per_second=40,
    burst=20,
    commands_per_second=3,
    command_burst=10,
    bot_delay=0,
    seed=24,
)


ROOM = Room(CHANNEL, HOST, TURN)
from_host, in_channel, notice = ROOM.from_host, ROOM.in_channel, ROOM.notice
turn_notice, over = ROOM.turn_notice, ROOM.over


async def game(server_port: int) -> None:
    gateway = LocalGateway()
    host = Host(CONFIG, gateway)
    adapter = IrcAdapter(
        host,
        IrcNetwork(host="127.0.0.1", port=server_port, nick=HOST, channels=(CHANNEL,)),
        private="notice",
    )
    people = {n: Person(n, server_port) for n in ("alice", "bob", "carol", "dave")}
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 30)
        for person in people.values():
            await person.connect()
            await person.join(CHANNEL)
        await play(people, gateway)
    finally:
        transcript = os.environ.get("CE_CHAT_TRANSCRIPT")
        if transcript:  # the watcher's view of the channel, for docs/chat.md
            with open(transcript, "w") as out:
                for m in people["dave"].lines:
                    if m.command == "PRIVMSG" and m.target == CHANNEL:
                        out.write(f"<{m.source}> {m.text}\n")
                for p in people.values():
                    for m in p.lines:
                        out.write(
                            f"{m.at:.3f} {p.nick} <{m.source}> {m.command} {m.target} {m.text}\n"
                        )
        await adapter.stop()
        await host.stop()
        for person in people.values():
            await person.close()


async def play(people: dict[str, Person], gateway: LocalGateway) -> None:
    alice, bob, carol, dave = (people[n] for n in ("alice", "bob", "carol", "dave"))

    async def ask(p: Person, text: str, expect: object, target: str = CHANNEL) -> Msg:
        mark = p.mark()
        p.say(target, text)
        return await p.wait_for(expect, since=mark)  # type: ignore[arg-type]

    # Before any table: unknown commands, moves with no game.
    await ask(dave, "!frobnicate", notice("unknown command"))
    await ask(dave, "!play 7H", notice("no table here"))
    await ask(alice, "!new cycles 4 30", in_channel("alice opens a cycles table for up to 4"))
    await ask(dave, "!play 7H", notice("the game has not started"))
    for p in (alice, bob, carol):
        await ask(p, "!join", in_channel(f"{p.nick} joins"))
    await ask(alice, "!bots 1 random", in_channel("1 random bot(s) sit down (4/4 seated)"))
    await ask(dave, "!join", notice("the table is full"))
    await ask(bob, "!start", notice("alice starts the table"))
    marks = {n: p.mark() for n, p in people.items()}
    await ask(alice, "!start", in_channel("dealing cycles for alice, bob, carol, bot4"))

    # Bad input while the game runs: out of turn, a card not held, odd words, private.
    waits = {
        asyncio.create_task(people[n].wait_for(turn_notice, since=marks[n])): n
        for n in ("alice", "bob", "carol")
    }
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    first = done.pop()
    mover = waits[first]
    current = people[mover]
    turn = Turn.read(first.result())
    other = next(p for n, p in people.items() if n not in (mover, "dave"))
    await ask(other, "!play 2C", notice(f"wait for your turn: it is {mover}'s"))
    missing = next(c for c in CARD_TEXT.values() if c not in turn.hand and c != "JK")
    await ask(current, f"!play {missing}", notice(f"you do not hold {missing}"))
    await ask(current, "!play 7", notice("say the suit too"))
    await ask(current, "!play xyzzy plugh", notice("name a card"))
    await ask(other, f"!play {turn.playable[0]}", notice(f"say that in {CHANNEL}"), HOST)
    hand = await ask(current, "!hand", notice(f"your turn at {CHANNEL}"), HOST)
    assert sorted(Turn.read(hand).hand) == sorted(turn.hand)
    await ask(dave, "!play 7H", notice("you are not playing at this table"))

    # A flood from dave: five !table answers at most and one "slow down"; the others
    # are answered at once meanwhile.
    mark = dave.mark()
    for _ in range(25):
        dave.say(CHANNEL, "!table")
    await dave.wait_for(notice("slow down"), since=mark)
    t0 = asyncio.get_running_loop().time()
    await ask(bob, "!hand", notice(f"{CHANNEL}:"), HOST)
    assert asyncio.get_running_loop().time() - t0 < 2.0

    # alice quits and comes back with the same nick: her seat and hand wait for her.
    quit_mark = dave.mark()
    await alice.quit()
    await dave.wait_for(in_channel("alice left: their seat waits 1 min"), since=quit_mark)
    back = Person("alice", alice.port)
    people["alice"] = back
    await back.connect()
    marks["alice"] = back.mark()
    await back.join(CHANNEL)
    await back.wait_for(in_channel("welcome back, alice"), since=marks["alice"])
    await back.wait_for(notice(f"{CHANNEL}:"), since=marks["alice"])

    plan = Plan()
    drivers = [drive(people[n], plan, marks[n], ROOM) for n in ("alice", "bob", "carol")]
    await asyncio.wait_for(asyncio.gather(*drivers), 300)

    channel = [m.text for m in dave.lines if from_host(m) and m.target == CHANNEL]
    flood_answers = [m for m in dave.lines[mark:] if from_host(m) and m.text.startswith("cycle ")]
    assert len([t for t in channel if t.startswith("cycle ") and "cards:" in t]) <= 12
    del flood_answers
    text = "\n".join(channel)
    assert plan.false_call_done and "false call by bob: they hold" in text
    assert plan.idle_done and "carol ran out of time" in text
    assert f"carol, your turn: {TURN / 2:g} s left" in text
    assert plan.free_calls >= 1, "nobody got down to two cards: pick another seed"
    assert "last card!" in text
    assert "game over" in text

    # The game is recorded and replays to the same end (G4).
    [record] = gateway.records
    rules = Rules.from_dict(record.rules)
    again = replay(rules, record.seed, record.moves)
    assert again.result is not None and dict(again.result.to_dict()) == record.result

    # No private line to a person ever shows a card of another seat (G5): each card in
    # what the host told them privately was in their own hand at some time, was played
    # in the open, or was typed by them.
    held: dict[int, set[str]] = {s: set() for s in range(4)}
    for event in again.log:
        if isinstance(event, Dealt | Drew | PenaltyDrawn | PickedUp):
            held[event.seat].update(CARD_TEXT[c] for c in event.shown)
    seat_of = {s.name: s.seat for s in record.seats}
    for nick in ("alice", "bob", "carol"):
        persons = [alice, back] if nick == "alice" else [people[nick]]
        typed = {c for p in persons for _, said in p.sent for c in Msg(0, "", "", "", said).cards()}
        for m in (m for p in persons for m in p.lines if from_host(m) and m.private):
            leaked = m.cards() - held[seat_of[nick]] - typed - examples(m)
            assert not leaked, f"{nick} was told {leaked}: {m.text}"
    for m in dave.lines:
        if from_host(m) and m.private:
            assert not m.cards() - {"7H"}, m.text


def test_a_whole_cycles_game_on_irc(ngircd: Ngircd) -> None:
    run_async(game(ngircd.port))
