"""The rematch (issue 12 item 3, "Play again: same people, same rules"): the first
player of a finished game to ask gets a follow-up table with the same settings and bots,
every later asker a seat at that same table; the finished table tells its members, also
in later welcomes; a finished table no longer loaded is answered from the database."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server.api import table_socket as socket_module
from crazy_eights.server.cluster import wire
from crazy_eights.server.table import ops

from .conftest import as_, eventually, guest, make_table, until

DUEL = {"ruleset": "classic", "players": 2, "mode": "single", "stock_empty": "block"}


def actor_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.room.tables.get(table_id)  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fast_players(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_module, "RATE", 1000.0)


@contextlib.contextmanager
def finished_game(
    client: TestClient, tokens: dict[int, str], table_id: str
) -> Iterator[dict[int, Any]]:
    """Play the started table to its end with random legal moves for the people (the
    session ``tokens`` of each seat); yields their sockets, open, read up to the end."""
    actor = actor_of(client, table_id)
    url = f"/ws/tables/{table_id}"
    rng = random.Random(7)
    with contextlib.ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(client.websocket_connect(url, headers=as_(token)))
            for seat, token in tokens.items()
        }
        for ws in sockets.values():
            until(ws, "welcome")
        first = next(iter(sockets.values()))
        while not actor.game.is_over:
            mover, version = actor.game.current_player, actor.version
            if mover in sockets:
                move = rng.choice([m.text for m in actor.game.legal_moves()])
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            until(first, "state", version=version + 1)
        for ws in sockets.values():
            until(ws, "ratings")
        assert actor.status == "finished"
        yield sockets


def ask(client: TestClient, table_id: str, token: str) -> Any:
    return client.post(f"/api/tables/{table_id}/rematch", headers=as_(token))


def duel(client: TestClient, **body: Any) -> tuple[dict[str, Any], list[str]]:
    """A started two-person table: (its info, the two players' tokens by seat)."""
    tokens = [guest(client)[1] for _ in range(2)]
    table = make_table(client, tokens[0], rules=DUEL, **body)
    sit = {"code": table["invite"]} if table.get("invite") else {}
    response = client.post(f"/api/tables/{table['id']}/sit", json=sit, headers=as_(tokens[1]))
    assert response.json()["status"] == "playing", response.text
    return table, tokens


def test_two_players_ask_and_sit_at_one_follow_up_which_starts(client: TestClient) -> None:
    table, tokens = duel(client, hints=True, name="Evening duel")
    old = table["id"]
    stranger = guest(client)[1]
    assert ask(client, old, tokens[0]).json()["error"] == "not_finished"
    with finished_game(client, dict(enumerate(tokens)), old) as sockets:
        assert ask(client, old, stranger).status_code == 403
        first = ask(client, old, tokens[0])
        assert first.status_code == 200, first.text
        made = first.json()
        assert made["id"] != old and made["status"] == "open"
        assert (made["rules"], made["hints"], made["public"], made["name"]) == (
            table["rules"],
            True,
            True,
            "Evening duel",
        )
        names = [s.name for s in actor_of(client, old).info().seats]
        assert [s["name"] for s in made["seats"]] == [names[0], None]  # the asker's old seat
        for ws in sockets.values():
            offer = until(ws, "rematch")["rematch"]
            assert offer == {
                "table": made["id"],
                "by": names[0],
                "seated": [names[0]],
                "accounts": [made["seats"][0]["account"]],
            }
        again = ask(client, old, tokens[0]).json()  # asking twice changes nothing
        assert again["id"] == made["id"] and again["status"] == "open"  # and told to nobody
        second = ask(client, old, tokens[1]).json()
        assert second["id"] == made["id"]
        assert second["status"] == "playing"  # everyone of the finished game is seated
        assert [s["name"] for s in second["seats"]] == names
        offer = until(sockets[1], "rematch")["rematch"]
        assert offer["seated"] == names
        sockets[1].send_json({"type": "sync"})
        assert until(sockets[1], "welcome")["rematch"] == offer  # a late arrival sees it
        assert ask(client, old, tokens[1]).json()["id"] == made["id"]
    assert actor_of(client, made["id"]).status == "playing"


def listed(client: TestClient, table_id: str) -> bool:
    return any(t["id"] == table_id for t in client.get("/api/tables").json())


def test_the_rematch_holds_the_old_players_seats_unlisted(client: TestClient) -> None:
    """Issue 20: "Play again" keeps the old players' seats from strangers, and the
    rematch stays off the lobby's list, while the holds last (60 s)."""
    table, tokens = duel(client)
    with finished_game(client, dict(enumerate(tokens)), table["id"]):
        made = ask(client, table["id"], tokens[0]).json()
    held = made["seats"][1]
    assert held["account"] is None and 55 < held["held_left"] <= 60
    assert not listed(client, made["id"])
    stranger = guest(client)[1]
    for body in ({}, {"seat": 1}):
        refused = client.post(f"/api/tables/{made['id']}/sit", json=body, headers=as_(stranger))
        assert refused.status_code == 409 and refused.json()["error"] in ("full", "seat_held")
    second = ask(client, table["id"], tokens[1]).json()
    assert second["status"] == "playing" and second["seats"][1]["held_left"] is None


def test_the_rematch_is_listed_once_its_holds_end(make_client: Any) -> None:
    client = make_client(hold_seconds=0.5)
    table, tokens = duel(client)
    with finished_game(client, dict(enumerate(tokens)), table["id"]):
        made = ask(client, table["id"], tokens[0]).json()
    assert made["seats"][1]["held_left"] is not None and not listed(client, made["id"])
    eventually(lambda: listed(client, made["id"]), "the rematch listed once its hold ended")
    stranger = guest(client)[1]
    sat = client.post(f"/api/tables/{made['id']}/sit", json={"seat": 1}, headers=as_(stranger))
    assert sat.status_code == 200 and sat.json()["status"] == "playing"


def test_a_table_of_one_person_and_bots_deals_its_rematch_at_once(
    client: TestClient,
) -> None:
    _, token = guest(client)
    table = make_table(client, token, rules=DUEL, bots=[{"seat": 0, "level": "random"}])
    assert table["status"] == "playing"
    with finished_game(client, {1: token}, table["id"]):
        pass
    made = ask(client, table["id"], token).json()
    assert made["status"] == "playing" and made["hints"] is False
    assert made["seats"][0]["bot"] == "random"
    assert made["seats"][1]["account"] == table["seats"][1]["account"]


def test_unknown_table_and_the_table_limit(make_client: Any) -> None:
    client = make_client(tables_per_account=1)
    _, token = guest(client)
    assert ask(client, "t_nosuchtable", token).status_code == 404
    table = make_table(client, token, rules=DUEL, bots=[{"seat": 1, "level": "random"}])
    with finished_game(client, {0: token}, table["id"]):
        pass
    make_table(client, token, rules=DUEL)  # an open table: the one table allowed
    refused = ask(client, table["id"], token)
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_tables"
    assert run_store(client, "rematch_of", table["id"]) is None  # nothing was made


def run_store(client: TestClient, method: str, *args: Any) -> Any:
    store = client.app.state.room.store  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(getattr(store, method), *args)


def test_an_unloaded_finished_table_is_answered_from_the_database(client: TestClient) -> None:
    table, tokens = duel(client, public=False)
    old = table["id"]
    with finished_game(client, dict(enumerate(tokens)), old):
        pass
    assert actor_of(client, old) is None  # unloaded as its last socket closed
    made = ask(client, old, tokens[1]).json()
    assert made["public"] is False and made["seats"][1]["account"] is not None
    assert ask(client, old, guest(client)[1]).status_code == 403
    second = ask(client, old, tokens[0]).json()  # private, yet no invite code is needed
    assert second["id"] == made["id"] and second["status"] == "playing"


def test_one_follow_up_however_the_asks_race(client: TestClient) -> None:
    table, tokens = duel(client)
    old = table["id"]
    with finished_game(client, dict(enumerate(tokens)), old):
        room = client.app.state.room  # type: ignore[attr-defined]
        actor = actor_of(client, old)
        ann, bob = (ops.Player(s.account_id, s.name, s.avatar) for s in actor.seats)

        async def race() -> list[Any]:  # one through the table, one as another node would
            return list(
                await asyncio.gather(
                    actor.request(ops.Rematch(ann)), room.follow_ups.from_store(old, bob)
                )
            )

        assert client.portal is not None
        first, second = client.portal.call(race)
    assert first.id == second.id
    assert actor_of(client, first.id).status == "playing"  # both sat down, it dealt
    assert run_store(client, "claim_rematch", old, "t_other") == first.id


def test_the_ask_travels_between_nodes() -> None:
    ask_op = ops.Rematch(ops.Player(4, "Ann", "fox"))
    assert wire.op_in(wire.op_out(ask_op)) == ask_op
