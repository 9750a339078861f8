"""Blocking (issue 20): a blocked person can't send you friend requests, their chat is
not sent to you (live or in the welcome's history), quick play never seats you together
(bots instead when nobody else waits), and a block ends a friendship; bad input is
refused and changes nothing (on SQLite and on PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server.matchmaking import QueueKey, Ticket, groups

from .conftest import as_, make_table, until
from .test_friends import listing, register

KEY = QueueKey("classic", 2, "round")


def ticket(n: int, joined: float = 0.0, players: int = 2) -> Ticket:
    return Ticket(f"q{n}", n, f"P{n}", "fox", 0.0, QueueKey("classic", players, "round"), joined)


def block(client: TestClient, token: str, **body: Any) -> Any:
    return client.post("/api/blocks", json=body, headers=as_(token))


def test_block_ends_a_friendship_and_refuses_requests(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    client.post("/api/friends/requests", json={"account": bob_id}, headers=as_(ada))
    client.post(f"/api/friends/requests/{ada_id}/accept", headers=as_(bob))
    done = block(client, bob, name="ADA")
    assert done.status_code == 201 and done.json()["account"] == ada_id
    assert listing(client, ada)["friends"] == [] and listing(client, bob)["friends"] == []
    refused = client.post("/api/friends/requests", json={"account": bob_id}, headers=as_(ada))
    assert refused.status_code == 403 and refused.json()["error"] == "refuses_requests"
    assert listing(client, bob)["incoming"] == []
    assert [b["name"] for b in client.get("/api/blocks", headers=as_(bob)).json()] == ["ada"]
    assert client.delete(f"/api/blocks/{ada_id}", headers=as_(bob)).status_code == 204
    asked = client.post("/api/friends/requests", json={"account": bob_id}, headers=as_(ada))
    assert asked.status_code == 201


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "nobody-here"}, 404, "no_account"),
        ({"account": 99999}, 404, "no_account"),
        ({"name": "ada"}, 422, "yourself"),
        ({"account": 2, "why": "rude"}, 422, "invalid"),
        ({}, 422, "invalid"),
    ],
)
def test_bad_blocks_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    _, ada = register(client, "ada")
    register(client, "bob")
    response = block(client, ada, **body)
    assert response.status_code == status and response.json()["error"] == code, response.text
    assert client.get("/api/blocks", headers=as_(ada)).json() == []


def test_twice_bots_and_unblocking_nobody(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, _ = register(client, "bob")
    assert block(client, ada, account=bob_id).status_code == 201
    again = block(client, ada, account=bob_id)
    assert again.status_code == 409 and again.json()["error"] == "already_blocked"
    room = client.app.state.room  # type: ignore[attr-defined]
    bot = client.portal.call(room.accounts.bot_account, "random")  # type: ignore[union-attr]
    to_bot = block(client, ada, account=bot)
    assert to_bot.status_code == 422 and to_bot.json()["error"] == "not_a_person"
    missing = client.delete("/api/blocks/12345", headers=as_(ada))
    assert missing.status_code == 404 and missing.json()["error"] == "not_blocked"
    assert len(client.get("/api/blocks", headers=as_(ada)).json()) == 1


def test_a_blocked_persons_chat_is_hidden(client: TestClient) -> None:
    ada_id, ada = register(client, "ada")
    _, bob = register(client, "bob")
    _, cyd = register(client, "cyd")
    table = make_table(client, ada, rules={"ruleset": "classic", "players": 3, "mode": "single"})
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(url, headers=as_(ada)) as ada_ws:
        until(ada_ws, "welcome")
        ada_ws.send_json({"type": "chat", "text": "before the block"})
        assert block(client, bob, account=ada_id).status_code == 201
        with (
            client.websocket_connect(url, headers=as_(bob)) as bob_ws,
            client.websocket_connect(url, headers=as_(cyd)) as cyd_ws,
        ):
            welcome = until(bob_ws, "welcome")
            assert welcome["chat"] == []  # ada's line is not in bob's history
            assert [c["text"] for c in until(cyd_ws, "welcome")["chat"]] == ["before the block"]
            ada_ws.send_json({"type": "chat", "text": "hello all"})
            assert until(cyd_ws, "chat")["text"] == "hello all"
            cyd_ws.send_json({"type": "chat", "text": "marker"})
            assert until(bob_ws, "chat")["text"] == "marker"  # ada's line never came first


def test_quick_play_keeps_a_blocked_pair_apart() -> None:
    one, two, three = ticket(1, 0.0), ticket(2, 1.0), ticket(3, 2.0)
    apart = {frozenset((1, 2))}
    assert groups([one, two], 2, now=1.0, window=10.0, apart=apart) == []
    assert groups([one, two], 2, now=10.0, window=10.0, apart=apart) == [[one]]  # with bots
    assert groups([one, two, three], 2, now=3.0, window=10.0, apart=apart) == [[one, three]]
    four = [ticket(n, float(n), players=4) for n in range(1, 5)]
    found = groups(four, 4, now=20.0, window=10.0, apart={frozenset((1, 3))})
    assert [[t.account for t in g] for g in found] == [[1, 2, 4], [3]]


def test_the_matchmaker_asks_who_is_kept_apart() -> None:
    """Two people who blocked each other wait in one queue: each gets a table of their
    own (with bots) when the window closes, never one together."""
    import asyncio
    from collections.abc import Sequence

    from crazy_eights.server.bus import MemoryBus
    from crazy_eights.server.matchmaking import Matchmaker, MemoryQueueStore

    async def run() -> None:
        now = [0.0]
        made: list[list[int]] = []
        asked: list[list[int]] = []

        async def make(key: QueueKey, group: Sequence[Ticket], level: str) -> str:
            made.append([t.account for t in group])
            return f"t_{len(made)}"

        async def apart(accounts: Sequence[int]) -> set[frozenset[int]]:
            asked.append(sorted(accounts))
            return {frozenset((1, 2))}

        store = MemoryQueueStore()
        mm = Matchmaker(store, MemoryBus(), make, window=1.0, clock=lambda: now[0], apart=apart)
        await store.online(7, +1)  # someone else is online: the window applies
        await mm.join(ticket(1, 0.0))
        await mm.join(ticket(2, 0.5))
        assert made == []
        now[0] = 2.0
        await mm.settle(KEY)
        assert made == [[1], [2]] and [1, 2] in asked
        await mm.stop()

    asyncio.run(run())
