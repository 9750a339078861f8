"""Reactions at the table (issue 20): a reaction from the fixed set reaches every member,
spectators included, with the sender's seat; three in ten seconds, then the sender alone
is refused; unknown reactions and junk fields are refused; someone who blocked the
sender never gets it (on SQLite and on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server.protocol import REACTIONS

from .conftest import as_, make_table, until
from .test_friends import register

THREE = {"ruleset": "classic", "players": 3, "mode": "single"}


def seated_table(client: TestClient) -> tuple[str, list[tuple[int, str]]]:
    """A table with ada (seat 0) and bob (seat 1) sitting and cyd watching."""
    people = [register(client, n) for n in ("ada", "bob", "cyd")]
    table = make_table(client, people[0][1], rules=THREE)["id"]
    sat = client.post(f"/api/tables/{table}/sit", json={}, headers=as_(people[1][1]))
    assert sat.status_code == 200, sat.text
    return table, people


@contextmanager
def sockets(client: TestClient, table: str, people: list[tuple[int, str]]) -> Iterator[list[Any]]:
    """A table socket for each of ``people``, each past its welcome."""
    with ExitStack() as stack:
        opened = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table}", headers=as_(token)))
            for _, token in people
        ]
        for ws in opened:
            until(ws, "welcome")
        yield opened


def test_a_reaction_reaches_everyone_with_the_seat(client: TestClient) -> None:
    table, people = seated_table(client)
    with sockets(client, table, people) as (ada, bob, cyd):
        ada.send_json({"type": "react", "reaction": "well_played"})
        for ws in (ada, bob, cyd):
            got = until(ws, "reaction")
            assert (got["seat"], got["account"], got["name"], got["reaction"]) == (
                0,
                people[0][0],
                "ada",
                "well_played",
            )
        cyd.send_json({"type": "react", "reaction": "wow"})
        assert until(ada, "reaction")["seat"] is None  # a spectator's: no seat


def test_three_in_ten_seconds_then_refused(client: TestClient) -> None:
    table, people = seated_table(client)
    with sockets(client, table, people[:2]) as (ada, bob):
        for reaction in REACTIONS[:4]:
            ada.send_json({"type": "react", "reaction": reaction})
        refused = until(ada, "error", code="too_many_reactions")
        assert "at most 3 reactions in 10 seconds" in refused["reason"]
        bob.send_json({"type": "react", "reaction": "thanks"})  # bob has his own three
        assert until(ada, "reaction")["reaction"] == "thanks"
        bob.send_json({"type": "chat", "text": "marker"})
        seen: list[Any] = []
        while (message := bob.receive_json())["type"] != "chat":
            seen.append(message)
        assert [m["reaction"] for m in seen if m["type"] == "reaction"] == [
            *REACTIONS[:3],
            "thanks",
        ]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "react", "reaction": "middle_finger"}, "bad_message"),
        ({"type": "react"}, "bad_message"),
        ({"type": "react", "reaction": "wow", "to": 1}, "bad_message"),
        ({"type": "react", "reaction": ["wow"]}, "bad_message"),
    ],
)
def test_junk_reactions_are_refused(client: TestClient, message: dict[str, Any], code: str) -> None:
    table, people = seated_table(client)
    with sockets(client, table, people[:2]) as (ada, bob):
        ada.send_json(message)
        assert until(ada, "error")["code"] == code
        ada.send_json({"type": "chat", "text": "marker"})
        assert until(bob, "chat")["text"] == "marker"  # and no reaction before it


def test_who_blocked_the_sender_never_sees_it(client: TestClient) -> None:
    table, people = seated_table(client)
    blocked = client.post("/api/blocks", json={"account": people[0][0]}, headers=as_(people[1][1]))
    assert blocked.status_code == 201
    with sockets(client, table, people) as (ada, bob, cyd):
        ada.send_json({"type": "react", "reaction": "laugh"})
        assert until(cyd, "reaction")["reaction"] == "laugh"
        cyd.send_json({"type": "chat", "text": "marker"})
        while (message := bob.receive_json())["type"] != "chat":
            assert message["type"] != "reaction"
