"""Presence over the lobby socket: a friend's online, playing (with the table), in the
queue, away and offline (with when last seen) reach the friends list live; "appear
offline" never leaks; one change costs one bus message however many are online (on
SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient

from crazy_eights.server.bus import MemoryBus
from crazy_eights.server.presence import MemoryPresenceStore, Presence, Where

from .conftest import as_, make_table
from .test_friends import register


def befriend(client: TestClient, one: tuple[int, str], other: tuple[int, str]) -> None:
    asked = client.post("/api/friends/requests", json={"account": other[0]}, headers=as_(one[1]))
    assert asked.status_code == 201, asked.text
    done = client.post(f"/api/friends/requests/{one[0]}/accept", headers=as_(other[1]))
    assert done.status_code == 200, done.text
    settle(client)


def settle(client: TestClient) -> None:
    """Wait until the changes made so far have been told."""
    assert client.portal is not None
    client.portal.call(presence_of(client).settle)


def presence_of(client: TestClient) -> Presence:
    presence: Presence = client.app.state.room.presence  # type: ignore[attr-defined]
    return presence


@contextmanager
def lobby(client: TestClient, token: str) -> Iterator[Any]:
    """A lobby socket, its table list read; presence messages follow."""
    with client.websocket_connect("/ws/lobby", headers=as_(token)) as ws:
        assert ws.receive_json()["type"] == "tables"
        yield ws


def next_about(ws: Any, account: int) -> dict[str, Any]:
    """The next presence of ``account`` (list changes and others' presence skipped)."""
    for _ in range(100):
        message = ws.receive_json()
        if message["type"] != "presence":
            continue
        for entry in message["presence"]:
            if entry["account"] == account:
                return dict(entry)
    raise AssertionError(f"no presence of {account}")


def presences_until(ws: Any, account: int) -> list[dict[str, Any]]:
    """Every presence entry until one of ``account`` (included)."""
    seen: list[dict[str, Any]] = []
    for _ in range(100):
        message = ws.receive_json()
        if message["type"] != "presence":
            continue
        seen.extend(message["presence"])
        if any(e["account"] == account for e in message["presence"]):
            return seen
    raise AssertionError(f"no presence of {account}")


def test_a_friend_goes_online_plays_and_leaves(client: TestClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    befriend(client, ada, bob)
    with lobby(client, bob[1]) as watch:
        first = watch.receive_json()
        assert first == {
            "type": "presence",
            "presence": [
                {"account": ada[0], "status": "offline", "table": None, "last_seen": None}
            ],
        }
        with lobby(client, ada[1]) as ada_lobby:
            assert next_about(watch, ada[0])["status"] == "online"
            table = make_table(client, ada[1])
            with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(ada[1])):
                playing = next_about(watch, ada[0])
                assert playing == {
                    "account": ada[0],
                    "status": "playing",
                    "table": table["id"],
                    "last_seen": None,
                }
            assert next_about(watch, ada[0])["status"] == "online"
            ada_lobby.send_json({"type": "ping"})
            assert ada_lobby.receive_json()["type"] in ("pong", "presence")
        gone = next_about(watch, ada[0])
        assert gone["status"] == "offline" and gone["last_seen"] is not None
    with lobby(client, bob[1]) as again:
        snapshot = next_about(again, ada[0])
        assert snapshot["status"] == "offline" and snapshot["last_seen"] == gone["last_seen"]


def test_away_after_no_activity_and_back(client: TestClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    befriend(client, ada, bob)
    presence = presence_of(client)
    with lobby(client, bob[1]) as watch:
        assert next_about(watch, ada[0])["status"] == "offline"  # the first picture
        with lobby(client, ada[1]) as ada_lobby:
            away_and_back(client, presence, watch, ada_lobby, ada[0])


def away_and_back(
    client: TestClient, presence: Presence, watch: Any, ada_lobby: Any, ada: int
) -> None:
    """Ada online, away after a sweep finds her idle, online again when she is active."""
    assert next_about(watch, ada)["status"] == "online"
    presence.away_seconds = 0.0
    assert client.portal is not None
    client.portal.call(presence.sweep)
    assert next_about(watch, ada)["status"] == "away"
    presence.away_seconds = 300.0
    ada_lobby.send_json({"type": "active"})
    assert next_about(watch, ada)["status"] == "online"


def hidden_view(account: int) -> dict[str, Any]:
    """All that friends ever see of someone who appears offline (and was never seen)."""
    return {"account": account, "status": "offline", "table": None, "last_seen": None}


def test_appear_offline_never_leaks(client: TestClient) -> None:
    ada, bob, cyd = register(client, "ada"), register(client, "bob"), register(client, "cyd")
    befriend(client, ada, bob)
    befriend(client, cyd, bob)
    hide = client.put("/api/friends/settings", json={"appear_offline": True}, headers=as_(ada[1]))
    assert hide.status_code == 200
    settle(client)
    with lobby(client, bob[1]) as watch:
        snapshot = watch.receive_json()["presence"]
        assert {e["account"]: e["status"] for e in snapshot} == {
            ada[0]: "offline",
            cyd[0]: "offline",
        }
        with lobby(client, ada[1]):
            table = make_table(client, ada[1])
            with (
                client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(ada[1])),
                lobby(client, cyd[1]),  # a marker: everything about ada came before
            ):
                told = presences_until(watch, cyd[0])
                assert [
                    e for e in told if e["account"] == ada[0] and e != hidden_view(ada[0])
                ] == []
                with lobby(client, bob[1]) as fresh:
                    entries = fresh.receive_json()["presence"]
                    mine = next(e for e in entries if e["account"] == ada[0])
                    assert mine == hidden_view(ada[0])
        shown = client.put("/api/friends/settings", json={}, headers=as_(ada[1]))
        assert shown.status_code == 200


def test_only_friends_hear_and_one_change_is_one_message(client: TestClient) -> None:
    ada, bob, cyd = register(client, "ada"), register(client, "bob"), register(client, "cyd")
    befriend(client, ada, bob)
    befriend(client, cyd, bob)
    others = [register(client, f"pal{n}") for n in range(6)]
    presence = presence_of(client)
    with lobby(client, bob[1]) as watch:
        watch.receive_json()  # bob's first picture
        sockets = [client.websocket_connect("/ws/lobby", headers=as_(t)) for _, t in others]
        for ws in sockets:
            ws.__enter__()
            assert ws.receive_json()["type"] == "tables"
            assert ws.receive_json() == {"type": "presence", "presence": []}
        try:
            before = presence.sent
            with lobby(client, ada[1]):
                assert next_about(watch, ada[0])["status"] == "online"
                assert presence.sent == before + 1  # not one per person online
                with lobby(client, cyd[1]):
                    next_about(watch, cyd[0])
                    for ws in sockets:  # strangers heard nothing of ada or cyd
                        ws.send_json({"type": "ping"})
                        assert ws.receive_json() == {"type": "pong"}
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


def test_friend_list_changes_reach_both_sides(client: TestClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    with lobby(client, ada[1]) as ada_ws, lobby(client, bob[1]) as bob_ws:
        assert ada_ws.receive_json() == {"type": "presence", "presence": []}
        assert bob_ws.receive_json() == {"type": "presence", "presence": []}
        client.post("/api/friends/requests", json={"account": bob[0]}, headers=as_(ada[1]))
        assert bob_ws.receive_json() == {"type": "friends_changed", "what": "asked"}
        assert ada_ws.receive_json() == {"type": "friends_changed", "what": "asked"}
        client.post(f"/api/friends/requests/{ada[0]}/accept", headers=as_(bob[1]))
        assert next_about(ada_ws, bob[0])["status"] == "online"
        assert next_about(bob_ws, ada[0])["status"] == "online"


def test_a_private_table_is_not_named(client: TestClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    befriend(client, ada, bob)
    with lobby(client, bob[1]) as watch:
        assert next_about(watch, ada[0])["status"] == "offline"
        table = make_table(client, ada[1], public=False)
        url = f"/ws/tables/{table['id']}?code={table['invite']}"
        with client.websocket_connect(url, headers=as_(ada[1])):
            playing = next_about(watch, ada[0])
            assert playing["status"] == "playing" and playing["table"] is None


def test_guests_get_no_presence(client: TestClient) -> None:
    response = client.post("/api/auth/guest")
    token = response.cookies["ce_session"]
    client.cookies.clear()
    with lobby(client, token) as ws:
        ws.send_json({"type": "active"})
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


class _SlowSecondLook:
    """The friends service as presence asks it (``Social``) for two friends, where the
    second look at the sightings (the lobby socket's closing) is slow: a busy database."""

    def __init__(self, friend: int) -> None:
        self.friend = friend
        self.looks = 0

    async def friend_ids(self, account_id: int) -> list[int]:
        return [self.friend]

    async def sightings(self, accounts: Sequence[int]) -> dict[int, tuple[bool, float | None]]:
        self.looks += 1
        await asyncio.sleep(0.2 if self.looks == 2 else 0)
        return {}

    async def mark_seen(self, account_id: int, at: float) -> None:
        return None


def test_a_lobby_closing_as_a_table_opens_ends_on_playing_for_friends() -> None:
    """A page change (the lobby's socket closes, the table's opens) while the first
    change is slow to tell: friends hear "offline" and then "playing", never the other
    way round, and the last word is "playing"."""

    async def scene() -> list[str]:
        ada, friend = 1, 2
        presence = Presence(
            bus=MemoryBus(), store=MemoryPresenceStore(), social=_SlowSecondLook(friend)
        )
        presence.start()
        heard = presence.listen(friend)
        async with presence.connected(ada, Where("lobby")):
            await presence.settle()
        await asyncio.sleep(0)  # the leaving change has started (and waits on its look)
        async with presence.connected(ada, Where("table", "t1", seated=True)):
            await presence.settle()
            statuses = []
            while not statuses or statuses[-1] != "playing":
                message = await asyncio.wait_for(anext(heard), 5)
                statuses += [p["status"] for p in message["presence"]]
        await presence.stop()
        return statuses

    assert asyncio.run(scene()) == ["online", "offline", "playing"]
