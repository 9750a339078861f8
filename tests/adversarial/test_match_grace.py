"""Issue 24, finding 6: ``/ws/match``'s grace was cut short by an earlier socket's
timer: close socket A, open B half a grace later, close B just before A's grace ends,
and A's timer cancelled the ticket at once. Now only the last socket's grace counts."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from crazy_eights.server import matchmaking

from .inprocess import as_, guest, room

GRACE = 1.0


def test_a_later_socket_gets_its_whole_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matchmaking, "DROP_GRACE", GRACE)
    with room(tmp_path, match_alone="wait") as client:
        _, token = guest(client)
        joined = client.post("/api/match", json={"ruleset": "classic"}, headers=as_(token))
        assert joined.status_code == 201

        def waiting() -> bool:
            return client.get("/api/match", headers=as_(token)).json() is not None

        with client.websocket_connect("/ws/match", headers=as_(token)) as a:
            a.receive_json()
        first_closed = time.monotonic()
        time.sleep(0.3 * GRACE)  # B opens within A's grace ...
        with client.websocket_connect("/ws/match", headers=as_(token)) as b:
            b.receive_json()
            time.sleep(first_closed + 0.8 * GRACE - time.monotonic())
        last_closed = time.monotonic()  # ... and closes just before A's grace ends
        time.sleep(max(0.0, first_closed + 1.3 * GRACE - time.monotonic()))
        assert waiting(), "the ticket went with the first socket's timer"
        while waiting():
            assert time.monotonic() < last_closed + 5 * GRACE, "the ticket never went"
            time.sleep(0.05)
        assert time.monotonic() >= last_closed + GRACE
