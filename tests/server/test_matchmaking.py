"""Matchmaking: quick play's queue groups people who join within its window at one table
(bots in the other seats, of a level from their ratings), full tables of close ratings at
once, a long queue cut by rating; cancel, play now and a dropped socket leave nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.server import create_app, db, matchmaking
from crazy_eights.server.bus import MemoryBus
from crazy_eights.server.matchmaking import (
    Matchmaker,
    MemoryQueueStore,
    QueueKey,
    Ticket,
    bot_level,
    groups,
)

from .conftest import SettingsFactory, as_, eventually, guest

KEY = QueueKey("classic", 4, "match")


def ticket(n: int, rating: float = 0.0, joined: float = 0.0, key: QueueKey = KEY) -> Ticket:
    return Ticket(f"q{n}", n, f"P{n}", "fox", rating, key, joined)


def test_the_queue_waits_for_its_window_then_seats_everyone_together() -> None:
    waiting = [ticket(1, joined=0.0), ticket(2, joined=3.0), ticket(3, joined=9.0)]
    assert groups(waiting, 4, now=9.5, window=10.0) == []
    assert groups(waiting, 4, now=10.0, window=10.0) == [waiting]


def test_a_full_table_of_close_ratings_is_seated_at_once() -> None:
    waiting = [ticket(1, 0.0), ticket(2, 30.0), ticket(3, 1.0), ticket(4, 2.0), ticket(5, 4.0)]
    assert [[t.id for t in g] for g in groups(waiting, 4, now=1.0, window=10.0)] == [
        ["q1", "q3", "q4", "q5"]
    ]
    # far apart, two people wait for the window instead of being seated at once
    assert groups([ticket(1, 0.0), ticket(2, 30.0)], 2, now=1.0, window=10.0) == []


def test_a_long_queue_is_cut_by_rating_when_its_window_closes() -> None:
    ratings = [0.0, 30.0, 1.0, 31.0, 2.0, 32.0]
    waiting = [ticket(n, r, joined=n / 10) for n, r in enumerate(ratings)]
    found = groups(waiting, 4, now=20.0, window=10.0)
    assert [[t.rating for t in g] for g in found] == [[0.0, 1.0, 2.0], [30.0, 31.0, 32.0]]


def test_bots_are_hard_for_strong_players_and_medium_for_the_rest() -> None:
    assert bot_level([0.0, 2.0]) == "heuristic"
    assert bot_level([20.0, 10.0]) == "ismcts"


def test_the_store_keeps_one_ticket_per_account_and_takes_groups_whole() -> None:
    async def run() -> None:
        store = MemoryQueueStore()
        first = ticket(1)
        assert await store.add(first) is first
        assert await store.add(ticket(1, key=QueueKey("ultimate", 4, "round"))) is first
        await store.add(ticket(2))
        assert not await store.take([first, ticket(3)])
        assert [t.id for t in await store.waiting(KEY)] == ["q1", "q2"]
        assert await store.take([first])
        assert [t.id for t in await store.waiting(KEY)] == ["q2"]

    asyncio.run(run())


def test_the_matchmaker_seats_a_group_once_and_keeps_it_waiting_if_seating_fails() -> None:
    async def run() -> None:
        now = [0.0]
        made: list[tuple[list[str], str]] = []
        broken = [True]

        async def make(key: QueueKey, group: Sequence[Ticket], level: str) -> str:
            if broken[0]:
                raise RuntimeError("the database is away")
            made.append(([t.id for t in group], level))
            return "t_1"

        bus = MemoryBus()
        heard = bus.subscribe(KEY.topic)
        store = MemoryQueueStore()
        mm = Matchmaker(store, bus, make, window=1.0, clock=lambda: now[0])
        await store.online(7, +1)  # someone else is online: the window applies
        await mm.join(ticket(1))
        await mm.join(ticket(2, rating=10.0))
        now[0] = 1.0
        await mm.settle(KEY)
        assert [t.id for t in await store.waiting(KEY)] == ["q1", "q2"]
        broken[0] = False
        await mm.settle(KEY)
        await mm.settle(KEY)
        assert made == [(["q1", "q2"], "heuristic")]
        assert await store.waiting(KEY) == []
        assert await store.matched(2) == "t_1"
        while (message := await asyncio.wait_for(anext(heard), 1))["type"] != "matched":
            assert message["type"] == "queue"
        assert message == {"type": "matched", "accounts": [1, 2], "table": "t_1"}
        await mm.stop()

    asyncio.run(run())


@pytest.fixture
def room_client(fast_settings: SettingsFactory) -> Any:
    """A room whose queue always waits out its window (these tests are about it)."""
    settings = fast_settings(match_window_seconds=1.5, match_alone="wait")
    with TestClient(create_app(settings)) as client:
        yield client


def test_alone_online_a_person_is_seated_with_bots_at_once(
    fast_settings: SettingsFactory,
) -> None:
    settings = fast_settings(match_window_seconds=60.0)
    with TestClient(create_app(settings)) as client:
        _, first = guest(client)
        answer = join(client, first, ruleset="countdown", length="round")
        assert answer.status_code == 201, answer.text
        table_id = answer.json()["table"]
        assert table_id is not None
        assert matched_table(client, first) == table_id
        seats = client.get(f"/api/tables/{table_id}", headers=as_(first)).json()["seats"]
        assert sum(s["bot"] is not None for s in seats) == 3


def test_someone_else_online_means_the_window_is_waited_for(
    fast_settings: SettingsFactory,
) -> None:
    settings = fast_settings(match_window_seconds=60.0)
    with TestClient(create_app(settings)) as client:
        first_id, first = guest(client)
        _, second = guest(client)
        store = client.app.state.room.matchmaker.store  # type: ignore[attr-defined]
        with client.websocket_connect("/ws/lobby", headers=as_(second)) as lobby:
            lobby.receive_json()
            answer = join(client, first, ruleset="countdown", length="round")
            assert answer.status_code == 201, answer.text
            assert answer.json()["table"] is None
            assert client.delete("/api/match", headers=as_(first)).status_code == 204
        # the other person's lobby closed: now nobody else is online
        eventually(
            lambda: not client.portal.call(store.others_online, first_id),  # type: ignore[union-attr]
            "the lobby socket counted off",
        )
        assert join(client, first, ruleset="countdown", length="round").json()["table"]


def join(client: TestClient, token: str, **body: Any) -> Any:
    return client.post("/api/match", json=body, headers=as_(token))


def matched_table(client: TestClient, token: str) -> str:
    """Read the person's match socket until it says which table they got."""
    with client.websocket_connect("/ws/match", headers=as_(token)) as ws:
        for _ in range(20):
            message = ws.receive_json()
            if message["type"] == "matched":
                return str(message["table"])
            assert message["type"] == "queue", message
    raise AssertionError("never matched")


def test_two_people_within_the_window_get_one_table_with_bots(room_client: TestClient) -> None:
    client = room_client
    first_id, first = guest(client)
    second_id, second = guest(client)
    answer = join(client, first, ruleset="classic", length="match")
    assert answer.status_code == 201, answer.text
    assert answer.json()["table"] is None
    assert join(client, second, ruleset="classic", length="match").status_code == 201
    with client.websocket_connect("/ws/match", headers=as_(first)) as ws:
        state = ws.receive_json()
        assert state["type"] == "queue" and state["players"] == 4
        assert [e["account"] for e in state["waiting"]] == [first_id, second_id]
        assert 0 < state["seconds_left"] <= 1.5
        while (message := ws.receive_json())["type"] != "matched":
            pass
        table_id = message["table"]
    assert matched_table(client, second) == table_id  # told again on a later socket
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "playing"
    assert table["rules"]["mode"] == "match" and table["rules"]["target"] == 100
    assert [s["account"] for s in table["seats"][:2]] == [first_id, second_id]
    assert [s["bot"] for s in table["seats"]] == [None, None, "heuristic", "heuristic"]
    assert client.get("/api/match", headers=as_(first)).json() is None


def test_three_people_filling_a_table_are_seated_at_once(room_client: TestClient) -> None:
    client = room_client
    people = [guest(client) for _ in range(3)]
    answers = [join(client, t, players=3, length="round").json() for _, t in people]
    assert answers[0]["table"] is None and answers[1]["table"] is None
    table_id = answers[2]["table"]
    assert table_id is not None
    table = client.get(f"/api/tables/{table_id}").json()
    assert {s["account"] for s in table["seats"]} == {a for a, _ in people}
    assert table["rules"]["mode"] == "single" and table["status"] == "playing"
    assert matched_table(client, people[0][1]) == table_id


def test_cancel_leaves_nothing_behind(room_client: TestClient) -> None:
    client = room_client
    stay_id, stay = guest(client)
    _, leave = guest(client)
    join(client, stay, ruleset="ultimate", length="round")
    join(client, leave, ruleset="ultimate", length="round")
    with client.websocket_connect("/ws/match", headers=as_(leave)) as ws:
        assert len(ws.receive_json()["waiting"]) == 2
        assert client.delete("/api/match", headers=as_(leave)).status_code == 204
        assert ws.receive_json() == {"type": "gone"}
    assert client.get("/api/match", headers=as_(leave)).json() is None
    assert client.delete("/api/match", headers=as_(leave)).status_code == 404
    # the one who stays plays alone with bots when the window closes
    table = client.get(f"/api/tables/{matched_table(client, stay)}").json()
    humans = [s["account"] for s in table["seats"] if not s["bot"]]
    assert humans == [stay_id]
    assert client.delete("/api/match", headers=as_(stay)).status_code == 404
    _, alone = guest(client)
    join(client, alone, ruleset="classic")
    client.delete("/api/match", headers=as_(alone))
    time.sleep(2.0)  # past the window: no table was made for them
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [table["id"]]


def test_play_now_seats_you_with_bots_at_once(room_client: TestClient) -> None:
    client = room_client
    me, token = guest(client)
    join(client, token, ruleset="countdown", players=3, length="match")
    table = client.post("/api/match/now", headers=as_(token)).json()
    assert table["status"] == "playing" and table["rules"]["start"] == 3
    assert [s["account"] == me for s in table["seats"]] == [True, False, False]
    assert client.get("/api/match", headers=as_(token)).json() is None
    assert client.post("/api/match/now", headers=as_(token)).status_code == 404


def test_a_socket_that_goes_away_cancels_its_ticket(
    room_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matchmaking, "DROP_GRACE", 0.2)
    client = room_client
    _, token = guest(client)
    join(client, token, ruleset="classic", players=2)
    with client.websocket_connect("/ws/match", headers=as_(token)) as ws:
        ws.receive_json()
    eventually(
        lambda: client.get("/api/match", headers=as_(token)).json() is None,
        "the ticket dropped after its socket went away",
    )
    assert client.get("/api/tables").json() == []


def test_strong_players_meet_hard_bots(room_client: TestClient) -> None:
    client = room_client
    room = client.app.state.room  # type: ignore[attr-defined]
    people = [guest(client) for _ in range(2)]

    async def strong() -> None:
        async with room.engine.begin() as conn:
            for account, _ in people:
                await conn.execute(
                    sa.insert(db.records).values(
                        account_id=account, ruleset="classic", mu=45.0, sigma=2.0
                    )
                )

    client.portal.call(strong)  # type: ignore[union-attr]
    for _, token in people:
        join(client, token, ruleset="classic", length="round")
    table = client.get(f"/api/tables/{matched_table(client, people[0][1])}").json()
    assert [s["bot"] for s in table["seats"]] == [None, None, "ismcts", "ismcts"]


def test_bad_requests_get_clear_errors_and_change_nothing(room_client: TestClient) -> None:
    client = room_client
    _, token = guest(client)
    cases = [
        ({"ruleset": "poker"}, 422, "bad_rules"),
        ({"ruleset": "cycles", "length": "match"}, 422, "bad_length"),
        ({"ruleset": "classic", "length": "forever"}, 422, "invalid"),
        ({"ruleset": "classic", "players": 1}, 422, "invalid"),
        ({"ruleset": "classic", "players": 9}, 422, "bad_rules"),
    ]
    for body, status, code in cases:
        answer = join(client, token, **body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), body
        assert answer.json()["detail"]
    assert client.get("/api/match", headers=as_(token)).json() is None
    assert client.post("/api/match", json={}).status_code == 401
    assert join(client, token, ruleset="cycles").status_code == 201
    again = join(client, token, ruleset="cycles")
    assert again.status_code == 201  # the same queue twice: the same ticket
    other = join(client, token, ruleset="classic")
    assert (other.status_code, other.json()["error"]) == (409, "already_queued")
    with client.websocket_connect("/ws/match") as ws, pytest.raises(WebSocketDisconnect) as shut:
        ws.receive_json()
    assert shut.value.code == 4001


def test_the_table_limit_holds_in_the_queue(fast_settings: SettingsFactory) -> None:
    with TestClient(create_app(fast_settings(tables_per_account=1))) as client:
        _, token = guest(client)
        client.post("/api/quickplay", json={"ruleset": "classic"}, headers=as_(token))
        answer = join(client, token, ruleset="classic")
        assert (answer.status_code, answer.json()["error"]) == (429, "too_many_tables")


def test_quick_play_at_once_honours_the_length(room_client: TestClient) -> None:
    _, token = guest(room_client)
    body = {"ruleset": "classic", "length": "round"}
    table = room_client.post("/api/quickplay", json=body, headers=as_(token)).json()
    assert table["rules"]["mode"] == "single"


def test_joining_over_and_over_is_throttled(room_client: TestClient) -> None:
    _, token = guest(room_client)
    for _ in range(6):
        assert join(room_client, token, ruleset="classic").status_code == 201
        assert room_client.delete("/api/match", headers=as_(token)).status_code == 204
    answer = join(room_client, token, ruleset="classic")
    assert (answer.status_code, answer.json()["error"]) == (429, "throttled")
    assert answer.headers["retry-after"] == "2"
    assert room_client.get("/api/match", headers=as_(token)).json() is None
