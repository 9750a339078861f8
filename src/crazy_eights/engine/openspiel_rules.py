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

from typing import Any

from .cards import (
    ACE,
    CARD_TEXT,
    COPY,
    EIGHT,
    LOW,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    SUITS,
    TWO,
    Card,
    cards_of,
    parse_card,
    standard_deck,
)
from .events import Event
from .game import FIELDS, Deal, GameResult
from .moves import DRAW, DRAW_KIND, PASS_KIND, PLAY_KIND, Move
from .rng import Rng
from .rules import Rules
from .shedding import (
    EIGHTS,
    OVER,
    PLAY,
    STARTER_PLAIN,
    TWOS,
    SheddingGame,
    _Config,
    _moves_for,
)
from .shedding import _config as shedding_config

_DRAW_TAIL, _PASS_TAIL = 1, 2


def openspiel_points(card: Card) -> int:
    """Penalty points of a card left in hand: eight 50, J Q K A 10, 2 to T face value."""
    rank = card & 15
    if rank == EIGHT:
        return 50
    if rank == ACE or rank >= 10:
        return 10
    return rank + 1


class _OpenSpielConfig(_Config):
    """The settings of an ``openspiel`` ruleset in the shape the shedding machine reads."""

    __slots__ = ()

    def __init__(self, rules: Rules) -> None:  # the base reads settings this ruleset lacks
        self.rules = rules
        self.n = rules.players
        self.packs = rules.pack_count()
        self.two_packs = self.packs == 2
        self.hand_count = rules.hand_count()
        self.voluntary = True
        self.policy = 0
        self.countdown = False
        self.reshuffle = rules.stock_empty == "reshuffle"
        self.actions = bool(rules.action_cards)
        self.stacking = self.actions
        self.last_card = 0
        self.ace_points = 10
        self.points = tuple(openspiel_points(c) for c in range(64))
        self.match = False
        self.target = 0
        self.start = 8
        self.penalty_scoring = True
        self.starter_rule = STARTER_PLAIN
        self.max_draw = int(rules.max_draw_cards or 5)
        self.max_turns = int(rules.max_turns or 100)


def _config(rules: Rules) -> _Config:
    return shedding_config(rules, _OpenSpielConfig)


_OPENSPIEL_FIELDS = ("draws", "plays")


class OpenSpielGame(SheddingGame):
    """A game of the ``openspiel`` ruleset (one round, scored when it ends).

    Beyond the shedding state: ``draws`` counts this turn's draws (up to
    ``max_draw_cards``) and ``plays`` the cards played so far (up to ``max_turns``).
    """

    __slots__ = _OPENSPIEL_FIELDS

    def __init__(
        self, rules: Rules, seed: int, deal: Deal | None = None, *, _blank: bool = False
    ) -> None:
        if rules.ruleset != "openspiel":
            raise ValueError(f"OpenSpielGame plays the openspiel ruleset, not {rules.ruleset}")
        if _blank:  # clone() and base_from_view() set every field themselves
            return
        cfg = _config(rules)
        self.rules = rules
        self.seed = seed
        self._cfg = cfg
        self._rng = Rng(seed)
        self._moves = []
        self._legal = None
        self._log: list[Event] = []
        self._result: GameResult | None = None
        self._fresh: list[Event] | None = None
        self.dealer = 0
        self.round = 1
        self.direction = 1
        self.scores = [0] * cfg.n
        self.numbers = []
        self.draws = 0
        self.plays = 0
        self.follow = 0  # the base's follow mask; this ruleset's legality never reads it
        self._log = self._deal_round() if deal is None else self._setup(deal)

    # -- setting up -----------------------------------------------------------------------

    def _deal_round(self) -> list[Event]:
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
        return self._begin(stock.pop())

    def _begin(self, starter: Card) -> list[Event]:
        """Turn the starter (eights go back into the stock) and set up the first turn."""
        cfg = self._cfg
        n = cfg.n
        stock = self.stock
        returned: list[Event] = []
        while starter & 15 == EIGHT and any(c & 15 != EIGHT for c in stock):
            stock.insert(self._rng.below(len(stock) + 1), starter)
            returned.append(Event("starter_returned", None, (starter,)))
            starter = stock.pop()
        self._wild = [EIGHTS] * n
        self.discard.append(starter)
        self.top = starter
        self.suit = starter >> 4
        self.declared = False
        self.pending = 0
        self.passes = 0
        self.drawn = -1
        self.draws = 0
        self.plays = 0
        self.phase = PLAY
        events = [Event("round", None, data={"round": self.round, "dealer": self.dealer})]
        for seat in range(n):
            events.append(Event("deal", seat, tuple(cards_of(self.hands[seat])), True))
        events.extend(returned)
        events.append(Event("starter", None, (starter,)))
        dealer = self.dealer
        self.current = (dealer + self.direction) % n
        if cfg.actions and starter & 15 in (TWO, QUEEN, ACE):
            self.current = self._action(dealer, starter & 15, events)
        return events

    # -- legal moves ----------------------------------------------------------------------

    def available(self) -> int:
        """Cards a draw can reach now: the stock, or what a reshuffle would make of it."""
        count = len(self.stock)
        if count or not self._cfg.reshuffle:
            return count
        return len(self.discard) - 1

    def _compute_legal(self) -> tuple[Move, ...]:
        if self.phase == OVER:
            return ()
        hand = self.hands[self.current]
        kinds = (hand | (hand >> COPY)) & LOW if self._cfg.two_packs else hand
        if self.pending:
            return _moves_for(kinds & TWOS, 0, False, _DRAW_TAIL, EIGHTS)
        wild = kinds & EIGHTS
        plain = kinds & (SUIT_MASK[self.suit] | RANK_MASK[self.top & 15]) & ~EIGHTS
        can_draw = self.draws < self._cfg.max_draw and self.available() > 0
        return _moves_for(plain, wild, False, _DRAW_TAIL if can_draw else _PASS_TAIL, EIGHTS)

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

    def _apply(self, move: Move) -> list[Event]:
        kind = move.kind
        seat = self.current
        if kind is PLAY_KIND:
            assert move.card is not None
            events = self._play(seat, move.card, move.suit)
        elif kind is DRAW_KIND:
            events = self._draw_card(seat)
        elif kind is PASS_KIND:
            events = self._pass_turn(seat)
        else:  # the table's timeout: draw if allowed, else pass
            legal = self._compute_legal()
            events = [Event("timeout", seat)]
            events += self._draw_card(seat) if DRAW in legal else self._pass_turn(seat)
        self._log.extend(events)
        return events

    def _play(self, seat: int, card: Card, suit: int | None) -> list[Event]:
        cfg = self._cfg
        bit = 1 << card
        hand = self.hands[seat]
        hand ^= (bit << COPY) if hand & (bit << COPY) else bit
        self.hands[seat] = hand
        self.discard.append(card)
        self.top = card
        self.passes = 0
        self.draws = 0
        self.plays += 1
        if suit is not None:
            self.suit = suit
            self.declared = True
            events = [Event("played", seat, (card,), False, {"declared": SUITS[suit]})]
        else:
            self.suit = card >> 4
            self.declared = False
            events = [Event("played", seat, (card,))]
        if not hand or self.plays >= cfg.max_turns:
            self._end(seat if not hand else None, events)
            return events
        self._refill(events)
        rank = card & 15
        if cfg.actions and rank in (TWO, QUEEN, ACE):
            self.current = self._action(seat, rank, events)
        else:
            self.current = (seat + self.direction) % cfg.n
        return events

    def _action(self, seat: int, rank: int, events: list[Event]) -> int:
        """Carry out a Q, A or 2 played (or upturned) by ``seat``; return the next seat."""
        n = self._cfg.n
        nxt = (seat + self.direction) % n
        if rank == QUEEN:
            events.append(Event("skipped", nxt))
            return (nxt + self.direction) % n
        if rank == ACE:
            self.direction = -self.direction
            events.append(Event("direction", None, data={"direction": self.direction}))
            return (seat + self.direction) % n
        if self.available():
            self.pending += 1
        return nxt

    def _draw_card(self, seat: int) -> list[Event]:
        events: list[Event] = []
        self.passes = 0
        if self.pending:
            count = 2 * self.pending
            self.pending = 0
            drawn = self._take(seat, count, events)
            self._refill(events)
            events.append(Event("penalty", seat, drawn, True, {"reason": "draw_two"}))
            if len(drawn) == count and not self.available():
                self.passes = 1
            self.current = (seat + self.direction) % self._cfg.n
            return events
        drawn = self._take(seat, 1, events)
        self._refill(events)
        events.append(Event("drew", seat, drawn, True))
        self.draws += 1
        if not self.available():
            self.draws = self._cfg.max_draw
        return events

    def _refill(self, events: list[Event]) -> None:
        """OpenSpiel reshuffles as soon as the stock is empty, after a draw or a play, so
        the card on top at that moment stays out of the new stock."""
        if not self.stock and self._cfg.reshuffle and len(self.discard) > 1:
            self._reshuffle(events)

    def _pass_turn(self, seat: int) -> list[Event]:
        events = [Event("passed", seat)]
        self.draws = 0
        if self.available():
            self.passes = 0
        else:
            self.passes += 1
            if self.passes > self._cfg.n:
                self._end(None, events)
                return events
        self.current = (seat + self.direction) % self._cfg.n
        return events

    # -- the end --------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """OpenSpiel's returns: minus each seat's points in hand (0 before the end)."""
        if self._result is None:
            return [0.0] * self._cfg.n
        return [-float(p) for p in self._result.points]

    def _end(self, out: int | None, events: list[Event]) -> None:
        n = self._cfg.n
        points = [self.hand_points(s) for s in range(n)]
        reason = "out" if out is not None else "blockade" if self.passes > n else "turn_limit"
        standings = sorted(range(n), key=lambda s: (s != out, points[s], s))
        winner = out
        if winner is None and (n == 1 or points[standings[0]] < points[standings[1]]):
            winner = standings[0]
        self.scores = [-p for p in points]
        self.phase = OVER
        data: dict[str, Any] = {
            "round": self.round,
            "reason": reason,
            "points": points,
            "hands": [[CARD_TEXT[c] for c in cards_of(h)] for h in self.hands],
            "scores": list(self.scores),
        }
        events.append(Event("round_over", winner, data=data))
        self._result = GameResult(
            winner=winner,
            standings=tuple(standings),
            points=tuple(points),
            rounds=1,
            reason=reason,
        )
        events.append(Event("game_over", winner, data=self._result.to_dict()))

    # -- views and copies -----------------------------------------------------------------

    def view(self, seat: int | None = None, *, log: bool = False) -> dict[str, Any]:
        out = super().view(seat, log=log)
        cfg = self._cfg
        out["draws"] = self.draws
        out["max_draw_cards"] = cfg.max_draw
        out["plays"] = self.plays
        out["max_turns"] = cfg.max_turns
        out["passes"] = self.passes
        out["target"] = None
        return out

    @classmethod
    def base_from_view(cls, rules: Rules, view: dict[str, Any]) -> OpenSpielGame:
        """A state with the public facts of ``view`` and no cards in any hand or in the
        stock, for search worlds (``worlds.py`` deals the sampled cards into it)."""
        cfg = _config(rules)
        game = OpenSpielGame(rules, 0, _blank=True)
        game._clear(rules, cfg)
        game.discard = [parse_card(c) for c in view["discard"]]
        game.top = game.discard[-1]
        game.suit = SUITS.index(view["active_suit"])
        game.declared = bool(view["declared"])
        game.pending = int(view["pending_draw"]) // 2
        game.direction = int(view["direction"])
        game.dealer = int(view["dealer"])
        game.round = 1
        game.scores = [0] * cfg.n
        game.numbers = []
        game._wild = [EIGHTS] * cfg.n
        game.phase = OVER if view["over"] else PLAY
        game.current = int(view["current"] or 0)
        game.passes = int(view["passes"])
        game.drawn = -1
        game.draws = int(view["draws"])
        game.plays = int(view["plays"])
        return game

    def clone(self) -> OpenSpielGame:
        other = OpenSpielGame(self.rules, self.seed, _blank=True)
        self._copy_into(other)
        other.draws = self.draws
        other.plays = self.plays
        return other


FIELDS[OpenSpielGame] = _OPENSPIEL_FIELDS


__all__ = ["OpenSpielGame", "openspiel_points"]
