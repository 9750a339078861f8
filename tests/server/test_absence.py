"""Absence (issue 12 item 4): a silent socket is closed by the heartbeat and its seat is
away at once; the others see the countdown to the stand-in; a table only bots are left
playing is unlisted and finished in a hurry with no turn timer; players absent at the
end are recorded as having left, never credited with the stand-in's win."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from crazy_eights.server.table import absence
from crazy_eights.server.table.members import Member, Members
from crazy_eights.server.table.seats import Seat, Seats

from ..adversarial.loopback import Guest, Server, running
from .conftest import as_, until
from .test_bots import actor_of, wait_for
from .test_tables import two_humans_and_a_bot


def _silent_socket(server: Server, path: str, cookie: str) -> socket.socket:
    """A WebSocket that completes its handshake and then goes dead: it reads nothing and
    answers no ping, as a laptop that was closed mid-game."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        ).encode()
    )
    assert sock.recv(4096).startswith(b"HTTP/1.1 101"), "the handshake was refused"
    return sock


def test_a_dead_connection_is_closed_by_the_heartbeat_and_its_seat_is_away(
    tmp_path: Path,
) -> None:
    """The server pings every socket (WebSocket ping frames, answered by any browser or
    socket library by itself); one that stops answering is closed, and the table tells
    the others that seat is away, with the countdown to its stand-in."""

    async def main(server: Server, table: str, live: Guest, dead: Guest) -> dict[str, Any]:
        async with connect(
            f"{server.ws}/ws/tables/{table}", additional_headers={"cookie": live.cookie}
        ) as ws:
            silent = _silent_socket(server, f"/ws/tables/{table}", dead.cookie)
            try:
                started = time.monotonic()
                seen_here = False
                while time.monotonic() - started < 15:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 15))
                    for seat in message.get("seats", []) if message["type"] == "presence" else []:
                        if seat["seat"] != 1:
                            continue
                        if seat["connected"]:
                            seen_here = True
                        elif seen_here:
                            return seat | {"after": time.monotonic() - started}
                raise AssertionError("the dead connection's seat never went away")
            finally:
                silent.close()

    with running(tmp_path / "room.db", env={"CE_HEARTBEAT_SECONDS": "1"}) as server:
        creator, other = Guest(server), Guest(server)
        try:
            rules = {"ruleset": "classic", "players": 2, "mode": "single"}
            table = creator.table(rules=rules)["id"]
            other.http.post(f"/api/tables/{table}/sit", json={}).raise_for_status()
            news = asyncio.run(main(server, table, creator, other))
        finally:
            creator.close()
            other.close()
    assert news["after"] < 5, news  # pinged every 0.5 s, closed 0.5 s after no answer
    assert news["away_left"] is not None and 25.0 < news["away_left"] <= 30.0


def test_only_bots_left_finish_in_a_hurry_unlisted_and_the_absent_are_recorded_as_left(
    make_client: Any,
) -> None:
    # A bot pause of 5 s: played with it, the game would take minutes.
    client = make_client(away_seconds=0.2, bot_delay=5.0)
    table_id, creator, other, _ = two_humans_and_a_bot(client, takeover_after=2)
    actor = actor_of(client, table_id)
    ids = {seat.seat: seat.account_id for seat in actor.seats}
    directory = client.app.state.room.lobby.directory  # type: ignore[attr-defined]
    unlisted: list[str] = []  # the table's status whenever the lobby drops it
    remove = directory.remove
    directory.remove = lambda table: (unlisted.append(actor.status), remove(table))
    assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0:
        until(ws0, "welcome")
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1:
            until(ws1, "welcome")
    # Both players gone: after the grace, stand-ins and the random bot play it out.
    started = time.monotonic()
    wait_for(
        lambda: (actor.seats[0].standin and actor.seats[1].standin) or actor.status != "playing"
    )
    # Not listed while the bots play it out: dropped when the last stand-in came.
    wait_for(lambda: bool(unlisted), 2)
    assert unlisted[0] == "playing"
    wait_for(lambda: actor.status == "finished", 30)
    assert time.monotonic() - started < 20  # no 5 s pause per bot move
    assert len(actor.state.movers) > 6
    assert not actor.state.clock.running
    # Both were absent at the end: recorded as having left, no win for either.
    info = client.get(f"/api/tables/{table_id}").json()
    assert [s["left"] for s in info["seats"]] == [True, True, False]
    for seat in (0, 1):
        history = client.get(f"/api/accounts/{ids[seat]}/history", headers=as_(creator)).json()
        assert [(h["table"], h["left"], h["won"]) for h in history] == [(table_id, True, False)]
        records = client.get(f"/api/accounts/{ids[seat]}/records").json()["records"]
        assert [(r["games"], r["wins"]) for r in records] == [(1, 0)]
    replay = client.get(f"/api/tables/{table_id}/replay", headers=as_(creator)).json()
    assert [s["left"] for s in replay["seats"]] == [True, True, False]


def test_a_returning_player_takes_the_seat_back_and_the_timer_again(make_client: Any) -> None:
    client = make_client(away_seconds=0.2, bot_delay=0.3)
    table_id, creator, other, _ = two_humans_and_a_bot(client, takeover_after=2)
    actor = actor_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0:
        until(ws0, "welcome")
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1:
        until(ws1, "welcome")
        wait_for(lambda: actor.seats[0].standin or actor.status != "playing", 5)
        if actor.status != "playing":
            pytest.skip("the game ended before the stand-in came")
        assert actor.seats[1].standin is False  # seat 1 is here: the table is attended
        assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
    wait_for(lambda: actor.seats[1].standin or actor.status != "playing", 5)
    if actor.status == "playing":
        wait_for(lambda: not actor.state.clock.running or actor.status != "playing", 5)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0:
        welcome = until(ws0, "welcome")
        if actor.status == "playing":
            assert welcome["you"]["seat"] == 0 and actor.seats[0].standin is False
            assert actor.state.clock.running  # a person is back: the turn timer runs again
            seat = welcome["info"]["seats"][0]
            assert seat["standin"] is False and seat["away_left"] is None


def _seats(*seats: Seat) -> Seats:
    return Seats(list(seats))


def test_unattended_and_abandoned_read_the_seats_and_the_members() -> None:
    members = Members()
    here = Member(account_id=10, name="ada", seat=0)
    members.add(here)
    person = Seat(seat=0, account_id=10)
    away = Seat(seat=1, account_id=11)  # in their grace: nobody plays it yet
    bot = Seat(seat=2, account_id=3, bot="random")
    seats = _seats(person, away, bot)
    assert not absence.unattended(seats, members)
    assert absence.abandoned(seats, members) == [away]
    away.standin = True
    assert not absence.unattended(seats, members)  # ada is still here
    members.remove(here.id)
    assert absence.unattended(seats, members) is False  # ada's seat: nobody plays it yet
    person.standin = True
    assert absence.unattended(seats, members)
    assert absence.abandoned(seats, members) == [person, away]
    # ada is connected but a stand-in plays for her (timeouts): still abandoned at the end
    members.add(here)
    assert not absence.unattended(seats, members)
    assert absence.abandoned(seats, members) == [person, away]
    away.standin, away.left = False, True  # left for good: already recorded so
    person.standin = False
    assert absence.abandoned(seats, members) == []


def test_a_closed_socket_leaves_no_writer_task_behind(make_client: Any) -> None:
    """Each socket's writer waits on its outbox; once the socket is gone it must end too,
    or every connection ever closed would keep a task and a queue alive."""
    client = make_client()
    table_id, creator, _other, _ = two_humans_and_a_bot(client, takeover_after=2)
    sockets = client.app.state.room.sockets  # type: ignore[attr-defined]
    conns = []
    for _ in range(3):
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
            until(ws, "welcome")
            [(member, _node)] = sockets.at(table_id)
            conns.append(sockets.get(member))
        wait_for(lambda: not sockets.at(table_id), 5)
    wait_for(lambda: all(conn._task.done() for conn in conns), 5)
