"""The cycles state machine: a trick-taking shedding game run by a host (RULES section 4).

Hands are bitmask ints (cards.py, one pack, so no copy bits), the stock is a list of card
ids with its top at the end, and the current cycle is two parallel lists (card, seat;
seat ``HOST`` = -1 for the host's card). The legal moves of a position are a tuple
looked up by the mask of playable cards, so a turn is a handful of bit operations.
Everything that is no decision (the host turning a card, Y9 draws, Y10 pick-ups, Y14
draws, the end of a cycle) happens inside the move that caused it and comes out as
events; after every move the player to move has at least one legal move, or the game
is over.

Decisions where the source manual is silent (each follows what its host would do; see
docs/rules.md):

- Seeded deal: the 55 cards are shuffled with the table's generator and dealt one at a
  time from the top of the stock, seat 0 first. The table's generator is then used
  only for Y4 tie-breaks (a draw happens only when there is an exact tie), in the order
  the game meets them, and for ties in the final standings (each tied group is
  shuffled, best group first).
- Y4 ranks an empty hand as (0, 0, 0).
- Y8: when every card left in the stock is a joker, the host cannot turn a lead card:
  this counts as "the host must lead and the stock is empty" (the jokers stay).
- Y8: the first player of Y4 is worked out afresh, from the hands of that moment,
  each time the host turns a card or has to hand the lead to a player.
- Y9: the drawn fitting card is the follower's only legal play, even when a joker
  they held alone before drawing would now fit too.
- Y13: the revealed count is of suited cards of the lead suit; jokers are not counted.
  For a false call on a lead, the lead suit is the one that lead sets.
- G7/Y11: with ``last_card=manual`` every play is listed with and without ``!``. With
  ``auto`` or ``off`` only plain plays are listed; a ``!`` added to a legal play is
  accepted and ignored (the table calls for the player, or nobody calls), so it is
  neither a call nor a false call.
- Y14: a leader whose only card is a joker draws until a card that is not a joker
  comes, and must lead that card. If the stock runs out first the lead passes to the
  next player. If the lead goes all the way round with nobody able to lead and nothing
  drawn (only possible with every hand a lone joker and an empty stock), the game ends
  with reason ``blocked`` and the standings of Y17.
- Y15: "needs a call" means the play would leave exactly one card under
  ``last_card=manual``. A led joker has one move per declarable suit, so a timed-out
  leader holding only a joker choice is skipped. A skipped leader's lead passes to the
  next seat; that is no cycle, so the cycle limit does not count it.
- Y12: the three penalty cards are drawn after the cycle's cards are picked up; the
  next leader is the next seat clockwise (G2). Y10/Y12 and completed cycles all count
  one cycle for Y16.
- Y17: when the game ends every hand is shown in the ``game_over`` event (the points
  are counted from them). The winner of a game ended by the cycle limit is the first
  player of the standings. A player who goes out mid-cycle ends the game at once; the
  cards of that cycle stay on the table (neither removed nor picked up).
- An explicit ``Deal`` gives every seat at least one card; with ``leader`` set, Y14
  applies at once to a leader dealt a lone joker. Shedding fields (starter, discard,
  scores, numbers, dealer, direction) are refused.
- Views carry every public fact needed to go on (``turns_left``, ``forced``, the
  revealed counts, the cycle with who played each card, the removed cards), so
  ``from_view`` can rebuild a game from them plus sampled hidden cards. The identity
  of a forced card (Y9, Y14) is known only to its player; rebuilt from another seat's
  view, it is the one card of that hand that could have been drawn last (the lowest
  non-joker that follows; in the rare case of two fitting jokers, the lower id).
"""

from __future__ import annotations

from typing import Final, Literal

from .cards import (
    ALL_CARDS,
    BLACK_JOKER,
    CARD_TEXT,
    JOKER,
    JOKER_MASK,
    RED_JOKER,
    SUIT_MASK,
    SUITS,
    Card,
    Mask,
    Suit,
    cards_of,
    cycles_deck,
    cycles_power,
    cycles_value,
    parse_card,
    parse_suit,
)
from .events import (
    HOST,
    CycleOver,
    CycleWon,
    Dealt,
    Drew,
    Event,
    FalseCall,
    FirstPlayer,
    GameOver,
    GameStarted,
    HostCannotLead,
    HostLed,
    JokerToBottom,
    LastCardCalled,
    LeadPassed,
    LeadStarted,
    PenaltyDrawn,
    PickedUp,
    Played,
    Record,
    Skipped,
    TimedOut,
)
from .game import Deal, Game, GameResult, Hidden, check_hidden
from .moves import DECLARE_KIND, DRAW_KIND, PASS_KIND, TIMEOUT, Move
from .result import EndReason, game_result
from .rng import Rng, below, playout_step
from .rules import Rules
from .views import CycleCard, CyclesPhase, CyclesPlayerView, CyclesView

_STOP: Final = -2
"""Returned by the cycle machinery when a player is to move or the game is over."""

# phases
LEAD: Final = 0
FOLLOW: Final = 1
OVER: Final = 2
PHASE_NAMES: Final[tuple[CyclesPhase, ...]] = ("lead", "follow", "over")
# last-card settings
LC_OFF: Final = 0
LC_MANUAL: Final = 1
LC_AUTO: Final = 2
_LAST_CARD: Final = {"off": LC_OFF, "manual": LC_MANUAL, "auto": LC_AUTO}

VALUE: Final[tuple[int, ...]] = tuple(cycles_value(c) if c in CARD_TEXT else 0 for c in range(64))
POWER: Final[tuple[int, ...]] = tuple(cycles_power(c) if c in CARD_TEXT else 0 for c in range(64))
# Y6: the cards that follow a lead suit (the suit, JK, and the joker of its colour).
FIT: Final[tuple[Mask, ...]] = tuple(
    SUIT_MASK[s] | (1 << JOKER) | (1 << (RED_JOKER if s in (1, 2) else BLACK_JOKER))
    for s in range(4)
)
# Y7: the suits a led joker may declare.
JOKER_SUITS: Final[dict[Card, tuple[int, ...]]] = {
    BLACK_JOKER: (0, 3),
    RED_JOKER: (1, 2),
    JOKER: (0, 1, 2, 3),
}
FULL_DECK: Final[Mask] = sum(1 << c for c in ALL_CARDS)


def hand_value(hand: Mask) -> int:
    """Y2 value of a hand mask."""
    total = 0
    while hand:
        low = hand & -hand
        total += VALUE[low.bit_length() - 1]
        hand ^= low
    return total


def rank_key(hand: Mask) -> tuple[int, int, int]:
    """Y4: (total value, lowest card value, highest card value), smaller ranks first."""
    if not hand:
        return (0, 0, 0)
    total = 0
    low_v = 99
    high_v = 0
    while hand:
        low = hand & -hand
        v = VALUE[low.bit_length() - 1]
        total += v
        if v < low_v:
            low_v = v
        if v > high_v:
            high_v = v
        hand ^= low
    return (total, low_v, high_v)


def _lone_joker(hand: Mask) -> bool:
    """Y14: the hand is exactly one card and that card is a joker."""
    return bool(hand & JOKER_MASK) and not hand & (hand - 1)


# Moves of each card, built once: as a follower's play, as a lead (jokers declare).
def _lead_moves(card: Card, call: bool) -> tuple[Move, ...]:
    suits = JOKER_SUITS.get(card)
    if suits is None:
        return (Move.play(card),) + ((Move.play(card, call=True),) if call else ())
    out: list[Move] = []
    for s in suits:
        out.append(Move.play(card, s))
        if call:
            out.append(Move.play(card, s, call=True))
    return tuple(out)


def _follow_moves(card: Card, call: bool) -> tuple[Move, ...]:
    return (Move.play(card),) + ((Move.play(card, call=True),) if call else ())


_LEAD: Final = [
    [_lead_moves(c, call) if c in CARD_TEXT else () for c in range(64)] for call in (False, True)
]
_FOLLOW: Final = [
    [_follow_moves(c, call) if c in CARD_TEXT else () for c in range(64)] for call in (False, True)
]
_MEMO: Final[dict[int, tuple[Move, ...]]] = {}


def _moves_for(mask: Mask, lead: bool, call: bool) -> tuple[Move, ...]:
    """The legal-move tuple for a playable mask (memoised: positions repeat)."""
    key = mask | (lead << 64) | (call << 65)
    moves = _MEMO.get(key)
    if moves is None:
        table = (_LEAD if lead else _FOLLOW)[call]
        out: list[Move] = []
        while mask:
            low = mask & -mask
            out.extend(table[low.bit_length() - 1])
            mask ^= low
        moves = tuple(out)
        if len(_MEMO) > 500_000:
            _MEMO.clear()
        _MEMO[key] = moves
    return moves


def _seat_text(seat: int) -> int | str:
    return "host" if seat == HOST else seat


def _seat_name(seat: int) -> int | Literal["host"]:
    """A seat as a view names it: its number, or ``"host"`` for the table."""
    return "host" if seat == HOST else seat


class CyclesGame(Game):
    """A game of cycles (RULES Y1-Y17) for 2 to 11 players and the host."""

    _lc: int
    """The last-card setting (``LC_OFF``, ``LC_MANUAL``, ``LC_AUTO``)."""
    _n: int
    best_power: int
    """The highest power played in the current cycle (Y3)."""
    best_seat: int
    """Who played it (``HOST`` for the host)."""
    current: int
    cycle_cards: list[Card]
    cycle_seats: list[int]
    """Who played each card of the current cycle, in order (``HOST``: the host)."""
    cycle_number: int
    cycles_left: int
    forced: int
    """A card the table drew that the player to move must play (Y9, Y14), else -1."""
    lead_suit: int
    """The current cycle's lead suit, -1 between cycles."""
    leader: int
    left: int
    """Turns still to come in the current cycle."""
    phase: int
    removed: Mask
    """Cards out of play (Y5)."""
    revealed: list[int]
    """Each seat's Y13 revealed count while its hand is unchanged, else -1."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        deal: Deal | None = None,
        *,
        log: bool = True,
    ) -> None:
        if rules is None:
            return  # a blank state for a copy or an unpickled one (see Game.clone)
        self._start(rules, seed, log)
        self._reset()
        n = self._n
        out: list[Event | Record] | None = [] if log else None
        self._out = out
        if deal is None:
            stock = cycles_deck()
            self._rng.shuffle(stock)
            hands = [0] * n
            for _ in range(5):
                for seat in range(n):
                    hands[seat] |= 1 << stock.pop()
            self.hands = hands
            self.stock = stock
            self.cycles_left = int(rules.cycle_limit or 30)
            first_leader = HOST
        else:
            first_leader = self._setup(deal)
        if out is not None:
            out.append(GameStarted(players=n, cycles_left=self.cycles_left))
            for seat in range(n):
                out.append(Dealt(seat=seat, cards=tuple(cards_of(self.hands[seat]))))
        if first_leader == HOST:
            self._run(HOST)
        else:
            self._seek_leader(first_leader)
        self._log = out
        self._out = None

    def _reset(self) -> None:
        """The state of a table before the deal: no cycle under way."""
        rules = self.rules
        if rules.ruleset != "cycles":
            raise ValueError(f"CyclesGame plays the cycles ruleset, not {rules.ruleset}")
        n = self._n = rules.players
        self._lc = _LAST_CARD[str(rules.last_card)]
        self.hands = [0] * n
        self.stock = []
        self.removed = 0
        self.revealed = [-1] * n
        self.cycle_cards = []
        self.cycle_seats = []
        self.cycle_number = 1
        self.cycles_left = int(rules.cycle_limit or 30)
        self.lead_suit = -1
        self.best_power = 0
        self.best_seat = HOST
        self.leader = HOST
        self.left = 0
        self.forced = -1
        self.phase = LEAD
        self.current = 0

    def _setup(self, deal: Deal) -> int:
        n = self._n
        if len(deal.hands) != n:
            raise ValueError(f"deal has {len(deal.hands)} hands for {n} players")
        if deal.starter is not None or deal.discard or deal.scores is not None:
            raise ValueError("starter, discard and scores are settings of a shedding deal")
        if deal.numbers is not None or deal.direction != 1 or deal.dealer != 0:
            raise ValueError("numbers, direction and dealer are settings of a shedding deal")
        seen = 0

        def take(text: str) -> Card:
            nonlocal seen
            card = parse_card(text)
            if seen >> card & 1:
                raise ValueError(f"{CARD_TEXT[card]} is dealt twice: cycles uses each card once")
            seen |= 1 << card
            return card

        hands = [0] * n
        for seat, cards in enumerate(deal.hands):
            for text in cards:
                hands[seat] |= 1 << take(text)
            if not hands[seat]:
                raise ValueError(f"seat {seat} is dealt no card")
        self.hands = hands
        stock = [take(t) for t in deal.stock]
        stock.reverse()
        self.stock = stock
        for text in deal.removed:
            self.removed |= 1 << take(text)
        limit = int(self.rules.cycle_limit or 30) if deal.cycles_left is None else deal.cycles_left
        if not isinstance(limit, int) or limit < 1:
            raise ValueError(f"cycles_left must be a whole number of at least 1; got {limit!r}")
        self.cycles_left = limit
        if deal.leader is None:
            return HOST
        if not 0 <= deal.leader < n:
            raise ValueError(f"leader must be a seat 0..{n - 1} or None (host); got {deal.leader}")
        return deal.leader

    # -- public state and rule questions ------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def hand_value(self, seat: int) -> int:
        """Y2 value of ``seat``'s hand."""
        return hand_value(self.hands[seat])

    def hand_points(self, seat: int) -> int:
        return hand_value(self.hands[seat])

    def is_wild(self, card: Card, seat: int | None = None) -> bool:
        """Cycles has no wild card: a joker fits a suit (Y6), it does not replace one."""
        self._seat_or_current(seat)
        return False

    def playable_mask(self, seat: int | None = None) -> Mask:
        """The cards ``seat`` may play now if they hold them: any when leading, else
        those that fit the lead suit (Y6)."""
        self._seat_or_current(seat)
        if not self.cycle_cards:
            return FULL_DECK
        return FIT[self.lead_suit]

    def follows(self, card: Card, seat: int | None = None) -> bool:
        return bool(self.playable_mask(seat) >> card & 1)

    @property
    def cycle(self) -> list[tuple[int | str, str]]:
        """The cards of the current cycle in play order, with who played each."""
        return [
            (_seat_text(s), CARD_TEXT[c])
            for s, c in zip(self.cycle_seats, self.cycle_cards, strict=True)
        ]

    def stock_cards(self) -> list[str]:
        """The stock as text, top first (the referee's knowledge, not a view)."""
        return [CARD_TEXT[c] for c in reversed(self.stock)]

    def removed_cards(self) -> list[str]:
        return [CARD_TEXT[c] for c in cards_of(self.removed)]

    # -- legal moves --------------------------------------------------------------------

    def _compute_legal(self) -> tuple[Move, ...]:
        phase = self.phase
        if phase == OVER:
            return ()
        call = self._lc == LC_MANUAL
        forced = self.forced
        if phase == LEAD:
            if forced >= 0:
                return _LEAD[call][forced]
            return _moves_for(self.hands[self.current], True, call)
        if forced >= 0:
            return _FOLLOW[call][forced]
        return _moves_for(self.hands[self.current] & FIT[self.lead_suit], False, call)

    def _accepts_unlisted(self, move: Move) -> bool:
        if self.phase == OVER:
            return False
        if move is TIMEOUT:
            return True
        if move.call and self._lc != LC_MANUAL:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            return move.with_call(False) in legal
        return False

    def _why_illegal(self, move: Move) -> str:
        if self.phase == OVER:
            return "the game is over"
        kind = move.kind
        if kind is DRAW_KIND:
            return (
                "in cycles you never draw by choice: the table draws for you when you "
                "have no card that follows (Y9)"
            )
        if kind is PASS_KIND:
            return "you cannot pass in cycles: play a card"
        if kind is DECLARE_KIND:
            return "a suit is declared only with a led joker, e.g. JK:H"
        card = move.card
        assert card is not None
        seat = self.current
        hand = self.hands[seat]
        text = CARD_TEXT[card]
        if not hand >> card & 1:
            return f"you do not hold {text}"
        forced = self.forced
        is_joker = card in JOKER_SUITS
        if self.phase == LEAD:
            if forced >= 0 and card != forced:
                return (
                    f"your only card was a joker, so you drew {CARD_TEXT[forced]} and must "
                    f"lead it (Y14)"
                )
            if not is_joker:
                return f"only a led joker declares a suit: lead {text} alone"
            allowed = " or ".join(f"{text}:{SUITS[s]}" for s in JOKER_SUITS[card])
            if move.suit is None:
                return f"a led joker needs a declared suit: {allowed} (Y7)"
            return f"{text} may only declare a suit of its colour: {allowed} (Y7)"
        suit_name = ("spades", "hearts", "diamonds", "clubs")[self.lead_suit]
        if forced >= 0 and card != forced:
            return f"you drew {CARD_TEXT[forced]} to follow: it is your only legal play (Y9)"
        if move.suit is not None:
            return f"only a leader declares a suit: follow with {text} alone"
        if is_joker and FIT[self.lead_suit] >> card & 1:
            return "a joker cannot be the card that empties your hand (Y14)"
        joker = "BJ" if self.lead_suit in (0, 3) else "RJ"
        return (
            f"{text} does not follow: the lead suit is {suit_name} "
            f"(play a {suit_name[:-1]}, {joker} or JK)"
        )

    # -- carrying out moves -------------------------------------------------------------

    def _step(self, move: Move) -> None:
        seat = self.current
        if move is TIMEOUT:
            self._timeout(seat)
        else:
            self._play(seat, move.card, move.suit, move.call)  # type: ignore[arg-type]

    def _play(self, seat: int, card: Card, suit: Suit | None, call: bool) -> None:
        n = self._n
        out = self._out
        hand = self.hands[seat] ^ (1 << card)
        self.hands[seat] = hand
        self.revealed[seat] = -1
        self.forced = -1
        power = POWER[card]
        lead = self.phase == LEAD
        if lead:
            self.leader = seat
            self.lead_suit = card >> 4 if suit is None else suit
            self.best_power = power
            self.best_seat = seat
            self.left = n - 1
        else:
            if power > self.best_power:
                self.best_power = power
                self.best_seat = seat
            self.left -= 1
        self.cycle_cards.append(card)
        self.cycle_seats.append(seat)
        if out is not None:
            out.append((Played, seat, card, suit, lead))
        self.phase = FOLLOW
        self.current = seat + 1 if seat + 1 < n else 0
        count = hand.bit_count()
        lc = self._lc
        if lc == LC_MANUAL and call and count != 1:
            shown = (hand & SUIT_MASK[self.lead_suit]).bit_count()
            self.revealed[seat] = shown
            if out is not None:
                out.append((FalseCall, seat, self.lead_suit, shown))
        if count == 0:
            self._finish(seat, "out")
            return
        if count == 1 and lc:
            if lc == LC_AUTO or call:
                if out is not None:
                    out.append((LastCardCalled, seat, lc == LC_AUTO))
            else:
                self._penalty(seat)
                return
        nxt = self._seek_follower()
        if nxt != _STOP:
            self._run(nxt)

    def _timeout(self, seat: int) -> None:
        """Y15: make the only legal move if it needs no call, else skip the turn."""
        out = self._out
        if out is not None:
            out.append((TimedOut, seat))
        legal = self._compute_legal()
        plain = [m for m in legal if not m.call]
        if len(plain) == 1 and not (self._lc == LC_MANUAL and self.hands[seat].bit_count() == 2):
            move = plain[0]
            self._play(seat, move.card, move.suit, False)  # type: ignore[arg-type]
            return
        if out is not None:
            out.append((Skipped, seat))
        n = self._n
        nxt = seat + 1 if seat + 1 < n else 0
        self.forced = -1
        if self.phase == LEAD:
            if out is not None:
                out.append((LeadPassed, seat, nxt))
            self._seek_leader(nxt)
            return
        self.left -= 1
        self.current = nxt
        after = self._seek_follower()
        if after != _STOP:
            self._run(after)

    # -- the cycle machinery --------------------------------------------------------------

    def _run(self, leader: int) -> None:
        """Start cycles from ``leader`` (a seat or ``HOST``) until a player is to move or
        the game is over."""
        n = self._n
        while leader != _STOP:
            if leader != HOST:
                self._seek_leader(leader)
                return
            card = self._host_turn()
            first = self._first_player()
            if card < 0:
                leader = first
                continue
            self.leader = HOST
            self.lead_suit = card >> 4
            self.cycle_cards.append(card)
            self.cycle_seats.append(HOST)
            self.best_power = POWER[card]
            self.best_seat = HOST
            self.forced = -1
            self.phase = FOLLOW
            self.current = first
            self.left = n
            leader = self._seek_follower()

    def _host_turn(self) -> Card:
        """Y8: the host turns the top stock card as the lead (jokers go to the bottom);
        -1 when the stock holds no card the host can lead."""
        stock = self.stock
        out = self._out
        if not any(c not in JOKER_SUITS for c in stock):
            if out is not None:
                out.append(HostCannotLead(stock=len(stock)))
            return -1
        while True:
            card = stock.pop()
            if card in JOKER_SUITS:
                stock.insert(0, card)
                if out is not None:
                    out.append(JokerToBottom(card=card))
                continue
            if out is not None:
                out.append(HostLed(card=card, cycle=self.cycle_number))
            return card

    def _first_player(self) -> int:
        """Y4: the seat with the smallest (total, lowest, highest) value; ties by the
        table's seeded random choice."""
        keys = [rank_key(h) for h in self.hands]
        best = min(keys)
        tied = [s for s in range(self._n) if keys[s] == best]
        seat = tied[self._rng.below(len(tied))] if len(tied) > 1 else tied[0]
        out = self._out
        if out is not None:
            out.append(FirstPlayer(seat=seat, tie_break=len(tied) > 1))
        return seat

    def _draw_until(self, seat: int, fits: Mask, reason: str) -> Card:
        """Draw for ``seat`` from the stock until a card of ``fits`` comes (Y9, Y14);
        return it, or -1 when the stock ran out first (-2: nothing was drawn)."""
        stock = self.stock
        if not stock:
            return -2
        hand = self.hands[seat]
        out = self._out
        drawn: list[Card] | None = None if out is None else []
        card = -1
        while stock:
            card = stock.pop()
            hand |= 1 << card
            if drawn is not None:
                drawn.append(card)
            if fits >> card & 1:
                break
        self.hands[seat] = hand
        self.revealed[seat] = -1
        if out is not None and drawn is not None:
            out.append(
                Drew(
                    seat=seat,
                    cards=tuple(drawn),
                    reason="no_fitting_card" if reason == "follow" else "joker_lead",
                )
            )
        return card if fits >> card & 1 else -1

    def _seek_leader(self, seat: int) -> None:
        """Hand the lead to ``seat``, applying Y14 to a leader whose only card is a joker."""
        n = self._n
        quiet = 0
        out = self._out
        while True:
            if not _lone_joker(self.hands[seat]):
                self._lead_by(seat, -1)
                return
            card = self._draw_until(seat, FULL_DECK & ~JOKER_MASK, "lead")
            if card >= 0:
                self._lead_by(seat, card)
                return
            quiet = 0 if card == -1 else quiet + 1
            nxt = seat + 1 if seat + 1 < n else 0
            if out is not None:
                out.append((LeadPassed, seat, nxt))
            if quiet >= n:
                self._finish(None, "blocked")
                return
            seat = nxt

    def _lead_by(self, seat: int, forced: Card) -> None:
        self.phase = LEAD
        self.current = seat
        self.forced = forced
        out = self._out
        if out is not None:
            out.append((LeadStarted, seat, self.cycle_number))

    def _seek_follower(self) -> int:
        """Find the next follower able to play (Y9 draws for them); complete or end the
        cycle when nobody is left (Y5, Y10). Returns the next leader, or ``_STOP``."""
        fit = FIT[self.lead_suit]
        while True:
            if self.left <= 0:
                return self._complete()
            seat = self.current
            hand = self.hands[seat]
            if hand & fit and not _lone_joker(hand):
                self.phase = FOLLOW
                self.forced = -1
                return _STOP
            card = self._draw_until(seat, fit, "follow")
            if card >= 0:
                self.phase = FOLLOW
                self.forced = card
                return _STOP
            # Y10: nothing fits and nothing is left to draw.
            cards = self._pick_up(seat, "stock_empty")
            nxt = self.leader if len(cards) == 1 else seat
            return self._end_cycle(nxt, False)

    def _pick_up(self, seat: int, reason: str) -> list[Card]:
        """``seat`` takes every card of the current cycle into their hand (Y10, Y12)."""
        cards = self.cycle_cards
        hand = self.hands[seat]
        for card in cards:
            hand |= 1 << card
        self.hands[seat] = hand
        self.revealed[seat] = -1
        out = self._out
        if out is not None:
            out.append(
                PickedUp(
                    seat=seat,
                    cards=tuple(cards),
                    reason="stock_empty" if reason == "stock_empty" else "last_card",
                )
            )
        return cards

    def _complete(self) -> int:
        """Y5: the highest card leads the next cycle; the cycle's cards leave play."""
        removed = self.removed
        for card in self.cycle_cards:
            removed |= 1 << card
        self.removed = removed
        winner = self.best_seat
        out = self._out
        if out is not None:
            out.append(
                CycleWon(
                    seat=None if winner == HOST else winner,
                    cards=tuple(self.cycle_cards),
                    winner=winner,
                )
            )
        return self._end_cycle(winner, True)

    def _penalty(self, seat: int) -> None:
        """Y12: pick up the cycle plus three stock cards; the next seat leads."""
        self._pick_up(seat, "last_card")
        hand = self.hands[seat]
        stock = self.stock
        out = self._out
        drawn: list[Card] = []
        for _ in range(3):
            if not stock:
                break
            card = stock.pop()
            hand |= 1 << card
            drawn.append(card)
        self.hands[seat] = hand
        if out is not None:
            out.append(PenaltyDrawn(seat=seat, cards=tuple(drawn), reason="last_card"))
        nxt = seat + 1 if seat + 1 < self._n else 0
        leader = self._end_cycle(nxt, False)
        if leader != _STOP:
            self._run(leader)

    def _end_cycle(self, leader: int, completed: bool) -> int:
        """Y16: count the cycle down; return who leads next, or ``_STOP`` at the end."""
        self.cycle_cards = []
        self.cycle_seats = []
        self.lead_suit = -1
        self.best_power = 0
        self.best_seat = HOST
        self.left = 0
        self.forced = -1
        self.cycles_left -= 1
        out = self._out
        if out is not None:
            out.append(
                CycleOver(
                    cycle=self.cycle_number,
                    completed=completed,
                    next_leader=leader,
                    cycles_left=self.cycles_left,
                )
            )
        self.cycle_number += 1
        if self.cycles_left <= 0:
            self._finish(None, "cycle_limit")
            return _STOP
        self.leader = leader
        return leader

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        """Y17: the player who emptied their hand is first; the rest rank by Y4."""
        n = self._n
        self.phase = OVER
        self.forced = -1
        points = tuple(hand_value(h) for h in self.hands)
        keys = {s: rank_key(self.hands[s]) for s in range(n) if s != winner}
        others = sorted(keys, key=lambda s: (keys[s], s))
        standings: list[int] = [] if winner is None else [winner]
        i = 0
        while i < len(others):
            j = i + 1
            while j < len(others) and keys[others[j]] == keys[others[i]]:
                j += 1
            group = others[i:j]
            if len(group) > 1:
                self._rng.shuffle(group)
            standings.extend(group)
            i = j
        self._result = game_result(standings[0], tuple(standings), points, 1, reason)
        out = self._out
        if out is not None:
            out.append(
                GameOver(
                    seat=standings[0],
                    result=self._result,
                    hands=tuple(tuple(cards_of(h)) for h in self.hands),
                )
            )

    # -- the playout policy ---------------------------------------------------------------

    def _pinned(self) -> Card:
        return self.forced

    def _called_right(self, move: Move) -> bool:
        """Whether ``move`` calls last card exactly when it leaves one card (Y11, Y13)."""
        return move.call == (self.hands[self.current].bit_count() == 2)

    def _play_out(self, x: int, greedy: bool, threshold: int, max_moves: int) -> int:
        """``playout`` over the legal-move tuples (memoised, so no move is built)."""
        moves = self._moves
        made = 0
        while made != max_moves and self.phase != OVER:
            legal = self._compute_legal()
            if len(legal) == 1:
                move = legal[0]
            else:
                x = playout_step(x)
                if greedy:
                    explore = x < threshold
                    x = playout_step(x)
                    move = self._explore(legal, x) if explore else self._greedy(legal)
                else:
                    move = legal[below(x, len(legal))]
            self._step(move)
            moves.append(move.text)
            made += 1
        return made

    def _explore(self, legal: tuple[Move, ...], draw: int) -> Move:
        """Uniform among the moves that call last card right (any move if none does)."""
        count = sum(1 for m in legal if self._called_right(m))
        if not count:
            return legal[below(draw, len(legal))]
        pick = below(draw, count)
        for m in legal:
            if self._called_right(m):
                if not pick:
                    return m
                pick -= 1
        return legal[0]

    def _greedy(self, legal: tuple[Move, ...]) -> Move:
        """Call last card right; with two cards left lead a joker first (Y14); else the
        card of lowest power (Y3)."""
        two_left = self.hands[self.current].bit_count() == 2
        filtered = any(m.call for m in legal)
        best = legal[0]
        low = 99
        for m in legal:
            card = m.card
            if card is None or (filtered and m.call != two_left):
                continue
            if two_left and card in JOKER_SUITS:
                return m
            if POWER[card] < low:
                low = POWER[card]
                best = m
        return best

    # -- views and positions --------------------------------------------------------------

    def view(self, seat: int | None = None, *, log: bool = False) -> CyclesView:
        n = self._n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None; got {seat!r}")
        over = self.phase == OVER
        in_cycle = bool(self.cycle_cards)
        leader = self.current if self.phase == LEAD else self.leader
        out: CyclesView = {
            "ruleset": self.rules.ruleset,
            "rules": self.rules.to_dict(),
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "current": None if over else self.current,
            "leader": None if over else _seat_name(leader),
            "host_card": self._host_card(),
            "cycle": self._cycle_view(),
            "lead_suit": SUITS[self.lead_suit] if in_cycle else None,
            "winning": _seat_name(self.best_seat) if in_cycle else None,
            "turns_left": self.left if in_cycle else 0,
            "forced": self.forced >= 0,
            "cycle_number": self.cycle_number,
            "cycles_left": self.cycles_left,
            "stock": len(self.stock),
            "removed": [CARD_TEXT[c] for c in cards_of(self.removed)],
            "players": self._player_views(),
            "last_card": self.rules.last_card,
            "over": over,
            "result": self._result.to_dict() if self._result else None,
            "goal": self.rules.goal,
        }
        if seat is not None:
            self._add_seat_view(out, seat)
        if log:
            out["log"] = self._log_for(seat)
        return out

    def _player_views(self) -> list[CyclesPlayerView]:
        """What every seat shows the table: its card count and a false call's reveal."""
        return [
            {
                "seat": s,
                "cards": self.hands[s].bit_count(),
                "revealed": None if self.revealed[s] < 0 else self.revealed[s],
            }
            for s in range(self._n)
        ]

    def _host_card(self) -> str | None:
        """The card the host led to the cycle in progress, if the host led it."""
        if self.cycle_cards and self.cycle_seats[0] == HOST:
            return CARD_TEXT[self.cycle_cards[0]]
        return None

    def _cycle_view(self) -> list[CycleCard]:
        """The cards of the cycle in progress, each with the seat that played it."""
        return [
            {"seat": _seat_name(s), "card": CARD_TEXT[c]}
            for s, c in zip(self.cycle_seats, self.cycle_cards, strict=True)
        ]

    def _add_seat_view(self, out: CyclesView, seat: int) -> None:
        """What only ``seat`` sees: its hand, and its legal moves when it is to move
        (with the drawn card it is forced to play)."""
        out["hand"] = [CARD_TEXT[c] for c in cards_of(self.hands[seat])]
        out["call_matters"] = self.call_matters(seat)
        if self.phase != OVER and seat == self.current:
            out["legal"] = [m.text for m in self.legal_moves()]
            out["legal_moves"] = self.legal_move_data()
            if self.forced >= 0:
                out["forced_card"] = CARD_TEXT[self.forced]
        else:
            out["legal"] = []
            out["legal_moves"] = []

    @classmethod
    def from_view(
        cls,
        view: CyclesView,
        hidden: Hidden,
        *,
        rules: Rules | None = None,
        seed: int = 0,
        log: bool = False,
        rng: Rng | None = None,
    ) -> CyclesGame:
        """A playable game in the position ``view`` shows, with the ``hidden`` cards
        (see ``game.from_view``). A current player forced to play a drawn card (Y9,
        Y14) is forced to play the one card of their hand that could have been drawn
        last: the view's ``forced_card`` when the seat is the viewer."""
        rules = rules or Rules.from_dict(view["rules"])
        if view.get("ruleset") != "cycles" or rules.ruleset != "cycles":
            raise ValueError("from_view rebuilds a cycles game from a cycles view")
        game = cls._blank(rules, seed, log)
        game._reset()
        game._read_view(view)
        game.set_hidden(hidden, check=False)
        check_hidden(game, view)
        if rng is not None:
            game._rng = rng.clone()
        table = game.removed
        for card in game.cycle_cards:
            table |= 1 << card
        for mask in game.hands:
            table |= mask
        for card in game.stock:
            table |= 1 << card
        placed = sum(h.bit_count() for h in game.hands) + len(game.stock)
        placed += len(game.cycle_cards) + game.removed.bit_count()
        if table.bit_count() != placed:
            raise ValueError("a card is in two places")
        hand = game.hands[game.current]
        following = game.phase == FOLLOW and game.forced < 0 and bool(game.cycle_cards)
        if following and (not hand & FIT[game.lead_suit] or _lone_joker(hand)):
            raise ValueError(f"seat {game.current} holds no card that follows")
        return game

    def _read_view(self, view: CyclesView) -> None:
        """Set every public fact of the position from ``view`` (no cards in hand)."""
        n = self._n
        if len(view["players"]) != n:
            raise ValueError(f"the view must have {n} players")
        self.cycle_cards = [parse_card(entry["card"]) for entry in view["cycle"]]
        self.cycle_seats = [
            HOST if entry["seat"] == "host" else int(entry["seat"]) for entry in view["cycle"]
        ]
        self.removed = 0
        for text in view["removed"]:
            self.removed |= 1 << parse_card(text)
        self.revealed = [
            -1 if p.get("revealed") is None else int(p["revealed"] or 0) for p in view["players"]
        ]
        self.cycle_number = int(view["cycle_number"])
        self.cycles_left = int(view["cycles_left"])
        self.phase = PHASE_NAMES.index(view["phase"])
        if self.cycle_cards:
            lead_suit = view["lead_suit"]
            if lead_suit is None:
                raise ValueError("a cycle under way needs its lead suit")
            self.lead_suit = parse_suit(lead_suit)
            self.left = int(view["turns_left"])
            for card, who in zip(self.cycle_cards, self.cycle_seats, strict=True):
                if POWER[card] > self.best_power:
                    self.best_power = POWER[card]
                    self.best_seat = who
        result = view["result"]
        if self.phase == OVER and result is not None:
            self._result = GameResult.from_dict(result)
            return
        self.current = int(view["current"] or 0)
        leader = view["leader"]
        self.leader = HOST if leader == "host" or leader is None else int(leader)
        if view["forced"]:
            forced = view.get("forced_card")
            self.forced = -2 if forced is None else parse_card(forced)

    def _place_pinned(self) -> None:
        """A card the table drew that the seat must play (Y9, Y14) must be in its hand."""
        if self.forced != -1 and self.phase != OVER:
            self.forced = self._forced_card(self.hands[self.current])

    def _forced_card(self, hand: Mask) -> Card:
        """The card of ``hand`` the table drew last for its player (Y9, Y14): the known
        one if it is there, else the one that could have been."""
        if self.forced >= 0 and hand >> self.forced & 1:
            return self.forced
        if self.phase == LEAD:
            plain = hand & ~JOKER_MASK
            if plain.bit_count() != 1:
                raise ValueError("a Y14 leader holds jokers and exactly one other card")
            return plain.bit_length() - 1
        fit = hand & FIT[self.lead_suit]
        choice = fit & ~JOKER_MASK or fit
        if not choice:
            raise ValueError(f"seat {self.current} holds no card that follows")
        return (choice & -choice).bit_length() - 1


__all__ = ["FIT", "HOST", "POWER", "VALUE", "CyclesGame", "hand_value", "rank_key"]
