"""Issue 24, finding 7: "Play again" was not throttled and every ask, repeats too, was
told to every socket at the finished table: 300 asks with 40 watchers made 12,000
messages. Now an account's asks are throttled (429 ``throttled``) and an ask that
changes nothing (the asker sits at the follow-up already) tells nobody."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crazy_eights.server.api import table_socket as socket_module
from tests.server.test_rematch import duel, finished_game

from .conftest import Call, at_once, statuses
from .inprocess import room, room_of


def test_repeated_rematch_asks_are_throttled_and_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket_module, "RATE", 1000.0)
    with room(tmp_path) as client:
        table, tokens = duel(client)
        told: list[str] = []
        with finished_game(client, dict(enumerate(tokens)), table["id"]):
            room_of(client).audit = lambda _t, _s, text: told.append(json.loads(text)["type"])
            url = f"/api/tables/{table['id']}/rematch"
            cookie = {"cookie": f"ce_session={tokens[0]}"}
            asks = at_once(client, [Call("POST", url, headers=cookie)] * 30)
            codes = statuses(asks)
            assert 429 in codes and codes.count(200) <= 6, codes
            refused = next(r for r in asks if r.status_code == 429)
            assert refused.json()["error"] == "throttled"
            assert told.count("rematch") == 2  # the first ask, to each of the two players
