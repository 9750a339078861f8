"""Issue 24, finding 10: quick play's tickets lived only in memory on a single node, so
a server that stopped forgot who was waiting (their page said "gone"). Now a room on one
process writes each ticket to the database and reads them back on start; a ticket whose
person does not reconnect within ``RESTORED_GRACE`` is dropped."""

from __future__ import annotations

import time

import pytest

from crazy_eights.server import matchmaking

from ..server.conftest import SettingsFactory
from .inprocess import as_, guest, served


def test_a_waiting_ticket_outlives_a_restart(fast_settings: SettingsFactory) -> None:
    with served(fast_settings, match_window_seconds=600, match_alone="wait") as client:
        _, token = guest(client)
        joined = client.post("/api/match", json={"ruleset": "classic"}, headers=as_(token))
        assert joined.status_code == 201
        ticket = joined.json()["ticket"]
    # the server starts again
    with served(fast_settings, match_window_seconds=600, match_alone="wait") as client:
        mine = client.get("/api/match", headers=as_(token)).json()
        assert mine is not None and mine["ticket"] == ticket
        with client.websocket_connect("/ws/match", headers=as_(token)) as ws:
            assert ws.receive_json()["type"] == "queue"
        assert client.delete("/api/match", headers=as_(token)).status_code == 204
    # cancelled: not back
    with served(fast_settings, match_window_seconds=600, match_alone="wait") as client:
        assert client.get("/api/match", headers=as_(token)).json() is None


def test_a_restored_ticket_nobody_comes_back_for_is_dropped(
    fast_settings: SettingsFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matchmaking, "RESTORED_GRACE", 0.3)
    with served(fast_settings, match_window_seconds=600, match_alone="wait") as client:
        _, token = guest(client)
        client.post("/api/match", json={"ruleset": "classic"}, headers=as_(token))
    with served(fast_settings, match_window_seconds=600, match_alone="wait") as client:
        deadline = time.monotonic() + 10
        while client.get("/api/match", headers=as_(token)).json() is not None:
            assert time.monotonic() < deadline, "the ticket was never dropped"
            time.sleep(0.05)
