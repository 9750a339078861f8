"""The ``TableInfo`` of a stored table: what the lobby answers about a table that no
process runs any more (finished, or not loaded)."""

from __future__ import annotations

from ..protocol import SeatInfo, TableInfo
from ..table.messages import info_of
from .games import StoredGame
from .tables import record_of


def stored_info(game: StoredGame) -> TableInfo:
    """A stored table's settings and seats (load it with ``seats`` and ``move_count``);
    bots are named as a live table names them, nobody is shown connected."""
    record = record_of(game)
    seats = [
        SeatInfo(
            seat=s.seat,
            account=s.account_id,
            name=s.name,
            avatar=s.avatar,
            bot=s.bot,
            left=s.left,
        )
        for s in record.seats
    ]
    return info_of(record, seats, version=game.move_count)
