"""The ``openspiel`` ruleset: OpenSpiel 2.0's ``crazy_eights``, rule for rule.

A subclass of the shedding state machine that keeps its cards, hands, stock, reshuffle
and views and replaces what OpenSpiel does differently (read from
``open_spiel/games/crazy_eights/crazy_eights.cc``; the tests replay it move for move):

- The dealer is drawn at random; cards are dealt one at a time from the dealer's left,
  the dealer last. 7 cards each for 2 players, else 5; two packs above 5 players.
- The upturned card: an eight goes back into the stock (at a random place) and another
  card is turned. With ``action_cards`` (OpenSpiel's ``use_special_cards``) a Q, A or 2
  upturned acts as if the dealer had played it.
- A turn: play a card matching the top card's suit (or the nominated suit) or rank, or
  an eight (``8S:H`` plays it and nominates hearts: OpenSpiel's two actions in one), or
  draw one card, also while holding a legal card, up to ``max_draw_cards`` a turn; the
  player may play any legal card after drawing. Passing is allowed only after
  ``max_draw_cards`` draws or when there is nothing to draw (then also with a legal card).
- Special cards: Q skips the next player, A reverses the direction, 2 makes the next
  player play a 2 or ``draw``, which draws 2 per 2 in the run and ends the turn. An
  eight cannot answer a 2. A 2 played with nothing left to draw makes no penalty, and a
  penalty the stock cannot cover is cancelled; a penalty whose last card empties the
  stock counts as a pass (OpenSpiel does this too).
- ``stock_empty=reshuffle`` (OpenSpiel's ``reshuffle``): as soon as the stock is empty
  (after a draw or a play), every card of the discard pile but the top one makes the
  new stock.
- The game ends when a player plays their last card, after ``players + 1`` passes in a
  row with nothing to draw, or after ``max_turns`` card plays.
- Every player scores minus the points left in hand: an eight 50, J Q K A 10, 2 to T
  their face value. This is what OpenSpiel's documentation says; its code scores a spot
  card by its card index instead of its rank (``card + 2``), a known bug we do not copy.

``result.points`` holds each seat's penalty points (OpenSpiel's returns negated); the
winner is the player who went out, else the one seat with the fewest points, if any.
"""

from __future__ import annotations

from typing import cast

from .cards import COPY, Card, openspiel_points, standard_deck
from .events import (
    Drew,
    GameOver,
    Passed,
    PenaltyDrawn,
)
from .moves import DRAW_KIND, PASS_KIND, Move
from .result import EndReason, game_result
from .rules import Rules
from .shedding import (
    OVER,
    SheddingConfig,
    SheddingGame,
    config_of,
)
from .views import OpenSpielView, SheddingView


class OpenSpielGame(SheddingGame):
    """A game of the ``openspiel`` ruleset (one round, scored when it ends)."""

    draws: int
    """Cards drawn in this turn (up to ``max_draw_cards``)."""
    plays: int
    """Cards played so far (up to ``max_turns``)."""

    @classmethod
    def _config_for(cls, rules: Rules) -> SheddingConfig:
        if rules.ruleset != "openspiel":
            raise ValueError(f"OpenSpielGame plays the openspiel ruleset, not {rules.ruleset}")
        return config_of(rules)

    # -- setting up -----------------------------------------------------------------------

    def _deal_round(self) -> None:
        cfg = self._cfg
        n = cfg.n
        rng = self._rng
        self.dealer = rng.below(n)
        stock = standard_deck(cfg.packs)
        rng.shuffle(stock)
        hands = [0] * n
        for k in range(n * cfg.hand_count):
            seat = (self.dealer + 1 + k) % n
            bit = 1 << stock.pop()
            hand = hands[seat]
            hands[seat] = hand | ((bit << COPY) if hand & bit else bit)
        self.hands = hands
        self.stock = stock
        self.discard = []
        self._begin(stock.pop())

    # -- legal moves ----------------------------------------------------------------------

    def available(self) -> int:
        """Cards a draw can reach now: the stock, or what a reshuffle would make of it."""
        count = len(self.stock)
        if count or not self._cfg.reshuffle:
            return count
        return len(self.discard) - 1

    def _why_illegal(self, move: Move) -> str:
        if self.phase != OVER:
            if move.kind == PASS_KIND:
                return (
                    f"you may pass only after drawing {self._cfg.max_draw} cards this turn "
                    "or when there is nothing to draw"
                )
            if move.kind == DRAW_KIND and self.available():
                return f"you already drew {self._cfg.max_draw} cards this turn: play or pass"
        return super()._why_illegal(move)

    # -- carrying out moves ---------------------------------------------------------------

    def _draw(self, seat: int) -> None:
        """Draw one card (the turn goes on, up to ``max_draw_cards`` draws), or the
        pending draw-two, which ends the turn."""
        cfg = self._cfg
        out = self._out
        self.passes = 0
        if self.pending:
            drawn: list[Card] | None = None if out is None else []
            count = 2 * self.pending
            self.pending = 0
            got = self._take(seat, count, drawn)
            self._refill()
            if out is not None and drawn is not None:
                out.append((PenaltyDrawn, seat, tuple(drawn), "draw_two"))
            if got == count and not self._can_draw():
                self.passes = 1
            self.current = (seat + self.direction) % cfg.n
            return
        stock = self.stock
        if stock:  # _draw_one(seat), inlined for the usual case: a playout draws here
            card = stock.pop()
            hand = self.hands[seat]
            bit = 1 << card
            self.hands[seat] = hand | ((bit << COPY) if hand & bit else bit)
        else:
            card = self._draw_one(seat)
        if cfg.refill and not self.stock:
            self._refill()
        if out is not None:
            out.append((Drew, seat, (card,) if card >= 0 else ()))
        self.draws += 1
        if not self.stock and not (cfg.reshuffle and len(self.discard) > 1):  # _can_draw()
            self.draws = cfg.max_draw

    def _pass(self, seat: int) -> None:
        out = self._out
        if out is not None:
            out.append((Passed, seat))
        self.draws = 0
        if self.stock or (self._cfg.reshuffle and len(self.discard) > 1):  # _can_draw()
            self.passes = 0
        else:
            self.passes += 1
            if self.passes > self._cfg.n:
                self._end_round(None)
                return
        self.current = (seat + self.direction) % self._cfg.n

    # -- the end --------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """OpenSpiel's returns: minus each seat's points in hand (0 before the end)."""
        if self._result is None:
            return [0.0] * self._cfg.n
        return [-float(p) for p in self._result.points]

    def _end_round(self, out_seat: int | None) -> None:
        """The game ends: a player went out, a blockade, or the turn limit."""
        n = self._cfg.n
        points = [self.hand_points(s) for s in range(n)]
        reason: EndReason = (
            "out" if out_seat is not None else "blockade" if self.passes > n else "turn_limit"
        )
        # standings: the player out first, then by points, then by seat; sorted as ints
        # (points below 2**24 and seats below 256 in their own bits), not by a key call
        order = [(0 if s == out_seat else 1 << 32) | points[s] << 8 | s for s in range(n)]
        order.sort()
        standings = tuple([key & 255 for key in order])
        winner = out_seat
        if winner is None and (n == 1 or points[standings[0]] < points[standings[1]]):
            winner = standings[0]
        self.scores = [-p for p in points]
        self.phase = OVER
        self._result = game_result(winner, standings, tuple(points), 1, reason)
        out = self._out
        if out is not None:
            self._round_over(winner, reason, points, self.scores, None)
            out.append((GameOver, winner, self._result))

    # -- views ----------------------------------------------------------------------------

    def view(self, seat: int | None = None, *, log: bool = False) -> OpenSpielView:
        out = cast(OpenSpielView, super().view(seat, log=log))
        cfg = self._cfg
        out["draws"] = self.draws
        out["max_draw_cards"] = cfg.max_draw
        out["plays"] = self.plays
        out["max_turns"] = cfg.max_turns
        return out

    def _read_view(self, view: SheddingView) -> None:
        super()._read_view(view)
        facts = cast(OpenSpielView, view)
        self.draws = int(facts["draws"])
        self.plays = int(facts["plays"])


__all__ = ["OpenSpielGame", "openspiel_points"]
