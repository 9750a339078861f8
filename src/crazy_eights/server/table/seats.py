"""Who sits where: a table's seats, the humans and bots in them, and the bots' names."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

STANDIN_LEVEL = "heuristic"
"""The bot level that plays an absent or departed player's seat."""


@dataclass
class Seat:
    """One seat: its occupant (an account, maybe a bot's) and its state in the game."""

    seat: int
    account_id: int | None = None
    name: str | None = None
    avatar: str | None = None
    bot: str | None = None
    left: bool = False
    standin: bool = False
    standin_moves: int = 0
    """Moves the stand-in has played for this seat since it took over."""
    timeouts: int = 0
    called: bool = False
    played: bool = False
    """The person made a move here themselves (since the table was loaded): a seat only
    a stand-in played is not analysed on its own."""

    @property
    def taken(self) -> bool:
        return self.account_id is not None

    @property
    def human(self) -> bool:
        """A person sits here (who may be away, or have left the game)."""
        return self.taken and self.bot is None

    @property
    def bot_level(self) -> str | None:
        """The level of the bot playing this seat now, if a bot is playing it."""
        if self.bot is not None:
            return self.bot
        return STANDIN_LEVEL if self.standin or self.left else None

    def clear(self) -> None:
        """Empty the seat (before a game starts)."""
        self.account_id = self.name = self.avatar = None


class Seats(Sequence[Seat]):
    """The seats of one table, in seat order."""

    def __init__(self, seats: list[Seat]) -> None:
        self._seats = seats

    def __getitem__(self, index: int) -> Seat:  # type: ignore[override]
        return self._seats[index]

    def __len__(self) -> int:
        return len(self._seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    @classmethod
    def empty(cls, players: int) -> Seats:
        return cls([Seat(seat=i) for i in range(players)])

    def seat_of(self, account_id: int | None) -> int | None:
        """The seat a person plays (None for bots, for those who left, for strangers)."""
        if account_id is None:
            return None
        for seat in self._seats:
            if seat.account_id == account_id and seat.bot is None and not seat.left:
                return seat.seat
        return None

    def free(self) -> list[Seat]:
        return [s for s in self._seats if not s.taken]

    @property
    def full(self) -> bool:
        return all(s.taken for s in self._seats)

    @property
    def any_human(self) -> bool:
        """Whether a person still holds a seat."""
        return any(s.human and not s.left for s in self._seats)

    def name_bots(self) -> None:
        """Give each bot seat its own display name (``bot_names``) and the bot avatar."""
        names = bot_names([s.bot for s in self._seats])
        for seat, name in zip(self._seats, names, strict=True):
            if name is not None:
                seat.name, seat.avatar = name, "bot"


LEVEL_WORDS: dict[str, str] = {"random": "Easy", "heuristic": "Medium", "ismcts": "Hard"}
"""Each bot level in the words people read everywhere (the browser's ``people.js`` too)."""


def bot_names(levels: Sequence[str | None]) -> list[str | None]:
    """A display name of its own for each bot seat (None for the others): the level in
    words, and from the second bot of a level on, its number. A name never changes when
    more bots of the level sit down (empty seats filled at the start), so the table, the
    lobby and the replay call each bot the same.

    >>> bot_names(["heuristic", None, "random", "heuristic", "ismcts"])
    ['Medium bot', None, 'Easy bot', 'Medium bot 2', 'Hard bot']
    """
    numbers: dict[str, int] = {}
    names: list[str | None] = []
    for level in levels:
        if level is None:
            names.append(None)
            continue
        numbers[level] = numbers.get(level, 0) + 1
        title = f"{LEVEL_WORDS.get(level, level.capitalize())} bot"
        names.append(f"{title} {numbers[level]}" if numbers[level] > 1 else title)
    return names
