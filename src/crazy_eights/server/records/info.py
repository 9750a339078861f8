"""The ``TableInfo`` of a stored table: what the lobby answers about a table that no
process runs any more (finished, or not loaded)."""

from __future__ import annotations

from ..protocol import SeatInfo, TableInfo
from ..table.seats import bot_names
from .games import StoredGame


def stored_info(game: StoredGame) -> TableInfo:
    """A stored table's settings and seats (load it with ``seats`` and ``move_count``);
    bots are named as a live table names them, nobody is shown connected."""
    row = game.row
    names = bot_names([s.bot_level for s in game.seats])
    return TableInfo(
        id=row.id,
        name=row.name,
        ruleset=row.ruleset,
        rules=row.rules,
        status=row.status,
        public=row.public,
        rated=not row.hints and row.public,
        hints=row.hints,
        takeover_after=row.takeover_after,
        creator=row.creator_id,
        seats=[
            SeatInfo(
                seat=s.seat,
                account=s.account_id,
                name=bot_name or s.display_name,
                avatar=s.avatar,
                bot=s.bot_level,
                left=s.left,
            )
            for s, bot_name in zip(game.seats, names, strict=True)
        ],
        version=game.move_count,
        created_at=row.created_at,
    )
