"""Cycles play (RULES section 4) for the heuristic level, and the cycles helpers of search.

A cycle costs every player one card; what separates players is who has to draw (Y9: a
follower with no fitting card draws until one fits) and who leads (the leader never
draws and picks the suit). So the heuristic:

- calls last card exactly when the play leaves one card, never a false call (Y13);
- keeps its jokers, which fit where it has no card (Y6), but never lets a joker be its
  last card (Y14): with two cards left and a joker among them the joker goes first;
- as a follower, wins the cycle with its cheapest sure winner when leading next is worth
  it (an opponent close to going out is winning it, or it has a good lead), and
  otherwise ducks with its lowest card;
- as the leader, leads suits the opponents have shown they lack (they must draw) or
  revealed none of (Y13), a sure winner when it keeps a good lead, low cards otherwise,
  from long suits (it keeps its own suits diverse), and keeps opponents with one card
  from going out;
- near the cycle limit (Y16/Y17) sheds high-value cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from crazy_eights.engine.cards import JOKER_MASK, SUIT_MASK, Card, Mask, cycles_power, cycles_value
from crazy_eights.engine.cycles import FIT
from crazy_eights.engine.moves import Move, MoveKind

from .knowledge import CyclesKnowledge


@dataclass(frozen=True)
class CyclesWeights:
    """The weights of the cycles heuristic's terms (see the module docstring)."""

    joker: float = 30.0
    joker_last: float = 80.0
    win: float = 12.0
    block: float = 60.0
    void_lead: float = 18.0
    fit_risk: float = 40.0
    suit_length: float = 3.0
    power: float = 1.0
    value: float = 1.5
    endgame_cycles: int = 4


def call_moves(legal: Sequence[Move], hand_count: int) -> list[Move]:
    """The plays with the ``!`` variant kept exactly where the play leaves one card."""
    if not any(m.call for m in legal):
        return list(legal)
    want = hand_count == 2
    return [m for m in legal if m.call == want or m.kind is not MoveKind.PLAY]


def _bits(mask: Mask) -> list[Card]:
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _top_power(mask: Mask) -> int:
    return max((cycles_power(c) for c in _bits(mask)), default=0)


@dataclass(frozen=True, slots=True)
class _CyclesPosition:
    """What the score of every move reads about a cycles position, worked out once."""

    know: CyclesKnowledge
    w: CyclesWeights
    count: int
    """The cards in the seat's hand."""
    out_mask: Mask
    """Cards that may be in another hand or the stock (``outstanding``)."""
    opponents: list[int]
    endgame: bool
    """Whether the cycle limit is near (Y16/Y17): high-value cards go first."""


def score_cycles(
    know: CyclesKnowledge, moves: Sequence[Move], weights: CyclesWeights | None = None
) -> list[float]:
    """A score for each move of a cycles position; higher is better."""
    w = weights or CyclesWeights()
    position = _CyclesPosition(
        know=know,
        w=w,
        count=know.hand.bit_count(),
        out_mask=know.outstanding(),
        opponents=[s for s in range(know.players) if s != know.seat],
        endgame=know.cycles_left <= w.endgame_cycles,
    )
    return [_score_cycles_move(position, move) for move in moves]


def _score_cycles_move(p: _CyclesPosition, move: Move) -> float:
    """One move's score: nothing for a draw or a pass, going out above everything,
    else the joker terms, the card's value near the limit, and the terms of a lead or
    of a follow."""
    card = move.card
    if move.kind is not MoveKind.PLAY or card is None:
        return 0.0
    after = p.know.hand & ~(1 << card)
    if after == 0:
        return 1e6  # out: the game is won (Y17)
    is_joker = bool(JOKER_MASK >> card & 1)
    score = _joker_terms(p, after, is_joker)
    if p.endgame:
        score += p.w.value * cycles_value(card)
    power = cycles_power(card)
    if p.know.lead_suit < 0:
        suit = move.suit if move.suit is not None else card >> 4
        return _lead_terms(p, score, suit, after, power, is_joker)
    return _follow_terms(p, score, power)


def _joker_terms(p: _CyclesPosition, after: Mask, is_joker: bool) -> float:
    """Keep jokers (Y6), but never be left with a joker as the last card (Y14)."""
    w = p.w
    score = 0.0
    if is_joker:
        score -= w.joker if p.count > 2 else -w.joker_last
    elif after.bit_count() == 1 and after & JOKER_MASK:
        score -= w.joker_last
    return score


def _lead_terms(
    p: _CyclesPosition, score: float, suit: int, after: Mask, power: int, is_joker: bool
) -> float:
    """Leading ``suit``, added to ``score``: the opponents' answers to it, the length
    of the suit kept, then a sure winner's worth or a low card's."""
    w = p.w
    fit = FIT[suit]
    score = _lead_answers(p, score, fit)
    rivals = p.out_mask & fit
    sure = power > _top_power(rivals)
    mine = (after & SUIT_MASK[suit]).bit_count()
    score += w.suit_length * min(mine, 3)
    if sure and not is_joker:
        score += w.win
    elif not is_joker:
        score -= w.power * power
    return score


def _lead_answers(p: _CyclesPosition, score: float, fit: Mask) -> float:
    """Each opponent's answer to a lead that the cards of ``fit`` follow, added to
    ``score``: one who may go out on it (one card left) costs, one who must draw gains."""
    know = p.know
    w = p.w
    out_mask = p.out_mask
    for s in p.opponents:
        lacks = know.lacks(s)
        could = out_mask & fit & ~lacks
        if know.counts[s] == 1:
            one = (know.known[s] | out_mask) & ~lacks
            share = (could & ~JOKER_MASK).bit_count() / max(1, (one & ~JOKER_MASK).bit_count())
            score -= w.fit_risk * min(1.0, share)
        if not could:
            score += w.void_lead
    return score


def _follow_terms(p: _CyclesPosition, score: float, power: int) -> float:
    """Following the lead, added to ``score``: win the cycle with a sure winner (more
    so when the seat winning it is close to going out), else duck with a low card."""
    know = p.know
    w = p.w
    beats = power > know.best_power
    after_me = know.turns_left - 1
    rivals = p.out_mask & FIT[know.lead_suit]
    sure = beats and (after_me <= 0 or power > _top_power(rivals))
    threat = know.best_seat >= 0 and know.counts[know.best_seat] <= 2
    if sure:
        score += w.win + (w.block if threat else 0.0) - 0.5 * w.power * power
    elif beats and threat:
        score += 0.5 * w.block - w.power * power
    else:
        score -= w.power * power
    return score


def choose_cycles(
    know: CyclesKnowledge,
    moves: Sequence[Move],
    rng: random.Random,
    weights: CyclesWeights | None = None,
) -> Move:
    scores = score_cycles(know, moves, weights)
    best = max(scores)
    top = [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]
    return top[rng.randrange(len(top))] if len(top) > 1 else top[0]


__all__ = ["CyclesWeights", "call_moves", "choose_cycles", "score_cycles"]
