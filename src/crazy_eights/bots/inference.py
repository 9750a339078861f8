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

from crazy_eights.engine.cards import COPY, SUIT_MASK, Card, Mask, shedding_points

from .heuristic import QUEEN, TWO, Weights
from .knowledge import Knowledge, kinds_of

_W = Weights()
_FLOOR = -50.0


def play_log_likelihood(know: Knowledge, seat: int, hand: Mask, beta: float) -> float:
    """Log-probability (up to a constant per position) that ``seat``, holding ``hand``
    now (a card mask, both packs' bits), made its recent plays, each a softmax over the
    plays it had then. 0 when it made none."""
    recent = know.recent[seat]
    if not recent:
        return 0.0
    wild = know.wild[seat]
    actions = bool(know.rules.action_cards) and know.rules.ruleset != "countdown"
    ace = int(know.rules.ace_points or 1)
    points = _W.points if know.points_matter else 0.0
    held = kinds_of(hand)
    total = 0.0
    # newest first: the hand before each play is the one after it plus the card
    for card, declared, follow in reversed(recent):
        held |= 1 << card
        plain = held & follow & ~wild
        wilds = held & wild
        options = plain | wilds
        if options.bit_count() < 2 and not wilds:
            continue  # no choice to read (one plain card)
        suits = [(held & ~wild & SUIT_MASK[s]).bit_count() for s in range(4)]
        size = held.bit_count()
        chosen = 0.0
        scores: list[float] = []
        mask = options
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            base = points * shedding_points(c, ace_points=ace)
            if wilds & low:
                left = size - 1
                for s in range(4):
                    mine = suits[s]
                    score = base + _W.wild + _W.declare_own * mine
                    if mine == 0:
                        score += _W.declare_void
                    if left <= 1:
                        score += _W.out_with_wild
                    scores.append(score)
                    if c == card and s == declared:
                        chosen = score
            else:
                s = c >> 4
                score = base + _W.play + _W.suit_length * min(suits[s] - 1, 3)
                if actions:
                    rank = c & 15
                    if rank == QUEEN:
                        score += _W.skip
                    elif rank == TWO:
                        score += _W.two
                if (held & ~low & ~wild) == 0 and size > 1:
                    score += _W.out_with_wild
                scores.append(score)
                if c == card:
                    chosen = score
        top = max(scores)
        norm = sum(math.exp(beta * (x - top)) for x in scores)
        total += beta * (chosen - top) - math.log(norm)
    return max(total, _FLOOR)


def world_log_weight(know: Knowledge, hands: list[list[Card]], beta: float) -> float:
    """The sum of ``play_log_likelihood`` over the opponents for a dealt set of hands."""
    total = 0.0
    for seat in range(know.players):
        if seat == know.seat or not know.recent[seat]:
            continue
        mask = 0
        for c in hands[seat]:
            bit = 1 << c
            mask |= (bit << COPY) if mask & bit else bit
        total += play_log_likelihood(know, seat, mask, beta)
    return total


__all__ = ["play_log_likelihood", "world_log_weight"]
