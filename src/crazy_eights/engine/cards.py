"""Cards as small ints and sets of cards as bitmask ints (RULES G1).

A card of the standard pack is ``suit * 16 + rank`` with suits ``S H D C`` = 0..3 and
ranks ``A 2 .. K`` = 0..12, so every suit owns a 16-bit lane of a mask and a rank is
the same bit in each lane. The cycles jokers sit in the spare bits of the spades lane
(``BJ`` = 13, ``RJ`` = 14, ``JK`` = 15), outside every suit mask. A second pack's copy
of a card is the same id plus 64 inside a hand mask: the copies are interchangeable,
so card lists (stock, discard pile) hold the id below 64 only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
"""A card id: ``suit * 16 + rank`` or one of the joker ids."""
Mask = int
"""A set of cards: bit ``c`` set for card ``c`` (and bit ``c + 64`` for its second copy)."""
Suit = int
"""0..3 for ``S H D C``."""
Rank = int
"""0..12 for ``A 2 3 4 5 6 7 8 9 T J Q K``."""

SUITS: Final = "SHDC"
RANKS: Final = "A23456789TJQK"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
ACE: Final = 0
TWO: Final = 1
EIGHT: Final = 7
QUEEN: Final = 11
BLACK_JOKER: Final = 13
RED_JOKER: Final = 14
JOKER: Final = 15
JOKERS: Final[tuple[Card, ...]] = (BLACK_JOKER, RED_JOKER, JOKER)
JOKER_TEXT: Final[dict[Card, str]] = {BLACK_JOKER: "BJ", RED_JOKER: "RJ", JOKER: "JK"}

COPY: Final = 64
"""Offset of a second pack's copy of a card inside a hand mask."""
LOW: Final = (1 << COPY) - 1

SUIT_MASK: Final[tuple[Mask, ...]] = tuple(0x1FFF << (16 * s) for s in range(4))
RANK_MASK: Final[tuple[Mask, ...]] = tuple(
    sum(1 << (16 * s + r) for s in range(4)) for r in range(13)
)
STANDARD_MASK: Final[Mask] = sum(SUIT_MASK)
JOKER_MASK: Final[Mask] = sum(1 << j for j in JOKERS)

STANDARD_CARDS: Final[tuple[Card, ...]] = tuple(s * 16 + r for s in range(4) for r in range(13))
ALL_CARDS: Final[tuple[Card, ...]] = STANDARD_CARDS + JOKERS


def suit_of(card: Card) -> Suit:
    """The suit of a standard card (jokers have none: check ``is_joker`` first)."""
    return card >> 4


def rank_of(card: Card) -> Rank:
    """The rank index of a standard card, 0 (ace) to 12 (king)."""
    return card & 15


def make_card(rank: Rank, suit: Suit) -> Card:
    return suit * 16 + rank


def is_joker(card: Card) -> bool:
    return card in JOKER_TEXT


def is_red(suit: Suit) -> bool:
    return suit in (HEARTS, DIAMONDS)


def _card_text(card: Card) -> str:
    if card in JOKER_TEXT:
        return JOKER_TEXT[card]
    return RANKS[card & 15] + SUITS[card >> 4]


CARD_TEXT: Final[dict[Card, str]] = {c: _card_text(c) for c in ALL_CARDS}
"""Card id to its text, e.g. ``CARD_TEXT[7] == "8S"``."""


def card_text(card: Card) -> str:
    """The text of a card: rank then suit (``8S``, ``TH``) or a joker (``BJ``, ``RJ``, ``JK``)."""
    try:
        return CARD_TEXT[card & LOW]
    except KeyError:
        raise ValueError(f"no card has id {card}") from None


def _parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card, text in CARD_TEXT.items():
        table[text] = card
        if text[0] == "T":
            table["10" + text[1]] = card
    return table


_PARSE: Final = _parse_table()


class CardSyntaxError(ValueError):
    """Text that is not a card."""


def parse_card(text: str) -> Card:
    """Parse card text: ``8S``, ``10h``, ``th``, ``BJ`` (case-insensitive)."""
    key = text.strip().upper()
    card = _PARSE.get(key)
    if card is None:
        if not key:
            raise CardSyntaxError("empty card text: expected a rank and a suit such as '8S'")
        raise CardSyntaxError(
            f"{text!r} is not a card: write the rank ({' '.join(RANKS)} or 10) then the "
            f"suit ({' '.join(SUITS)}), e.g. '8S' or '10H', or a joker BJ, RJ, JK"
        )
    return card


def parse_suit(text: str) -> Suit:
    """Parse a suit letter (``S H D C``, any case)."""
    key = text.strip().upper()
    if len(key) != 1 or key not in SUITS:
        raise CardSyntaxError(f"{text!r} is not a suit: expected one of S, H, D, C")
    return SUITS.index(key)


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask of a collection of cards; a second copy of a card takes its copy bit."""
    mask = 0
    for card in cards:
        bit = 1 << card
        mask |= (bit << COPY) if mask & bit else bit
    return mask


def cards_of(mask: Mask) -> list[Card]:
    """The cards of a mask in id order, each copy listed (ids below 64)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append((low.bit_length() - 1) & 63)
        mask ^= low
    out.sort()
    return out


_COMPILED: Final = not __file__.endswith(".py")


def popcount(mask: Mask) -> int:
    """How many cards a mask holds (``int.bit_count``, which mypyc does not compile:
    the compiled build counts natively, without making an int object)."""
    if _COMPILED:
        count = 0
        while mask:
            mask &= mask - 1
            count += 1
        return count
    return mask.bit_count()


def iter_bits(mask: Mask) -> Iterator[int]:
    """Yield the set bit positions of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def kinds(mask: Mask) -> Mask:
    """The distinct cards of a hand mask, second copies folded onto the first."""
    return (mask | (mask >> COPY)) & LOW


def add_card(mask: Mask, card: Card) -> Mask:
    """Add one card to a hand mask (its copy bit if the card is already there)."""
    bit = 1 << card
    return mask | ((bit << COPY) if mask & bit else bit)


def remove_card(mask: Mask, card: Card) -> Mask:
    """Remove one copy of a card from a hand mask (the caller checks it is there)."""
    bit = 1 << card
    return mask ^ ((bit << COPY) if mask & (bit << COPY) else bit)


def texts(cards: Iterable[Card]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def standard_deck(packs: int = 1) -> list[Card]:
    """The 52 cards of one pack (or ``packs`` packs) in a fixed order."""
    return list(STANDARD_CARDS) * packs


def cycles_deck() -> list[Card]:
    """The 55-card deck of cycles (RULES Y1): one pack and three jokers."""
    return list(ALL_CARDS)


UNKNOWN: Final = -1
"""A card a seat was not shown (in an event read back from that seat's view)."""


def shedding_points(card: Card, *, ace_points: int = 1) -> int:
    """Hand points of RULES G8: eight 50, K Q J T 10, ace 1 or 11, 2-9 their number."""
    rank = card & 15
    if rank == EIGHT:
        return 50
    if rank == ACE:
        return ace_points
    return 10 if rank >= 9 else rank + 1


def openspiel_points(card: Card) -> int:
    """OpenSpiel's penalty points of a card left in hand: eight 50, J Q K A 10, 2 to T
    their face value."""
    rank = card & 15
    if rank == EIGHT:
        return 50
    if rank == ACE or rank >= 10:
        return 10
    return rank + 1


def cycles_value(card: Card) -> int:
    """Y2: 2 to 10 their number; J, Q, K 10; A, BJ, RJ 11; JK 12."""
    if card == JOKER:
        return 12
    if card in (BLACK_JOKER, RED_JOKER):
        return 11
    rank = card & 15
    if rank == ACE:
        return 11
    return 10 if rank >= 9 else rank + 1


def cycles_power(card: Card) -> int:
    """Y3: 2 < ... < K < A < BJ = RJ < JK."""
    if card == JOKER:
        return 16
    if card in (BLACK_JOKER, RED_JOKER):
        return 15
    rank = card & 15
    return 14 if rank == ACE else rank + 1
