"""Finished games written straight through a room's records layer (``SqlTableStore``),
as long as a test or a bench wants: the engine plays every seat with a bot, and the
table is stored and finished as a table would, so replays and analyses read it back."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import Any

from crazy_eights.bots import make_bot
from crazy_eights.engine import Rules, new_game
from crazy_eights.server import db
from crazy_eights.server.records.tables import SqlTableStore
from crazy_eights.server.table.seats import Seat, Seats
from crazy_eights.server.table.store import Spec, TableRecord

LONG_COUNTDOWN = {"ruleset": "countdown", "players": 6}
"""Random bots at six countdown seats draw and pass for thousands of moves."""


def bot_game(
    rules: dict[str, Any], seed: int, level: str = "random", max_moves: int | None = None
) -> tuple[Rules, list[tuple[int, str]]]:
    """A game of ``level`` bots at every seat: its rules and its moves (seat, text), cut
    at ``max_moves`` if given (then it is not over)."""
    game_rules = Rules.from_dict(rules)
    game = new_game(game_rules, seed)
    bots = [make_bot(level, seed=seed * 100 + s) for s in range(game_rules.players)]
    moves: list[tuple[int, str]] = []
    while not game.is_over and (max_moves is None or len(moves) < max_moves):
        seat = game.current_player
        assert seat is not None
        move = bots[seat].choose(dict(game.view(seat)), game.legal_moves())
        game.play(move)
        moves.append((seat, move.text))
    return game_rules, moves


async def store_game(
    room: Any,
    rules: dict[str, Any],
    seed: int,
    *,
    people: dict[int, int] | None = None,
    played: bool = True,
    public: bool = True,
    hints: bool = False,
    level: str = "random",
) -> tuple[str, int]:
    """Play a bot game and store it finished in ``room`` (run on the room's loop);
    ``people`` puts accounts at seats (the others are bots), who ``played`` their moves
    themselves (else a stand-in bot did). Its (table id, moves)."""
    game_rules, moves = bot_game(rules, seed, level)
    game = new_game(game_rules, seed)
    for _, text in moves:
        game.apply(text)
    assert game.result is not None
    people = people or {}
    seats = Seats(
        [
            Seat(s, account_id=people[s], played=played) if s in people else Seat(s, bot=level)
            for s in range(game_rules.players)
        ]
    )
    spec = Spec("stored", game_rules, public, hints, 2)
    table_id = secrets.token_hex(6)
    record = TableRecord(table_id, spec, seed, None, None, "playing", time.time(), seats)
    await room.store.create(record)
    rows = list(enumerate(moves, 1))
    for start in range(0, len(rows), 500):  # many to a commit
        batch = rows[start : start + 500]
        await asyncio.gather(*(room.store.append_move(table_id, n, s, t) for n, (s, t) in batch))
    await room.store.finish(table_id, spec=spec, seats=seats, result=game.result.to_dict())
    return table_id, len(moves)


class _StoreOnly:
    """What ``store_game`` needs of a room: a ``SqlTableStore`` on a SQLite file (a
    running server's own, written beside it)."""

    def __init__(self, path: Path) -> None:
        self.engine = db.make_engine(f"sqlite+aiosqlite:///{path}")
        self.writer = db.Writer(self.engine)
        self.store = SqlTableStore(self.engine, self.writer)


async def store_in_file(path: Path, games: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Store finished bot games (each ``store_game``'s keyword arguments) in a room's
    SQLite file; their (table id, moves)."""
    room = _StoreOnly(path)
    await db.migrate(room.engine)
    room.writer.start()
    try:
        return [await store_game(room, **game) for game in games]
    finally:
        await room.writer.stop()
        await room.engine.dispose()
