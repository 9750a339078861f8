"""Issue 24, finding 4: the analysis routes took seats 0 to 7 only, so a player at seat
8 or above (cycles seats 11, OpenSpiel's game 15) could never ask for or read theirs."""

from __future__ import annotations

from pathlib import Path

from .inprocess import as_, guest, room, room_of
from .stored import store_game


def test_a_player_at_a_high_seat_can_ask_for_and_read_their_analysis(tmp_path: Path) -> None:
    with room(tmp_path, analysis_worlds=2) as client:
        account, token = guest(client)
        assert client.portal is not None
        rules = {"ruleset": "openspiel", "players": 15}
        table_id, _ = client.portal.call(
            lambda: store_game(room_of(client), rules, 2, people={14: account}, hints=True)
        )
        url = f"/api/tables/{table_id}/analysis?seat=14"
        assert client.get(url).json()["status"] == "none"
        asked = client.post(url, headers=as_(token))
        assert asked.status_code == 200, asked.text
        assert asked.json()["status"] in ("running", "done")
        assert client.get(f"/api/tables/{table_id}/analysis?seat=15").status_code == 422
