"""Issue 24, finding 8: a private game's figures were public through the evaluation and
the records while the history hid the game: an account whose only game was private
showed ``games 1`` and its accuracy to anyone. Now a private game is its players' own:
unrated, and counted in no public figure (records, ratings, evaluation, accuracy,
achievements); its player still finds it, its replay and its analysis in their history.
"""

from __future__ import annotations

import time
from typing import Any

from ..server.conftest import SettingsFactory
from .inprocess import as_, guest, room_of, served
from .stored import store_game

RULES = {"ruleset": "classic", "players": 2, "mode": "single"}


def _figures(client: Any, account: int) -> tuple[Any, Any, Any]:
    records = client.get(f"/api/accounts/{account}/records").json()["records"]
    evaluation = client.get(f"/api/accounts/{account}/evaluation?ruleset=classic").json()
    earned = client.get(f"/api/accounts/{account}/achievements").json()["achievements"]
    return records, evaluation, [a["id"] for a in earned if a["earned"]]


def test_a_private_game_shows_in_no_public_figure(fast_settings: SettingsFactory) -> None:
    with served(fast_settings, analysis_worlds=2) as client:
        account, token = guest(client)
        assert client.portal is not None
        table_id, _ = client.portal.call(
            lambda: store_game(room_of(client), RULES, 5, people={0: account}, public=False)
        )
        asked = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(token))
        assert asked.status_code == 200
        deadline = time.monotonic() + 30
        while asked.json()["status"] != "done":
            assert time.monotonic() < deadline
            time.sleep(0.05)
            asked = client.get(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(token))
        records, evaluation, earned = _figures(client, account)
        assert records == [] and earned == []
        assert evaluation["games"] == 0 and evaluation["accuracy"]["value"] is None
        own = client.get(f"/api/accounts/{account}/history", headers=as_(token)).json()
        assert [g["table"] for g in own] == [table_id] and own[0]["rated"] is False
        assert client.get(f"/api/accounts/{account}/history").json() == []
