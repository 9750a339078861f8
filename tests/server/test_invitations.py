"""Invitations and challenges (issue 20 item 3), on SQLite and on PostgreSQL: a seat
held for an invited friend (others can't take it, the lobby shows it held), the notice
on the invitee's lobby socket, Join and Decline, other invitations withdrawn when the
seat fills, expiry freeing the seat, challenges with bots in the other seats, and bad
input refused with a reason and changing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server.invitations import INVITE_BURST
from crazy_eights.server.ratelimit import KeyedBuckets

from .conftest import as_, eventually, guest, make_table
from .test_friends import register

TRIO = {"ruleset": "classic", "players": 3, "mode": "single"}
DUO = {"ruleset": "classic", "players": 2, "mode": "single"}


def befriend(client: TestClient, a: tuple[int, str], b: tuple[int, str]) -> None:
    asked = client.post("/api/friends/requests", json={"account": b[0]}, headers=as_(a[1]))
    assert asked.status_code == 201, asked.text
    took = client.post(f"/api/friends/requests/{a[0]}/accept", headers=as_(b[1]))
    assert took.status_code == 200, took.text


def invite(client: TestClient, token: str, account: int, table: str) -> Any:
    body = {"account": account, "table": table}
    return client.post("/api/invitations", json=body, headers=as_(token))


@contextmanager
def lobby(client: TestClient, token: str) -> Iterator[Any]:
    """A lobby socket with its first picture (tables, friends' presence) read."""
    with client.websocket_connect("/ws/lobby", headers=as_(token)) as ws:
        assert ws.receive_json()["type"] == "tables"
        assert ws.receive_json()["type"] == "presence"
        yield ws


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (presence and lobby changes skipped)."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def held(info: dict[str, Any]) -> list[int]:
    return [s["seat"] for s in info["seats"] if s["held_left"] is not None]


def table_of(client: TestClient, table_id: str) -> dict[str, Any]:
    info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return info


def test_invited_friend_joins_from_the_notice_into_the_held_seat(client: TestClient) -> None:
    ada, bob, cyd, dan = (register(client, n) for n in ("ada", "bob", "cyd", "dan"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=TRIO)
    with lobby(client, bob[1]) as bob_ws:
        sent = invite(client, ada[1], bob[0], table["id"])
        assert sent.status_code == 201, sent.text
        notice = next_of(bob_ws, "invitation")["invitation"]
        assert notice["id"] == sent.json()["id"] and notice["from"]["name"] == "ada"
        assert notice["kind"] == "invite" and notice["table"] == table["id"]
        assert 0 < notice["expires_in"] <= 60
    assert held(table_of(client, table["id"])) == [1]
    listed = next(t for t in client.get("/api/tables").json() if t["id"] == table["id"])
    assert held(listed) == [1]  # the lobby shows it held
    # a stranger can't take the held seat: they get the other one; then none is left
    taken = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=as_(cyd[1]))
    assert taken.status_code == 409 and taken.json()["error"] == "seat_held"
    sat = client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(cyd[1]))
    assert sat.status_code == 200 and [s["name"] for s in sat.json()["seats"]] == [
        "ada",
        None,
        "cyd",
    ]
    full = client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(dan[1]))
    assert full.status_code == 409 and full.json()["error"] == "full"
    incoming = client.get("/api/invitations", headers=as_(bob[1])).json()["incoming"]
    assert [i["id"] for i in incoming] == [notice["id"]]

    joined = client.post(f"/api/invitations/{notice['id']}/accept", headers=as_(bob[1]))
    assert joined.status_code == 200, joined.text
    info = joined.json()
    assert [s["name"] for s in info["seats"]] == ["ada", "bob", "cyd"]
    assert info["status"] == "playing" and held(info) == []
    again = client.post(f"/api/invitations/{notice['id']}/accept", headers=as_(bob[1]))
    assert again.status_code == 409 and again.json()["error"] == "stale"
    assert client.get("/api/invitations", headers=as_(bob[1])).json()["incoming"] == []


def test_a_filled_seat_withdraws_the_other_invitations(client: TestClient) -> None:
    ada, bob, cyd, dan = (register(client, n) for n in ("ada", "bob", "cyd", "dan"))
    for friend in (bob, cyd, dan):
        befriend(client, ada, friend)
    table = make_table(client, ada[1], rules=DUO)
    with lobby(client, cyd[1]) as cyd_ws, lobby(client, ada[1]) as ada_ws:
        first = invite(client, ada[1], bob[0], table["id"]).json()
        second = invite(client, ada[1], cyd[0], table["id"]).json()
        assert next_of(cyd_ws, "invitation")["invitation"]["id"] == second["id"]
        assert held(table_of(client, table["id"])) == [1]  # one seat, held for both
        joined = client.post(f"/api/invitations/{first['id']}/accept", headers=as_(bob[1]))
        assert joined.status_code == 200 and joined.json()["status"] == "playing"
        assert next_of(cyd_ws, "invitation_withdrawn")["id"] == second["id"]
        answered = next_of(ada_ws, "invitation_answered")
        assert answered == {
            "type": "invitation_answered",
            "id": first["id"],
            "kind": "invite",
            "answer": "accepted",
            "by": "bob",
            "table": table["id"],
        }
    late = client.post(f"/api/invitations/{second['id']}/accept", headers=as_(cyd[1]))
    assert late.status_code == 409 and late.json()["error"] == "stale"
    # an invitation to the seat just taken: refused, and nothing is held or sent
    refused = invite(client, ada[1], dan[0], table["id"])
    assert refused.status_code == 409 and refused.json()["error"] == "not_open"
    assert client.get("/api/invitations", headers=as_(dan[1])).json()["incoming"] == []


def test_decline_lets_the_seat_go_and_tells_the_sender(client: TestClient) -> None:
    ada, bob, cyd = (register(client, n) for n in ("ada", "bob", "cyd"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=DUO)
    with lobby(client, ada[1]) as ada_ws:
        sent = invite(client, ada[1], bob[0], table["id"]).json()
        no = client.post(f"/api/invitations/{sent['id']}/decline", headers=as_(bob[1]))
        assert no.status_code == 204
        assert next_of(ada_ws, "invitation_answered")["answer"] == "declined"
    assert held(table_of(client, table["id"])) == []
    sat = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=as_(cyd[1]))
    assert sat.status_code == 200
    twice = client.post(f"/api/invitations/{sent['id']}/decline", headers=as_(bob[1]))
    assert twice.status_code == 409 and twice.json()["error"] == "stale"


def test_the_sender_takes_an_invitation_back(client: TestClient) -> None:
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=DUO)
    with lobby(client, bob[1]) as bob_ws:
        sent = invite(client, ada[1], bob[0], table["id"]).json()
        not_mine = client.delete(f"/api/invitations/{sent['id']}", headers=as_(bob[1]))
        assert not_mine.status_code == 404
        took_back = client.delete(f"/api/invitations/{sent['id']}", headers=as_(ada[1]))
        assert took_back.status_code == 204
        assert next_of(bob_ws, "invitation_withdrawn")["id"] == sent["id"]
    assert held(table_of(client, table["id"])) == []


def test_an_expired_invitation_frees_the_seat(make_client: Any) -> None:
    client = make_client(hold_seconds=0.5)
    ada, bob, cyd = (register(client, n) for n in ("ada", "bob", "cyd"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=DUO)
    with lobby(client, bob[1]) as bob_ws:
        sent = invite(client, ada[1], bob[0], table["id"]).json()
        assert held(table_of(client, table["id"])) == [1]
        assert next_of(bob_ws, "invitation_withdrawn")["id"] == sent["id"]
    assert held(table_of(client, table["id"])) == []
    stale = client.post(f"/api/invitations/{sent['id']}/accept", headers=as_(bob[1]))
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    sat = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=as_(cyd[1]))
    assert sat.status_code == 200 and sat.json()["status"] == "playing"


def test_bad_invitations_are_refused_and_change_nothing(client: TestClient) -> None:
    ada, bob, cyd, eve = (register(client, n) for n in ("ada", "bob", "cyd", "eve"))
    befriend(client, ada, bob)
    befriend(client, ada, eve)
    befriend(client, cyd, eve)
    visitor_id, visitor = guest(client)
    table = make_table(client, ada[1], rules=TRIO)
    other = make_table(client, cyd[1], rules=TRIO)
    client.post("/api/blocks", json={"account": ada[0]}, headers=as_(eve[1]))  # eve blocks ada
    room = client.app.state.room  # type: ignore[attr-defined]
    room.invite_asks = KeyedBuckets(1000.0, burst=1000.0)  # every refusal here, not the rate

    def refused(token: str, body: Any, status: int, code: str) -> None:
        answer = client.post("/api/invitations", json=body, headers=as_(token))
        assert (answer.status_code, answer.json().get("error")) == (status, code), answer.text

    t = table["id"]
    refused(ada[1], {"account": 99999, "table": t}, 404, "no_account")
    refused(ada[1], {"account": ada[0], "table": t}, 422, "yourself")
    refused(ada[1], {"account": cyd[0], "table": t}, 403, "not_friends")
    refused(ada[1], {"account": eve[0], "table": t}, 403, "blocked")
    refused(visitor, {"account": bob[0], "table": t}, 403, "guest")
    refused(ada[1], {"account": visitor_id, "table": t}, 422, "not_a_person")
    refused(ada[1], {"account": bob[0], "table": "t_nothing"}, 404, "no_table")
    refused(ada[1], {"account": bob[0], "table": other["id"]}, 403, "not_seated")
    refused(ada[1], {"account": bob[0], "table": t, "seat": 2}, 422, "invalid")
    refused(ada[1], {"account": str(bob[0]), "table": t}, 422, "invalid")
    refused(ada[1], {"account": bob[0], "table": "../x"}, 422, "invalid")
    unfriendly = client.post("/api/invitations", content=b"{", headers=as_(ada[1]))
    assert unfriendly.status_code == 422
    assert held(table_of(client, t)) == [] and held(table_of(client, other["id"])) == []
    for _, token in (ada, bob, cyd, eve):
        mine = client.get("/api/invitations", headers=as_(token)).json()
        assert mine == {"incoming": [], "outgoing": []}
    for path in ("/api/invitations/1/accept", "/api/invitations/1/decline"):
        assert client.post(path, headers=as_(bob[1])).status_code == 404
    assert client.post("/api/invitations/0/accept", headers=as_(bob[1])).status_code == 422


def test_a_blocked_friend_cannot_invite_or_challenge(client: TestClient) -> None:
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=DUO)
    sent = invite(client, ada[1], bob[0], table["id"]).json()
    client.post("/api/blocks", json={"account": ada[0]}, headers=as_(bob[1]))
    # the open invitation from the blocked person can't be used either
    used = client.post(f"/api/invitations/{sent['id']}/accept", headers=as_(bob[1]))
    assert used.status_code == 403 and used.json()["error"] == "blocked"
    for answer in (
        invite(client, ada[1], bob[0], table["id"]),
        client.post("/api/challenges", json={"account": bob[0]}, headers=as_(ada[1])),
    ):
        assert answer.status_code == 403 and answer.json()["error"] == "blocked", answer.text


def test_an_invitation_flood_is_rate_limited(client: TestClient) -> None:
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    table = make_table(client, ada[1], rules=DUO)
    answers = [invite(client, ada[1], bob[0], table["id"]) for _ in range(int(INVITE_BURST) + 5)]
    codes = [a.status_code for a in answers]
    assert codes[0] == 201 and 429 in codes
    throttled = next(a for a in answers if a.status_code == 429)
    assert throttled.json()["error"] == "throttled" and "Retry-After" in throttled.headers
    # renewed, never duplicated: one open invitation, one held seat
    assert len(client.get("/api/invitations", headers=as_(bob[1])).json()["incoming"]) == 1
    assert held(table_of(client, table["id"])) == [1]


def test_a_challenge_accepted_seats_both_with_bots(client: TestClient) -> None:
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    body = {"account": bob[0], "ruleset": "classic", "players": 3, "length": "round"}
    with lobby(client, bob[1]) as bob_ws, lobby(client, ada[1]) as ada_ws:
        sent = client.post("/api/challenges", json=body, headers=as_(ada[1]))
        assert sent.status_code == 201, sent.text
        notice = next_of(bob_ws, "invitation")["invitation"]
        assert notice["kind"] == "challenge" and notice["table"] is None
        assert notice["rules"] == {"ruleset": "classic", "players": 3, "length": "round"}
        twice = client.post("/api/challenges", json=body, headers=as_(ada[1]))
        assert twice.status_code == 409 and twice.json()["error"] == "already_challenged"
        took = client.post(f"/api/invitations/{notice['id']}/accept", headers=as_(bob[1]))
        assert took.status_code == 200, took.text
        info = took.json()
        assert info["status"] == "playing" and not info["public"]
        assert [s["name"] for s in info["seats"][:2]] == ["ada", "bob"]
        assert info["seats"][2]["bot"] == "heuristic"
        told = next_of(ada_ws, "invitation_answered")
        assert told["answer"] == "accepted" and told["table"] == info["id"]
    seen = client.get(f"/api/tables/{info['id']}", headers=as_(ada[1]))
    assert seen.status_code == 200  # the challenger may see the private table
    again = client.post(f"/api/invitations/{notice['id']}/accept", headers=as_(bob[1]))
    assert again.status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"ruleset": "nothing"}, 422, "bad_rules"),
        ({"ruleset": "cycles", "length": "match"}, 422, "bad_length"),
        ({"players": 12}, 422, "invalid"),
        ({"length": "forever"}, 422, "invalid"),
        ({"colour": "red"}, 422, "invalid"),
    ],
)
def test_bad_challenges_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    answer = client.post("/api/challenges", json={"account": bob[0]} | body, headers=as_(ada[1]))
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
    assert client.get("/api/invitations", headers=as_(bob[1])).json()["incoming"] == []


def test_a_challenge_expires(make_client: Any) -> None:
    client = make_client(hold_seconds=0.3)
    ada, bob = (register(client, n) for n in ("ada", "bob"))
    befriend(client, ada, bob)
    sent = client.post("/api/challenges", json={"account": bob[0]}, headers=as_(ada[1])).json()
    eventually(
        lambda: not client.get("/api/invitations", headers=as_(bob[1])).json()["incoming"],
        "the challenge expired",
    )
    late = client.post(f"/api/invitations/{sent['id']}/accept", headers=as_(bob[1]))
    assert late.status_code == 409 and late.json()["error"] == "stale"


def test_two_invitees_racing_for_one_seat_get_it_once(client: TestClient) -> None:
    ada, bob, cyd = (register(client, n) for n in ("ada", "bob", "cyd"))
    befriend(client, ada, bob)
    befriend(client, ada, cyd)
    table = make_table(client, ada[1], rules=DUO)
    ids = {
        token: invite(client, ada[1], friend, table["id"]).json()["id"]
        for friend, token in (bob, cyd)
    }
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(
                lambda item: client.post(
                    f"/api/invitations/{item[1]}/accept", headers=as_(item[0])
                ),
                ids.items(),
            )
        )
    assert sorted(a.status_code for a in answers) == [200, 409]
    loser = next(a for a in answers if a.status_code == 409)
    assert loser.json()["error"] in ("not_open", "stale")
    seats = table_of(client, table["id"])["seats"]
    assert seats[1]["name"] in ("bob", "cyd") and held(table_of(client, table["id"])) == []
