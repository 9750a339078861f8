"""Table sockets: a full game with every outgoing message audited, and the protocol's
refusals (stale, duplicate, out of turn, illegal, spectators, malformed, oversized, floods,
foreign origins, racing moves), last card by chat, timers, stand-in bots, reconnects."""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import pytest
from pydantic import TypeAdapter
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crazy_eights.engine import Move
from crazy_eights.server.api import table_socket as socket_module
from crazy_eights.server.protocol import ServerMessage
from crazy_eights.server.table.ops import Timeout

from .conftest import as_, guest, make_table, until

_server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)

CARD = re.compile(r"^([2-9TJQKA][SHDC])(:[SHDC])?!?$")


def cards_in(value: Any, key: str = "") -> set[str]:
    """Every card named anywhere in a message (ids, names and chat skipped)."""
    if isinstance(value, dict):
        return set().union(
            *(cards_in(v, k) for k, v in value.items() if k not in ("table", "id", "name", "text"))
        )
    if isinstance(value, list):
        return set().union(*(cards_in(v, key) for v in value))
    if isinstance(value, str) and (match := CARD.match(value)):
        return {match.group(1)}
    return set()


def actor_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.room.tables.get(table_id)  # type: ignore[attr-defined]


def run(client: TestClient, fn: Any) -> Any:
    """Run ``fn`` (a coroutine function) as a command on the server's loop."""
    return client.portal.call(fn)  # type: ignore[union-attr]


def two_humans_and_a_bot(client: TestClient, **extra: Any) -> tuple[str, str, str, str]:
    _, creator = guest(client)
    _, other = guest(client)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    rules.update(extra.pop("rules", {}))
    table = make_table(client, creator, rules=rules, bots=[{"seat": 2, "level": "random"}], **extra)
    response = client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(other))
    assert response.json()["status"] == "playing"
    return table["id"], creator, other, table["name"]


def audit_every_message(client: TestClient, leaks: list[str], checked: dict[str, int]) -> None:
    """Check every message the room sends: a well-formed server message, and no card its
    seat (or a spectator) may not see; problems go to ``leaks``.

    What a seat may see is what its views have shown it so far: its hand, the discard
    pile (a card played before a reshuffle stays known to everyone), cards played, and
    the hands shown when a round ends."""
    seen: dict[tuple[str, int | None], set[str]] = {}

    def audit(table: str, seat: int | None, text: str) -> None:
        try:
            _server_message.validate_json(text)  # every message is a well-formed one
            checked["messages"] += 1
            game = actor_of(client, table).game
            if game is None or game.is_over:  # hands are shown when the game ends
                return
            visible = seen.setdefault((table, seat), set())
            visible |= set(game.view(None)["discard"])
            if seat is not None:
                visible |= set(game.view(seat)["hand"])
            data = json.loads(text)
            state = data.get("state") or {}
            for event in [*state.get("events", []), *state.get("view", {}).get("log", [])]:
                if event.get("type") == "round_over":  # every hand is shown at a round's end
                    visible |= cards_in(event.get("hands", []))
                elif event.get("type") == "played":  # the last play of a round is public too
                    visible |= cards_in(event.get("cards", []))
            pause = state.get("pause") or data.get("pause") or {}
            visible |= cards_in(pause.get("summary", {}).get("hands", []))  # a round summary
            leaked = cards_in(data) - visible
            if leaked:
                leaks.append(f"seat {seat} was sent {leaked} in {text[:300]}")
        except Exception as exc:  # never let the check itself stall the table
            leaks.append(repr(exc))

    client.app.state.room.audit = audit  # type: ignore[attr-defined]


def _check_moves(state: dict[str, Any], *, mine: bool) -> None:
    """A state's structured moves are its legal moves, as the engine's data: its text
    list in the same order, each entry what ``Move.parse`` of its text says, and wild
    exactly for an eight outside countdown and cycles (the rulesets these tests play)."""
    moves = state["moves"]
    assert [m["text"] for m in moves] == state["legal"]
    if not mine:
        assert moves == []
    ruleset = state["view"]["ruleset"]
    for m in moves:
        parsed = Move.parse(m["text"])
        assert {k: v for k, v in m.items() if k != "wild"} == parsed.to_dict()
        eight = m["card"] is not None and m["card"][0] == "8"
        assert m["wild"] == (eight and ruleset not in ("countdown", "cycles"))


def test_full_game_never_shows_a_seat_a_card_it_may_not_see(client: TestClient) -> None:
    """RULES G5 at the socket: every message to every seat and spectator is checked."""
    checked = {"messages": 0}
    leaks: list[str] = []
    audit_every_message(client, leaks, checked)
    table_id, creator, other, _ = two_humans_and_a_bot(client)
    rng = random.Random(7)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        sockets = {0: ws0, 1: ws1}
        latest = {s: until(ws, "welcome")["state"] for s, ws in sockets.items()}
        assert until(spectator, "welcome")["you"]["role"] == "spectator"
        version = latest[0]["version"]
        for _ in range(400):
            assert not leaks, leaks[:3]
            for seat, ws in sockets.items():
                if latest[seat]["version"] < version:
                    latest[seat] = until(ws, "state", version=version)["state"]
            view = latest[0]["view"]
            if view["over"]:
                break
            mover = view["current"]
            for seat in sockets:
                _check_moves(latest[seat], mine=seat == mover)
            if mover in sockets:
                move = rng.choice(latest[mover]["moves"])["text"]
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            version += 1
        assert latest[0]["view"]["over"]
        final = until(spectator, "state", version=version)
        assert final["state"]["legal"] == [] and "hand" not in final["state"]["view"]
    assert not leaks, leaks[:3]
    assert checked["messages"] >= 3 * version  # a state per member and move, at least
    records = client.get(f"/api/tables/{table_id}/replay").json()
    assert len(records["steps"]) == version + 1
    # each step after the first says its move as the engine's data, read from its text
    assert records["steps"][0]["data"] is None
    for step in records["steps"][1:]:
        assert step["data"] == Move.parse(step["move"]).to_dict()
    assert all(len(h) >= 0 for h in records["steps"][-1]["hands"])


def test_a_match_with_late_watchers_and_reconnections_shows_no_hidden_card(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit over a whole match of two humans and a bot: a watcher arrives mid-game,
    a player drops and comes back several times, two rounds end and new ones are dealt."""
    monkeypatch.setattr(socket_module, "RATE", 1000.0)  # the players here are fast
    checked = {"messages": 0}
    leaks: list[str] = []
    audit_every_message(client, leaks, checked)
    table_id, creator, other, _ = two_humans_and_a_bot(
        client, rules={"mode": "match", "target": 500, "stock_empty": "reshuffle"}
    )
    actor = actor_of(client, table_id)
    tokens = {0: creator, 1: other}
    url = f"/ws/tables/{table_id}"
    rng = random.Random(11)
    rounds = set()
    with contextlib.ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(client.websocket_connect(url, headers=as_(token)))
            for seat, token in tokens.items()
        }
        for ws in sockets.values():
            until(ws, "welcome")
        watcher = None
        for step in range(6000):
            assert not leaks, leaks[:3]
            game = actor.game
            rounds.add(game.view(None).get("round"))
            if game.is_over or len(rounds) > 2:  # into a third round: two round ends seen
                break
            if step == 40:
                watcher = stack.enter_context(client.websocket_connect(url))
                assert until(watcher, "welcome")["you"]["role"] == "spectator"
            if step % 60 == 30:  # seat 1 drops and comes back
                sockets[1].close()
                sockets[1] = stack.enter_context(client.websocket_connect(url, headers=as_(other)))
                back = until(sockets[1], "welcome")["state"]
                assert back["view"]["hand"] == game.view(1)["hand"]
            if actor.state.rounds.active:  # between rounds: both players read the summary
                for ws in sockets.values():
                    ws.send_json({"type": "next_round"})
                until(sockets[0], "pause", pause=None)
                continue
            mover = game.current_player
            version = actor.version
            if mover in sockets:
                move = rng.choice([m.text for m in game.legal_moves()])
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            until(sockets[0], "state", version=version + 1)
    assert not leaks, leaks[:3]
    assert len(rounds - {None}) >= 2, (rounds, actor.game.result)
    assert checked["messages"] >= 2 * actor.version  # the players, and the watcher later


def test_refusals_change_nothing(client: TestClient) -> None:
    table_id, creator, other, _ = two_humans_and_a_bot(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        state = until(ws0, "welcome")["state"]
        until(ws1, "welcome")
        until(spectator, "welcome")
        version = state["version"]
        mover, idle = (ws0, ws1) if state["view"]["current"] == 0 else (ws1, ws0)
        idle.send_json({"type": "move", "seq": version, "move": "draw"})
        assert until(idle, "error")["code"] == "not_your_turn"
        mover.send_json({"type": "move", "seq": version + 5, "move": "draw"})
        assert until(mover, "error")["code"] == "stale"
        mover.send_json({"type": "move", "seq": version, "move": "ZZ"})
        assert until(mover, "error")["code"] == "illegal"
        mover.send_json({"type": "move", "seq": version, "move": "timeout"})
        assert until(mover, "error")["code"] == "illegal"
        spectator.send_json({"type": "move", "seq": version, "move": "draw"})
        assert until(spectator, "error")["code"] == "not_seated"
        mover.send_text("{not json")
        assert until(mover, "error")["code"] == "bad_json"
        mover.send_json({"type": "teleport"})
        assert until(mover, "error")["code"] == "unknown_type"
        mover.send_json({"type": "move", "seq": "x", "move": 3})
        assert until(mover, "error")["code"] == "bad_message"
        mover.send_json([1, 2])
        assert until(mover, "error")["code"] == "bad_json"
        assert actor_of(client, table_id).version == version
        mover.send_json({"type": "sync"})
        assert until(mover, "welcome")["state"]["version"] == version


def test_racing_moves_give_exactly_one_accepted(client: TestClient) -> None:
    table_id, creator, other, _ = two_humans_and_a_bot(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as tab1,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as tab2,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1,
    ):
        state = until(tab1, "welcome")["state"]
        until(tab2, "welcome")
        until(ws1, "welcome")
        if state["view"]["current"] != 0:  # let seat 1 move first so seat 0 is to move
            ws1.send_json({"type": "move", "seq": state["version"], "move": "draw"})
            state = until(tab1, "state", version=state["version"] + 1)["state"]
            while state["view"]["current"] != 0:
                if state["view"]["current"] == 1:
                    ws1.send_json({"type": "move", "seq": state["version"], "move": "pass"})
                state = until(tab1, "state", version=state["version"] + 1)["state"]
        version = state["version"]
        first, second = state["legal"][0], state["legal"][-1]
        tab1.send_json({"type": "move", "seq": version, "move": first})
        tab2.send_json({"type": "move", "seq": version, "move": second})
        tab2.send_json({"type": "move", "seq": version, "move": first})
        accepted = until(tab1, "state", version=version + 1)["state"]
        assert accepted["by"] == 0 and accepted["ack"] == version
        codes = {until(tab2, "error")["code"], until(tab2, "error")["code"]}
        assert codes <= {"stale", "duplicate"}
    assert actor_of(client, table_id).state.movers[version] == 0
    assert actor_of(client, table_id).game.moves[version] == first


def test_oversized_and_flooding_sockets_are_closed_and_the_table_lives(client: TestClient) -> None:
    table_id, creator, other, _ = two_humans_and_a_bot(client)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
        until(ws, "welcome")
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 5000}))
        assert until(ws, "error")["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(10):
                ws.receive_json()
        assert closed.value.code == 1009
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
        until(ws, "welcome")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(200):
                ws.send_json({"type": "ping"})
            for _ in range(400):
                ws.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws:
        welcome = until(ws, "welcome")
        assert welcome["info"]["status"] == "playing"
        ws.send_json({"type": "ping", "t": 1.5})
        assert until(ws, "pong")["t"] == 1.5


def test_origin_and_private_tables_are_checked(client: TestClient) -> None:
    _, creator = guest(client)
    _, stranger = guest(client)
    table = make_table(client, creator, public=False)
    assert table["invite"] and client.get("/api/tables").json() == []
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(
        url, headers={"origin": "https://evil.example", **as_(creator)}
    ) as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4003
    with client.websocket_connect(url, headers=as_(stranger)) as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4003
    headers = {"origin": "http://testserver", **as_(stranger)}
    with client.websocket_connect(f"{url}?code={table['invite']}", headers=headers) as ws:
        assert until(ws, "welcome")["you"]["role"] == "spectator"
    response = client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(stranger))
    assert response.status_code == 403
    response = client.post(
        f"/api/tables/{table['id']}/sit", json={"code": table["invite"]}, headers=as_(stranger)
    )
    assert response.json()["status"] == "playing"


def test_last_card_called_in_chat_goes_with_the_next_play(client: TestClient) -> None:
    # tables deal from a random seed (and a drawn first dealer): take the first where a
    # person (seat 0 or 1, not the bot) is to move and can play
    for _ in range(24):
        table_id, creator, other, _ = two_humans_and_a_bot(client)
        actor = actor_of(client, table_id)
        person = actor.game.current_player in (0, 1)
        if person and any(m.is_play for m in actor.game.legal_moves()):
            break
    else:
        pytest.fail("no table of 24 dealt a person to move with a playable card")
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1,
    ):
        state = until(ws0, "welcome")["state"]
        until(ws1, "welcome")
        seat = state["view"]["current"]
        ws = ws0 if seat == 0 else ws1
        ws.send_json({"type": "chat", "text": "<b>One card left!</b>"})
        chat = until(ws, "chat")
        assert chat["text"] == "&lt;b&gt;One card left!&lt;/b&gt;" and chat["call"] is True
        assert until(ws, "called")["seat"] == seat
        play = next(m.text for m in actor.game.legal_moves() if m.is_play)
        ws.send_json({"type": "move", "seq": state["version"], "move": play})
        until(ws, "state", version=state["version"] + 1)
        assert actor.game.moves[state["version"]] == play + "!"
        for _ in range(5):
            ws.send_json({"type": "chat", "text": "hi"})
        assert until(ws, "error")["code"] == "rate_limited"


def test_timeouts_bring_a_stand_in_bot_and_a_reconnect_takes_the_seat_back(
    client: TestClient,
) -> None:
    table_id, creator, other, _ = two_humans_and_a_bot(client, takeover_after=2)
    actor = actor_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws0:
        welcome = until(ws0, "welcome")
        assert welcome["clock"]["left"] > 0 and welcome["clock"]["timer"] == 180
        for _ in range(60):
            if actor.seats[1].standin or actor.game.is_over:
                break
            current = actor.game.current_player
            if current == 1:
                run(client, lambda: actor.request(Timeout(actor.version)))
            elif current == 0:
                version = actor.version
                move = actor.game.legal_moves()[0].text
                ws0.send_json({"type": "move", "seq": version, "move": move})
                until(ws0, "state", version=version + 1)
            else:
                until(ws0, "state", version=actor.version + 1)
        assert actor.seats[1].standin
        assert "timeout" in actor.game.moves
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][1]["standin"] is True
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(other)) as ws1:
            back = until(ws1, "welcome")
            assert back["you"]["seat"] == 1
            assert back["state"]["view"]["hand"] == actor.game.view(1)["hand"]
            assert actor.seats[1].standin is False


def test_hints_only_at_unrated_tables(client: TestClient) -> None:
    table_id, creator, other, _ = two_humans_and_a_bot(client)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(creator)) as ws:
        until(ws, "welcome")
        ws.send_json({"type": "hint"})
        assert until(ws, "error")["code"] == "hints_off"
    table_id, creator, other, _ = two_humans_and_a_bot(client, hints=True)
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["rated"] is False
    actor = actor_of(client, table_id)
    seat = actor.game.current_player
    token = creator if seat == 0 else other
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(token)) as ws:
        until(ws, "welcome")
        ws.send_json({"type": "hint"})
        hint = until(ws, "hint")
        assert hint["move"] in [m.text for m in actor.game.legal_moves()]
