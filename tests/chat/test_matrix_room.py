"""Issue 21 on Matrix with ``--db``: a game hosted in a room of a real Synapse is a table
of a real card room (``crazy-eights serve``, a process of its own on the same SQLite
file). alice links her Matrix id to her account with ``!link`` (the link told in her
direct room); the table shows in the lobby with its Matrix place; a WebSocket watcher of
the room sees every move the chat makes; the finished game's replay and alice's history
are served. Lean on purpose: alice and one bot, one cycle."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from crazy_eights.chat.config import HostConfig, MatrixNetwork
from crazy_eights.chat.host import Host
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.server.auth import COOKIE
from crazy_eights.server.settings import ServerSettings

from ..conftest import run_async
from ..services import Synapse
from .roomwatch import listed, until, watch_to_the_end
from .scripted import Plan, Room, drive

pytestmark = pytest.mark.slow
nio = pytest.importorskip("nio")

CHANNEL = "#cards:test"
HOST = "@eights:test"
TURN = 20.0
ROOM = Room(CHANNEL, HOST, TURN)
CONFIG = HostConfig(turn_seconds=TURN, lines_per_second=50, burst=50, bot_delay=0, seed=3)


async def game(server: Synapse, passwords: dict[str, str], room_url: str, database: str) -> None:
    from crazy_eights.chat.matrix import MatrixAdapter

    from .matrixclient import Person

    alice = Person(server.url, "@alice:test", passwords["alice"])
    await alice.connect()
    await alice.create_room(CHANNEL)
    gateway = await RoomGateway.open(
        ServerSettings(database_url=database), room_url=room_url, turn_seconds=TURN
    )
    host = Host(CONFIG, gateway)
    network = MatrixNetwork(
        homeserver=server.url, user=HOST, rooms=(CHANNEL,), password=passwords["eights"]
    )
    adapter = MatrixAdapter(host, network)
    adapter.start()
    try:
        await asyncio.wait_for(adapter.connected.wait(), 60)
        async with httpx.AsyncClient(base_url=room_url) as http:
            await play(alice, http, room_url, f"matrix:{server.url}:{CHANNEL}")
    finally:
        await adapter.stop()
        await host.stop()
        await gateway.shutdown()
        await alice.close()


async def link(alice: Any, http: httpx.AsyncClient, network: str) -> int:
    """alice says !link in the room, opens the link told in her direct room, signed in."""
    mark = alice.mark()
    alice.say(CHANNEL, "!link")
    said = await alice.wait_for(ROOM.notice("/#/link/"), since=mark)
    token = said.text.split("/#/link/")[1].split()[0]
    shown = (await http.get(f"/api/chat-links/{token}")).json()
    assert shown["nick"] == alice.nick and shown["network"] == network, shown
    made = await http.post("/api/auth/register", json={"name": "alicia", "password": "pw-123456"})
    assert made.status_code == 201, made.text
    cookie = {"cookie": f"{COOKIE}={made.cookies[COOKIE]}"}
    http.cookies.clear()
    used = await http.post(f"/api/chat-links/{token}", headers=cookie)
    assert used.status_code == 200, used.text
    return int(made.json()["id"])


async def play(alice: Any, http: httpx.AsyncClient, room_url: str, place: str) -> None:
    alicia = await link(alice, http, place.rpartition(f":{CHANNEL}")[0])

    async def ask(text: str, expect: str) -> None:
        mark = alice.mark()
        alice.say(CHANNEL, text)
        await alice.wait_for(ROOM.in_channel(expect), since=mark)

    await ask("!new cycles 2 1", "opens a cycles table")
    await ask("!join", "joins")
    await ask("!bots 1 random", "(2/2 seated)")
    start_mark = alice.mark()
    await ask("!start", "dealing cycles")

    info = await until(lambda: listed(http, place), "the Matrix table in the room's lobby")
    assert info["name"] == f"cycles in {CHANNEL}" and info["status"] == "playing"
    assert info["seats"][0]["account"] == alicia and info["rated"]
    table_id = info["id"]

    ws_url = room_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    seen: list[dict[str, Any]] = []
    async with websockets.connect(ws_url) as ws:
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["you"]["role"] == "spectator"
        start = welcome["state"]["version"]

        watcher = asyncio.create_task(watch_to_the_end(ws, seen))
        await asyncio.wait_for(drive(alice, Plan(idle=False), start_mark, ROOM), 120)
        await asyncio.wait_for(watcher, 30)

    states = [m["state"] for m in seen if m["type"] == "state"]
    assert states, "the watcher saw no move"
    assert [s["version"] for s in states] == list(range(start + 1, start + 1 + len(states)))
    assert all("hand" not in s["view"] for s in states)  # a watcher sees no hand (G5)

    replay = await http.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.json()["result"] is not None
    moves = [m["move"] for m in replay.json()["moves"]]
    assert moves[start:] == [s["move"] for s in states]  # what the watcher saw, in order
    history = (await http.get(f"/api/accounts/{alicia}/history")).json()
    assert [g["table"] for g in history] == [table_id]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_matrix_game_is_a_table_of_the_card_room(
    synapse: Synapse, card_room: str, database_url: str
) -> None:
    passwords = {n: f"pw-{n}" for n in ("eights", "alice")}
    for name, password in passwords.items():
        synapse.register(name, password)
    run_async(game(synapse, passwords, card_room, database_url))
