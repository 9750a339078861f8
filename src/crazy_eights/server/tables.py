"""The live tables of this process: made, restored, found and unloaded here.

A table is reached through a ``TableHandle`` (its ``request`` and ``submit``), never
through its fields: on one process the handle is the table's actor itself.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from . import db
from .connection import spawn
from .table.actor import TableActor, TableDeps
from .table.ops import Op, Player
from .table.seats import Hold, Seats
from .table.store import Spec, TableRecord

log = logging.getLogger(__name__)


def new_table_id() -> str:
    """A fresh, unguessable table id."""
    return "t_" + secrets.token_urlsafe(9)


class TableHandle(Protocol):
    """How the lobby and the sockets reach a table, wherever it runs."""

    @property
    def node(self) -> str:
        """The node that runs the table ("" on a single process)."""

    async def request(self, op: Op) -> Any:
        """Run ``op`` at the table and return its answer (or raise its ``ApiError``)."""

    def submit(self, op: Op) -> None:
        """Queue ``op`` at the table without waiting."""


class Tables:
    """Creates, restores, finds and unloads this process's table actors."""

    def __init__(self, deps: Callable[[], TableDeps]) -> None:
        self._deps = deps
        self.live: dict[str, TableActor] = {}

    def get(self, table_id: str) -> TableActor | None:
        """The actor of a table loaded on this process."""
        return self.live.get(table_id)

    async def handle(self, table_id: str) -> TableHandle | None:
        """The way to a live table, or None when it is not open or running."""
        return self.live.get(table_id)

    async def find_invite(self, code: str) -> str | None:
        """The id of the live table an invite code opens."""
        return await self._deps().store.find_invite(code)

    def _load(self, record: TableRecord) -> TableActor:
        actor = TableActor(record, self._deps())
        self.live[actor.id] = actor
        actor.start()
        return actor

    async def _adopt(self, record: TableRecord) -> TableActor:
        """Start running a table just made here."""
        return self._load(record)

    def unload(self, actor: TableActor) -> None:
        if self.live.get(actor.id) is actor:
            del self.live[actor.id]
            spawn(actor.stop())

    def lost(self, actor: TableActor) -> None:
        """The table is run elsewhere now: stop running it here."""
        if self.live.get(actor.id) is actor:
            del self.live[actor.id]
            spawn(actor.stop())

    async def create(
        self,
        spec: Spec,
        creator: Player,
        others: Sequence[Player] = (),
        *,
        table_id: str | None = None,
        at: int | None = None,
        held: Mapping[int, int] | None = None,
        hold_seconds: float = 60.0,
    ) -> TableActor:
        """A new table (id ``table_id`` if given) with the creator in seat ``at`` if it has
        no bot, else in the first seat without one, and ``others`` (people matched with
        them) in the next free seats; dealt at once when every seat is taken. ``held``
        seats (seat to account: a rematch's old players) are kept for their person for
        ``hold_seconds``, the table unlisted meanwhile."""
        deps = self._deps()
        seats = Seats.empty(spec.rules.players)
        for seat_no, level in spec.bots.items():
            seat = seats[seat_no]
            seat.bot = level
            seat.account_id = await deps.bot_account(level)
        seats.name_bots()
        until = db.now() + hold_seconds
        for seat_no, account in (held or {}).items():
            if seat_no != at and account != creator.id and not seats[seat_no].taken:
                seats[seat_no].holds[account] = Hold(until=until, rematch=True)
        free = seats.free(creator.id)
        if len(others) >= len(free):
            raise ValueError("more people than free seats")
        own = next((s for s in free if s.seat == at), free[0])
        rest = [s for s in free if s is not own]
        for seat, person in zip([own, *rest], [creator, *others], strict=False):
            seat.account_id, seat.name, seat.avatar = person.id, person.name, person.avatar
        record = TableRecord(
            id=table_id or new_table_id(),
            spec=spec,
            seed=secrets.randbits(63),
            creator=creator.id,
            invite=None if spec.public else secrets.token_urlsafe(6),
            status="open",
            created_at=db.now(),
            seats=seats,
        )
        await deps.store.create(record)
        actor = await self._adopt(record)
        if seats.full:
            await actor.start_game()
        else:
            deps.changed(actor)
        return actor

    async def restore(self) -> int:
        """Rebuild every unfinished table from the store (after a restart or a crash)."""
        store = self._deps().store
        count = 0
        for table_id in await store.unfinished():
            try:
                await self._restore(table_id)
                count += 1
            except Exception:
                log.exception("could not restore table %s", table_id)
        return count

    async def _restore(self, table_id: str) -> TableActor | None:
        record = await self._deps().store.load(table_id)
        if record is None or record.status not in ("open", "playing"):
            return None
        actor = self._load(record)
        await actor.resume(record.moves)
        self._deps().changed(actor)
        return actor

    async def close(self) -> None:
        for actor in list(self.live.values()):
            await actor.stop()
        self.live.clear()
