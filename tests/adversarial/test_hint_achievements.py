"""Issue 24, finding 5: achievements counted at unrated hint tables, whose hints come
from the Hard bot's own search: playing every hint unlocked "Giant slayer" and the Art
Deco faces in a few games. Now only rated games (no hints) award achievements."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from .inprocess import as_, guest, room, room_of
from .stored import store_game

RULES = {"ruleset": "classic", "players": 2, "mode": "single"}


def _earned(client: TestClient, account: int) -> list[str]:
    body = client.get(f"/api/accounts/{account}/achievements").json()
    return [a["id"] for a in body["achievements"] if a["earned"]]


def test_a_win_at_a_hint_table_earns_nothing_and_a_rated_one_does(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        assert client.portal is not None
        winners = []
        for hints in (True, False):
            account, token = guest(client)
            for seed in range(1, 40):  # a game the person's seat wins
                client.portal.call(
                    lambda a=account, s=seed, h=hints: store_game(
                        room_of(client), RULES, s, people={0: a}, hints=h
                    )
                )
                won = client.get(f"/api/accounts/{account}/history", headers=as_(token)).json()
                if any(g["won"] for g in won):
                    break
            winners.append(_earned(client, account))
        at_hint_table, rated = winners
        assert at_hint_table == []
        assert rated  # the first win in classic
