"""The list of public tables the lobby shows, kept up to date by the tables themselves.

``MemoryDirectory`` serves one process; ``cluster.directory.RedisDirectory`` is shared by
every node of a cluster.
"""

from __future__ import annotations

from typing import Protocol

from .protocol import TableInfo


class TableDirectory(Protocol):
    def put(self, info: TableInfo) -> None:
        """List a public table (or update its entry)."""

    def remove(self, table_id: str) -> None: ...

    async def listed(self) -> list[TableInfo]:
        """Every listed table."""


class MemoryDirectory:
    def __init__(self) -> None:
        self._tables: dict[str, TableInfo] = {}

    def put(self, info: TableInfo) -> None:
        self._tables[info.id] = info

    def remove(self, table_id: str) -> None:
        self._tables.pop(table_id, None)

    async def listed(self) -> list[TableInfo]:
        return list(self._tables.values())
