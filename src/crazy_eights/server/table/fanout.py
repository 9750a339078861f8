"""Carrying a table's messages to its members' sockets.

The actor hands a ``Fanout`` (member, text) pairs and never touches a socket. On one
process the sockets are all here (``LocalFanout``); in cluster mode a member's socket may
be held by another node, and the cluster's fan-out routes its text there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from ..connection import Conn
from .members import Member

Audit = Callable[[str, int | None, str], None]
"""A test hook that sees every message a table sends: (table id, seat, text)."""


class Fanout(Protocol):
    def deliver(self, table_id: str, items: Iterable[tuple[Member, str]]) -> None:
        """Send each text to its member's socket, in order, without waiting."""

    def close(self, member: Member, code: int) -> None:
        """Close the member's socket after what was already sent to it."""


class LocalSockets:
    """The sockets this process holds, by member id, with the table each is at and the
    node running that table when it joined."""

    def __init__(self) -> None:
        self._conns: dict[str, Conn] = {}
        self._where: dict[str, tuple[str, str]] = {}  # member -> (table, node)

    def __len__(self) -> int:
        return len(self._conns)

    def add(self, member_id: str, conn: Conn, *, table_id: str = "", node: str = "") -> None:
        self._conns[member_id] = conn
        self._where[member_id] = (table_id, node)

    def remove(self, member_id: str) -> None:
        self._conns.pop(member_id, None)
        self._where.pop(member_id, None)

    def get(self, member_id: str) -> Conn | None:
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
