"""Moves and their text (RULES G3).

Every move is an interned, immutable value: ``Move.parse("8S:H") is Move.play(7, 1)``,
so comparing and hashing moves is as cheap as for ints, and ``str(move)`` is the move
text that round-trips through ``Move.parse``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, ClassVar, Final, Literal, TypedDict

from .cards import CARD_TEXT, SUITS, Card, CardSyntaxError, Suit, parse_card, parse_suit


class MoveKind(IntEnum):
    PLAY = 0
    DRAW = 1
    PASS = 2
    TIMEOUT = 3
    DECLARE = 4
    """Declare a suit alone (``:H``), for the dealer's starter eight (RULES U2)."""


# The kinds as plain module constants: looking a member up on an Enum class costs far
# more than a global lookup, and the state machines compare kinds on every move.
PLAY_KIND: Final = MoveKind.PLAY
DRAW_KIND: Final = MoveKind.DRAW
PASS_KIND: Final = MoveKind.PASS
TIMEOUT_KIND: Final = MoveKind.TIMEOUT
DECLARE_KIND: Final = MoveKind.DECLARE


MoveKindName = Literal["play", "draw", "pass", "timeout", "declare"]
KIND_NAMES: Final[tuple[MoveKindName, ...]] = ("play", "draw", "pass", "timeout", "declare")


class MoveData(TypedDict):
    """A move as structured, JSON-ready data, for clients that implement no rule.

    ``kind`` says what it is; ``card`` is the card played (a play) or ``None``;
    ``suit`` the suit declared with it (a wild card, a led joker, or the dealer's
    starter eight) or ``None``; ``call`` whether it calls last card; ``text`` the move
    text to send back (``Move.parse(text)`` gives the move again).
    """

    kind: MoveKindName
    card: str | None
    suit: str | None
    call: bool
    text: str


class LegalMoveData(MoveData):
    """A legal move as ``Game.legal_move_data()`` gives it: its ``MoveData`` and
    ``wild``, whether its card is wild for the player to move (the engine's answer to
    ``game.is_wild``), so a client can explain a wild play without knowing which rank
    is wild in which ruleset."""

    wild: bool


class MoveSyntaxError(ValueError):
    """Text that is not a move."""


_Key = tuple[int, int, int, bool]


class Move:
    """One decision: play a card (maybe declaring a suit, maybe calling last card),
    draw, pass, timeout, or declare a suit alone.

    Build moves with ``Move.parse(text)``, ``Move.play(card, suit, call=...)`` or the
    constants ``DRAW``, ``PASS``, ``TIMEOUT``; equal moves are the same object.
    """

    __slots__ = ("call", "card", "kind", "suit", "text")

    kind: MoveKind
    card: Card | None
    suit: Suit | None
    call: bool
    text: str

    _interned: ClassVar[dict[_Key, Move]] = {}
    _by_text: ClassVar[dict[str, Move]] = {}

    def __new__(
        cls,
        kind: MoveKind,
        card: Card | None = None,
        suit: Suit | None = None,
        call: bool = False,
    ) -> Move:
        key = (int(kind), -1 if card is None else card, -1 if suit is None else suit, call)
        move = cls._interned.get(key)
        if move is not None:
            return move
        _check_shape(kind, card, suit, call)
        move = object.__new__(cls)
        object.__setattr__(move, "kind", MoveKind(kind))
        object.__setattr__(move, "card", card)
        object.__setattr__(move, "suit", suit)
        object.__setattr__(move, "call", call)
        object.__setattr__(move, "text", _format(kind, card, suit, call))
        cls._interned[key] = move
        return move

    @classmethod
    def play(cls, card: Card, suit: Suit | None = None, *, call: bool = False) -> Move:
        """Play ``card``; ``suit`` is the declared suit for a wild card or a led joker."""
        return cls(MoveKind.PLAY, card, suit, call)

    @classmethod
    def declare(cls, suit: Suit) -> Move:
        return cls(MoveKind.DECLARE, None, suit, False)

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Parse move text: ``7H``, ``8S:H``, ``JK:S``, ``7H!``, ``draw``, ``pass``, ``:H``."""
        if isinstance(text, Move):
            return text
        move = cls._by_text.get(text)
        if move is None:
            move = _parse(text)
            if len(cls._by_text) < 100_000:
                cls._by_text[text] = move
        return move

    @property
    def is_play(self) -> bool:
        return self.kind is PLAY_KIND

    def to_dict(self) -> MoveData:
        """The move as structured data (``MoveData``), e.g.

        >>> Move.parse("8S:H!").to_dict()
        {'kind': 'play', 'card': '8S', 'suit': 'H', 'call': True, 'text': '8S:H!'}
        >>> Move.parse("draw").to_dict()
        {'kind': 'draw', 'card': None, 'suit': None, 'call': False, 'text': 'draw'}
        """
        return {
            "kind": KIND_NAMES[self.kind],
            "card": None if self.card is None else CARD_TEXT[self.card],
            "suit": None if self.suit is None else SUITS[self.suit],
            "call": self.call,
            "text": self.text,
        }

    def with_call(self, call: bool = True) -> Move:
        """The same play with (or without) the last-card call."""
        if self.kind is not MoveKind.PLAY:
            raise ValueError(f"only a play can call last card, not {self.text!r}")
        return Move(self.kind, self.card, self.suit, call)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Move.parse, (self.text,))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return self

    def __hash__(self) -> int:  # interned: equal moves are the same object
        return id(self) >> 4

    def __lt__(self, other: Move) -> bool:
        return _order(self) < _order(other)


if __file__.endswith(".py"):
    # Pure Python: the C-level identity hash, same values' semantics as the method above
    # (which mypyc needs to make the class hashable) but without a Python call per lookup.
    setattr(Move, "__hash__", object.__hash__)  # noqa: B010


def _order(move: Move) -> tuple[int, int, int, bool]:
    card = -1 if move.card is None else move.card
    suit = -1 if move.suit is None else move.suit
    return (int(move.kind), card, suit, move.call)


def _check_shape(kind: int, card: Card | None, suit: Suit | None, call: bool) -> None:
    if kind == MoveKind.PLAY:
        if card is None or card not in CARD_TEXT:
            raise ValueError(f"a play needs a card id, got {card!r}")
    elif kind == MoveKind.DECLARE:
        if card is not None or call:
            raise ValueError("a declaration is a suit alone")
        if suit is None:
            raise ValueError("a declaration needs a suit")
    elif card is not None or suit is not None or call:
        raise ValueError(f"{MoveKind(kind).name.lower()} takes no card, suit or call")
    if suit is not None and not 0 <= suit < 4:
        raise ValueError(f"suit must be 0..3, got {suit!r}")


def _format(kind: int, card: Card | None, suit: Suit | None, call: bool) -> str:
    if kind == MoveKind.DRAW:
        return "draw"
    if kind == MoveKind.PASS:
        return "pass"
    if kind == MoveKind.TIMEOUT:
        return "timeout"
    text = "" if card is None else CARD_TEXT[card]
    if suit is not None:
        text += ":" + SUITS[suit]
    return text + ("!" if call else "")


_WORDS: Final = {"draw": MoveKind.DRAW, "pass": MoveKind.PASS, "timeout": MoveKind.TIMEOUT}


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is text, got {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise MoveSyntaxError("empty move: expected a card such as '7H', '8S:H', 'draw' or 'pass'")
    word = _WORDS.get(raw.lower())
    if word is not None:
        return Move(word)
    call = raw.endswith("!")
    body = raw[:-1].rstrip() if call else raw
    card_part, colon, suit_part = body.partition(":")
    try:
        suit = parse_suit(suit_part) if colon else None
        if not card_part.strip():
            if suit is None or call:
                raise MoveSyntaxError(
                    f"{text!r} is not a move: a declaration is a colon and a suit, e.g. ':H'"
                )
            return Move(MoveKind.DECLARE, None, suit)
        card = parse_card(card_part)
    except CardSyntaxError as exc:
        raise MoveSyntaxError(f"{text!r} is not a move: {exc}") from None
    return Move(MoveKind.PLAY, card, suit, call)


DRAW: Final = Move(MoveKind.DRAW)
PASS: Final = Move(MoveKind.PASS)
TIMEOUT: Final = Move(MoveKind.TIMEOUT)
