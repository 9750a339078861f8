"""The table's pieces one at a time: seats, members, timers, chat, bot turns, hints, the
actor against a store and a fan-out of our own, and the rating maths."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, get_args

import pytest

from crazy_eights.engine import Rules
from crazy_eights.server import ratings
from crazy_eights.server.table.actor import HANDLERS, TableActor, TableDeps
from crazy_eights.server.table.bots import BotTurns, HintDesk
from crazy_eights.server.table.chat import RATE, ChatRoom
from crazy_eights.server.table.clock import GraceTimers, TurnClock
from crazy_eights.server.table.members import Member, Members
from crazy_eights.server.table.ops import BotMove, HintReady, Join, Op, Play, Start
from crazy_eights.server.table.seats import Seat, Seats
from crazy_eights.server.table.store import (
    ChatLine,
    FollowUpRow,
    Spec,
    StoreError,
    TableRecord,
)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- seats and members ------------------------------------------------------------------


def test_seat_of_finds_people_only_and_not_those_who_left() -> None:
    seats = Seats(
        [
            Seat(0, account_id=7),
            Seat(1, account_id=8, bot="random"),
            Seat(2, account_id=9, left=True),
            Seat(3),
        ]
    )
    assert seats.seat_of(7) == 0
    assert seats.seat_of(8) is None and seats.seat_of(9) is None and seats.seat_of(None) is None
    assert [s.seat for s in seats.free()] == [3] and not seats.full
    assert seats.any_human
    seats[0].left = True
    assert not seats.any_human


def test_members_follow_the_seating() -> None:
    seats = Seats([Seat(0, account_id=1), Seat(1)])
    members = Members()
    alice, watcher = Member(1, "alice"), Member(None, "spectator")
    members.add(alice)
    members.add(watcher)
    members.reseat(seats)
    assert alice.seat == 0 and watcher.seat is None
    assert members.at(0) and not members.at(1) and members.spectators == 1
    assert members.remove(alice.id) is alice and not members.at(0)


# -- timers -----------------------------------------------------------------------------


def test_turn_clock_calls_back_once_with_its_version_and_can_be_cancelled() -> None:
    async def main() -> list[int]:
        fired: list[int] = []
        clock = TurnClock(fired.append)
        clock.arm(0.01, 3)
        clock.arm(0.02, 4)  # re-arming replaces the first deadline
        assert 0 < clock.left() <= 0.02
        await asyncio.sleep(0.05)
        clock.arm(0.01, 5)
        clock.cancel()
        await asyncio.sleep(0.03)
        return fired

    assert run(main()) == [4]


def test_grace_runs_once_per_seat_until_cancelled() -> None:
    async def main() -> list[int]:
        over: list[int] = []
        grace = GraceTimers(0.02, over.append)
        grace.start(0)
        grace.start(0)  # already running: not doubled
        grace.start(1)
        assert grace.running(0) and grace.left(1) is not None
        grace.cancel(1)
        assert grace.left(1) is None
        await asyncio.sleep(0.06)
        return over

    assert run(main()) == [0]


# -- chat -------------------------------------------------------------------------------


def test_chat_rate_is_per_speaker() -> None:
    room = ChatRoom()
    limit, _ = RATE
    assert all(room.refusal("a") is None for _ in range(limit))
    assert room.refusal("a") is not None
    assert room.refusal("b") is None


def test_chat_keeps_the_recent_lines() -> None:
    room = ChatRoom(ChatLine(None, None, "x", str(i), float(i)) for i in range(80))
    assert len(room.lines) == 50 and room.lines[-1].text == "79"


# -- bots and hints ---------------------------------------------------------------------


@dataclass
class FakeThinker:
    """Answers after ``delay`` with the last legal move; counts what it was asked."""

    delay: float = 0.0
    fail: bool = False
    asked: list[dict[str, Any]] = field(default_factory=list)

    async def choose(
        self, *, level: str, seed: int, view: dict[str, Any], legal: list[str], **_: Any
    ) -> str:
        self.asked.append({"level": level, "seed": seed})
        await asyncio.sleep(self.delay)
        if self.fail:
            raise RuntimeError("no idea")
        return legal[-1]


def test_bot_turns_think_one_at_a_time_and_fall_back_to_the_first_legal_move() -> None:
    async def main() -> tuple[list[Op], int]:
        got: list[Op] = []
        thinker = FakeThinker(delay=0.01, fail=True)
        turns = BotTurns(thinker, table_id="t", seed=1, delay=0.0, submit=got.append)
        for _ in range(3):
            turns.think(version=0, seat=1, level="random", view={}, legal=["draw", "7H"])
        await asyncio.sleep(0.05)
        return got, len(thinker.asked)

    got, asked = run(main())
    assert asked == 1
    assert got == [BotMove(0, 1, "draw", ("draw", "7H"))]


def test_hints_one_search_per_seat_and_one_answer_per_position() -> None:
    async def main() -> tuple[list[Op], int]:
        got: list[Op] = []
        thinker = FakeThinker(delay=0.02)
        desk = HintDesk(thinker, submit=got.append)
        for _ in range(5):
            desk.ask(member_id="m", version=4, seat=0, view={}, legal=["draw", "7H"])
        await asyncio.sleep(0.05)
        desk.ask(member_id="m2", version=4, seat=0, view={}, legal=["draw", "7H"])
        return got, len(thinker.asked)

    got, asked = run(main())
    assert asked == 1
    assert got == [HintReady("m", 4, "7H"), HintReady("m2", 4, "7H")]


# -- the actor against its interfaces ---------------------------------------------------


class MemoryStore:
    """A ``TableStore`` in a list; ``refuse`` makes every move write fail."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, int | None, str]] = []
        self.statuses: list[str] = []
        self.finished: dict[str, Any] | None = None
        self.refuse = False

    async def create(self, record: TableRecord) -> None:
        pass

    async def load(self, table_id: str) -> TableRecord | None:
        return None

    async def unfinished(self) -> list[str]:
        return []

    async def find_invite(self, code: str) -> str | None:
        return None

    async def claim_rematch(self, table_id: str, follow_up: str) -> str:
        return follow_up

    async def rematch_of(self, table_id: str) -> FollowUpRow | None:
        return None

    async def save_seat(self, table_id: str, seat: Seat) -> None:
        pass

    async def set_status(self, table_id: str, status: Any, **times: float) -> None:
        self.statuses.append(status)

    async def append_move(self, table_id: str, n: int, seat: int | None, move: str) -> None:
        if self.refuse:
            raise StoreError("disk full")
        self.moves.append((n, seat, move))

    async def finish(
        self, table_id: str, *, spec: Spec, seats: Seats, result: dict[str, Any]
    ) -> dict[int, tuple[int, int]]:
        self.finished = result
        return {}

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        pass


class RecordingFanout:
    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.sent: list[tuple[str, dict[str, Any], int]] = []  # member, message, moves stored

    def deliver(self, table_id: str, items: Iterable[tuple[Member, str]]) -> None:
        for member, text in items:
            self.sent.append((member.id, json.loads(text), len(self.store.moves)))

    def close(self, member: Member, code: int) -> None:
        pass


def make_actor(store: MemoryStore, fanout: RecordingFanout) -> TableActor:
    async def bot_account(level: str) -> int:
        return 100

    rules = Rules.preset("classic", players=2).replace(mode="single")
    record = TableRecord(
        id="t_test",
        spec=Spec(name="test", rules=rules, public=True, hints=False, takeover_after=2),
        seed=5,
        creator=1,
        invite=None,
        status="open",
        created_at=0.0,
        seats=Seats([Seat(0, account_id=1, name="a"), Seat(1, account_id=2, name="b")]),
    )
    deps = TableDeps(
        store=store,
        fanout=fanout,
        thinker=FakeThinker(),
        bot_account=bot_account,
        changed=lambda actor: None,
        idle=lambda actor: None,
    )
    return TableActor(record, deps)


def test_the_actor_dispatches_every_operation_and_nothing_else() -> None:
    assert set(HANDLERS) == set(get_args(Op))


def test_a_move_is_stored_before_anyone_hears_of_it_and_a_failed_write_changes_nothing() -> None:
    async def main() -> None:
        store = MemoryStore()
        fanout = RecordingFanout(store)
        actor = make_actor(store, fanout)
        actor.start()
        members = [Member(1, "a"), Member(2, "b")]
        for member in members:
            assert (await actor.request(Join(member))).ok
        await actor.request(Start(1))
        assert actor.game is not None and store.statuses == ["playing"]
        mover = members[actor.game.current_player or 0]
        move = actor.game.legal_moves()[0].text
        before = actor.game.view(0)

        store.refuse = True
        await actor.request(Play(mover.id, 0, move))
        assert actor.version == 0 and actor.game.view(0) == before
        error = fanout.sent[-1][1]
        assert error["type"] == "error" and "could not save" in error["reason"]

        store.refuse = False
        await actor.request(Play(mover.id, 0, move))
        assert actor.version == 1 and store.moves[0][2].startswith(move.rstrip("!"))
        states = [(m, n) for _, m, n in fanout.sent if m["type"] == "state"]
        assert len(states) == 2 and all(n == 1 for _, n in states)
        await actor.stop()

    run(main())


# -- ratings ----------------------------------------------------------------------------


def test_leavers_rank_last_and_one_account_on_two_seats_counts_once() -> None:
    result = {"standings": [2, 0, 1], "winner": 2, "points": [5, 9, 0]}
    placed = ratings.placings([(0, 10, False), (1, 10, False), (2, 11, True)], result)
    assert placed[10] == ratings.Placing(rank=1, seat=0, won=False)
    assert placed[11].rank == 3 and not placed[11].won


def test_rated_games_move_ratings_and_unrated_ones_only_the_record() -> None:
    placed = {1: ratings.Placing(0, 0, True), 2: ratings.Placing(1, 1, False)}
    rated = ratings.after_game({}, placed, rated=True, points=[12, 0])
    assert rated[1].mu > ratings.MODEL.mu > rated[2].mu
    assert rated[1].wins == 1 and rated[1].streak == 1 and rated[1].points == 12
    unrated = ratings.after_game(rated, placed, rated=False, points=[3, 0])
    assert unrated[1].mu == rated[1].mu and unrated[1].rated_games == 1
    assert unrated[1].games == 2 and unrated[1].best_streak == 2 and unrated[2].streak == 0


@pytest.mark.parametrize(
    "module", ["crazy_eights.server.ratings", "crazy_eights.server.table.seats"]
)
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


# -- the SQL store ----------------------------------------------------------------------


def test_sql_store_keeps_what_rebuilds_a_table(tmp_path: Any) -> None:
    from crazy_eights.server import db
    from crazy_eights.server.records.tables import SqlTableStore

    async def main() -> None:
        engine = db.make_engine(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}")
        await db.migrate(engine)
        writer = db.Writer(engine)
        writer.start()
        store = SqlTableStore(engine, writer)
        async with engine.begin() as conn:
            await conn.execute(
                db.accounts.insert().values(
                    id=1, name="ann", display_name="Ann", guest=True, created_at=0.0
                )
            )
        rules = Rules.preset("ultimate", players=3)
        record = TableRecord(
            id="t_store",
            spec=Spec(
                name="s",
                rules=rules,
                public=False,
                hints=True,
                takeover_after=0,
                bots={2: "random"},
            ),
            seed=2**62,
            creator=1,
            invite="abc",
            status="open",
            created_at=1.5,
            seats=Seats([Seat(0, account_id=1), Seat(1), Seat(2, bot="random")]),
        )
        await store.create(record)
        await store.set_status("t_store", "playing", started_at=2.0)
        await store.append_move("t_store", 0, 0, "draw")
        await store.append_move("t_store", 1, 2, "7H")
        store.add_chat("t_store", ChatLine(0, 1, "Ann", "hi", 3.0))
        with pytest.raises(StoreError):
            await store.append_move("t_store", 1, 2, "8S:H")  # move 1 is taken
        await writer.stop()
        writer = db.Writer(engine)
        store = SqlTableStore(engine, writer)
        loaded = await store.load("t_store")
        assert loaded is not None
        assert loaded.spec == record.spec and loaded.seed == 2**62 and loaded.status == "playing"
        assert loaded.moves == [(0, "draw"), (2, "7H")]
        assert [s.name for s in loaded.seats] == ["Ann", None, "Easy bot"]
        assert [c.text for c in loaded.chat] == ["hi"]
        assert await store.unfinished() == ["t_store"]
        assert await store.find_invite("abc") == "t_store" and await store.find_invite("x") is None
        assert await store.load("nope") is None
        await engine.dispose()

    run(main())
