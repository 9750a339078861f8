"""Finding 1: a hint flood from some tables must not stall the bots of the others, and the
bot workers die with the server however it stops."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from crazy_eights.server.botpool import BotPool, PoolBusy, Priority
from crazy_eights.server.table.bots import BUSY, HintDesk
from crazy_eights.server.table.ops import HintReady, HintRefused

from .flood import first_bot_move, hint_flood
from .inprocess import as_, guest, make_table, room, room_of, until
from .loopback import Guest, alive, children, running

PAUSE = 0.3  # the bots' pause at these servers


@pytest.mark.slow
@pytest.mark.alone  # a latency bound: measured with the machine to itself
def test_another_tables_bot_moves_within_a_second_during_a_hint_flood(tmp_path: Path) -> None:
    # Sixty hint tables (the per-account table limit raised: this is the scheduler's test).
    env = {"CE_TABLES_PER_ACCOUNT": "100"}
    with running(tmp_path / "room.db", bot_workers=1, bot_delay=PAUSE, env=env) as server:
        flooders = [Guest(server) for _ in range(3)]
        victim = Guest(server)

        async def main() -> float:
            await first_bot_move(server, victim)  # the worker is up
            flood = asyncio.create_task(hint_flood(server, flooders, 20, 8.0))
            await asyncio.sleep(6.0)
            during = await first_bot_move(server, victim)
            stats = await flood
            assert stats.hints_sent > 1000 and stats.moves > 60, stats
            return during

        during = asyncio.run(main())
    assert during < PAUSE + 1.0, f"the bot waited {during - PAUSE:.2f} s behind hints"


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_bot_workers_exit_with_the_server(tmp_path: Path, how: int) -> None:
    with running(tmp_path / "room.db", bot_workers=1, bot_delay=PAUSE) as server:
        flooders = [Guest(server) for _ in range(2)]

        async def busy() -> list[int]:
            flood = asyncio.create_task(hint_flood(server, flooders, 3, 4.0))
            await asyncio.sleep(3.0)
            workers = children(server.pid)
            server.process.send_signal(how)
            await asyncio.to_thread(server.process.wait, 30)
            await asyncio.gather(flood, return_exceptions=True)
            return workers

        workers = asyncio.run(busy())
    assert workers, "the server had no worker processes"
    deadline = time.monotonic() + 5.0
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # do not leave them behind ourselves
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} worker processes outlived the server"


# -- the scheduler alone ------------------------------------------------------------------

_started: list[str] = []
_busy = {"now": 0, "most": 0}


def _slow_work(
    level: str, seed: int, view: dict[str, Any], legal: list[str], time_ms: float | None
) -> str:
    _busy["now"] += 1
    _busy["most"] = max(_busy["most"], _busy["now"])
    _started.append(view.get("job", "bot"))
    time.sleep(0.02)
    _busy["now"] -= 1
    return legal[0]


def test_moves_go_before_hints_and_tables_take_turns() -> None:
    _started.clear()
    _busy["most"] = 0

    async def main() -> None:
        pool = BotPool(0, {"move": 100, "hint": 100, "background": 100}, work=_slow_work)

        def ask(table: str, job: str, priority: Priority) -> Any:
            return pool.choose(
                level="random",
                seed=0,
                view={"job": job},
                legal=["draw"],
                table=table,
                priority=priority,
            )

        jobs = [asyncio.create_task(ask("a", f"a-hint{i}", "hint")) for i in range(6)]
        jobs += [asyncio.create_task(ask("b", f"b-hint{i}", "hint")) for i in range(2)]
        jobs.append(asyncio.create_task(ask("c", "c-analysis", "background")))
        await asyncio.sleep(0)
        jobs.append(asyncio.create_task(ask("d", "d-move", "move")))
        await asyncio.gather(*jobs)
        assert pool.running == 0
        pool.close()

    asyncio.run(main())
    assert _busy["most"] == 1  # never more jobs out than workers
    assert _started[:2] == ["a-hint0", "d-move"]
    assert _started[2:6] == ["a-hint1", "b-hint0", "a-hint2", "b-hint1"]
    assert _started[-1] == "c-analysis"


def test_a_full_hint_queue_refuses_at_once_and_the_browser_is_told(tmp_path: Path) -> None:
    async def main() -> None:
        pool = BotPool(0, {"move": 10, "hint": 2, "background": 2}, work=_slow_work)
        asks = [
            asyncio.create_task(
                pool.choose(
                    level="ismcts",
                    seed=0,
                    view={"job": str(i)},
                    legal=["draw"],
                    table=str(i),
                    priority="hint",
                )
            )
            for i in range(4)
        ]
        done = await asyncio.gather(*asks, return_exceptions=True)
        assert [type(d).__name__ for d in done].count("PoolBusy") == 1
        pool.close()

    asyncio.run(main())
    with room(tmp_path, bot_queue_hint=1) as client:
        room_of(client).bots.work = _slow_work
        _, token = guest(client)
        tables = [
            make_table(client, token, hints=True, bots=[{"seat": 1, "level": "random"}])
            for _ in range(3)
        ]
        sockets = []
        with contextlib.ExitStack() as stack:
            for table in tables:
                ws = stack.enter_context(
                    client.websocket_connect(f"/ws/tables/{table['id']}", headers=as_(token))
                )
                state = until(ws, "welcome")["state"]
                while state["view"]["current"] != 0:
                    state = until(ws, "state", version=state["version"] + 1)["state"]
                sockets.append(ws)
            for ws in sockets:
                ws.send_json({"type": "hint"})
            answers = []
            for ws in sockets:
                message = ws.receive_json()
                while message["type"] not in ("hint", "error"):
                    message = ws.receive_json()
                answers.append(message)
        refused = [m for m in answers if m["type"] == "error"]
        assert refused and refused[0]["code"] == "busy" and "busy" in refused[0]["reason"]


async def answered(got: list[Any], count: int, seconds: float = 10.0) -> None:
    """Wait until the desk has sent ``count`` answers (however slowly the loop runs)."""
    deadline = time.monotonic() + seconds
    while len(got) < count:
        assert time.monotonic() < deadline, f"{len(got)} answers of {count}: {got}"
        await asyncio.sleep(0.005)


def test_the_hint_desk_keeps_one_search_per_seat_and_answers_every_asker() -> None:
    """Asked again while its search runs, a seat's desk starts no second search: the
    askers of that position share its answer, a newer position waits for it, and a
    refusal reaches every asker."""

    class Thinker:
        def __init__(self) -> None:
            self.searches: list[int] = []
            self.busy = False

        async def choose(self, *, seed: int, **_: Any) -> str:
            self.searches.append(seed)
            if self.busy:
                raise PoolBusy("at most 1 hint jobs may wait")
            await asyncio.sleep(0.02)
            return f"move-{seed}"

    async def main() -> tuple[list[Any], list[int]]:
        got: list[Any] = []
        thinker = Thinker()
        desk = HintDesk(thinker, submit=got.append, table_id="t")
        for member in ("a", "b", "a"):
            desk.ask(member_id=member, version=3, seat=0, view={}, legal=["draw"])
        desk.ask(member_id="a", version=5, seat=0, view={}, legal=["draw"])
        await answered(got, 3)  # a and b for position 3, then a for 5
        thinker.busy = True
        desk.ask(member_id="c", version=7, seat=0, view={}, legal=["draw"])
        await answered(got, 4)
        return got, thinker.searches

    got, searches = asyncio.run(main())
    assert searches == [3, 5, 7]
    assert sorted(map(repr, got[:2])) == sorted(
        map(repr, [HintReady("a", 3, "move-3"), HintReady("b", 3, "move-3")])
    )
    assert got[2:] == [HintReady("a", 5, "move-5"), HintRefused("c", BUSY)]
