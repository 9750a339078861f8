"""Who sits where: a table's seats, the humans and bots in them, the seats held for
people on their way (an invited friend, a rematch's old players), and the bots' names."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

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
    holds: dict[int, Hold] = field(default_factory=dict)
    """Who this empty seat is held for (account to its hold): only they may take it until
    their holds end. Kept in memory only: a table restored elsewhere has none."""

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

    def free_for(self, account_id: int | None) -> bool:
        """Whether ``account_id`` may sit here: empty, and held for nobody or for them."""
        return not self.taken and (not self.holds or account_id in self.holds)

    @property
    def held_until(self) -> float | None:
        """When the last hold on this seat ends (None: not held)."""
        return max((h.until for h in self.holds.values()), default=None)

    @property
    def rematch_held(self) -> bool:
        """Held for a player of the finished game this table follows."""
        return any(h.rematch for h in self.holds.values())


@dataclass(frozen=True)
class Hold:
    """An empty seat kept for one person until ``until`` (seconds since the epoch)."""

    until: float
    rematch: bool = False
    """For an old player of a rematch (else for an invited friend)."""


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

    def free(self, for_account: int | None = None) -> list[Seat]:
        """The empty seats ``for_account`` may take (held ones only if held for them)."""
        return [s for s in self._seats if s.free_for(for_account)]

    def held_for(self, account_id: int) -> Seat | None:
        """The empty seat held for ``account_id``, if any."""
        return next((s for s in self._seats if account_id in s.holds and not s.taken), None)

    def holders(self) -> list[int]:
        """Everyone an empty seat is held for."""
        return [a for s in self._seats for a in s.holds]

    @property
    def rematch_held(self) -> bool:
        """A seat is still held for an old player of the game this rematch follows."""
        return any(s.rematch_held for s in self._seats)

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
