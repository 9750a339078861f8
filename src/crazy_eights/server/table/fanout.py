"""Carrying a table's messages to its members' connections on this process.

A table hands its ``Fanout`` (member, text) pairs and never touches a connection (the
seam is described in ``transport``). On one process every connection is here
(``LocalFanout`` over ``LocalSockets``); in cluster mode a member's connection may be
held by another node, and the cluster's fan-out routes its text there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from .members import Member
from .transport import Fanout, Link

__all__ = ["AccountSockets", "Audit", "Fanout", "LocalFanout", "LocalSockets"]

Audit = Callable[[str, int | None, str], None]
"""A test hook that sees every message a table sends: (table id, seat, text)."""


class AccountSockets(Protocol):
    """Finding an account's table sockets wherever they are (sign-out closes them)."""

    def close_account(
        self, account_id: int, *, session: str | None, code: int, reason: str
    ) -> None:
        """Close the account's sockets (only those opened with ``session``, when given)."""


class LocalSockets:
    """The connections (``Link``) this process holds, by member id: the table each is at
    and the node running that table when it joined, and the account and session that
    opened it."""

    def __init__(self) -> None:
        self._conns: dict[str, Link] = {}
        self._where: dict[str, tuple[str, str]] = {}  # member -> (table, node)
        self._owners: dict[str, tuple[int, str | None]] = {}  # member id -> account, session
        self._by_account: dict[int, set[str]] = {}

    def __len__(self) -> int:
        return len(self._conns)

    def add(
        self,
        member_id: str,
        conn: Link,
        *,
        table_id: str = "",
        node: str = "",
        account_id: int | None = None,
        session: str | None = None,
    ) -> None:
        self._conns[member_id] = conn
        self._where[member_id] = (table_id, node)
        if account_id is not None:
            self._owners[member_id] = (account_id, session)
            self._by_account.setdefault(account_id, set()).add(member_id)

    def remove(self, member_id: str) -> None:
        self._conns.pop(member_id, None)
        self._where.pop(member_id, None)
        owner = self._owners.pop(member_id, None)
        if owner is not None:
            members = self._by_account.get(owner[0], set())
            members.discard(member_id)
            if not members:
                self._by_account.pop(owner[0], None)

    def close_account(
        self, account_id: int, *, session: str | None, code: int, reason: str
    ) -> None:
        for member_id in list(self._by_account.get(account_id, ())):
            if session is None or self._owners[member_id][1] == session:
                self._conns[member_id].close(code, reason)

    def get(self, member_id: str) -> Link | None:
        return self._conns.get(member_id)

    def at(self, table_id: str) -> list[tuple[str, str]]:
        """(member, node it joined through) for every socket at the table."""
        return [(m, node) for m, (t, node) in self._where.items() if t == table_id]


class LocalFanout:
    """Every member's socket is on this process."""

    def __init__(self, sockets: LocalSockets) -> None:
        self.sockets = sockets
        self.audit: Audit | None = None

    def deliver(self, table_id: str, items: Iterable[tuple[Member, str]]) -> None:
        audit = self.audit
        for member, text in items:
            if audit is not None:
                audit(table_id, member.seat, text)
            conn = self.sockets.get(member.id)
            if conn is not None:
                conn.send(text)

    def close(self, member: Member, code: int) -> None:
        conn = self.sockets.get(member.id)
        if conn is not None:
            conn.close(code)
