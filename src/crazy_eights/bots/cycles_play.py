"""Cycles play for the heuristic level, until the cycles view is known to the bots.

Decides from the legal moves alone: duck with the lowest card that fits, keep the jokers
for last, and always call last card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from crazy_eights.engine.moves import Move, MoveKind

JOKER_POWER = {13: 14, 14: 14, 15: 15}


def card_power(card: int) -> int:
    """Y3 power: 2 < ... < K < A < BJ = RJ < JK (two is 1, ace 13)."""
    if card in JOKER_POWER:
        return JOKER_POWER[card]
    rank = card & 15
    return 13 if rank == 0 else rank


def choose_cycles(view: dict[str, Any], moves: Sequence[Move], rng: random.Random) -> Move:
    plays = [m for m in moves if m.kind is MoveKind.PLAY and m.card is not None]
    if not plays:
        return moves[0]
    low = min(card_power(m.card) for m in plays if m.card is not None)
    best = [m for m in plays if m.card is not None and card_power(m.card) == low]
    return best[rng.randrange(len(best))]
