"""Issue 13 item 10: two first saves of an account's settings at the same moment both
succeed (an upsert), where the second used to fail with a 500 on PostgreSQL (SQLite
serialises the two writers, so there this test guards the upsert's SQL only)."""

from __future__ import annotations

from starlette.testclient import TestClient

from ..server.conftest import as_, guest
from .conftest import Call, at_once, warm


def test_first_saves_at_once_both_succeed(db_client: TestClient) -> None:
    client = db_client
    warm(client)
    for round_ in range(5):
        _, token = guest(client)
        saves = [
            Call("PUT", "/api/me/settings", {"theme": f"t{i}"}, headers=as_(token))
            for i in range(4)
        ]
        answers = at_once(client, saves)
        assert [r.status_code for r in answers] == [200] * 4, (round_, [r.text for r in answers])
        kept = client.get("/api/me/settings", headers=as_(token)).json()
        assert kept in [{"theme": f"t{i}"} for i in range(4)]
