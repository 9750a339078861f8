"""Reports and moderation (issue 20, item 6): a report from a name carries the table and
its chat lines; a moderator mutes (the chat line is refused saying until when), bans
(sockets closed with the reason, sessions ended, sign-in refused with the ban's end)
and lifts either; every action is in the audit log; bad input is refused and changes
nothing (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.server import db
from crazy_eights.server.auth import COOKIE
from crazy_eights.server.ejection import BANNED
from crazy_eights.server.moderation import Actor, Moderation, ban_words

from .conftest import as_, eventually, guest, make_table, until
from .test_friends import register

OPERATOR = Actor("operator (test)")


def moderation(client: TestClient) -> Moderation:
    room = client.app.state.room  # type: ignore[attr-defined]
    assert isinstance(room.moderation, Moderation)
    return room.moderation


def call(client: TestClient, fn: Any, *args: Any, **kwargs: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(partial(fn, *args, **kwargs))


def make_moderator(client: TestClient, name: str = "mod") -> str:
    """A registered account granted the moderator role (as the CLI does); its token."""
    _, token = register(client, name)
    mod = moderation(client)
    assert call(client, mod.grant, OPERATOR, call(client, mod.find, name=name), "moderator")
    return token


def stored_chat(client: TestClient, table_id: str) -> int:
    """How many chat lines of the table are in the database (the writer commits them
    a moment after they are told)."""
    engine = client.app.state.room.engine  # type: ignore[attr-defined]

    async def count() -> int:
        query = (
            sa.select(sa.func.count()).select_from(db.chat).where(db.chat.c.table_id == table_id)
        )
        async with engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    return int(call(client, count))


def closed(ws: Any) -> tuple[int, str]:
    """Read a socket until the server closes it: (code, reason)."""
    for _ in range(500):
        try:
            ws.receive_json()
        except WebSocketDisconnect as exc:
            return exc.code, exc.reason
    raise AssertionError("the socket was not closed")


def test_a_report_carries_the_table_and_its_chat(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    mod = make_moderator(client)
    table = make_table(client, ada)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(bob)) as ws:
        until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "you play like a potato"})
        until(ws, "chat")
    eventually(lambda: stored_chat(client, table["id"]) == 1, "the chat line stored")
    body = {"account": bob_id, "reason": "abuse", "text": " rude \n in chat ", "table": table["id"]}
    filed = client.post("/api/reports", json=body, headers=as_(ada))
    assert filed.status_code == 201, filed.text
    report = filed.json()
    assert report["target"]["name"] == "bob" and report["reason_words"] == "abusive chat"
    assert report["text"] == "rude in chat"
    assert report["table"]["replay"] == f"#/replay/{table['id']}"
    assert [(c["name"], c["text"]) for c in report["chat"]] == [("bob", "you play like a potato")]

    listed = client.get("/api/moderation/reports", headers=as_(mod)).json()
    assert [r["id"] for r in listed] == [report["id"]]
    assert listed[0]["chat"][0]["text"] == "you play like a potato"
    done = client.post(
        f"/api/moderation/reports/{report['id']}/resolve",
        json={"note": "warned them"},
        headers=as_(mod),
    )
    assert done.status_code == 200 and done.json()["status"] == "resolved"
    again = client.post(
        f"/api/moderation/reports/{report['id']}/resolve", json={"note": "x"}, headers=as_(mod)
    )
    assert again.status_code == 409 and again.json()["error"] == "already_resolved"
    assert client.get("/api/moderation/reports", headers=as_(mod)).json() == []
    everything = client.get("/api/moderation/reports?status=all", headers=as_(mod)).json()
    assert everything[0]["resolution"] == "warned them" and everything[0]["resolved_by"] == "mod"
    (line,) = client.get("/api/moderation/audit", headers=as_(mod)).json()[:1]
    assert (line["actor"], line["action"], line["target_name"], line["reason"]) == (
        "mod",
        "resolve",
        "bob",
        "warned them",
    )


def test_a_guest_may_report_and_be_reported(client: TestClient) -> None:
    guest_id, guest_token = guest(client)
    ada_id, ada = register(client, "ada")
    mine = client.post(
        "/api/reports", json={"account": ada_id, "reason": "name"}, headers=as_(guest_token)
    )
    assert mine.status_code == 201, mine.text
    theirs = client.post(
        "/api/reports", json={"account": guest_id, "reason": "stalling"}, headers=as_(ada)
    )
    assert theirs.status_code == 201 and theirs.json()["target"]["guest"] is True
    assert theirs.json()["table"] is None and theirs.json()["chat"] == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"account": 1, "reason": "abuse"}, 422, "yourself"),
        ({"account": 99999, "reason": "abuse"}, 404, "no_account"),
        ({"account": 2, "reason": "abuse", "table": "t_nosuchtable"}, 404, "no_table"),
        ({"account": 2, "reason": "rudeness"}, 422, "invalid"),
        ({"account": 2, "reason": "abuse", "text": "x" * 1001}, 422, "invalid"),
        ({"account": 2, "reason": "abuse", "table": "../etc"}, 422, "invalid"),
        ({"account": 2, "reason": "abuse", "why": "junk"}, 422, "invalid"),
        ({"account": "2", "reason": "abuse"}, 422, "invalid"),
    ],
)
def test_bad_reports_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    ada_id, ada = register(client, "ada")
    assert ada_id == 1
    register(client, "bob")
    mod = make_moderator(client)
    response = client.post("/api/reports", json=body, headers=as_(ada))
    assert response.status_code == status and response.json()["error"] == code, response.text
    assert client.get("/api/moderation/reports?status=all", headers=as_(mod)).json() == []


def test_the_same_report_twice_and_a_bot(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, _ = register(client, "bob")
    body = {"account": bob_id, "reason": "cheating"}
    assert client.post("/api/reports", json=body, headers=as_(ada)).status_code == 201
    twice = client.post("/api/reports", json=body, headers=as_(ada))
    assert twice.status_code == 409 and twice.json()["error"] == "already_reported"
    room = client.app.state.room  # type: ignore[attr-defined]
    bot = call(client, room.accounts.bot_account, "random")
    to_bot = client.post("/api/reports", json={"account": bot, "reason": "abuse"}, headers=as_(ada))
    assert to_bot.status_code == 422 and to_bot.json()["error"] == "not_a_person"
    signed_out = client.post("/api/reports", json=body)
    assert signed_out.status_code == 401


def test_a_muted_persons_chat_is_refused_until_lifted(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    mod = make_moderator(client)
    table = make_table(client, ada, rules={"ruleset": "classic", "players": 3, "mode": "single"})
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(url, headers=as_(ada)) as ada_ws,
        client.websocket_connect(url, headers=as_(bob)) as bob_ws,
    ):
        until(ada_ws, "welcome")
        until(bob_ws, "welcome")
        muted = client.post(
            "/api/moderation/mutes",
            json={"account": bob_id, "minutes": 30, "reason": "spam"},
            headers=as_(mod),
        )
        assert muted.status_code == 201, muted.text
        until_at = muted.json()["until"]
        bob_ws.send_json({"type": "chat", "text": "spam spam"})
        error = until(bob_ws, "error", code="muted")
        assert "muted until" in error["reason"] and "UTC" in error["reason"]
        listed = client.get("/api/moderation/sanctions", headers=as_(mod)).json()
        assert [(s["name"], s["kind"], s["until"]) for s in listed] == [("bob", "mute", until_at)]

        lifted = client.post(
            f"/api/moderation/mutes/{bob_id}/lift", json={"reason": "served"}, headers=as_(mod)
        )
        assert lifted.status_code == 204
        bob_ws.send_json({"type": "chat", "text": "sorry all"})
        assert until(ada_ws, "chat")["text"] == "sorry all"  # the muted line never came
    twice = client.post(f"/api/moderation/mutes/{bob_id}/lift", json={}, headers=as_(mod))
    assert twice.status_code == 404 and twice.json()["error"] == "not_muted"
    actions = [
        (e["actor"], e["action"], e["target_name"], e["reason"])
        for e in client.get("/api/moderation/audit", headers=as_(mod)).json()
    ]
    assert actions[:2] == [("mod", "unmute", "bob", "served"), ("mod", "mute", "bob", "spam")]


def test_a_ban_closes_sockets_ends_sessions_and_refuses_sign_in(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    mod = make_moderator(client)
    table = make_table(client, ada)
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(bob)) as table_ws,
        client.websocket_connect("/ws/lobby", headers=as_(bob)) as lobby_ws,
    ):
        until(table_ws, "welcome")
        lobby_ws.receive_json()  # the lobby's tables: the socket is served
        banned = client.post(
            "/api/moderation/bans",
            json={"name": "BOB", "days": 3, "reason": "abusive chat"},
            headers=as_(mod),
        )
        assert banned.status_code == 201, banned.text
        for ws in (table_ws, lobby_ws):
            code, reason = closed(ws)
            assert code == BANNED
            assert reason.startswith("You are banned until") and "abusive chat" in reason
    assert client.get("/api/me", headers=as_(bob)).status_code == 401
    login = client.post("/api/auth/login", json={"name": "bob", "password": "password-1"})
    assert login.status_code == 403 and login.json()["error"] == "banned"
    assert "banned until" in login.json()["detail"] and COOKIE not in login.cookies
    wrong = client.post("/api/auth/login", json={"name": "bob", "password": "wrong-pass"})
    assert wrong.status_code == 401  # the ban is told only to whoever knows the password

    lift = client.post(f"/api/moderation/bans/{bob_id}/lift", json={}, headers=as_(mod))
    assert lift.status_code == 204
    login = client.post("/api/auth/login", json={"name": "bob", "password": "password-1"})
    assert login.status_code == 200
    client.cookies.clear()


def test_a_ban_takes_the_person_out_of_the_queue(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, bob = register(client, "bob")
    mod = make_moderator(client)
    store = client.app.state.room.matchmaker.store  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/lobby", headers=as_(ada)) as lobby:
        lobby.receive_json()  # someone else is online: bob waits for the window
        joined = client.post("/api/match", json={}, headers=as_(bob))
        assert joined.status_code in (200, 201) and joined.json()["table"] is None, joined.text
        assert call(client, store.of, bob_id) is not None
        body = {"account": bob_id, "days": 1, "reason": "queue abuse"}
        assert client.post("/api/moderation/bans", json=body, headers=as_(mod)).status_code == 201
        eventually(lambda: call(client, store.of, bob_id) is None, "the ticket taken out")


def test_moderators_cant_sanction_themselves_each_other_or_bots(client: TestClient) -> None:
    mod = make_moderator(client, "mod")
    make_moderator(client, "other")
    room = client.app.state.room  # type: ignore[attr-defined]
    bot = call(client, room.accounts.bot_account, "random")
    cases = [
        ({"name": "mod"}, 422, "yourself"),
        ({"name": "other"}, 403, "moderator_target"),
        ({"account": bot}, 422, "not_a_person"),
        ({"name": "nobody"}, 404, "no_account"),
    ]
    for whom, status, code in cases:
        body = {**whom, "days": 1, "reason": "test"}
        response = client.post("/api/moderation/bans", json=body, headers=as_(mod))
        assert response.status_code == status and response.json()["error"] == code, whom
    body = {"name": "other", "minutes": 5, "reason": "  "}
    blank = client.post("/api/moderation/mutes", json=body, headers=as_(mod))
    assert blank.status_code == 422
    assert client.get("/api/moderation/sanctions", headers=as_(mod)).json() == []
    # an operator may: the command line's actor has no account
    other = call(client, moderation(client).find, name="other")
    call(client, moderation(client).sanction, OPERATOR, other, "mute", 60, "operator's call")
    listed = client.get("/api/moderation/sanctions", headers=as_(mod)).json()
    assert [s["name"] for s in listed] == ["other"]


def test_roles_say_who_moderates(client: TestClient) -> None:
    _, ada = register(client, "ada")
    mod = make_moderator(client)
    assert client.get("/api/me/roles", headers=as_(ada)).json() == {"roles": []}
    assert client.get("/api/me/roles", headers=as_(mod)).json() == {"roles": ["moderator"]}


def test_ban_words_fit_a_close_reason() -> None:
    long = ban_words(0.0, "é" * 200)
    assert len(long.encode()) <= 123 and long.startswith(
        "You are banned until 1970-01-01 00:00 UTC"
    )
    assert long.endswith("...")
    assert ban_words(0.0, "é" * 200, whole=True).endswith("é")  # sign-in says it all
    assert ban_words(0.0, "short") == "You are banned until 1970-01-01 00:00 UTC: short"


def test_a_mute_and_a_ban_end_by_themselves(client: TestClient) -> None:
    _, ada = register(client, "ada")
    bob_id, _ = register(client, "bob")
    mod = make_moderator(client)
    table = make_table(client, ada)
    for kind, body in (("mutes", {"minutes": 30}), ("bans", {"days": 1})):
        made = client.post(
            f"/api/moderation/{kind}",
            json={"account": bob_id, "reason": "a while", **body},
            headers=as_(mod),
        )
        assert made.status_code == 201, made.text
    service = moderation(client)
    service.now = lambda: time.time() + 2 * 86400  # two days on
    assert client.get("/api/moderation/sanctions", headers=as_(mod)).json() == []
    login = client.post("/api/auth/login", json={"name": "bob", "password": "password-1"})
    assert login.status_code == 200, login.text
    token = login.cookies[COOKIE]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token)) as ws:
        until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "back again"})
        assert until(ws, "chat")["text"] == "back again"
