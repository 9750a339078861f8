"""The cycles state machine: a trick-taking shedding game run by a host (RULES section 4).

Hands are bitmask ints (cards.py, one pack, so no copy bits), the stock is a list of card
ids with its top at the end, and the current cycle is two parallel lists (card, seat;
seat ``HOST`` = -1 for the host's card). The legal moves of a position are a tuple
looked up by the mask of playable cards, so a turn is a handful of bit operations.
Everything that is no decision (the host turning a card, Y9 draws, Y10 pick-ups, Y14
draws, the end of a cycle) happens inside the move that caused it and comes out as
events; after every move the player to move has at least one legal move, or the game
is over.

Decisions where RULES.md is silent (each follows what the seed's host would do):

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

from typing import Any

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
    cards_of,
    cycles_deck,
    parse_card,
    parse_suit,
)
from .events import Event
from .game import FIELDS, Deal, Game, GameResult
from .moves import DECLARE_KIND, DRAW_KIND, PASS_KIND, TIMEOUT, Move
from .rng import Rng
from .rules import Rules

HOST = -1
"""The seat number of the host in a cycle (the table; it holds no cards)."""
_STOP = -2
"""Returned by the cycle machinery when a player is to move or the game is over."""

# phases
LEAD, FOLLOW, OVER = 0, 1, 2
PHASE_NAMES = ("lead", "follow", "over")
# last-card settings
LC_OFF, LC_MANUAL, LC_AUTO = 0, 1, 2
_LAST_CARD = {"off": LC_OFF, "manual": LC_MANUAL, "auto": LC_AUTO}


def _value(card: Card) -> int:
    """Y2: 2 to 10 their number; J, Q, K 10; A, BJ, RJ 11; JK 12."""
    if card == JOKER:
        return 12
    if card in (BLACK_JOKER, RED_JOKER):
        return 11
    rank = card & 15
    if rank == 0:
        return 11
    return 10 if rank >= 9 else rank + 1


def _power(card: Card) -> int:
    """Y3: 2 < ... < K < A < BJ = RJ < JK."""
    if card == JOKER:
        return 16
    if card in (BLACK_JOKER, RED_JOKER):
        return 15
    rank = card & 15
    return 14 if rank == 0 else rank + 1


VALUE: tuple[int, ...] = tuple(_value(c) if c in CARD_TEXT else 0 for c in range(64))
POWER: tuple[int, ...] = tuple(_power(c) if c in CARD_TEXT else 0 for c in range(64))
# Y6: the cards that follow a lead suit (the suit, JK, and the joker of its colour).
FIT: tuple[Mask, ...] = tuple(
    SUIT_MASK[s] | (1 << JOKER) | (1 << (RED_JOKER if s in (1, 2) else BLACK_JOKER))
    for s in range(4)
)
# Y7: the suits a led joker may declare.
JOKER_SUITS: dict[Card, tuple[int, ...]] = {
    BLACK_JOKER: (0, 3),
    RED_JOKER: (1, 2),
    JOKER: (0, 1, 2, 3),
}
FULL_DECK: Mask = sum(1 << c for c in ALL_CARDS)


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


_LEAD = [
    [_lead_moves(c, call) if c in CARD_TEXT else () for c in range(64)] for call in (False, True)
]
_FOLLOW = [
    [_follow_moves(c, call) if c in CARD_TEXT else () for c in range(64)] for call in (False, True)
]
_MEMO: dict[int, tuple[Move, ...]] = {}


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


_CYCLES_FIELDS = (
    "_lc",
    "_log",
    "_n",
    "_rng",
    "best_power",
    "best_seat",
    "current",
    "cycle_cards",
    "cycle_number",
    "cycle_seats",
    "cycles_left",
    "forced",
    "lead_suit",
    "leader",
    "left",
    "phase",
    "removed",
    "revealed",
    "stock",
)


class CyclesGame(Game):
    """A game of cycles (RULES Y1-Y17) for 2 to 11 players and the host."""

    __slots__ = _CYCLES_FIELDS

    _lc: int
    _log: list[Event]
    _n: int
    _result: GameResult | None
    _rng: Rng
    best_power: int
    best_seat: int
    current: int
    cycle_cards: list[Card]
    cycle_number: int
    cycle_seats: list[int]
    cycles_left: int
    forced: int
    hands: list[Mask]
    lead_suit: int
    leader: int
    left: int
    phase: int
    removed: Mask
    revealed: list[int]
    stock: list[Card]

    def __init__(
        self, rules: Rules, seed: int, deal: Deal | None = None, *, _blank: bool = False
    ) -> None:
        if rules.ruleset != "cycles":
            raise ValueError(f"CyclesGame plays the cycles ruleset, not {rules.ruleset}")
        if _blank:  # clone() and from_view() set every field themselves
            return
        n = rules.players
        self.rules = rules
        self.seed = seed
        self._n = n
        self._lc = _LAST_CARD[str(rules.last_card)]
        self._rng = Rng(seed)
        self._moves = []
        self._legal = None
        self._result = None
        self.removed = 0
        self.revealed = [-1] * n
        self.cycle_cards = []
        self.cycle_seats = []
        self.cycle_number = 1
        self.lead_suit = -1
        self.best_power = 0
        self.best_seat = HOST
        self.leader = HOST
        self.left = 0
        self.forced = -1
        self.phase = LEAD
        self.current = 0
        events: list[Event] = []
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
        events.append(Event("game", None, data={"players": n, "cycles_left": self.cycles_left}))
        for seat in range(n):
            events.append(Event("deal", seat, tuple(cards_of(self.hands[seat])), True))
        self._log = events
        if first_leader == HOST:
            self._run(HOST, events)
        else:
            self._seek_leader(first_leader, events)

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

    # -- public state -------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def hand_value(self, seat: int) -> int:
        """Y2 value of ``seat``'s hand."""
        return hand_value(self.hands[seat])

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

    def _apply(self, move: Move) -> list[Event]:
        seat = self.current
        if move is TIMEOUT:
            events = self._timeout(seat)
        else:
            events = self._play(seat, move.card, move.suit, move.call)  # type: ignore[arg-type]
        self._log.extend(events)
        return events

    def _play(self, seat: int, card: Card, suit: int | None, call: bool) -> list[Event]:
        n = self._n
        hand = self.hands[seat] ^ (1 << card)
        self.hands[seat] = hand
        self.revealed[seat] = -1
        self.forced = -1
        power = POWER[card]
        if self.phase == LEAD:
            self.leader = seat
            self.lead_suit = card >> 4 if suit is None else suit
            self.cycle_cards.append(card)
            self.cycle_seats.append(seat)
            self.best_power = power
            self.best_seat = seat
            self.left = n - 1
            if suit is None:
                events = [Event("played", seat, (card,), False, {"lead": True})]
            else:
                events = [
                    Event("played", seat, (card,), False, {"lead": True, "declared": SUITS[suit]})
                ]
        else:
            self.cycle_cards.append(card)
            self.cycle_seats.append(seat)
            if power > self.best_power:
                self.best_power = power
                self.best_seat = seat
            self.left -= 1
            events = [Event("played", seat, (card,))]
        self.phase = FOLLOW
        self.current = seat + 1 if seat + 1 < n else 0
        count = hand.bit_count()
        lc = self._lc
        if lc == LC_MANUAL and call and count != 1:
            shown = (hand & SUIT_MASK[self.lead_suit]).bit_count()
            self.revealed[seat] = shown
            events.append(
                Event(
                    "false_call",
                    seat,
                    data={"suit": SUITS[self.lead_suit], "count": shown},
                )
            )
        if count == 0:
            self._finish(seat, "out", events)
            return events
        if count == 1 and lc:
            if lc == LC_AUTO or call:
                events.append(Event("last_card", seat, data={"auto": lc == LC_AUTO}))
            else:
                self._penalty(seat, events)
                return events
        nxt = self._seek_follower(events)
        if nxt != _STOP:
            self._run(nxt, events)
        return events

    def _timeout(self, seat: int) -> list[Event]:
        """Y15: make the only legal move if it needs no call, else skip the turn."""
        events = [Event("timeout", seat)]
        legal = self._compute_legal()
        plain = [m for m in legal if not m.call]
        if len(plain) == 1 and not (self._lc == LC_MANUAL and self.hands[seat].bit_count() == 2):
            move = plain[0]
            events.extend(self._play(seat, move.card, move.suit, False))  # type: ignore[arg-type]
            return events
        events.append(Event("skipped", seat))
        n = self._n
        nxt = seat + 1 if seat + 1 < n else 0
        if self.phase == LEAD:
            self.forced = -1
            events.append(Event("lead_passed", seat, data={"to": nxt}))
            self._seek_leader(nxt, events)
            return events
        self.forced = -1
        self.left -= 1
        self.current = nxt
        after = self._seek_follower(events)
        if after != _STOP:
            self._run(after, events)
        return events

    # -- the cycle machinery --------------------------------------------------------------

    def _run(self, leader: int, events: list[Event]) -> None:
        """Start cycles from ``leader`` (a seat or ``HOST``) until a player is to move or
        the game is over."""
        n = self._n
        while leader != _STOP:
            if leader != HOST:
                self._seek_leader(leader, events)
                return
            card = self._host_turn(events)
            first = self._first_player(events)
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
            leader = self._seek_follower(events)

    def _host_turn(self, events: list[Event]) -> Card:
        """Y8: the host turns the top stock card as the lead (jokers go to the bottom);
        -1 when the stock holds no card the host can lead."""
        stock = self.stock
        if not any(c not in JOKER_SUITS for c in stock):
            events.append(Event("host_cannot_lead", None, data={"stock": len(stock)}))
            return -1
        while True:
            card = stock.pop()
            if card in JOKER_SUITS:
                stock.insert(0, card)
                events.append(Event("joker_to_bottom", None, (card,)))
                continue
            events.append(Event("host_lead", None, (card,), False, {"cycle": self.cycle_number}))
            return card

    def _first_player(self, events: list[Event]) -> int:
        """Y4: the seat with the smallest (total, lowest, highest) value; ties by the
        table's seeded random choice."""
        keys = [rank_key(h) for h in self.hands]
        best = min(keys)
        tied = [s for s in range(self._n) if keys[s] == best]
        if len(tied) > 1:
            seat = tied[self._rng.below(len(tied))]
            events.append(Event("first_player", seat, data={"tie_break": True}))
        else:
            seat = tied[0]
            events.append(Event("first_player", seat, data={"tie_break": False}))
        return seat

    def _seek_leader(self, seat: int, events: list[Event]) -> None:
        """Hand the lead to ``seat``, applying Y14 to a leader whose only card is a joker."""
        n = self._n
        stock = self.stock
        quiet = 0
        while True:
            hand = self.hands[seat]
            if not _lone_joker(hand):
                self.phase = LEAD
                self.current = seat
                self.forced = -1
                events.append(Event("lead", seat, data={"cycle": self.cycle_number}))
                return
            drawn: list[Card] = []
            while stock:
                card = stock.pop()
                hand |= 1 << card
                drawn.append(card)
                if card not in JOKER_SUITS:
                    break
            self.hands[seat] = hand
            if drawn:
                self.revealed[seat] = -1
                events.append(Event("drew", seat, tuple(drawn), True, {"reason": "joker_lead"}))
                if drawn[-1] not in JOKER_SUITS:
                    self.phase = LEAD
                    self.current = seat
                    self.forced = drawn[-1]
                    events.append(Event("lead", seat, data={"cycle": self.cycle_number}))
                    return
                quiet = 0
            else:
                quiet += 1
            nxt = seat + 1 if seat + 1 < n else 0
            events.append(Event("lead_passed", seat, data={"to": nxt}))
            if quiet >= n:
                self._finish(None, "blocked", events)
                return
            seat = nxt

    def _seek_follower(self, events: list[Event]) -> int:
        """Find the next follower able to play (Y9 draws for them); complete or end the
        cycle when nobody is left (Y5, Y10). Returns the next leader, or ``_STOP``."""
        fit = FIT[self.lead_suit]
        stock = self.stock
        while True:
            if self.left <= 0:
                return self._complete(events)
            seat = self.current
            hand = self.hands[seat]
            if hand & fit and not _lone_joker(hand):
                self.phase = FOLLOW
                self.forced = -1
                return _STOP
            drawn: list[Card] = []
            while stock:
                card = stock.pop()
                hand |= 1 << card
                drawn.append(card)
                if fit >> card & 1:
                    break
            self.hands[seat] = hand
            if drawn:
                self.revealed[seat] = -1
                events.append(
                    Event("drew", seat, tuple(drawn), True, {"reason": "no_fitting_card"})
                )
                last = drawn[-1]
                if fit >> last & 1:
                    self.phase = FOLLOW
                    self.forced = last
                    return _STOP
            # Y10: nothing fits and nothing is left to draw.
            cards = tuple(self.cycle_cards)
            for card in cards:
                hand |= 1 << card
            self.hands[seat] = hand
            self.revealed[seat] = -1
            events.append(Event("picked_up", seat, cards, False, {"reason": "stock_empty"}))
            nxt = self.leader if len(cards) == 1 else seat
            return self._end_cycle(nxt, False, events)

    def _complete(self, events: list[Event]) -> int:
        """Y5: the highest card leads the next cycle; the cycle's cards leave play."""
        removed = self.removed
        for card in self.cycle_cards:
            removed |= 1 << card
        self.removed = removed
        winner = self.best_seat
        events.append(
            Event(
                "cycle_won",
                None if winner == HOST else winner,
                tuple(self.cycle_cards),
                False,
                {"winner": _seat_text(winner)},
            )
        )
        return self._end_cycle(winner, True, events)

    def _penalty(self, seat: int, events: list[Event]) -> None:
        """Y12: pick up the cycle plus three stock cards; the next seat leads."""
        hand = self.hands[seat]
        cards = tuple(self.cycle_cards)
        for card in cards:
            hand |= 1 << card
        events.append(Event("picked_up", seat, cards, False, {"reason": "no_last_card_call"}))
        stock = self.stock
        drawn: list[Card] = []
        for _ in range(3):
            if not stock:
                break
            card = stock.pop()
            hand |= 1 << card
            drawn.append(card)
        self.hands[seat] = hand
        self.revealed[seat] = -1
        events.append(Event("penalty", seat, tuple(drawn), True, {"reason": "last_card"}))
        nxt = seat + 1 if seat + 1 < self._n else 0
        leader = self._end_cycle(nxt, False, events)
        if leader != _STOP:
            self._run(leader, events)

    def _end_cycle(self, leader: int, completed: bool, events: list[Event]) -> int:
        """Y16: count the cycle down; return who leads next, or ``_STOP`` at the end."""
        self.cycle_cards.clear()
        self.cycle_seats.clear()
        self.lead_suit = -1
        self.best_power = 0
        self.best_seat = HOST
        self.left = 0
        self.forced = -1
        self.cycles_left -= 1
        events.append(
            Event(
                "cycle_over",
                None,
                data={
                    "cycle": self.cycle_number,
                    "completed": completed,
                    "next_leader": _seat_text(leader),
                    "cycles_left": self.cycles_left,
                },
            )
        )
        self.cycle_number += 1
        if self.cycles_left <= 0:
            self._finish(None, "cycle_limit", events)
            return _STOP
        self.leader = leader
        return leader

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
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
        self._result = GameResult(
            winner=standings[0],
            standings=tuple(standings),
            points=points,
            rounds=1,
            reason=reason,
        )
        data = self._result.to_dict()
        data["hands"] = [[CARD_TEXT[c] for c in cards_of(h)] for h in self.hands]
        events.append(Event("game_over", standings[0], data=data))

    # -- views ----------------------------------------------------------------------------

    def view(self, seat: int | None = None, *, log: bool = False) -> dict[str, Any]:
        n = self._n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None; got {seat!r}")
        over = self.phase == OVER
        players: list[dict[str, Any]] = []
        for s in range(n):
            shown = self.revealed[s]
            players.append(
                {
                    "seat": s,
                    "cards": self.hands[s].bit_count(),
                    "revealed": None if shown < 0 else shown,
                }
            )
        in_cycle = bool(self.cycle_cards)
        host_card = (
            CARD_TEXT[self.cycle_cards[0]] if in_cycle and self.cycle_seats[0] == HOST else None
        )
        out: dict[str, Any] = {
            "ruleset": self.rules.ruleset,
            "rules": self.rules.to_dict(),
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "current": None if over else self.current,
            "leader": None
            if over
            else _seat_text(self.current if self.phase == LEAD else self.leader),
            "host_card": host_card,
            "cycle": [
                {"seat": _seat_text(s), "card": CARD_TEXT[c]}
                for s, c in zip(self.cycle_seats, self.cycle_cards, strict=True)
            ],
            "lead_suit": SUITS[self.lead_suit] if in_cycle else None,
            "winning": _seat_text(self.best_seat) if in_cycle else None,
            "turns_left": self.left if in_cycle else 0,
            "forced": self.forced >= 0,
            "cycle_number": self.cycle_number,
            "cycles_left": self.cycles_left,
            "stock": len(self.stock),
            "removed": [CARD_TEXT[c] for c in cards_of(self.removed)],
            "players": players,
            "last_card": self.rules.last_card,
            "over": over,
            "result": self._result.to_dict() if self._result else None,
        }
        if seat is not None:
            out["hand"] = [CARD_TEXT[c] for c in cards_of(self.hands[seat])]
            mine = not over and seat == self.current
            out["legal"] = [m.text for m in self.legal_moves()] if mine else []
            if mine and self.forced >= 0:
                out["forced_card"] = CARD_TEXT[self.forced]
        if log:
            out["log"] = [e.for_seat(seat) for e in self._log]
        return out

    @classmethod
    def from_view(
        cls,
        rules: Rules,
        view: dict[str, Any],
        *,
        hands: list[list[Card]],
        stock: list[Card],
        seed: int,
    ) -> CyclesGame:
        """A playable game from a seat's view, full hands for every seat (card ids) and a
        stock order (card ids, top first), e.g. hidden cards sampled by a search bot.

        The hands and stock must agree with the view's public facts (card counts, the
        cards in play and removed, the seat's own hand); a current player forced to play
        a drawn card (Y9, Y14) is forced to play the one card of their hand that could
        have been drawn last: the view's ``forced_card`` when the seat is the viewer.
        """
        if view.get("ruleset") != "cycles" or rules.ruleset != "cycles":
            raise ValueError("from_view rebuilds a cycles game from a cycles view")
        n = rules.players
        if len(view["players"]) != n or len(hands) != n:
            raise ValueError(f"the view and the hands must have {n} players")
        game = CyclesGame(rules, seed, _blank=True)
        game.rules = rules
        game.seed = seed
        game._n = n
        game._lc = _LAST_CARD[str(rules.last_card)]
        game._rng = Rng(seed)
        game._moves = []
        game._legal = None
        game._log = []
        seen = 0

        def take(card: Card) -> Card:
            nonlocal seen
            if card not in CARD_TEXT:
                raise ValueError(f"no card has id {card!r}")
            if seen >> card & 1:
                raise ValueError(f"{CARD_TEXT[card]} is in two places")
            seen |= 1 << card
            return card

        def parse(text: str) -> Card:
            return take(parse_card(text))

        game.cycle_cards = []
        game.cycle_seats = []
        for entry in view["cycle"]:
            game.cycle_cards.append(parse(entry["card"]))
            who = entry["seat"]
            game.cycle_seats.append(HOST if who == "host" else int(who))
        game.removed = 0
        for text in view["removed"]:
            game.removed |= 1 << parse(text)
        game.hands = []
        for seat, cards in enumerate(hands):
            mask = 0
            for card in cards:
                mask |= 1 << take(card)
            if mask.bit_count() != view["players"][seat]["cards"]:
                raise ValueError(
                    f"seat {seat} holds {view['players'][seat]['cards']} cards in the view, "
                    f"not {mask.bit_count()}"
                )
            game.hands.append(mask)
        own = view.get("seat")
        if own is not None and "hand" in view:
            mine = sum(1 << parse_card(t) for t in view["hand"])
            if mine != game.hands[own]:
                raise ValueError(f"the hand given for seat {own} is not the view's hand")
        game.stock = [take(c) for c in reversed(stock)]
        if len(game.stock) != view["stock"]:
            raise ValueError(f"the view has {view['stock']} stock cards, not {len(game.stock)}")
        game.revealed = [
            -1 if p.get("revealed") is None else int(p["revealed"]) for p in view["players"]
        ]
        game.cycle_number = int(view["cycle_number"])
        game.cycles_left = int(view["cycles_left"])
        game.phase = PHASE_NAMES.index(view["phase"])
        game.forced = -1
        game._result = None
        game.lead_suit = -1
        game.best_power = 0
        game.best_seat = HOST
        game.left = 0
        if game.cycle_cards:
            game.lead_suit = parse_suit(view["lead_suit"])
            game.left = int(view["turns_left"])
            for card, who in zip(game.cycle_cards, game.cycle_seats, strict=True):
                if POWER[card] > game.best_power:
                    game.best_power = POWER[card]
                    game.best_seat = who
        if game.phase == OVER:
            result = view["result"]
            game._result = GameResult(
                winner=result["winner"],
                standings=tuple(result["standings"]),
                points=tuple(result["points"]),
                rounds=int(result["rounds"]),
                reason=str(result["reason"]),
            )
            game.current = 0
            game.leader = HOST
            return game
        game.current = int(view["current"])
        leader = view["leader"]
        game.leader = HOST if leader == "host" else int(leader)
        hand = game.hands[game.current]
        if view["forced"]:
            if own == game.current and "forced_card" in view:
                game.forced = parse_card(view["forced_card"])
            elif game.phase == LEAD:
                plain = hand & ~JOKER_MASK
                if plain.bit_count() != 1:
                    raise ValueError("a Y14 leader holds jokers and exactly one other card")
                game.forced = plain.bit_length() - 1
            else:
                fit = hand & FIT[game.lead_suit]
                choice = fit & ~JOKER_MASK or fit
                if not choice:
                    raise ValueError(f"seat {game.current} holds no card that follows")
                game.forced = (choice & -choice).bit_length() - 1
            if not hand >> game.forced & 1:
                raise ValueError("the forced card is not in the current player's hand")
        elif game.phase == FOLLOW and (not hand & FIT[game.lead_suit] or _lone_joker(hand)):
            raise ValueError(f"seat {game.current} holds no card that follows")
        return game

    def clone(self) -> CyclesGame:
        other = CyclesGame(self.rules, self.seed, _blank=True)
        other.rules = self.rules
        other.seed = self.seed
        other._n = self._n
        other._lc = self._lc
        other._rng = self._rng.clone()
        other._moves = self._moves.copy()
        other._legal = self._legal
        other._log = self._log.copy()
        other._result = self._result
        other.best_power = self.best_power
        other.best_seat = self.best_seat
        other.current = self.current
        other.cycle_cards = self.cycle_cards.copy()
        other.cycle_number = self.cycle_number
        other.cycle_seats = self.cycle_seats.copy()
        other.cycles_left = self.cycles_left
        other.forced = self.forced
        other.hands = self.hands.copy()
        other.lead_suit = self.lead_suit
        other.leader = self.leader
        other.left = self.left
        other.phase = self.phase
        other.removed = self.removed
        other.revealed = self.revealed.copy()
        other.stock = self.stock.copy()
        return other


FIELDS[CyclesGame] = _CYCLES_FIELDS


__all__ = ["HOST", "POWER", "VALUE", "CyclesGame", "hand_value", "rank_key"]
