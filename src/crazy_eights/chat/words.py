"""A card said in words (``7 of hearts``, ``joker``, ``8S hearts``) as the engine's move.

The words only name the parts; the engine reads them: a single token in our notation
goes to ``Move.parse`` whole (``7H``, ``8S:H``, ``JK:S!``), a rank and a suit said
apart become card text for ``parse_card``, a declared suit its index, and the move is
``Move.play``. Whatever follows the card is handed back untouched, for the last-card
detector to hear.
"""

from __future__ import annotations

from dataclasses import dataclass

from crazy_eights.engine import Move, MoveSyntaxError, parse_card
from crazy_eights.engine.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS

_RANK_WORDS: dict[str, str] = {name: RANKS[i] for i, name in enumerate(RANK_NAMES)}
_RANK_WORDS.update({r.lower(): r for r in RANKS})
_RANK_WORDS.update({"10": "T", "1": "A"})
_SUIT_WORDS: dict[str, int] = {}
for _i, _name in enumerate(SUIT_NAMES):
    _SUIT_WORDS.update({_name: _i, _name[:-1]: _i, SUITS[_i].lower(): _i, SUIT_SYMBOLS[_i]: _i})
_JOKERS = {"joker": "JK", "jk": "JK", "bj": "BJ", "rj": "RJ"}
_JOKER_COLOURS = {"black": "BJ", "red": "RJ"}
_FILLER = {"of", "as", "for", "to", "naming", "calling", "declaring", "declare", "the", "a"}


class CardWordsError(MoveSyntaxError):
    """Words that name no card."""


@dataclass(frozen=True)
class SaidMove:
    """A move read from words, and the words after it (``rest``: maybe a call)."""

    move: Move
    rest: str


def _tokens(text: str) -> list[str]:
    """Words in lower case with the symbols of suits split off (``7♥`` is ``7 ♥``)."""
    for symbol in SUIT_SYMBOLS:
        text = text.replace(symbol, f" {symbol} ")
    return text.lower().replace(",", " ").split()


def _suit(words: list[str], at: int) -> tuple[int | None, int]:
    """A suit word at ``at`` (after filler words): its index and the next position."""
    pos = at
    while pos < len(words) and words[pos] in _FILLER:
        pos += 1
    if pos < len(words):
        suit = _SUIT_WORDS.get(words[pos].rstrip("!.:"))
        if suit is not None:
            return suit, pos + 1
    return None, at


def _card(words: list[str]) -> tuple[str | None, int, Move | None]:
    """The card named first: (card text, words used, or a whole ``Move`` in notation)."""
    first = words[0]
    if first in _JOKER_COLOURS and len(words) > 1 and words[1].rstrip("!.") == "joker":
        return _JOKER_COLOURS[first], 2, None
    joker = _JOKERS.get(first.rstrip("!."))
    if joker is not None:
        return joker, 1, None
    rank = _RANK_WORDS.get(first)
    if rank is not None:
        suit, after = _suit(words, 1)
        if suit is None:
            raise CardWordsError(f"say the suit too, e.g. '{first} of hearts'")
        return rank + SUITS[suit], after, None
    try:
        return None, 1, Move.parse(first)  # our notation, the engine's parser
    except MoveSyntaxError:
        raise CardWordsError(
            "name a card: 7H, 10D, JK (joker), BJ, RJ, or in words such as '7 of hearts'"
        ) from None


def read_play(text: str) -> SaidMove:
    """The play said in ``text`` (after ``!play``), and the words that follow it.

    >>> [str(read_play(t).move) for t in ("7H", "7 of hearts", "joker spades", "8S:H!")]
    ['7H', '7H', 'JK:S', '8S:H!']
    >>> read_play("queen of spades last card!").rest
    'last card!'
    """
    words = _tokens(text)
    if not words:
        raise CardWordsError("which card? e.g. !play 7H or !play 7 of hearts")
    card_text, used, whole = _card(words)
    if whole is not None:
        move = whole
    else:
        assert card_text is not None
        move = Move.play(parse_card(card_text))
    if move.suit is None and move.is_play:
        declared, used = _suit(words, used)
        if declared is not None:
            assert move.card is not None
            move = Move.play(move.card, declared, call=move.call)
    return SaidMove(move, " ".join(words[used:]))
