"""What a table's handlers work with: its state, its outbox, its store and its notices.

Every handler (``seating``, ``play``, ``talk``, ...) is a function of a
``TableContext`` and an operation. The context is narrow on purpose: a handler reaches
the table's state, says things to its members, writes to the store and tells the
process what happened (``Notices``), and nothing else; it never sees the actor, its
queue or the process's other tables.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..protocol import TableOut
from . import messages
from .outbox import Outbox
from .rematch import FollowUps
from .state import TableState
from .store import Status, TableStore


@dataclass(frozen=True)
class Notices:
    """What the table tells the process it runs on (bound to the table by its actor)."""

    changed: Callable[[], None]
    """The table's public info changed (the lobby listens)."""
    idle: Callable[[], None]
    """A finished or abandoned table has nobody left watching: it may be unloaded."""
    lost: Callable[[], None]
    """The store refused a move because another process owns the table now."""
    finished: Callable[[], None]
    """The game is over and stored (game analysis listens)."""
    released: Callable[[list[int]], None] = lambda accounts: None
    """The seats held for these people are no longer (one sat down, another took the
    seat, the time ran out, the game started): their invitations are withdrawn."""


@dataclass(frozen=True)
class TableContext:
    """One table as its handlers see it."""

    table: TableState
    out: Outbox
    store: TableStore
    notices: Notices
    bot_account: Callable[[str], Awaitable[int]]
    """The account that plays (and is rated) for a bot level."""
    follow_ups: FollowUps | None
    """Makes or finds a finished table's rematch; None: no rematches here."""
    away_seconds: float
    """Seconds a player who dropped out of a running game is waited for."""
    max_spectators: int
    """Watchers the table lets in (its players always get in)."""
    muted: Callable[[int], str | None] = lambda account: None
    """Why an account may not chat now (None: it may): a moderator's mute."""

    async def set_status(self, status: Status, **times: float) -> None:
        """Change the table's status, here and in the store."""
        self.table.status = status
        await self.store.set_status(self.table.id, status, **times)

    def info_changed(self) -> None:
        """Seats or status changed: everyone gets the table's info (which also says any
        presence not told yet), and the lobby hears of it."""
        table = self.table
        table.presence.take()
        clock = messages.clock(table)
        texts: dict[bool, str] = {}  # only the creator's copy differs (the invite)
        items = []
        for m in table.members:
            creator = m.account_id is not None and m.account_id == table.creator
            text = texts.get(creator)
            if text is None:
                info = messages.table_info(table, for_account=table.creator if creator else None)
                text = texts[creator] = TableOut(
                    table=table.id, clock=clock, info=info
                ).model_dump_json()
            items.append((m, text))
        self.out.deliver(items)
        self.notices.changed()

    def tell_presence(self) -> None:
        """Who came and went since the last time, in one message to everyone."""
        presence = self.table.presence
        if not presence.pending:
            return
        self.out.to_all(messages.presence(self.table, presence.take()))
        self.notices.changed()
