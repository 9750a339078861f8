"""The game API shared by every ruleset: ``new_game``, ``replay``, ``Deal`` and ``Game``.

A game is its rules, its seed (or explicit deal) and its moves (RULES G4); every state
is rebuilt by replaying them. ``Game`` holds what all the state machines share: move
parsing, the legal-move cache that makes ``play`` cheap for moves that came from
``legal_moves()``, the move list, and the error for an illegal move.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_TEXT, Mask, cards_of
from .events import Event
from .moves import TIMEOUT, Move, MoveKind, MoveSyntaxError
from .rules import Rules


class IllegalMove(ValueError):
    """A move the rules do not allow now; ``reason`` says why. The game is unchanged."""

    def __init__(self, reason: str, move: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


@dataclass(frozen=True, kw_only=True)
class Deal:
    """An explicit starting position, so that any situation can be set up.

    Card lists are card text. ``stock`` lists the top of the stock first; ``discard``
    lists cards under the starter, bottom first. The cards need not make a whole deck:
    a test may deal only the cards it needs (conservation then counts those cards).

    Shedding rulesets: ``starter`` is the face-up card (None: turn it from the stock
    following the ruleset's starter rule), ``dealer``, ``round``, ``scores`` (match
    totals) and ``numbers`` (countdown) set the match position; ``direction`` is 1 for
    clockwise or -1. Cycles: ``cycles_left`` (the cycle limit still to run), ``leader``
    (the seat that leads the first cycle; None for a host-led first cycle), and
    ``removed`` (cards already out of play).
    """

    hands: Sequence[Sequence[str]]
    stock: Sequence[str] = ()
    starter: str | None = None
    discard: Sequence[str] = ()
    dealer: int = 0
    round: int = 1
    direction: int = 1
    scores: Sequence[int] | None = None
    numbers: Sequence[int] | None = None
    cycles_left: int | None = None
    leader: int | None = None
    removed: Sequence[str] = field(default=())


@dataclass(frozen=True, kw_only=True)
class GameResult:
    """How a finished game came out.

    ``standings`` lists every seat, best first. ``points`` is per seat: the match score
    (classic), the penalty total (ultimate), the number (countdown), the hand value
    (cycles).
    """

    winner: int | None
    standings: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "standings": list(self.standings),
            "points": list(self.points),
            "rounds": self.rounds,
            "reason": self.reason,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through ``from_dict`` (mypyc's frozen dataclasses cannot be
        unpickled field by field)."""
        return (_result_from_dict, (self.to_dict(),))


def _result_from_dict(data: dict[str, Any]) -> GameResult:
    return GameResult(
        winner=data["winner"],
        standings=tuple(data["standings"]),
        points=tuple(data["points"]),
        rounds=data["rounds"],
        reason=data["reason"],
    )


FIELDS: dict[type, tuple[str, ...]] = {}
"""Each state class's own fields (its ``__slots__``), by class, for pickling: the classes
compiled with mypyc keep no ``__slots__`` to read and have no default pickling."""

_GAME_FIELDS = ("_legal", "_moves", "_result", "hands", "rules", "seed")


class Game(ABC):
    """A game in progress: ask it for legal moves, play moves, read views and events."""

    __slots__ = _GAME_FIELDS

    rules: Rules
    seed: int
    hands: list[Mask]
    """Each seat's hand as a card mask (cards.py): the referee's knowledge, not a view."""
    _moves: list[str]
    _legal: tuple[Move, ...] | None
    _result: GameResult | None

    # -- the contract every state machine fulfils ---------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move; None when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    def result(self) -> GameResult | None:
        """The result once the game is over, else None."""
        return self._result

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat`` as text (the referee's knowledge, not a view)."""
        return [CARD_TEXT[c] for c in cards_of(self.hands[seat])]

    def hand_count(self, seat: int) -> int:
        return int(self.hands[seat].bit_count())

    @abstractmethod
    def _compute_legal(self) -> tuple[Move, ...]:
        """Every legal move now (sets nothing)."""

    @abstractmethod
    def _apply(self, move: Move) -> list[Event]:
        """Carry out a move already known to be legal."""

    @abstractmethod
    def _why_illegal(self, move: Move) -> str:
        """A player-readable reason why ``move`` is refused now."""

    @abstractmethod
    def view(self, seat: int | None = None, *, log: bool = False) -> dict[str, Any]:
        """What ``seat`` may see (RULES G5), JSON-ready; ``None`` is a spectator.

        ``log=True`` adds the events of the current round as that seat saw them.
        """

    @abstractmethod
    def clone(self) -> Game: ...

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled field by field (OpenSpiel serializes states; a process pool ships
        them), rebuilt by ``_restore`` without dealing anew."""
        names = [name for klass in type(self).__mro__ for name in FIELDS.get(klass, ())]
        state = {name: getattr(self, name) for name in names if hasattr(self, name)}
        return (_restore, (type(self), self.rules, self.seed, state))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A deep copy is a clone (cheaper than copying field by field, and it works for
        the mypyc-compiled classes too)."""
        return self.clone()

    @abstractmethod
    def _accepts_unlisted(self, move: Move) -> bool:
        """Whether a legal move that ``legal_moves`` leaves out (a harmless false
        last-card call, the table's ``timeout``) is accepted now."""

    # -- shared behaviour ---------------------------------------------------------------

    @property
    def moves(self) -> list[str]:
        """The moves played so far, as text."""
        return list(self._moves)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def play(self, move: str | Move) -> list[Event]:
        """Play a move (text or ``Move``) and return the events it caused.

        Raises ``IllegalMove`` with the reason, leaving the game unchanged.
        """
        if move.__class__ is not Move:
            move = _parse_for_play(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if move not in legal and not self._accepts_unlisted(move):
            raise IllegalMove(self._why_illegal(move), str(move))
        self._legal = None
        self._moves.append(move.text)
        return self._apply(move)

    def verify_move(self, move: str | Move) -> None:
        """Raise ``IllegalMove`` with the reason if ``move`` is not legal now."""
        parsed = _parse_for_play(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if parsed not in legal and not self._accepts_unlisted(parsed):
            raise IllegalMove(self._why_illegal(parsed), str(parsed))

    def can_play(self, move: str | Move) -> bool:
        try:
            self.verify_move(move)
        except IllegalMove:
            return False
        return True

    def play_all(self, moves: Iterable[str | Move]) -> list[Event]:
        events: list[Event] = []
        for move in moves:
            events.extend(self.play(move))
        return events

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.rules.ruleset} players={self.rules.players} "
            f"seed={self.seed} moves={len(self._moves)} current={self.current_player}>"
        )


def _parse_for_play(move: str | Move) -> Move:
    if isinstance(move, Move):
        return move
    try:
        return Move.parse(move)
    except MoveSyntaxError as exc:
        raise IllegalMove(str(exc), str(move)) from None


def is_timeout(move: Move) -> bool:
    return move is TIMEOUT


FIELDS[Game] = _GAME_FIELDS


def _restore(cls: Any, rules: Rules, seed: int, state: dict[str, Any]) -> Game:
    """Unpickle a state: a blank instance of its class (every state machine takes
    ``_blank=True``), then its fields."""
    game: Game = cls(rules, seed, _blank=True)
    for name, value in state.items():
        setattr(game, name, value)
    return game


def new_game(rules: Rules, seed: int | None = None, *, deal: Deal | None = None) -> Game:
    """Start a game of ``rules``: dealt from ``seed``, or from an explicit ``deal``.

    Without a seed one is drawn from the system's entropy and kept in ``game.seed``;
    later rounds of a match are dealt from the seed, so ``replay`` with the same seed,
    deal and moves rebuilds the game exactly.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if seed is None:
        seed = 0 if deal is not None else secrets.randbits(63)
    if rules.family == "cycles":
        from .cycles import CyclesGame

        return CyclesGame(rules, seed, deal)
    if rules.ruleset == "openspiel":
        from .openspiel_rules import OpenSpielGame

        return OpenSpielGame(rules, seed, deal)
    from .shedding import SheddingGame

    return SheddingGame(rules, seed, deal)


def replay(
    rules: Rules,
    seed: int | None = None,
    moves: Iterable[str | Move] = (),
    *,
    deal: Deal | None = None,
) -> Game:
    """Rebuild a game from its rules, seed (or deal) and moves (RULES G4)."""
    game = new_game(rules, seed, deal=deal)
    for index, move in enumerate(moves):
        try:
            game.play(move)
        except IllegalMove as exc:
            raise IllegalMove(f"move {index + 1} ({move}): {exc.reason}", str(move)) from None
    return game


__all__ = [
    "Deal",
    "Game",
    "GameResult",
    "IllegalMove",
    "MoveKind",
    "new_game",
    "replay",
]
