"""Game analysis: the search bot's opinion of every decision one seat made in a game.

For each turn of the seat where it had a choice, the position is read from that seat's
view alone (its hand, the public table and the round's log as it saw it: RULES G5), and
the search bot values every legal move, and the move played, on the same sampled
determinizations (``IsmctsBot.move_values``). The best value is the seat's chance of
winning the round before the move (with best play), the played move's value the chance
after it; the difference is what the move cost. A move that cost at least
``Thresholds.inaccuracy`` / ``mistake`` / ``blunder`` of round-win chance is marked so,
and linked to the strategy technique it breaks where one clearly applies (seed 001,
section 2.4; the How to play page teaches them).

Every decision's search is seeded from the analysis seed and the move's number only, so
two games that differ only in cards the seat never saw get the same analysis.

Engine and bots only: the server runs ``judge`` in its bot workers, one decision a job.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from crazy_eights.engine import Deal, Move, Rules, new_game
from crazy_eights.engine.cards import SUIT_MASK, suit_of
from crazy_eights.engine.moves import MoveData, MoveKind

from .heuristic import prefer_calls
from .ismcts import IsmctsBot
from .knowledge import Knowledge, kinds_of, knowledge_from_view

Mark = Literal["inaccuracy", "mistake", "blunder"]
Technique = Literal["wilds", "voids", "diversity", "high_cards"]
TECHNIQUES: tuple[Technique, ...] = ("wilds", "voids", "diversity", "high_cards")
"""Seed 001's four techniques, in its order: conserving wild eights, tracking opponent
suit deficiencies, hand diversity, dumping high-value cards."""


@dataclass(frozen=True)
class Thresholds:
    """The loss of round-win chance (0..1) from which a move is marked: 5, 10 and 20
    percentage points by default. Below 5 points the search's own noise (about 2 points
    with 150 worlds) would mark sound moves."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.20

    def __post_init__(self) -> None:
        if not 0.0 < self.inaccuracy <= self.mistake <= self.blunder <= 1.0:
            raise ValueError("thresholds must satisfy 0 < inaccuracy <= mistake <= blunder <= 1")

    def mark(self, loss: float) -> Mark | None:
        """The class of a move that cost ``loss`` (None: not marked)."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


@dataclass(frozen=True)
class AnalysisConfig:
    """How hard the search looks at each decision: ``worlds`` determinizations, each
    move played in all of them; ``seed`` seeds every decision's search (with the move's
    number); ``thresholds`` mark the costly moves."""

    worlds: int = 150
    seed: int = 0
    thresholds: Thresholds = field(default_factory=Thresholds)

    def __post_init__(self) -> None:
        if not 1 <= self.worlds <= 10_000:
            raise ValueError("worlds must be between 1 and 10000")


class DecisionDict(TypedDict):
    """One decision of the analysed seat, JSON-ready."""

    n: int
    """The move's number in the game (1 = the first move; the replay's step)."""
    played: str
    best: str
    played_move: MoveData
    best_move: MoveData
    """The two moves as structured data, for a client that parses no move text."""
    forced: bool
    before: float
    """Round-win chance with the best move (0..1)."""
    after: float
    """Round-win chance after the move played."""
    loss: float
    mark: Mark | None
    technique: Technique | None


class AnalysisDict(TypedDict):
    seat: int
    decisions: list[DecisionDict]
    thresholds: dict[str, float]
    worlds: int


@dataclass(frozen=True)
class Decision:
    """A turn of the seat: its view (with log), its legal moves and what it played."""

    n: int
    view: dict[str, Any]
    legal: tuple[str, ...]
    played: str


def decisions(
    rules: Rules, seed: int, moves: Sequence[str], seat: int, *, deal: Deal | None = None
) -> Iterator[Decision]:
    """Replay the game (dealt from ``seed``, or ``deal``) and yield each turn ``seat``
    took, from its own view only. Timeouts are left out (the player made no decision)."""
    game = new_game(rules, seed, deal=deal)
    for index, text in enumerate(moves):
        if game.current_player == seat and Move.parse(text).kind != MoveKind.TIMEOUT:
            view = dict(game.view(seat, log=True))
            legal = tuple(m.text for m in game.legal_moves())
            yield Decision(index + 1, view, legal, text)
        game.apply(text)


def decision_count(rules: Rules, seed: int, moves: Sequence[str], seat: int) -> int:
    """How many decisions ``decisions`` yields for ``seat``, found without building any
    view (a quick pass, for an analysis's progress)."""
    game = new_game(rules, seed, log=False)
    count = 0
    for text in moves:
        if game.current_player == seat and Move.parse(text).kind != MoveKind.TIMEOUT:
            count += 1
        game.apply(text)
    return count


def judge(
    n: int, view: dict[str, Any], legal: Sequence[str], played: str, config: AnalysisConfig
) -> DecisionDict:
    """The search's opinion of one decision, from the seat's ``view`` alone.

    Runs in a bot worker. With one sensible move (after preferring last-card calls), the
    decision is marked forced (valued, never marked)."""
    moves = [Move.parse(m) for m in legal]
    move = Move.parse(played)
    candidates = list(dict.fromkeys([*prefer_calls(moves), move]))
    bot = IsmctsBot(seed=(config.seed * 1_000_003 + n) % 2**62)
    values = bot.move_values(view, candidates, worlds=config.worlds)
    if len(candidates) == 1:  # still valued, for the win-chance graph
        return _decision(n, move, move, values, config, forced=True, technique=None)
    best = max(candidates, key=lambda m: (values[m], m == move))
    technique = None
    if best != move and view.get("ruleset") != "cycles":
        technique = broken_technique(knowledge_from_view(view), move, best)
    return _decision(n, move, best, values, config, forced=False, technique=technique)


def _decision(
    n: int,
    played: Move,
    best: Move,
    values: dict[Move, float],
    config: AnalysisConfig,
    *,
    forced: bool,
    technique: Technique | None,
) -> DecisionDict:
    before, after = values[best], values[played]
    loss = max(0.0, before - after)
    mark = None if forced else config.thresholds.mark(loss)
    return {
        "n": n,
        "played": played.text,
        "best": best.text,
        "played_move": played.to_dict(),
        "best_move": best.to_dict(),
        "forced": forced,
        "before": round(before, 4),
        "after": round(after, 4),
        "loss": round(loss, 4),
        "mark": mark,
        "technique": technique if mark is not None else None,
    }


def analyse(
    rules: Rules,
    seed: int,
    moves: Sequence[str],
    seat: int,
    config: AnalysisConfig,
    *,
    deal: Deal | None = None,
) -> AnalysisDict:
    """Every decision ``seat`` made in the game of ``rules``, ``seed`` (or ``deal``) and
    ``moves``."""
    return {
        "seat": seat,
        "decisions": [
            judge(d.n, d.view, d.legal, d.played, config)
            for d in decisions(rules, seed, moves, seat, deal=deal)
        ],
        "thresholds": thresholds_of(config),
        "worlds": config.worlds,
    }


def thresholds_of(config: AnalysisConfig) -> dict[str, float]:
    """The marks' thresholds as an analysis reports them."""
    t = config.thresholds
    return {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder}


# -- which technique a costly move breaks ------------------------------------------------


def broken_technique(know: Knowledge, played: Move, best: Move) -> Technique | None:
    """The seed's technique that ``played`` breaks where ``best`` keeps it, if one
    clearly applies: a wild card spent where the better move was a natural card
    (technique 1); the better move sends play to a suit the next player has shown it
    lacks and the card played does not (2); the better move sheds a card worth at least
    5 points more when points count (4); the better move keeps more suits in hand, or
    names a suit held more (3)."""
    if _is_wild_play(know, played) and best.kind == MoveKind.PLAY and not _is_wild_play(know, best):
        return "wilds"
    void = _shown_voids(know, know.next_seat(know.seat))
    best_suit, played_suit = _suit_after(best), _suit_after(played)
    if played_suit is not None and best_suit in void and played_suit not in void:
        return "voids"
    naturals = best.card is not None and played.card is not None and not _is_wild_play(know, best)
    if know.points_matter and naturals and not _is_wild_play(know, played):
        assert best.card is not None and played.card is not None
        if _points(know, best.card) - _points(know, played.card) >= 5:
            return "high_cards"
    if _suits_left(know, best) > _suits_left(know, played):
        return "diversity"
    if played.suit is not None and best.suit is not None and played.suit != best.suit:
        held = kinds_of(_hand_after(know, played))
        if (held & SUIT_MASK[best.suit]).bit_count() > (held & SUIT_MASK[played.suit]).bit_count():
            return "diversity"
    return None


def _is_wild_play(know: Knowledge, move: Move) -> bool:
    return move.card is not None and bool(know.wild[know.seat] >> move.card & 1)


def _suit_after(move: Move) -> int | None:
    """The suit to follow after ``move`` (None: it plays no card)."""
    if move.suit is not None:
        return int(move.suit)
    if move.card is not None:
        return suit_of(move.card)
    return None


def _shown_voids(know: Knowledge, seat: int) -> set[int]:
    """Suits ``seat`` has shown it holds none of (it drew facing them, nothing since)."""
    lacks = know.lacks(seat)
    return {k for k in range(4) if lacks & SUIT_MASK[k]}


def _hand_after(know: Knowledge, move: Move) -> int:
    mask = 0
    removed = False
    for card in know.hand:
        if not removed and card == move.card:
            removed = True
            continue
        mask |= 1 << card
    return mask


def _suits_left(know: Knowledge, move: Move) -> int:
    held = _hand_after(know, move)
    return sum(1 for k in range(4) if held & SUIT_MASK[k])


def _points(know: Knowledge, card: int) -> int:
    return know.rules.card_points(card)


__all__ = [
    "TECHNIQUES",
    "AnalysisConfig",
    "AnalysisDict",
    "Decision",
    "DecisionDict",
    "Mark",
    "Technique",
    "Thresholds",
    "analyse",
    "broken_technique",
    "decision_count",
    "decisions",
    "judge",
    "thresholds_of",
]
