"""A fitted evaluation of a round cut short: each seat's chance to win it.

ISMCTS cuts its rollouts after a few moves and needs a value for the position it
stops in. A seat's chance is a softmax over the seats of ``weights . features(seat)``
(a conditional logit model): the features are what a player would weigh (cards held,
wild cards, who moves, a pending draw-two, how many suits, whether the seat to move can
follow, one card left, twos held), read from the world's full state (a
determinization, so every hand is known).

The weights are fitted by maximum likelihood on positions of heuristic-against-
heuristic rounds, per ruleset and player count, by ``scripts/fit_leaf_model.py``,
which writes ``leaf_model.json`` beside this module. A ruleset or player count without
weights falls back to the nearest player count, then to hand sizes alone.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from crazy_eights.engine.cards import COPY, LOW, RANK_MASK, SUIT_MASK, Mask
from crazy_eights.engine.shedding import SheddingGame

FEATURES = (
    "cards",
    "wilds",
    "to_move",
    "next",
    "pending",
    "suits",
    "can_follow",
    "last_card",
    "twos",
)
"""The names of the features, in the order of ``shedding_features``' columns."""

_TWOS = RANK_MASK[1]
_S0, _S1, _S2, _S3 = SUIT_MASK
_COUNTS_ONLY = (-0.5,) + (0.0,) * (len(FEATURES) - 1)


def _position(
    world: SheddingGame,
) -> tuple[list[Mask], tuple[Mask, ...], int | None, Mask, int, int]:
    """What the features read from a shedding world: the hands, the wild masks, the
    player to move, the cards that follow, the pending twos and the seat after the
    player to move (-1 with two players)."""
    hands = world.hands
    current = world.current_player
    after = -1
    if current is not None and len(hands) > 2:
        after = (current + world.direction) % len(hands)
    return hands, world.wild_masks, current, world.follow, world.pending, after


def shedding_features(world: SheddingGame) -> list[list[float]]:
    """One row of features per seat of a classic, ultimate or countdown world."""
    hands, wild, current, follow, pending, after = _position(world)
    n = len(hands)
    rows: list[list[float]] = []
    for seat in range(n):  # ints and bools: the dot product takes them as they are
        hand = hands[seat]
        kinds = (hand | (hand >> COPY)) & LOW
        w = wild[seat]
        plain = kinds & ~w
        count = hand.bit_count()
        moving = seat == current
        rows.append(
            [
                count,
                (hand & w).bit_count() + ((hand >> COPY) & w).bit_count(),
                moving,
                seat == after,
                pending if moving else 0,
                (plain & _S0 > 0) + (plain & _S1 > 0) + (plain & _S2 > 0) + (plain & _S3 > 0),
                moving and plain & follow > 0,
                count == 1,
                (kinds & _TWOS).bit_count(),
            ]
        )
    return rows


def leaf_chances(world: SheddingGame, weights: tuple[float, ...]) -> list[float]:
    """``win_chances(shedding_features(world), weights)`` without building the rows:
    ISMCTS scores every cut rollout with it, and the rows and the generic dot product
    cost as much as four engine moves. The terms are the features in their order
    (``test_evaluation`` checks that both give the same chances)."""
    hands, wild, current, follow, pending, after = _position(world)
    n = len(hands)
    w_cards, w_wilds, w_move, w_next, w_pending, w_suits, w_follow, w_last, w_twos = weights
    scores: list[float] = []
    for seat in range(n):
        hand = hands[seat]
        kinds = (hand | (hand >> COPY)) & LOW
        w = wild[seat]
        plain = kinds & ~w
        count = hand.bit_count()
        score = (
            w_cards * count
            + w_wilds * ((hand & w).bit_count() + ((hand >> COPY) & w).bit_count())
            + w_suits
            * ((plain & _S0 > 0) + (plain & _S1 > 0) + (plain & _S2 > 0) + (plain & _S3 > 0))
            + w_twos * (kinds & _TWOS).bit_count()
        )
        if count == 1:
            score += w_last
        if seat == current:
            score += w_move + w_pending * pending
            if plain & follow:
                score += w_follow
        elif seat == after:
            score += w_next
        scores.append(score)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


@cache
def _table() -> dict[str, list[float]]:
    try:
        text = resources.files(__package__).joinpath("leaf_model.json").read_text()
    except FileNotFoundError:
        return {}
    data: dict[str, Any] = json.loads(text)
    if data.get("features") != list(FEATURES):
        return {}
    return {key: [float(x) for x in value] for key, value in data["weights"].items()}


def weights_for(ruleset: str, players: int) -> tuple[float, ...]:
    """The fitted weights of ``ruleset`` at ``players`` (the nearest fitted count)."""
    table = _table()
    fitted = [int(k.split(":")[1]) for k in table if k.split(":")[0] == ruleset]
    if not fitted:
        return _COUNTS_ONLY
    nearest = min(fitted, key=lambda p: (abs(p - players), p))
    return tuple(table[f"{ruleset}:{nearest}"])


def win_chances(rows: list[list[float]], weights: tuple[float, ...]) -> list[float]:
    """Softmax over the seats of each row's score."""
    scores = [sum(map(mul, weights, row)) for row in rows]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


__all__ = ["FEATURES", "leaf_chances", "shedding_features", "weights_for", "win_chances"]
