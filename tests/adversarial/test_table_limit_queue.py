"""Issue 24, finding 9: the per-account table limit could be passed: a ticket in quick
play's queue was not counted, so a person could wait, sit at more tables meanwhile and
be seated by the match (or ``POST /api/match/now``) at one table over the limit. Now a
waiting ticket counts as a table held, and playing now checks the limit too."""

from __future__ import annotations

from pathlib import Path

from .inprocess import as_, guest, make_table, room


def test_a_waiting_ticket_counts_against_the_table_limit(tmp_path: Path) -> None:
    with room(tmp_path, tables_per_account=2, match_alone="wait") as client:
        _, token = guest(client)
        make_table(client, token)
        joined = client.post("/api/match", json={"ruleset": "classic"}, headers=as_(token))
        assert joined.status_code == 201, joined.text
        more = client.post(
            "/api/tables",
            json={"rules": {"ruleset": "classic", "players": 2, "mode": "single"}},
            headers=as_(token),
        )
        assert more.status_code == 429 and more.json()["error"] == "too_many_tables"
        now = client.post("/api/match/now", headers=as_(token))
        assert now.status_code == 201  # the ticket becomes the second table
        held = client.post("/api/match", json={"ruleset": "classic"}, headers=as_(token))
        assert held.status_code == 429 and held.json()["error"] == "too_many_tables"
