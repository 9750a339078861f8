"""Counting a stored game for the player evaluation: replay it through the engine and
count, for every seat, what the evaluation's figures are made of.

``measure_game`` asks the engine (legal moves, ``is_wild``, ``Rules.action``, hand
counts, the events) everything a count needs, so no rule is re-derived here. It is a
pure function of the game's rules, seed and moves; ``measure_safely`` runs it in a
thread when a table finishes. The figures made from the counts are ``evaluation``'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crazy_eights.engine import Deal, Game, Move, Rules, new_game
from crazy_eights.engine.cards import is_joker, parse_card, suit_of
from crazy_eights.engine.events import (
    FalseCall,
    GameOver,
    PenaltyDrawn,
    PickedUp,
    Played,
    RoundOver,
    SuitDeclared,
)
from crazy_eights.engine.moves import DRAW_KIND, PLAY_KIND

from . import db

log = logging.getLogger(__name__)

CLOSE_TO_OUT = 2
"""An opponent holding this many cards or fewer is close to going out."""


@dataclass(frozen=True)
class Counts:
    """The running totals of one seat (or of one account over many seats) in a ruleset.

    ``turns``: moves made; ``shed``: cards played; ``rounds`` and ``hand_points``: rounds
    ended and the points left in hand at those ends; ``pressure_turns``: turns taken
    while an opponent was close to going out, ``disruptions``: action cards and suit
    changes played on those turns, ``disruption_cost``: cards those opponents had
    gained by the disrupter's next turn; ``wilds_played`` and ``wilds_needed``: wild
    cards played, and those played when no other card could be; ``declarations`` and
    ``declarations_long``: suits declared, and those naming the longest suit left in
    hand; ``draws_forced``: draws with no card to play.
    """

    games: int = 0
    turns: int = 0
    shed: int = 0
    rounds: int = 0
    hand_points: int = 0
    pressure_turns: int = 0
    disruptions: int = 0
    disruption_cost: int = 0
    wilds_played: int = 0
    wilds_needed: int = 0
    declarations: int = 0
    declarations_long: int = 0
    draws_forced: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(**{f: getattr(self, f) + getattr(other, f) for f in db.MEASURE_COUNTS})

    @classmethod
    def of_row(cls, row: Any) -> Counts:
        return cls(**{f: int(getattr(row, f)) for f in db.MEASURE_COUNTS})


@dataclass(frozen=True)
class GameMeasures:
    """What ``measure_game`` found: each seat's counts and penalties taken."""

    counts: tuple[Counts, ...]
    penalties: tuple[int, ...]


@dataclass
class _Seat:
    """What one seat did in one game while it is being replayed (mutable, private)."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(db.MEASURE_COUNTS, 0))
    penalties: int = 0
    pending: dict[int, int] | None = None
    """Hand counts of the close opponents when this seat last disrupted them."""


@dataclass(frozen=True)
class _Turn:
    """A seat's turn as it stood before its move: what the move is counted against."""

    by: int
    move: Move
    forced_draw: bool
    """The move is a draw and no card could be played."""
    wild: bool
    """The move plays a card that is wild for this seat."""
    needed: bool
    """No card but a wild one could be played."""
    close: dict[int, int]
    """Opponents close to going out, and their hand counts."""


def measure_game(
    rules: Rules, seed: int, moves: Iterable[str], *, deal: Deal | None = None
) -> GameMeasures:
    """Replay a stored game (or one dealt by hand, ``deal``) and count, for every seat,
    what the evaluation is made of."""
    replay = _Replay(new_game(rules, seed, deal=deal), rules)
    for text in moves:
        replay.step(text)
    return replay.measures()


class _Replay:
    """One game being replayed and counted, move by move."""

    def __init__(self, game: Game, rules: Rules) -> None:
        self.game = game
        self.rules = rules
        self.seats = [_Seat() for _ in range(rules.players)]
        self.rounds_seen = False

    def step(self, text: str) -> None:
        """Play one stored move, counting it for the seat that made it (a move by
        nobody, such as the dealer's, is only played)."""
        by = self.game.current_player
        if by is None:
            self.game.play(text)
            return
        me = self.seats[by]
        _settle(me, self.game)
        turn = self._turn(by, Move.parse(text))
        events = self.game.play(text)
        _count_move(me.counts, turn)
        disrupted = self._count_events(me, turn, events)
        _count_pressure(me, turn, disrupted)
        if any(isinstance(e, RoundOver | GameOver) for e in events):
            for seat in self.seats:
                seat.pending = None

    def _turn(self, by: int, move: Move) -> _Turn:
        """The turn before ``move`` is played: the plays it had and who is close to out."""
        game = self.game
        plays = [m for m in game.legal_moves() if m.kind == PLAY_KIND]
        return _Turn(
            by=by,
            move=move,
            forced_draw=move.kind == DRAW_KIND and not plays,
            wild=move.kind == PLAY_KIND and move.card is not None and game.is_wild(move.card, by),
            needed=not any(m.card is not None and not game.is_wild(m.card, by) for m in plays),
            close={
                s: game.hand_count(s)
                for s in range(self.rules.players)
                if s != by and game.hand_count(s) <= CLOSE_TO_OUT
            },
        )

    def _count_events(self, me: _Seat, turn: _Turn, events: Sequence[Any]) -> bool:
        """Count what a move set off (rounds, penalties, cards shed, suits declared);
        True when the mover disrupted (an action card or a suit change)."""
        disrupted = False
        for event in events:
            self.rounds_seen |= _count_event(event, self.seats)
            if isinstance(event, Played) and event.seat == turn.by:
                me.counts["shed"] += 1
                action = not turn.wild and self.rules.action(event.card) is not None
                disrupted |= action or event.declared is not None
                if event.declared is not None:
                    _declared(me, self.game, turn.by, event.declared)
            elif isinstance(event, SuitDeclared) and event.seat == turn.by:
                disrupted = True
                _declared(me, self.game, turn.by, event.suit)
        return disrupted

    def measures(self) -> GameMeasures:
        """Every seat's counts and penalties, the game's end counted as a round's when
        the ruleset has no rounds (cycles: the end is the one end, scored by the engine)."""
        if self.game.is_over and not self.rounds_seen:
            for s, seat in enumerate(self.seats):
                seat.counts["rounds"] += 1
                seat.counts["hand_points"] += self.game.hand_points(s)
        return GameMeasures(
            counts=tuple(Counts(**{**s.counts, "games": 1}) for s in self.seats),
            penalties=tuple(s.penalties for s in self.seats),
        )


def _count_move(c: dict[str, int], turn: _Turn) -> None:
    """A turn taken: a forced draw, a wild card (and whether nothing else played)."""
    c["turns"] += 1
    c["draws_forced"] += int(turn.forced_draw)
    if turn.wild:
        c["wilds_played"] += 1
        c["wilds_needed"] += int(turn.needed)


def _count_pressure(me: _Seat, turn: _Turn, disrupted: bool) -> None:
    """A turn against an opponent close to going out: did it disrupt them? Their hand
    counts are kept to see, at the mover's next turn, what it cost them."""
    if not turn.close:
        return
    me.counts["pressure_turns"] += 1
    if disrupted:
        me.counts["disruptions"] += 1
        me.pending = turn.close


def _settle(me: _Seat, game: Game) -> None:
    """The disrupter is to move again: what its last disruption cost the opponents."""
    if me.pending is None:
        return
    me.counts["disruption_cost"] += sum(
        max(0, game.hand_count(s) - before) for s, before in me.pending.items()
    )
    me.pending = None


def _declared(me: _Seat, game: Game, seat: int, suit: int) -> None:
    """A suit declared: count it, and whether it names the longest suit left in hand."""
    cards = [parse_card(t) for t in game.hand(seat)]
    suits = [suit_of(card) for card in cards if not is_joker(card)]
    if not suits:
        return
    me.counts["declarations"] += 1
    longest = max(suits.count(s) for s in set(suits))
    me.counts["declarations_long"] += int(suits.count(suit) == longest)


def _count_event(event: Any, seats: list[_Seat]) -> bool:
    """Round ends and penalties, for whichever seat they concern; True at a round's end."""
    if isinstance(event, RoundOver):
        for s, seat in enumerate(seats):
            seat.counts["rounds"] += 1
            seat.counts["hand_points"] += event.points[s]
        return True
    penalty = isinstance(event, PenaltyDrawn | FalseCall) or (
        isinstance(event, PickedUp) and event.reason == "last_card"
    )
    if penalty and event.seat is not None:
        seats[event.seat].penalties += 1
    return False


async def measure_safely(
    table_id: str, rules: Rules, seed: int, moves: Sequence[str]
) -> GameMeasures | None:
    """Measure a finished game in a thread (a long match takes a while to replay). A game
    that cannot be replayed (it never should) is logged and measured as None rather than
    keeping its table from finishing."""
    try:
        return await asyncio.to_thread(measure_game, rules, seed, moves)
    except Exception:
        log.exception("table %s could not be measured for the evaluation", table_id)
        return None
