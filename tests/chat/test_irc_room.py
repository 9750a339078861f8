"""Issue 21: a game hosted on a real IRC server (ngircd) is a table of a real card room
(``crazy-eights serve``, a process of its own on the same database: a SQLite file, and a
PostgreSQL database). ``!link`` ties alice's nick to her account end to end; the table
shows in the room's lobby "in #cards"; a browser-side watcher (a WebSocket client of the
room) sees every move the chat makes; the finished game is in alice's history and its
replay is served. And ``crazy-eights chat-host --db`` killed mid-game leaves no table
playing: started again, it abandons the table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from crazy_eights.chat.config import HostConfig, IrcNetwork
from crazy_eights.chat.host import Host
from crazy_eights.chat.irc import IrcAdapter
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.server.auth import COOKIE
from crazy_eights.server.settings import ServerSettings

from ..cluster.nodes import Node
from ..conftest import run_async
from ..services import Ngircd
from .conftest import cli, room_env
from .ircclient import Msg, Person
from .roomwatch import listed, until, watch_to_the_end
from .scripted import Plan, Room, drive

pytestmark = pytest.mark.slow

CHANNEL = "#cards"
HOST = "eights"
TURN = 20.0
ROOM = Room(CHANNEL, HOST, TURN)
CONFIG = HostConfig(
    turn_seconds=TURN,
    lines_per_second=40,
    burst=20,
    commands_per_second=5,
    command_burst=10,
    bot_delay=0,
    seed=5,
)
PLACE = f"irc:127.0.0.1:{CHANNEL}"


async def game(irc_port: int, room_url: str, database_url: str) -> None:
    settings = ServerSettings(database_url=database_url)
    gateway = await RoomGateway.open(settings, room_url=room_url, turn_seconds=TURN)
    host = Host(CONFIG, gateway)
    adapter = IrcAdapter(
        host,
        IrcNetwork(host="127.0.0.1", port=irc_port, nick=HOST, channels=(CHANNEL,)),
        private="notice",
    )
    people = {n: Person(n, irc_port) for n in ("alice", "bob", "dave")}
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 30)
        for person in people.values():
            await person.connect()
            await person.join(CHANNEL)
        async with httpx.AsyncClient(base_url=room_url) as http:
            await play(people, http, room_url)
    finally:
        await adapter.stop()
        await host.stop()
        await gateway.shutdown()
        for person in people.values():
            await person.close()


async def link_alice(alice: Person, http: httpx.AsyncClient) -> int:
    """alice says !link, opens the link signed in: her nick is her account's now."""
    mark = alice.mark()
    alice.say(CHANNEL, "!link")
    said = await alice.wait_for(ROOM.notice("/#/link/"), since=mark)
    token = said.text.split("/#/link/")[1].split()[0]
    shown = await http.get(f"/api/chat-links/{token}")
    assert shown.status_code == 200, (said.text, shown.text)
    assert shown.json()["nick"] == "alice" and shown.json()["network"] == "irc:127.0.0.1"
    made = await http.post("/api/auth/register", json={"name": "alicia", "password": "pw-123456"})
    assert made.status_code == 201, made.text
    cookie = {"cookie": f"{COOKIE}={made.cookies[COOKIE]}"}
    http.cookies.clear()
    used = await http.post(f"/api/chat-links/{token}", headers=cookie)
    assert used.status_code == 200, used.text
    assert (await http.post(f"/api/chat-links/{token}", headers=cookie)).status_code == 404
    return int(made.json()["id"])


async def play(people: dict[str, Person], http: httpx.AsyncClient, room_url: str) -> None:
    alice, bob, dave = people["alice"], people["bob"], people["dave"]
    alicia = await link_alice(alice, http)

    async def ask(p: Person, text: str, expect: Any) -> None:
        mark = p.mark()
        p.say(CHANNEL, text)
        await p.wait_for(expect, since=mark)

    await ask(alice, "!new cycles 4 4", ROOM.in_channel("alice opens a cycles table"))
    await ask(alice, "!join", ROOM.in_channel("alice joins"))
    await ask(bob, "!join", ROOM.in_channel("bob joins"))
    await ask(alice, "!bots 2 random", ROOM.in_channel("(4/4 seated)"))
    marks = {"alice": alice.mark(), "bob": bob.mark()}
    await ask(alice, "!start", ROOM.in_channel("dealing cycles for alice, bob, bot3, bot4"))

    info = await until(lambda: listed(http, PLACE), "the chat table in the room's lobby")
    assert info["name"] == f"cycles in {CHANNEL}" and info["status"] == "playing"
    assert info["seats"][0]["account"] == alicia and info["seats"][1]["name"] == "bob"
    assert not info["rated"]  # bob's nick is not linked
    table_id = info["id"]

    ws_url = room_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    seen: list[dict[str, Any]] = []
    async with websockets.connect(ws_url) as ws:
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["you"]["role"] == "spectator"
        start = welcome["state"]["version"]

        watcher = asyncio.create_task(watch_to_the_end(ws, seen))
        plan = Plan(idle=False)
        drivers = [drive(people[n], plan, marks[n], ROOM) for n in ("alice", "bob")]
        await asyncio.wait_for(asyncio.gather(*drivers), 300)
        await asyncio.wait_for(watcher, 30)

    states = [m["state"] for m in seen if m["type"] == "state"]
    versions = [s["version"] for s in states]
    assert versions == list(range(start + 1, start + 1 + len(versions)))
    assert all("hand" not in s["view"] for s in states)  # a watcher sees no hand (G5)
    said = [m.text for m in dave.lines if ROOM.from_host(m) and m.target == CHANNEL]
    assert any(t.startswith("game over (") for t in said)

    replay = await http.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200, replay.text
    moves = [m["move"] for m in replay.json()["moves"]]
    assert moves[start:] == [s["move"] for s in states]  # what the watcher saw, in order
    assert replay.json()["result"] is not None
    history = (await http.get(f"/api/accounts/{alicia}/history")).json()
    assert [g["table"] for g in history] == [table_id]

    async def off_the_list() -> bool:
        return all(t["id"] != table_id for t in (await http.get("/api/tables")).json())

    await until(off_the_list, "the finished table off the lobby")


def test_an_irc_game_is_a_table_of_the_card_room(
    ngircd: Ngircd, card_room: str, database_url: str
) -> None:
    run_async(game(ngircd.port, card_room, database_url))


def _status(database: Path) -> list[tuple[str, str]]:
    import sqlite3

    with contextlib.closing(sqlite3.connect(database)) as conn:
        return list(conn.execute("SELECT id, status FROM tables WHERE place IS NOT NULL"))


def _host_here(m: Msg) -> bool:
    """The host joins the channel, or was in it already (in the names on joining)."""
    joined = m.command == "JOIN" and m.source == HOST
    return joined or (m.command == "353" and HOST in [n.lstrip("@+") for n in m.text.split()])


async def _deal(irc_port: int) -> None:
    """alice opens a table with a bot and deals: the host stores it, playing."""
    alice = Person("alice", irc_port)
    await alice.connect()
    await alice.join(CHANNEL)
    try:  # the host (a process of its own) is in the channel before she speaks
        await alice.wait_for(_host_here, timeout=60)
        for text, expect in [
            ("!new cycles 2 30", "alice opens"),
            ("!join", "alice joins"),
            ("!bots 1 random", "(2/2 seated)"),
            ("!start", "dealing cycles"),
        ]:
            mark = alice.mark()
            alice.say(CHANNEL, text)
            await alice.wait_for(ROOM.in_channel(expect), since=mark, timeout=60)
    finally:
        await alice.close()


def test_a_killed_chat_host_leaves_no_table_playing(ngircd: Ngircd, tmp_path: Path) -> None:
    database = tmp_path / "room.db"
    command = cli(
        "chat-host",
        "--irc",
        f"irc://{HOST}@127.0.0.1:{ngircd.port}/{CHANNEL}",
        "--db",
        str(database),
    )
    env = room_env(str(database)) | {"CE_CHAT_TURN_SECONDS": "600", "CE_CHAT_BOT_DELAY": "0"}

    def start(name: str) -> subprocess.Popen[bytes]:
        log = open(tmp_path / name, "w")  # noqa: SIM115 - the process holds it
        return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)

    first = start("host1.log")
    try:
        run_async(_deal(ngircd.port))
        [(table_id, status)] = _status(database)
        assert status == "playing"
    finally:
        first.kill()  # no chance to close its table
        first.wait()
    assert _status(database) == [(table_id, "playing")]
    second = start("host2.log")
    try:
        deadline = time.monotonic() + 60
        while _status(database) != [(table_id, "abandoned")]:
            assert second.poll() is None, (tmp_path / "host2.log").read_text()
            assert time.monotonic() < deadline, "the crashed host's table is still playing"
            time.sleep(0.1)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)


POLL = 20.0
"""The cluster node's look at the hosted tables' moves in the ``--redis`` test: long, so
that a move seen well before it was brought by the host's word on Redis."""


def test_chat_host_with_redis_beside_a_cluster_node(
    ngircd: Ngircd, tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """``crazy-eights chat-host --irc ... --db ... --redis ...`` as a process beside a
    real cluster node (``serve --redis`` on PostgreSQL): the table dealt in #cards is in
    the node's lobby "in #cards" and watchable there, the host's word on Redis brings
    its moves to the watcher well before the node's look (20 s), and the host stopped
    abandons it: the watcher is told and it leaves the lobby."""
    node = Node(tmp_path, database=postgres_url, redis=redis_url, CE_HOSTED_POLL_SECONDS=str(POLL))
    node.start()  # the node and the host start together
    command = cli(
        "chat-host",
        *("--irc", f"irc://{HOST}@127.0.0.1:{ngircd.port}/{CHANNEL}"),
        *("--db", postgres_url, "--redis", redis_url),
    )
    env = room_env(postgres_url) | {
        "CE_CHAT_TURN_SECONDS": "4",
        "CE_CHAT_BOT_DELAY": "0",
        "CE_CHAT_LINES_PER_SECOND": "40",
        "CE_CHAT_BURST": "20",
    }
    with open(tmp_path / "host.log", "w") as log:
        host = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            node.wait_ready()
            run_async(_deal(ngircd.port))
            run_async(_watch_on_the_node(node, host))
            assert host.wait(30) == 0
        finally:
            if host.poll() is None:
                host.kill()
                host.wait()
            node.kill()


async def _watch_on_the_node(node: Node, host: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=node.url) as http:
        entry = await until(lambda: listed(http, PLACE), "the table in the node's lobby")
        assert entry["name"] == f"cycles in {CHANNEL}" and entry["status"] == "playing"
        async with websockets.connect(f"{node.ws}/ws/tables/{entry['id']}") as ws:
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome" and welcome["you"]["role"] == "spectator"
            version = welcome["state"]["version"]
            # the next move (a bot's, or alice's turn timed out by the host within 4 s)
            moved = await asyncio.wait_for(_next(ws, "state"), POLL / 2)
            assert moved["state"]["version"] > version and "hand" not in moved["state"]["view"]
            host.send_signal(signal.SIGTERM)  # the host stops: its table is abandoned
            ended = await asyncio.wait_for(_next(ws, "table"), POLL / 2)
            assert ended["info"]["status"] in ("abandoned", "finished")

        async def off_the_list() -> bool:
            return await listed(http, PLACE) is None

        await until(off_the_list, "the ended table off the node's lobby")


async def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The watcher's next message of type ``kind``."""
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == kind:
            return message
