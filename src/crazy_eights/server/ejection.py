"""Closing every socket a person holds on this process, with the reason: a ban does it.

The table sockets are found through the process's ``LocalSockets`` (which sign-out uses
too); the lobby and quick play's sockets are not a table's, so each registers here while
it is open (``held``). ``moderation.Moderation`` tells ``eject`` of every ban it hears,
from this node or from another over the bus, so the person's sockets close on every node.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from .table.fanout import AccountSockets

BANNED = 4030
"""The close code of a banned person's sockets (the reason says until when and why)."""

Closer = Callable[[int, str], object]
"""Closes one socket with a code and a reason."""


class Ejector:
    """This process's sockets of each account that are not at a table, and the one way
    to close all of a person's sockets."""

    def __init__(self, tables: AccountSockets) -> None:
        self._tables = tables
        self._others: dict[int, set[Closer]] = {}

    @contextlib.contextmanager
    def held(self, account_id: int | None, close: Closer) -> Iterator[None]:
        """Count a lobby or queue socket of ``account_id`` while the block runs."""
        if account_id is None:
            yield
            return
        closers = self._others.setdefault(account_id, set())
        closers.add(close)
        try:
            yield
        finally:
            closers.discard(close)
            if not closers:
                self._others.pop(account_id, None)

    def eject(self, account_id: int, reason: str) -> None:
        """Close every socket of the account here (code ``BANNED``) with ``reason``."""
        self._tables.close_account(account_id, session=None, code=BANNED, reason=reason)
        for close in list(self._others.get(account_id, ())):
            close(BANNED, reason)

    def holding(self, account_id: int) -> int:
        """How many lobby and queue sockets of the account are open here (for tests)."""
        return len(self._others.get(account_id, ()))
