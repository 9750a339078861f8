"""Finding 2: a watcher connecting or leaving costs the same whatever the audience, and a
table takes at most so many watchers."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocketDisconnect

from ..server.conftest import eventually
from .inprocess import as_, guest, make_table, open_table_of_two, room, room_of, until


def test_a_watcher_arriving_costs_the_same_at_any_audience(tmp_path: Path) -> None:
    """Messages sent while 60 watchers arrive and leave one by one grow with the audience
    (not its square): each arrival gets its welcome, the others a shared update at most."""
    with room(tmp_path, socket_opens=1000.0) as client:
        _, creator = guest(client)
        table = make_table(
            client,
            creator,
            rules={"ruleset": "classic", "players": 3},
            bots=[{"seat": 1, "level": "random"}],
        )
        sent: list[str] = []
        room_of(client).audit = lambda table_id, seat, text: sent.append(text)
        url = f"/ws/tables/{table['id']}"
        watchers = 60
        with contextlib.ExitStack() as stack:
            for _ in range(watchers):
                ws = stack.enter_context(client.websocket_connect(url))
                until(ws, "welcome")
        # every watcher gone, and the coalesced news of it sent
        actor = room_of(client).tables.get(table["id"])
        eventually(
            lambda: actor.members.spectators == 0 and not actor.state.presence.pending,
            "the watchers' comings and goings told",
        )
        assert len(sent) < 6 * watchers, f"{len(sent)} messages for {watchers} watchers"


def test_watchers_are_capped_with_a_clear_close(tmp_path: Path) -> None:
    with room(tmp_path, max_spectators=3) as client:
        _, creator = guest(client)
        table = make_table(client, creator, rules={"ruleset": "classic", "players": 3})
        url = f"/ws/tables/{table['id']}"
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                until(stack.enter_context(client.websocket_connect(url)), "welcome")
            with client.websocket_connect(url) as extra:
                try:
                    message: dict[str, Any] | None = extra.receive_json()
                except WebSocketDisconnect as closed:
                    message = None
                    assert closed.code == 4029 and "watchers" in closed.reason
                assert message is None, "a fourth watcher was let in"
            # the seated player always gets in
            with client.websocket_connect(url, headers=as_(creator)) as ws:
                assert until(ws, "welcome")["you"]["seat"] == 0


def seat_news(ws: Any, seat: int) -> dict[str, Any]:
    """The next ``presence`` message that tells of ``seat``: that seat's info."""
    for _ in range(100):
        message = until(ws, "presence")
        for info in message["seats"]:
            if info["seat"] == seat:
                return dict(info)
    raise AssertionError(f"no news of seat {seat}")


def test_presence_tells_the_table_who_came_and_went(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        table_id, creator, other = open_table_of_two(client)
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url, headers=as_(creator)) as ws0:
            assert until(ws0, "welcome")["info"]["seats"][1]["connected"] is False
            with client.websocket_connect(url, headers=as_(other)) as ws1:
                until(ws1, "welcome")
                assert seat_news(ws0, 1)["connected"] is True
                with client.websocket_connect(url) as watcher:
                    until(watcher, "welcome")
                    assert until(ws0, "presence")["spectators"] == 1
            assert seat_news(ws0, 1)["connected"] is False


def test_opening_sockets_in_a_loop_is_throttled_per_address(tmp_path: Path) -> None:
    with room(tmp_path, socket_opens=1.0) as client:
        _, creator = guest(client)
        table = make_table(client, creator, rules={"ruleset": "classic", "players": 3})
        codes = []
        for _ in range(8):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                try:
                    codes.append(ws.receive_json()["type"])
                except WebSocketDisconnect as closed:
                    codes.append(f"{closed.code} {closed.reason}")
        assert codes[:4] == ["welcome"] * 4
        assert codes[-1] == "4029 too many connections: wait a moment"
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(creator)) as ws:
            assert until(ws, "welcome")["you"]["seat"] == 0  # a signed-in player has its own
