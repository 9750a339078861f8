"""The heuristic level: seed 001's techniques plus what each ruleset needs.

Every legal move gets a score and the best one is played (ties broken by the bot's own
generator). The terms, each a named weight so that the lab can tune them:

- keep wild cards (eights; the own number's rank in countdown) for when no other card
  fits or for going out (technique 1);
- steer the active suit to one the next player has shown they lack (technique 2), in
  countdown only as far as their wild rank may be gone from play;
- play from long suits and keep the hand's suits diverse (technique 3);
- shed high-point cards first when points count (technique 4);
- stack and answer twos, use skips and reverses against the player closest to going out;
- always call last card (play the ``!`` variant whenever it is listed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crazy_eights.engine.cards import SUIT_MASK, Card, Mask
from crazy_eights.engine.moves import Move, MoveKind
from crazy_eights.engine.shedding import follow_mask

from .base import check_legal
from .knowledge import Knowledge, hand_mask, kinds_of, knowledge_from_view


@dataclass(frozen=True)
class Weights:
    """The weights of the heuristic's terms (see the module docstring)."""

    play: float = 100.0
    wild: float = 40.0
    draw: float = 20.0
    pass_: float = 10.0
    suit_length: float = 4.0
    points: float = 0.6
    lack: float = 15.0
    lack_close: float = 12.0
    two: float = 12.0
    skip: float = 8.0
    reverse: float = 6.0
    threat: float = 10.0
    out_with_wild: float = 30.0
    declare_own: float = 10.0
    declare_void: float = -20.0
    dump_wild: float = 25.0
    keep_blocker: float = 3.0


def prefer_calls(legal: Sequence[Move]) -> list[Move]:
    """The legal moves with every play that has a ``!`` variant listed replaced by it."""
    called = {m.with_call(False) for m in legal if m.call}
    if not called:
        return list(legal)
    return [m for m in legal if m.call or m not in called]


class HeuristicBot:
    """Scores the legal moves with the techniques of seed 001 and plays the best."""

    name = "heuristic"

    def __init__(self, *, seed: int, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        self.weights = weights or Weights()

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move:
        check_legal(legal)
        if view.get("ruleset") == "cycles":
            from .cycles import call_moves, choose_cycles
            from .knowledge import cycles_knowledge_from_view

            moves = call_moves(legal, len(view["hand"]))
            if len(moves) == 1:
                return moves[0]
            return choose_cycles(cycles_knowledge_from_view(view), moves, self.rng)
        moves = prefer_calls(legal)
        if len(moves) == 1:
            return moves[0]
        know = knowledge_from_view(view)
        scores = score_moves(know, moves, phase=str(view.get("phase")), weights=self.weights)
        best = max(scores)
        top = [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]
        return top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]


def _suit_counts(mask: Mask, wild: Mask) -> list[int]:
    plain = kinds_of(mask) & ~wild
    return [(plain & SUIT_MASK[s]).bit_count() for s in range(4)]


@dataclass(frozen=True, slots=True)
class _Position:
    """What the score of every move reads about the position, worked out once."""

    know: Knowledge
    w: Weights
    hand: Mask
    wild: Mask
    """The seat's own wild cards."""
    opponents: list[int]
    fewest: int
    """The fewest cards an opponent holds."""
    nxt: int
    """The seat that plays next unless an action changes it."""
    unseen: Mask


def score_moves(
    know: Knowledge, moves: Sequence[Move], *, phase: str = "play", weights: Weights | None = None
) -> list[float]:
    """A score for each move from the seat's knowledge; higher is better."""
    me = know.seat
    opponents = [s for s in range(know.players) if s != me]
    position = _Position(
        know=know,
        w=weights or Weights(),
        hand=hand_mask(know.hand),
        wild=know.wild[me],
        opponents=opponents,
        fewest=min(know.counts[s] for s in opponents),
        nxt=know.next_seat(me),
        unseen=know.unseen_mask(),
    )
    return [_score_move(position, move, phase) for move in moves]


def _score_move(p: _Position, move: Move, phase: str) -> float:
    """One move's score: a draw or a pass by its weight, the suit named after a wild
    card by ``_declare_score``, going out above everything, any other play by
    ``_play_score``."""
    w = p.w
    if move.kind is MoveKind.DRAW:
        return w.draw
    card = move.card
    if move.kind is not MoveKind.PLAY or card is None:
        return w.pass_
    if phase == "declare":
        suit = move.suit if move.suit is not None else card >> 4
        return _declare_score(p.know, p.hand, card, suit, p.nxt, p.unseen, w)
    after = _remove(p.hand, card)
    if after == 0:
        return 1e6
    is_wild = bool(p.wild >> card & 1) and move.suit is not None
    return _play_score(p, card, move.suit, after, is_wild)


def _play_score(p: _Position, card: Card, named: int | None, after: Mask, is_wild: bool) -> float:
    """A play that does not go out: its weight, the points it sheds, what its action
    does (a wild card has none), then the terms of a wild or of a plain card."""
    w = p.w
    know = p.know
    score = w.wild if is_wild else w.play
    if know.points_matter:
        score += w.points * know.rules.card_points(card)
    if is_wild:
        suit = named if named is not None else card >> 4
        return _wild_terms(p, score, card, suit, after, p.nxt)
    score, target = _action_terms(p, score, card)
    return _plain_terms(p, score, card, after, target)


def _action_terms(p: _Position, score: float, card: Card) -> tuple[float, int]:
    """A plain card's action (skip, reverse, draw two) added to ``score``: its worth
    against the seat it hurts; and the seat that plays next after it."""
    w = p.w
    know = p.know
    counts = know.counts
    me, n, nxt = know.seat, know.players, p.nxt
    action = know.rules.action(card)
    if action == "skip":
        score += w.skip + (w.threat if counts[nxt] <= 2 or counts[nxt] == p.fewest else 0)
        return score, know.next_seat(me, 2) if n > 2 else me
    if action == "reverse" and n > 2:
        prev = know.next_seat(me, -1)
        gain = counts[nxt] - counts[prev]
        score += w.reverse * (1 if gain < 0 else -0.5) + (w.threat if counts[nxt] <= 2 else 0)
        return score, prev
    if action == "draw_two":
        score += w.two + (w.threat if counts[nxt] <= 2 else 0)
        if not know.rules.twos_stack:
            return score, know.next_seat(me, 2) if n > 2 else me
    return score, nxt


def _wild_terms(
    p: _Position, score: float, card: Card, suit: int, after: Mask, target: int
) -> float:
    """A wild card's terms added to ``score``: the suit it names, going out with it
    next, and dumping it when points count and an opponent is about to go out."""
    w = p.w
    score += _declare_score(p.know, after, card, suit, target, p.unseen, w)
    if after.bit_count() <= 1:
        score += w.out_with_wild
    if p.know.points_matter and p.fewest <= 1:
        score += w.dump_wild
    return score


def _plain_terms(p: _Position, score: float, card: Card, after: Mask, target: int) -> float:
    """The terms of a card that is not wild added to ``score``: the length of its suit
    kept, going out on wild cards alone, leaving the next player a table they have
    shown they cannot follow, and (countdown) keeping cards of an opponent's wild rank."""
    w = p.w
    know = p.know
    suit = card >> 4
    counts_after = _suit_counts(after, p.wild)
    score += w.suit_length * min(counts_after[suit], 3)
    if after and (kinds_of(after) & ~p.wild) == 0:
        score += w.out_with_wild  # only wild cards left: going out is assured
    if target != know.seat:
        score += _lack_bonus(know, target, follow_mask(card, suit, False), p.unseen, w)
    if know.rules.has_numbers:
        for s in p.opponents:
            if know.wild[s] >> card & 1:
                score -= w.keep_blocker  # a card of their wild rank is safer here
    return score


def _declare_score(
    know: Knowledge, after: Mask, card: Card, suit: int, target: int, unseen: Mask, w: Weights
) -> float:
    mine = _suit_counts(after, know.wild[know.seat])[suit]
    score = w.declare_own * mine + (w.declare_void if mine == 0 else 0.0)
    if target != know.seat:
        score += _lack_bonus(know, target, follow_mask(card, suit, True), unseen, w)
    return score


def _lack_bonus(know: Knowledge, seat: int, follow: Mask, unseen: Mask, w: Weights) -> float:
    """Bonus for leaving ``seat`` a table where only ``follow`` (and their wild cards)
    may be played, if they have shown they lack those cards."""
    lacks = know.lacks(seat)
    need = follow & ~know.wild[seat]
    if need & unseen & ~lacks:
        return 0.0
    bonus = w.lack
    wilds_out = know.wild[seat] & unseen & ~lacks
    if wilds_out:
        # they may still answer with a wild card: count how many could be out there
        bonus *= 0.5 if wilds_out.bit_count() <= 2 else 0.25
    if know.counts[seat] <= 2:
        bonus += w.lack_close
    return bonus


def _remove(hand: Mask, card: Card) -> Mask:
    bit = 1 << card
    return hand ^ ((bit << 64) if hand & (bit << 64) else bit)


__all__ = ["HeuristicBot", "Weights", "prefer_calls", "score_moves"]
