"""Issue 24, finding 3: the analysis queue was first in, first out with no bound: two
guests asking for the analyses of many long games made an honest player's short one
wait behind all of them, and automatic analyses ran for seats only a stand-in bot
played.

Now several analyses run at once and their decisions are judged with the accounts
taking turns (and the waiting ones start account by account), an account has at most
``PER_ACCOUNT`` waiting or running (429 ``too_many_analyses`` beyond), and a rated
game's automatic analyses are for the seats a person played.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import sqlalchemy as sa

from crazy_eights.server import db
from crazy_eights.server.analysis import PER_ACCOUNT

from ..server.conftest import SettingsFactory
from .inprocess import as_, guest, room_of, served
from .stored import store_game

SHORT = {"ruleset": "classic", "players": 2, "mode": "single"}
LONG = {"ruleset": "classic", "players": 4, "mode": "match", "target": 300}


def _finished_order(client: Any) -> list[tuple[str, str]]:
    async def read() -> list[tuple[str, str]]:
        query = sa.select(db.analyses).order_by(db.analyses.c.finished_at)
        async with room_of(client).engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(r.table_id, r.status) for r in rows]

    assert client.portal is not None
    result: list[tuple[str, str]] = client.portal.call(read)
    return result


def _wait_all_done(client: Any, count: int) -> None:
    """Wait until ``count`` analyses are stored and none is under way. A finished game's
    analyses are asked for after its commit, and each is claimed (its row written
    ``running``) before it is queued: an idle queue alone can come before either."""

    async def settled() -> bool:
        return not room_of(client).analyses.busy

    assert client.portal is not None
    deadline = time.monotonic() + 60
    while True:
        rows = _finished_order(client)
        under_way = [row for row in rows if row[1] == "running"]
        if len(rows) >= count and not under_way and client.portal.call(settled):
            break
        assert time.monotonic() < deadline, f"analyses never settled: {rows}"
        time.sleep(0.02)  # a poll of the state waited for
    assert len(_finished_order(client)) == count


def test_an_honest_analysis_takes_its_turn_between_two_flooders(
    fast_settings: SettingsFactory,
) -> None:
    with served(fast_settings, analysis_worlds=2) as client:
        the_room = room_of(client)
        gate = asyncio.Event()
        real_run = the_room.bots.run

        async def held_run(*args: Any, **kwargs: Any) -> Any:
            await gate.wait()  # nothing is judged until every analysis is queued
            return await real_run(*args, **kwargs)

        the_room.bots.run = held_run
        flooders = [guest(client) for _ in range(2)]
        honest_id, honest = guest(client)
        assert client.portal is not None

        def stored(rules: dict[str, Any], account: int, seed: int) -> str:
            table_id, _ = client.portal.call(  # type: ignore[union-attr]
                lambda: store_game(the_room, rules, seed, people={0: account}, hints=True)
            )
            return table_id

        flood = {
            a: [stored(LONG, a, 10 * a + k) for k in range(PER_ACCOUNT + 1)] for a, _ in flooders
        }
        mine = stored(SHORT, honest_id, 99)
        for account, token in flooders:
            tables = flood[account]
            for table_id in tables[:PER_ACCOUNT]:
                asked = client.post(f"/api/tables/{table_id}/analysis?seat=0", headers=as_(token))
                assert asked.status_code == 200, asked.text
            over = client.post(f"/api/tables/{tables[-1]}/analysis?seat=0", headers=as_(token))
            assert over.status_code == 429 and over.json()["error"] == "too_many_analyses"
        asked = client.post(f"/api/tables/{mine}/analysis?seat=0", headers=as_(honest))
        assert asked.status_code == 200
        client.portal.call(lambda: _open(gate))
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{mine}/analysis?seat=0").json()["status"] != "done":
            assert time.monotonic() < deadline, "the honest analysis was never done"
            time.sleep(0.05)
        done = _done_so_far(client)
        ours = done.pop(mine)
        # the accounts took turns decision by decision: a flood analysis done before the
        # honest one is no longer than it (without turns, every one of them was done first)
        assert all(count <= ours for count in done.values()), (ours, done)


def _done_so_far(client: Any) -> dict[str, int]:
    """Each analysis done so far: its number of decisions."""

    async def read() -> dict[str, int]:
        query = sa.select(db.analyses).where(db.analyses.c.status == "done")
        async with room_of(client).engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {r.table_id: len(r.payload["decisions"]) for r in rows}

    assert client.portal is not None
    result: dict[str, int] = client.portal.call(read)
    return result


async def _open(gate: asyncio.Event) -> None:
    gate.set()


def test_automatic_analyses_are_for_seats_a_person_played(fast_settings: SettingsFactory) -> None:
    with served(fast_settings, analysis_worlds=2) as client:
        the_room = room_of(client)
        played, _ = guest(client)
        absent, _ = guest(client)
        assert client.portal is not None
        rules = {"ruleset": "classic", "players": 3, "mode": "single"}

        async def two_games() -> None:
            await store_game(the_room, rules, 5, people={0: played, 1: played + 0})
            await store_game(the_room, rules, 6, people={0: absent}, played=False)

        client.portal.call(two_games)
        _wait_all_done(client, 2)  # the two seats of the first game; none of the second
        rows = _finished_order(client)
        assert {status for _, status in rows} == {"done"}
