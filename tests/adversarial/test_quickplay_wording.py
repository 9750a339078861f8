"""Issue 24, finding 11: asking quick play for OpenSpiel's game said "unknown ruleset
'openspiel'", though the ruleset exists (quick play has no length for it)."""

from __future__ import annotations

from pathlib import Path

from .inprocess import as_, guest, room


def test_a_ruleset_without_quick_play_is_named_as_such(tmp_path: Path) -> None:
    with room(tmp_path) as client:
        _, token = guest(client)
        asked = client.post("/api/match", json={"ruleset": "openspiel"}, headers=as_(token))
        assert asked.status_code == 422
        body = asked.json()
        assert body["error"] == "no_quick_play"
        assert "unknown" not in body["detail"] and "make a table" in body["detail"]
        unknown = client.post("/api/match", json={"ruleset": "poker"}, headers=as_(token))
        assert unknown.json()["error"] == "bad_rules"
