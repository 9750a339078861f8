"""How likely an opponent's recent plays are under a hand dealt to it in a determinization.

``Knowledge`` keeps, for each opponent, the plays it made since it last took a card
(``Knowledge.recent``): over that stretch its hand then was its hand now plus the cards
it played since, so a determinization that deals it a hand says what it held at each
of those decisions. A player who plays like the heuristic bot shows something with
each choice: a wild card played while a plain card fitted is unlikely, an eight's
declared suit is the one it holds most of, a plain card comes from a long suit, an
action card is played when held. ``play_log_likelihood`` scores the choices with the
heuristic's main terms (``Weights``: the base of a plain or wild play, suit length,
declaring its own suit, points shed, action cards, going out on wild cards) as a
softmax with ``beta`` as its sharpness; ISMCTS weighs each determinization by it
(``infer``). It is an opponent model: exact against the heuristic bot, a soft
preference against anyone else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from crazy_eights.engine.cards import CARD_TEXT, SUIT_MASK, Mask

from .heuristic import Weights
from .knowledge import Knowledge, kinds_of

_W = Weights()
_FLOOR = -50.0


class _Seat:
    """One opponent's recent plays prepared for scoring many hands at ``beta``: the
    factors ``exp(beta * term)`` of the terms that do not depend on the hand."""

    __slots__ = ("out", "per_card", "per_declare", "per_length", "per_wild", "plays", "wild")

    def __init__(self, know: Knowledge, seat: int, beta: float) -> None:
        w = _W
        wild = know.wild[seat]
        rules = know.rules
        points = w.points if know.points_matter else 0.0
        self.wild = wild
        # (card, its bit, declared suit or -1, plain cards that fitted)
        self.plays = [(c, 1 << c, d, follow & ~wild) for c, d, follow in know.recent[seat]]
        per_card: list[float] = []
        per_wild: list[float] = []
        for c in range(64):
            base = points * rules.card_points(c) if c in CARD_TEXT else 0.0
            action = rules.action(c) if c in CARD_TEXT else None
            bonus = 0.0
            if action == "skip":
                bonus = w.skip
            elif action == "draw_two":
                bonus = w.two
            per_card.append(math.exp(beta * (base + w.play + bonus)))
            per_wild.append(math.exp(beta * (base + w.wild)))
        self.per_card = per_card
        self.out = math.exp(beta * w.out_with_wild)  # going out on wild cards
        self.per_wild = per_wild
        # a plain card of a suit with k cards held (itself included)
        self.per_length = [
            math.exp(beta * w.suit_length * min(max(k - 1, 0), 3)) for k in range(27)
        ]
        # declaring a suit of which k plain cards are held
        self.per_declare = [
            math.exp(beta * (w.declare_own * k + (w.declare_void if k == 0 else 0.0)))
            for k in range(27)
        ]


def _prepared(know: Knowledge, seat: int, beta: float) -> _Seat:
    cache: dict[tuple[int, float], _Seat] = know.__dict__.setdefault("_inference_cache", {})
    got = cache.get((seat, beta))
    if got is None:
        got = cache[(seat, beta)] = _Seat(know, seat, beta)
    return got


def play_log_likelihood(know: Knowledge, seat: int, hand: Mask, beta: float) -> float:
    """Log-probability (up to a constant per position) that ``seat``, holding ``hand``
    now (a card mask, both packs' bits), made its recent plays, each a softmax over the
    plays it had then. 0 when it made none."""
    if not know.recent[seat]:
        return 0.0
    prep = _prepared(know, seat, beta)
    wild = prep.wild
    per_card = prep.per_card
    per_wild = prep.per_wild
    per_length = prep.per_length
    per_declare = prep.per_declare
    out_factor = prep.out
    held = kinds_of(hand)
    total = 0.0
    # newest first: the hand before each play is the one after it plus the card
    for card, bit, declared, fitting in reversed(prep.plays):
        held |= bit
        plain = held & fitting
        wilds = held & wild
        if not wilds and not plain & (plain - 1):
            continue  # one plain card and no wild: no choice to read
        flat = held & ~wild
        lengths = [per_length[(flat & SUIT_MASK[s]).bit_count()] for s in range(4)]
        only = flat.bit_count() == 1  # a plain card played leaves only wild cards
        size = held.bit_count()
        mass = 0.0
        chosen = 0.0
        mask = plain
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            x = per_card[c] * lengths[c >> 4]
            if only and size > 1:
                x *= out_factor
            mass += x
            if c == card:
                chosen = x
        if wilds:
            declares = [per_declare[(flat & SUIT_MASK[s]).bit_count()] for s in range(4)]
            spread = sum(declares)
            out = out_factor if size <= 2 else 1.0
            mask = wilds
            while mask:
                low = mask & -mask
                c = low.bit_length() - 1
                mask ^= low
                x = per_wild[c] * out
                mass += x * spread
                if c == card and declared >= 0:
                    chosen = x * declares[declared]
        total += math.log(chosen / mass) if chosen > 0.0 else _FLOOR
    return max(total, _FLOOR)


def world_log_weight(know: Knowledge, hands: Sequence[Mask], beta: float) -> float:
    """The sum of ``play_log_likelihood`` over the opponents for the hands (card masks,
    by seat) that a determinization deals."""
    total = 0.0
    recent = know.recent
    for seat in range(know.players):
        if seat != know.seat and recent[seat]:
            total += play_log_likelihood(know, seat, hands[seat], beta)
    return total


__all__ = ["play_log_likelihood", "world_log_weight"]
