"""The lobby: the public tables every lobby page shows, and what a new table is made of.

The list of tables lives in a ``TableDirectory`` and its changes go out on a ``Bus``;
both are in memory on one process and in Redis when the room runs as several. The
routes are ``api/lobby.py``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Rules, RulesError

from .auth import Account
from .bus import Bus
from .directory import TableDirectory
from .errors import ApiError
from .protocol import LobbyRemoved, LobbyTable, TableInfo
from .records.games import load_game
from .records.info import stored_info
from .table import absence, ops
from .table.actor import TableActor
from .tables import Tables

LOBBY = "lobby"


class Lobby:
    """What every lobby page shows: the public tables, kept in a ``TableDirectory`` and
    announced on the ``Bus`` as they change."""

    def __init__(self, bus: Bus, directory: TableDirectory) -> None:
        self.bus = bus
        self.directory = directory

    def table_changed(self, actor: TableActor) -> None:
        if not actor.spec.public:
            return
        if (
            actor.status in ("finished", "abandoned")
            or (actor.status == "playing" and absence.unattended(actor.seats, actor.members))
            or actor.unlisted
        ):  # over, only bots left playing out absent players' seats, or a rematch still
            # holding its old players' seats: not listed
            self.hide(actor.id)
        else:
            self.show(actor.info())

    def show(self, info: TableInfo) -> None:
        """List a table (or its new info) and tell the lobby pages."""
        self.directory.put(info)
        self.bus.publish(LOBBY, LobbyTable(table=info).model_dump(mode="json"))

    def hide(self, table_id: str) -> None:
        """Take a table off the list and tell the lobby pages."""
        self.directory.remove(table_id)
        self.bus.publish(LOBBY, LobbyRemoved(id=table_id).model_dump(mode="json"))

    async def listed(self) -> list[TableInfo]:
        """Open and running public tables, oldest first."""
        return sorted(await self.directory.listed(), key=lambda t: t.created_at)


def player(account: Account) -> ops.Player:
    """An account as a table shows it."""
    return ops.Player(id=account.id, name=account.display_name, avatar=account.avatar)


def make_rules(data: dict[str, Any]) -> Rules:
    """The rules of a new table from the settings asked for (422 ``bad_rules``). The
    room's tables draw their first dealer from the seed (RULES G9) unless the settings
    name ``first_dealer``; the engine's default, seat 0, stays for the games stored
    before."""
    try:
        rules = Rules.from_dict(data)
        if rules.first_dealer is not None and "first_dealer" not in data:
            rules = rules.replace(first_dealer="drawn")
        return rules
    except (RulesError, TypeError) as exc:
        raise ApiError(422, "bad_rules", str(exc)) from None


def check_table_limit(
    tables: Tables,
    limit: int,
    account: Account,
    sitting_at: str | None = None,
    *,
    waiting: bool = False,
) -> None:
    """Refuse (429) an account that already holds a seat at its share of live tables
    (the table it is sitting down at does not count; a ticket ``waiting`` in quick
    play's queue does, as it becomes a table)."""
    held = int(waiting) + sum(
        1
        for actor in tables.live.values()
        if actor.id != sitting_at
        and actor.status in ("open", "playing")
        and actor.seat_of(account.id) is not None
    )
    if held >= limit:
        raise ApiError(
            429,
            "too_many_tables",
            f"you already play at {held} tables (at most {limit}): finish or leave one first",
        )


async def stored_table(
    engine: AsyncEngine, table_id: str, account_id: int | None, code: str | None
) -> TableInfo:
    """The info of a table no process runs (404 without one; 403 for a private table
    without its code or a seat)."""
    async with engine.connect() as conn:
        game = await load_game(conn, table_id, "seats", "move_count")
    if game is None:
        raise ApiError(404, "no_table", "no such table")
    if not game.visible_to(account_id, code):
        raise ApiError(403, "invite_needed", "this table is private: use its invite code")
    return stored_info(game)
