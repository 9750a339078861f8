"""Rematches: the one follow-up table of a finished table, made or found for each asker.

The follow-up keeps the other old players' seats for them (``hold_seconds``) and stays
off the lobby's list meanwhile, so no stranger takes a seat of the rematch.

The finished table runs each ask as an operation (``table/rematcher.on_rematch``), so asks
at one table are answered one at a time; the follow-up is named in the finished table's
row by a conditional update (``TableStore.claim_rematch``), so even asks that do not meet
there (two nodes, or a table unloaded in between) make one table. A finished table that
is no longer loaded is answered from the database (``from_store``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .errors import ApiError
from .protocol import TableInfo
from .table import ops
from .table.rematch import FollowUpAsk, asker
from .table.store import TableStore
from .tables import TableHandle, Tables, new_table_id

MAKING_TRIES = 50  # looks at a follow-up another asker is making, MAKING_WAIT apart
MAKING_WAIT = 0.1
REMATCH_RATE = 1.0
"""Asks to play again an account may make a second ..."""
REMATCH_BURST = 5.0
"""... in bursts of this many (beyond: 429 ``throttled``)."""


class FollowUps:
    """Makes the follow-up table of a finished one, or seats a later asker at it."""

    def __init__(
        self, store: TableStore, tables: Callable[[], Tables], *, hold_seconds: float = 60.0
    ) -> None:
        self.store = store
        self.tables = tables
        self.hold_seconds = hold_seconds
        """How long the follow-up keeps the other old players' seats (unlisted)."""

    async def __call__(self, ask: FollowUpAsk) -> TableInfo:
        """The follow-up's info as the asker sees it, with the asker seated."""
        if await self.store.rematch_of(ask.table_id) is None:
            made = new_table_id()
            if await self.store.claim_rematch(ask.table_id, made) == made:
                actor = await self.tables().create(
                    ask.spec,
                    ask.player,
                    table_id=made,
                    at=ask.seat,
                    held=dict(ask.others),
                    hold_seconds=self.hold_seconds,
                )
                return actor.info(for_account=ask.player.id)
        table, invite = await self._reach(ask.table_id)
        info: TableInfo = await table.request(ops.Describe(ask.player.id, invite))
        if any(s.account == ask.player.id and not s.bot for s in info.seats):
            return info  # asked again: seated already
        try:
            info = await table.request(ops.Sit(ask.player, ask.seat, invite))
        except ApiError as exc:
            if exc.code != "seat_taken":
                raise
            info = await table.request(ops.Sit(ask.player, None, invite))
        return info

    async def _reach(self, table_id: str) -> tuple[TableHandle, str | None]:
        """The way to the finished table's follow-up and its invite code; waits while
        another asker is still making it."""
        for _ in range(MAKING_TRIES):
            row = await self.store.rematch_of(table_id)
            if row is None or row.status in ("finished", "abandoned"):
                break
            table = None if row.status is None else await self.tables().handle(row.id)
            if table is not None:
                return table, row.invite
            await asyncio.sleep(MAKING_WAIT)
        raise ApiError(409, "rematch_over", "the rematch has already been played or given up")

    async def from_store(self, table_id: str, player: ops.Player) -> TableInfo:
        """Answer an ask at a finished table that is no longer loaded, from its row."""
        record = await self.store.load(table_id)
        if record is None:
            raise ApiError(404, "no_table", "no such table")
        return await self(asker(record.status, record.seats, player, table_id, record.spec))
