"""Between rounds (issue 12 item 3): after a round of a match the table pauses with the
round's summary until every person here presses "Next round" or the pause's timer runs
out; bots and absent players never hold it up; a restart in the pause comes back to it.
And the match end: each person's rating change once the game is recorded."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server import create_app
from crazy_eights.server.api import table_socket as socket_module
from crazy_eights.server.table import messages

from .conftest import SettingsFactory, as_, eventually, guest, make_table, until

MATCH = {"ruleset": "classic", "players": 3, "mode": "match", "target": 500}


def welcome_legal(client: TestClient, url: str, token: str) -> list[str]:
    """The legal moves a seat's welcome offers it now (from a second socket)."""
    with client.websocket_connect(url, headers=as_(token)) as ws:
        legal: list[str] = until(ws, "welcome")["state"]["legal"]
    return legal


def seated(
    stack: contextlib.ExitStack, client: TestClient, url: str, tokens: list[str]
) -> dict[int, Any]:
    """Every person's socket at the table, by seat, each past its welcome."""
    sockets = {
        seat: stack.enter_context(client.websocket_connect(url, headers=as_(token)))
        for seat, token in enumerate(tokens)
    }
    for ws in sockets.values():
        until(ws, "welcome")
    return sockets


def actor_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.room.tables.get(table_id)  # type: ignore[attr-defined]


def table_of(
    client: TestClient, humans: int, rules: dict[str, Any] = MATCH
) -> tuple[str, list[str]]:
    """A started table: ``humans`` guests in the first seats, random bots in the rest."""
    tokens = [guest(client)[1] for _ in range(humans)]
    bots = [{"seat": s, "level": "random"} for s in range(humans, rules["players"])]
    table = make_table(client, tokens[0], rules=rules, bots=bots)
    for token in tokens[1:]:
        client.post(f"/api/tables/{table['id']}/sit", json={}, headers=as_(token))
    if humans == 1:
        client.post(f"/api/tables/{table['id']}/start", headers=as_(tokens[0]))
    assert actor_of(client, table["id"]).status == "playing"
    return table["id"], tokens


def play_to_round_end(actor: Any, sockets: dict[int, Any], seed: int = 3) -> dict[str, Any]:
    """Play random legal moves for the people until a round ends; the state that ended it."""
    rng = random.Random(seed)
    for _ in range(3000):
        game = actor.game
        mover, version = game.current_player, actor.version
        if mover in sockets:
            move = rng.choice([m.text for m in game.legal_moves()])
            sockets[mover].send_json({"type": "move", "seq": version, "move": move})
        state = until(next(iter(sockets.values())), "state", version=version + 1)["state"]
        if any(e["type"] == "round_over" for e in state["events"]):
            assert not state["view"]["over"], "the match ended in one round; pick another seed"
            return state
    raise AssertionError("no round ended")


@pytest.fixture(autouse=True)
def fast_players(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_module, "RATE", 1000.0)


def test_the_pause_waits_for_every_person_and_goes_on_when_all_pressed(
    fast_settings: SettingsFactory,
) -> None:
    with TestClient(create_app(fast_settings(round_pause_seconds=60))) as client:
        table_id, tokens = table_of(client, 2)
        actor = actor_of(client, table_id)
        url = f"/ws/tables/{table_id}"
        with contextlib.ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(client.websocket_connect(url, headers=as_(token)))
                for seat, token in enumerate(tokens)
            }
            watcher = stack.enter_context(client.websocket_connect(url))
            for ws in [*sockets.values(), watcher]:
                until(ws, "welcome")
            ended = play_to_round_end(actor, sockets)
            pause = ended["pause"]
            summary = pause["summary"]
            assert summary["type"] == "round_over" and summary["reason"] in ("out", "blockade")
            assert len(summary["hands"]) == 3 and summary["target"] == 500
            assert len(summary["scores"]) == 3 and len(summary["scored"]) == 3
            assert pause["waiting"] == [0, 1] and pause["pressed"] == []
            assert 55 < pause["left"] <= 60
            assert actor.state.rounds.active and not actor.state.clock.running
            # the next round is dealt, but no seat is offered a move until the table goes on
            assert ended["legal"] == [] and ended["moves"] == []
            to_move = actor.game.current_player
            assert actor.game.legal_moves()  # the next deal is out...
            offered = client.portal.call(messages.state_data, actor.state, to_move)  # type: ignore[union-attr]
            assert offered is not None and offered["legal"] == []  # ...and not offered
            if to_move in sockets:
                assert welcome_legal(client, url, tokens[to_move]) == []
            # nothing moves in the pause: no clock, no move, no bot
            version = actor.version
            mover = actor.game.current_player
            if mover in sockets:
                sockets[mover].send_json({"type": "move", "seq": version, "move": "draw"})
                assert until(sockets[mover], "error")["code"] == "between_rounds"
            watcher.send_json({"type": "next_round"})
            assert until(watcher, "error")["code"] == "not_seated"
            # a reconnecting player finds the pause in its welcome
            sockets[1].close()
            sockets[1] = stack.enter_context(client.websocket_connect(url, headers=as_(tokens[1])))
            welcome = until(sockets[1], "welcome")
            assert welcome["clock"] is None
            assert welcome["state"]["pause"]["summary"] == summary
            sockets[0].send_json({"type": "next_round"})
            first = until(sockets[1], "pause")
            assert first["pause"]["waiting"] == [1] and first["pause"]["pressed"] == [0]
            time.sleep(0.3)
            assert actor.version == version  # still waiting for seat 1
            sockets[1].send_json({"type": "next_round"})
            went = until(sockets[0], "pause", pause=None)
            assert went["clock"] is not None and went["clock"]["seat"] == mover
            if mover in sockets:  # then each seat's state again, now with its moves
                again = until(sockets[mover], "state")["state"]
                assert again["version"] == version and again["pause"] is None
                assert again["legal"] and again["legal"] == [m["text"] for m in again["moves"]]
            assert until(watcher, "pause", pause=None)["pause"] is None
            assert not actor.state.rounds.active
            sockets[0].send_json({"type": "next_round"})
            assert until(sockets[0], "error")["code"] == "not_between_rounds"


def test_the_timer_ends_the_pause_when_nobody_presses(fast_settings: SettingsFactory) -> None:
    with TestClient(create_app(fast_settings(round_pause_seconds=0.6))) as client:
        table_id, tokens = table_of(client, 2)
        actor = actor_of(client, table_id)
        url = f"/ws/tables/{table_id}"
        with contextlib.ExitStack() as stack:
            sockets = seated(stack, client, url, tokens)
            ended = play_to_round_end(actor, sockets)
            began = time.monotonic()
            assert ended["pause"]["waiting"] == [0, 1]
            assert until(sockets[0], "pause", pause=None)["clock"] is not None
            assert 0.4 < time.monotonic() - began < 5
            assert not actor.state.rounds.active


def test_bots_and_absent_players_never_hold_up_the_table(fast_settings: SettingsFactory) -> None:
    with TestClient(create_app(fast_settings(round_pause_seconds=60))) as client:
        # one person and two bots: the person's press alone goes on, and the bots play
        table_id, tokens = table_of(client, 1)
        actor = actor_of(client, table_id)
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url, headers=as_(tokens[0])) as ws:
            until(ws, "welcome")
            ended = play_to_round_end(actor, {0: ws})
            assert ended["pause"]["waiting"] == [0]
            version = actor.version
            if actor.game.current_player != 0:
                time.sleep(0.3)
                assert actor.version == version  # the bots wait in the pause
            ws.send_json({"type": "next_round"})
            until(ws, "pause", pause=None)
            if actor.game.current_player != 0:  # the bot to move now moves
                until(ws, "state", version=version + 1)
        # two people: one leaves the room in the pause, the other's press goes on at once
        table_id, tokens = table_of(client, 2)
        actor = actor_of(client, table_id)
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url, headers=as_(tokens[0])) as ws0:
            with client.websocket_connect(url, headers=as_(tokens[1])) as ws1:
                until(ws0, "welcome")
                until(ws1, "welcome")
                play_to_round_end(actor, {0: ws0, 1: ws1})
            # seat 1's socket closed: it no longer holds the table
            eventually(
                lambda: actor.state.rounds.waiting(actor.seats, actor.members.at) == [0],
                "the pause waiting for seat 0 alone",
            )
            ws0.send_json({"type": "next_round"})
            until(ws0, "pause", pause=None)
            assert not actor.state.rounds.active


def test_a_restart_in_the_pause_comes_back_to_the_pause(fast_settings: SettingsFactory) -> None:
    settings = fast_settings(round_pause_seconds=60)
    with TestClient(create_app(settings)) as client:
        table_id, tokens = table_of(client, 2)
        actor = actor_of(client, table_id)
        url = f"/ws/tables/{table_id}"
        with contextlib.ExitStack() as stack:
            sockets = seated(stack, client, url, tokens)
            summary = play_to_round_end(actor, sockets)["pause"]["summary"]
            moves = list(actor.game.moves)
            # the server stops in the pause, its players still at the table
            client.portal.call(actor.stop)  # type: ignore[union-attr]
    with TestClient(create_app(settings)) as client:
        actor = actor_of(client, table_id)
        assert actor.game.moves == moves  # not a move lost
        url = f"/ws/tables/{table_id}"
        with contextlib.ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(client.websocket_connect(url, headers=as_(token)))
                for seat, token in enumerate(tokens)
            }
            welcome = until(sockets[0], "welcome")
            assert welcome["clock"] is None
            assert welcome["state"]["pause"]["summary"] == summary
            assert welcome["state"]["pause"]["waiting"] == [0]  # seat 1 is not back yet
            assert until(sockets[1], "welcome")["state"]["pause"]["waiting"] == [0, 1]
            for ws in sockets.values():
                ws.send_json({"type": "next_round"})
            assert until(sockets[0], "pause", pause=None)["clock"] is not None
            # and the next round is played on from where it was
            mover = actor.game.current_player
            version = actor.version
            if mover in sockets:
                move = actor.game.legal_moves()[0].text
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            until(sockets[0], "state", version=version + 1)


def test_the_match_end_tells_each_person_their_rating_change(make_client: Any) -> None:
    client = make_client(rate_guests=True)  # the players are guests (issue 23: unrated)
    rules = {"ruleset": "classic", "players": 3, "mode": "single", "stock_empty": "block"}
    table_id, tokens = table_of(client, 2, rules)
    actor = actor_of(client, table_id)
    url = f"/ws/tables/{table_id}"
    rng = random.Random(5)
    with contextlib.ExitStack() as stack:
        sockets = seated(stack, client, url, tokens)
        while not actor.game.is_over:
            mover, version = actor.game.current_player, actor.version
            if mover in sockets:
                move = rng.choice([m.text for m in actor.game.legal_moves()])
                sockets[mover].send_json({"type": "move", "seq": version, "move": move})
            until(sockets[0], "state", version=version + 1)
        message = until(sockets[1], "ratings")
        assert message["rated"] is True
        changes = {c["seat"]: c for c in message["changes"]}
        assert sorted(changes) == [0, 1]  # the people; the bot's shared record is left out
        result = actor.game.result
        for change in changes.values():
            records = client.get(f"/api/accounts/{change['account']}/records").json()
            row = next(r for r in records["records"] if r["ruleset"] == "classic")
            assert change["after"] == row["rating"]["display"]
            assert change["before"] == 1000  # newcomers
        winner = changes.get(result.winner)
        if winner is not None:
            assert winner["after"] > winner["before"]
        sockets[0].send_json({"type": "sync"})
        assert until(sockets[0], "welcome")["ratings"] == message["changes"]
