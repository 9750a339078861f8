"""Issue 24, finding 2: an analysis running or queued when the server died stayed
``running`` (0 of 0) for 15 minutes: nothing took it up again, asking again was
ignored, and the browser showed "Analysing…" with no button.

Now a server alone on its database queues every analysis left ``running`` again when
it starts, and a ``running`` row that no process runs reads ``failed`` (the browser
offers to ask again) and is started again when asked.
"""

from __future__ import annotations

import time
from typing import Any

from crazy_eights.server import db

from ..server.conftest import SettingsFactory
from .inprocess import as_, guest, room_of, served
from .stored import store_game

RULES = {"ruleset": "classic", "players": 2, "mode": "single"}


def _analysis(client: Any, table_id: str, seat: int = 0) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/tables/{table_id}/analysis?seat={seat}").json()
    return body


def _left_running(client: Any, table_id: str, account: int) -> None:
    """The row a server that died mid-analysis leaves behind."""

    async def write() -> None:
        async with room_of(client).engine.begin() as conn:
            await conn.execute(
                db.analyses.insert().values(
                    table_id=table_id,
                    seat=0,
                    account_id=account,
                    ruleset="classic",
                    status="running",
                    created_at=db.now(),
                )
            )

    client.portal.call(write)


def _done(client: Any, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while (body := _analysis(client, table_id))["status"] != "done":
        assert body["status"] == "running", body
        assert time.monotonic() < deadline, "the analysis was not taken up again"
        time.sleep(0.05)
    return body


def test_analyses_left_running_by_a_crash_are_taken_up_on_start(
    fast_settings: SettingsFactory,
) -> None:
    with served(fast_settings, analysis_worlds=2) as client:
        account, _ = guest(client)
        table_id, _ = client.portal.call(  # type: ignore[union-attr]
            lambda: store_game(room_of(client), RULES, 7, people={0: account}, hints=True)
        )
        _left_running(client, table_id, account)
    with served(fast_settings, analysis_worlds=2) as client:  # the server starts again
        assert _done(client, table_id)["analysis"]["decisions"]


def test_a_stuck_analysis_reads_failed_and_starts_again_when_asked(
    fast_settings: SettingsFactory,
) -> None:
    with served(fast_settings, analysis_worlds=2) as client:
        account, token = guest(client)
        table_id, _ = client.portal.call(  # type: ignore[union-attr]
            lambda: store_game(room_of(client), RULES, 8, people={0: account}, hints=True)
        )
        _left_running(client, table_id, account)  # after this server's start-up
        assert _analysis(client, table_id)["status"] == "failed"
        asked = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(token))
        assert asked.status_code == 200 and asked.json()["status"] in ("running", "done")
        assert _done(client, table_id)["analysis"]["decisions"]
