"""Issue 21: the chat host's tables are the card room's (``chat.roomgateway``). A
``RoomGateway`` and a card room share one database (a SQLite file and a PostgreSQL
database): the table is listed in the lobby with its place, a browser watching it sees
each move, the finished game is recorded and replayed, ``!link`` ties a nick to an
account (its next game is rated), bad links change nothing, and a table a crashed host
left running is abandoned when a host of its network starts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.chat.config import HostConfig
from crazy_eights.chat.gateway import ChatSeat, ChatTableSpec
from crazy_eights.chat.parse import Command
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.chat.table import ChatTable
from crazy_eights.engine import Rules
from crazy_eights.server import create_app
from crazy_eights.server.auth import COOKIE

from ..server.conftest import SettingsFactory, eventually
from .loops import Loop

NETWORK = "irc:127.0.0.1"
PLACE = f"{NETWORK}:#cards"


@pytest.fixture
def room(fast_settings: SettingsFactory) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings())) as client:
        client.app.state.room.hosted.every = 0.1  # type: ignore[attr-defined]
        yield client


@pytest.fixture
def gateway(
    fast_settings: SettingsFactory, host_loop: Loop, room: TestClient
) -> Iterator[RoomGateway]:
    """The host's gateway on the room's database (which the room has migrated)."""
    opening = RoomGateway.open(fast_settings(), room_url="http://room.test", turn_seconds=90)
    made = host_loop.run(opening)
    yield made
    host_loop.run(made.shutdown())


def listed(room: TestClient, table_id: str) -> dict[str, Any] | None:
    return next((t for t in room.get("/api/tables").json() if t["id"] == table_id), None)


def register(room: TestClient, name: str) -> str:
    response = room.post("/api/auth/register", json={"name": name, "password": "pass-word-1"})
    assert response.status_code == 201, response.text
    token = response.cookies[COOKIE]
    room.cookies.clear()
    return str(token)


def open_table(host_loop: Loop, gateway: RoomGateway, seats: list[ChatSeat], seed: int) -> str:
    rules = Rules.preset("cycles", players=len(seats), cycle_limit=6)
    spec = ChatTableSpec(place=PLACE, rules=rules, seed=seed)
    table_id, _ = host_loop.run(gateway.create(spec, seats))
    return table_id


def play_out(host_loop: Loop, gateway: RoomGateway, table_id: str) -> None:
    """Every seat's moves by bots, to the end."""
    while (current := gateway.view(table_id, None)["current"]) is not None:
        host_loop.run(gateway.bot_move(table_id, current, "random"))


def test_a_chat_table_is_a_table_of_the_room(
    room: TestClient, gateway: RoomGateway, host_loop: Loop
) -> None:
    seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
    table_id = open_table(host_loop, gateway, seats, seed=7)

    eventually(lambda: listed(room, table_id) is not None, "the chat table in the lobby", 10)
    info = listed(room, table_id)
    assert info is not None
    assert info["place"] == PLACE and info["name"] == "cycles in #cards"
    assert info["status"] == "playing" and not info["rated"]  # alice is a chat guest
    assert [s["name"] for s in info["seats"]] == ["alice", "Easy bot"]

    with room.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["you"]["role"] == "spectator"
        assert welcome["info"]["place"] == PLACE
        clock = welcome["clock"]  # the host's turn timer, counted down for watchers
        assert clock["timer"] == 90 and 0 < clock["left"] <= 90
        ws.send_json({"type": "move", "seq": welcome["state"]["version"], "move": "7H"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "played_elsewhere"
        current = gateway.view(table_id, None)["current"]
        host_loop.run(gateway.bot_move(table_id, current, "random"))
        state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
        assert state["state"]["version"] == welcome["state"]["version"] + 1
        assert state["state"]["by"] == current
        assert "hand" not in state["state"]["view"]  # G5: a watcher sees no hand
        play_out(host_loop, gateway, table_id)
        record = host_loop.run(gateway.close(table_id, "over"))
        done = next(m for m in iter(ws.receive_json, None) if m["type"] == "table")
        assert done["info"]["status"] == "finished"

    assert record.result is not None
    eventually(lambda: listed(room, table_id) is None, "the finished table off the lobby", 10)
    replay = room.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200, replay.text
    body = replay.json()
    assert body["result"] == record.result
    assert [m["move"] for m in body["moves"]] == list(record.moves)


def test_link_ties_a_nick_to_an_account(
    room: TestClient, gateway: RoomGateway, host_loop: Loop
) -> None:
    said = host_loop.run(gateway.link("Alice", NETWORK))
    assert said is not None and "http://room.test/#/link/" in said
    token = said.split("/#/link/")[1].split()[0]
    before = room.get(f"/api/chat-links/{token}")
    assert before.status_code == 200 and before.json()["nick"] == "Alice"

    # Bad uses change nothing: no account, a guest, a wrong token.
    assert room.post(f"/api/chat-links/{token}").status_code == 401
    guest = room.post("/api/auth/guest").cookies[COOKIE]
    room.cookies.clear()
    as_guest = room.post(f"/api/chat-links/{token}", headers={"cookie": f"{COOKIE}={guest}"})
    assert as_guest.status_code == 403
    ada = {"cookie": f"{COOKIE}={register(room, 'ada')}"}
    assert room.post("/api/chat-links/not-a-token", headers=ada).status_code == 404
    assert room.get(f"/api/chat-links/{token}").status_code == 200  # still usable

    used = room.post(f"/api/chat-links/{token}", headers=ada)
    assert used.status_code == 200, used.text
    ada_id = room.get("/api/me", headers=ada).json()["id"]
    assert used.json() == {"network": NETWORK, "nick": "Alice", "account": ada_id}
    assert room.post(f"/api/chat-links/{token}", headers=ada).status_code == 404  # once
    gateway.names.link_seconds = -1.0  # a link past its time
    late = host_loop.run(gateway.link("bob", NETWORK))
    assert late is not None
    late_token = late.split("/#/link/")[1].split()[0]
    assert room.get(f"/api/chat-links/{late_token}").status_code == 404
    assert room.post(f"/api/chat-links/{late_token}", headers=ada).status_code == 404

    # alice (any case) now plays as ada: her table is rated and counts in ada's record.
    seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
    table_id = open_table(host_loop, gateway, seats, seed=11)
    eventually(lambda: listed(room, table_id) is not None, "the linked table in the lobby", 10)
    info = listed(room, table_id)
    assert info is not None and info["rated"] and info["seats"][0]["account"] == ada_id
    play_out(host_loop, gateway, table_id)
    host_loop.run(gateway.close(table_id, "over"))
    history = room.get(f"/api/accounts/{ada_id}/history", headers=ada)
    assert history.status_code == 200, history.text
    assert [(g["table"], g["rated"]) for g in history.json()] == [(table_id, True)]


def test_a_crashed_hosts_table_is_abandoned_by_the_next_host(
    room: TestClient, fast_settings: SettingsFactory, host_loop: Loop
) -> None:
    crashed = host_loop.run(RoomGateway.open(fast_settings()))
    seats = [ChatSeat(seat=0, name="bob"), ChatSeat(seat=1, name="bot2", bot="random")]
    table_id = open_table(host_loop, crashed, seats, seed=3)
    current = crashed.view(table_id, None)["current"]
    host_loop.run(crashed.bot_move(table_id, current, "random"))
    host_loop.run(crashed.writer.stop())  # the process dies: nothing closes its table
    eventually(lambda: listed(room, table_id) is not None, "the table in the lobby", 10)

    restarted = host_loop.run(RoomGateway.open(fast_settings()))
    try:
        assert host_loop.run(restarted.close_orphans(["irc:elsewhere"])) == []
        assert host_loop.run(restarted.close_orphans([NETWORK])) == [table_id]
    finally:
        host_loop.run(restarted.shutdown())
        host_loop.run(crashed.engine.dispose())
    eventually(lambda: listed(room, table_id) is None, "the abandoned table off the lobby", 10)
    assert room.get(f"/api/tables/{table_id}").json()["status"] == "abandoned"
    with (
        room.websocket_connect(f"/ws/tables/{table_id}") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()  # nothing to watch
    assert closed.value.code == 4004


def analysis(room: TestClient, table_id: str, seat: int) -> dict[str, Any]:
    shown = room.get(f"/api/tables/{table_id}/analysis?seat={seat}")
    assert shown.status_code == 200, shown.text
    return dict(shown.json())


def test_a_rated_chat_game_is_analysed_like_any_other(
    room: TestClient, gateway: RoomGateway, host_loop: Loop
) -> None:
    """The host runs no analysis; the card room starts it for the linked seats of a
    rated hosted game once it ended, and for none of an unrated one's."""
    said = host_loop.run(gateway.link("alice", NETWORK))
    assert said is not None
    ada = {"cookie": f"{COOKIE}={register(room, 'ada')}"}
    token = said.split("/#/link/")[1].split()[0]
    assert room.post(f"/api/chat-links/{token}", headers=ada).status_code == 200

    def game(nick: str, seed: int) -> str:
        rules = Rules.preset("cycles", players=2, cycle_limit=2)
        seats = [ChatSeat(seat=0, name=nick), ChatSeat(seat=1, name="bot2", bot="random")]
        table_id, _ = host_loop.run(
            gateway.create(ChatTableSpec(place=PLACE, rules=rules, seed=seed), seats)
        )
        play_out(host_loop, gateway, table_id)
        assert host_loop.run(gateway.close(table_id, "over")).result is not None
        return table_id

    unrated = game("bob", seed=4)  # bob is a chat guest: no analysis
    rated = game("alice", seed=5)  # alice plays as ada: rated, analysed
    eventually(
        lambda: analysis(room, rated, 0)["status"] == "done", "the rated game's analysis", 60
    )
    done = analysis(room, rated, 0)["analysis"]
    assert done["seat"] == 0 and done["decisions"]
    assert analysis(room, rated, 1)["status"] == "none"  # the bot's seat
    assert analysis(room, unrated, 0)["status"] == "none"  # seen by the same look
    hosted = room.app.state.room.hosted  # type: ignore[attr-defined]
    assert room.portal.call(hosted.hand_over_ends) == 0  # type: ignore[union-attr]


def test_seats_at_a_chat_table_are_taken_in_its_channel(
    room: TestClient, gateway: RoomGateway, host_loop: Loop
) -> None:
    """Sitting, leaving and dealing over HTTP at a table a chat host plays: a clear 409
    naming the channel, and nothing changes; watching it still works."""
    seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
    table_id = open_table(host_loop, gateway, seats, seed=8)
    before = room.get(f"/api/tables/{table_id}").json()
    ada = {"cookie": f"{COOKIE}={register(room, 'ada')}"}
    for path, body in (("sit", {"seat": 0}), ("sit", {}), ("leave", None), ("start", None)):
        refused = room.post(f"/api/tables/{table_id}/{path}", json=body, headers=ada)
        assert refused.status_code == 409, (path, refused.text)
        assert refused.json() == {
            "error": "hosted_in_chat",
            "detail": "This table is played in #cards: join it there",
        }
    assert room.get(f"/api/tables/{table_id}").json() == before
    assert room.post("/api/tables/no-such-table/sit", json={}, headers=ada).status_code == 404
    with room.websocket_connect(f"/ws/tables/{table_id}", headers=ada) as ws:
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["you"]["role"] == "spectator"
    play_out(host_loop, gateway, table_id)
    host_loop.run(gateway.close(table_id, "over"))
    over = room.post(f"/api/tables/{table_id}/sit", json={}, headers=ada)
    assert over.status_code == 404  # a finished table: nothing to sit at, wherever it was


class Clock:
    """The chat table's clock, set by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_nick_who_gives_up_a_chat_game_is_recorded_as_left(
    room: TestClient, gateway: RoomGateway, host_loop: Loop
) -> None:
    """``!leave`` in the game, and a quit past the time the seat was kept: each seat is
    stored as left, as a seat left in the browser is; a watcher is told, and the
    replay shows it."""
    clock = Clock()
    config = HostConfig(turn_seconds=60, away_seconds=60, bot_delay=0)
    rules = Rules.preset("cycles", players=3, cycle_limit=2)
    table = ChatTable(
        "#cards", "alice", rules, config, gateway, capacity=3, place=PLACE, seed=6, clock=clock
    )
    for nick in ("alice", "bob", "carol"):
        host_loop.run(table.command(nick, Command("join", "")))
    host_loop.run(table.command("alice", Command("start", "")))
    table_id = table.table_id
    assert table_id is not None

    def stored_left() -> list[bool]:
        return [s["left"] for s in room.get(f"/api/tables/{table_id}").json()["seats"]]

    assert stored_left() == [False, False, False]
    with room.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        said = host_loop.run(table.command("bob", Command("leave", "")))
        assert any("bob leaves: a bot plays" in line.text for line in said)
        told = next(m for m in iter(ws.receive_json, None) if m["type"] == "table")
        assert [s["left"] for s in told["info"]["seats"]] == [False, True, False]
    assert stored_left() == [False, True, False]

    table.went_away("carol")
    clock.now += 30
    host_loop.run(table.wake())
    assert stored_left() == [False, True, False]  # her seat waits for her a while
    clock.now += 31
    said = host_loop.run(table.wake())
    assert any("carol did not come back" in line.text for line in said)
    assert stored_left() == [False, True, True]

    play_out(host_loop, gateway, table_id)
    record = host_loop.run(gateway.close(table_id, "over"))
    assert [s.left for s in record.seats] == [False, True, True]
    replay = room.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200, replay.text
    assert [s["left"] for s in replay.json()["seats"]] == [False, True, True]
