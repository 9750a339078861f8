"""The host's window on a table: ``TableGateway``, and ``LocalGateway``, which plays the
engine's game in this process.

The chat table knows its game only through this seam: it opens a table, seats players
and bots, sends moves (a person's, the table's ``timeout``, or a bot's decision),
and reads views (RULES G5) and the events each move caused. ``roomgateway.RoomGateway``
implements the same calls on the card room's database (lobby, history, replays); see
``docs/chat.md``.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from crazy_eights.bots import make_bot
from crazy_eights.engine import Event, Game, IllegalMove, Move, Rules, new_game, replay
from crazy_eights.engine.views import CyclesView, SheddingView

View = SheddingView | CyclesView


@dataclass(frozen=True, kw_only=True)
class ChatSeat:
    """Who sits at a seat: a chat ``name`` (a nick) or a bot of level ``bot``; ``left``:
    the nick gave the seat up in the game (a bot played it on)."""

    seat: int
    name: str
    bot: str | None = None
    left: bool = False


@dataclass(frozen=True, kw_only=True)
class ChatTableSpec:
    """A table opened from a chat room: where (``place``, e.g. ``irc:#cards``, shown in
    the lobby as "in #cards"), its rules and seed."""

    place: str
    rules: Rules
    seed: int


@dataclass(frozen=True, kw_only=True)
class GameRecord:
    """What a finished or running game is: enough to replay it (RULES G4)."""

    table_id: str
    place: str
    rules: dict[str, Any]
    seed: int
    seats: tuple[ChatSeat, ...]
    moves: tuple[str, ...]
    result: dict[str, Any] | None


class TableGateway(Protocol):
    """What the chat host needs of a table. Every call but ``view`` may wait (a room's
    table lives in another task or process); a refused move raises ``IllegalMove``
    with the engine's reason and changes nothing."""

    async def create(
        self, spec: ChatTableSpec, seats: Sequence[ChatSeat]
    ) -> tuple[str, list[Event]]:
        """Open and deal a table with these seats: its id and the deal's events."""
        ...

    async def move(self, table_id: str, seat: int, move: Move) -> list[Event]:
        """Play ``move`` for ``seat`` (``TIMEOUT`` when the host's timer ran out)."""
        ...

    async def bot_move(self, table_id: str, seat: int, level: str) -> list[Event]:
        """Let a bot of ``level`` decide and play for ``seat`` (a bot seat or a stand-in)."""
        ...

    def view(self, table_id: str, seat: int | None) -> View:
        """What ``seat`` sees now (``None``: a spectator)."""
        ...

    async def leave(self, table_id: str, seat: int) -> None:
        """The nick at ``seat`` gave it up for good in the running game (``!leave``, or
        away past the time their seat was kept): a bot plays it on, and the table's
        record says the seat was left (in the room, as a seat left in the browser)."""
        ...

    async def close(self, table_id: str, reason: str) -> GameRecord:
        """The table is done (over, or ended from the chat); its record."""
        ...

    async def link(self, name: str, place: str) -> str | None:
        """A one-time link that ties chat ``name`` to an account (None: not offered)."""
        ...


@dataclass
class _Running:
    spec: ChatTableSpec
    seats: tuple[ChatSeat, ...]
    game: Game
    bots: dict[int, Any] = field(default_factory=dict)


class LocalGateway:
    """Tables played by the engine in this process, kept until closed; ``records``
    holds the last ``keep`` closed tables' records (the room's store is not written).
    ``new_id`` names each table (``chat-1``, ``chat-2``... by default)."""

    def __init__(self, keep: int = 100, new_id: Callable[[], str] | None = None) -> None:
        self._tables: dict[str, _Running] = {}
        ids = itertools.count(1)
        self._new_id = new_id or (lambda: f"chat-{next(ids)}")
        self.records: deque[GameRecord] = deque(maxlen=keep)

    async def create(
        self, spec: ChatTableSpec, seats: Sequence[ChatSeat]
    ) -> tuple[str, list[Event]]:
        table_id = self._new_id()
        game = new_game(spec.rules, spec.seed)
        self._tables[table_id] = _Running(spec, tuple(seats), game)
        return table_id, list(game.log)

    def _game(self, table_id: str) -> _Running:
        running = self._tables.get(table_id)
        if running is None:
            raise IllegalMove("this table is closed")
        return running

    async def move(self, table_id: str, seat: int, move: Move) -> list[Event]:
        game = self._game(table_id).game
        if game.current_player != seat:
            raise IllegalMove("it is not your turn")
        return game.play(move)

    async def bot_move(self, table_id: str, seat: int, level: str) -> list[Event]:
        running = self._game(table_id)
        game = running.game
        if game.current_player != seat:
            raise IllegalMove("it is not that seat's turn")
        bot = running.bots.get(seat)
        if bot is None or bot.name != level:
            bot = running.bots[seat] = make_bot(level, seed=running.spec.seed + seat)
        move = bot.choose(dict(game.view(seat, log=True)), game.legal_moves())
        return game.play(move)

    def view(self, table_id: str, seat: int | None) -> View:
        return self._game(table_id).game.view(seat)

    async def leave(self, table_id: str, seat: int) -> None:
        running = self._game(table_id)
        running.seats = tuple(replace(s, left=True) if s.seat == seat else s for s in running.seats)

    def take_back(self, table_id: str) -> None:
        """Undo the last move (one a store could not keep): the game replayed without it."""
        running = self._game(table_id)
        moves = running.game.moves[:-1]
        running.game = replay(running.spec.rules, running.spec.seed, moves)

    def record(self, table_id: str) -> GameRecord:
        running = self._game(table_id)
        result = running.game.result
        return GameRecord(
            table_id=table_id,
            place=running.spec.place,
            rules=running.spec.rules.to_dict(),
            seed=running.spec.seed,
            seats=running.seats,
            moves=tuple(running.game.moves),
            result=None if result is None else dict(result.to_dict()),
        )

    async def close(self, table_id: str, reason: str) -> GameRecord:
        record = self.record(table_id)
        self.records.append(record)
        del self._tables[table_id]
        return record

    async def link(self, name: str, place: str) -> str | None:
        return None
