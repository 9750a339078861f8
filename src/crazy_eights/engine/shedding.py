"""The shedding state machine: classic, ultimate and countdown (RULES sections 1-3, 5).

One class plays all three; what differs between them is data in ``_Config``, built once
per ``Rules``. Hands are bitmask ints (cards.py), the stock and discard pile are lists of
card ids with their top at the end, and the legal moves of a position are a tuple
looked up by the masks of playable cards, so a turn is a handful of bit operations.

Decisions where RULES.md is silent (each follows the seeds as a player would read them):

- A draw-two penalty that the stock cannot cover (after any reshuffle) draws what there
  is; if that is nothing the turn counts as a pass toward a blockade.
- ``until_playable`` (classic): one ``draw`` move draws until a legal card comes or the
  stock runs out; the player must then play a legal card, or pass if they have none.
- ``single`` (classic): after drawing a legal card the player may play that card only,
  or pass; drawing a card that is not legal ends the turn at once.
- ``timeout`` makes the default move: draw if allowed, else pass, else (the dealer's
  starter eight, or a forced play after ``until_playable``) the first legal move.
- A blockade counts consecutive passes: a play or a draw of at least one card resets it.
- When a round ends every hand is shown to everyone (the cards are counted for points).
- An explicit ``Deal`` with ``starter`` is taken as given (no reburying of an eight in
  classic); without one the starter is turned from the stock under the ruleset's rule.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    ACE,
    CARD_TEXT,
    COPY,
    EIGHT,
    JOKERS,
    LOW,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    SUITS,
    TWO,
    Card,
    Mask,
    cards_of,
    mask_of,
    parse_card,
    shedding_points,
    standard_deck,
)
from .events import Event
from .game import FIELDS, Deal, Game, GameResult
from .moves import (
    DECLARE_KIND,
    DRAW,
    DRAW_KIND,
    PASS,
    PASS_KIND,
    PLAY_KIND,
    TIMEOUT,
    TIMEOUT_KIND,
    Move,
)
from .rng import Rng
from .rules import Rules

# phases of a turn
PLAY, DRAWN, AFTER_DRAW, DECLARE, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("play", "drawn", "after_draw", "declare", "over")
# draw policies
SINGLE, UNTIL_PLAYABLE, SINGLE_THEN_PASS, UNTIL_PLAY = 0, 1, 2, 3
_POLICY = {"single": 0, "until_playable": 1, "single_then_pass": 2, "until_play": 3}
# last-card settings
LC_OFF, LC_MANUAL, LC_AUTO = 0, 1, 2
_LAST_CARD = {"off": 0, "manual": 1, "auto": 2}
# starter rules
STARTER_REBURY, STARTER_DECLARE, STARTER_PLAIN = 0, 1, 2

EIGHTS: Mask = RANK_MASK[EIGHT]
TWOS: Mask = RANK_MASK[TWO]


class _Config:
    """The settings of one ``Rules`` as the state machine reads them."""

    __slots__ = (
        "ace_points",
        "actions",
        "countdown",
        "hand_count",
        "last_card",
        "match",
        "max_draw",
        "max_turns",
        "n",
        "packs",
        "penalty_scoring",
        "points",
        "policy",
        "reshuffle",
        "rules",
        "stacking",
        "start",
        "starter_rule",
        "target",
        "two_packs",
        "voluntary",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        name = rules.ruleset
        self.n = rules.players
        self.packs = rules.pack_count()
        self.two_packs = self.packs == 2
        self.hand_count = rules.hand_count()
        self.voluntary = bool(rules.voluntary_draw)
        self.policy = _POLICY[str(rules.draw_policy)]
        self.countdown = name == "countdown"
        self.reshuffle = self.countdown or rules.stock_empty == "reshuffle"
        self.actions = bool(rules.action_cards) and not self.countdown
        self.stacking = self.actions and rules.twos_stack
        self.last_card = _LAST_CARD[str(rules.last_card)]
        self.ace_points = int(rules.ace_points or 1)
        self.points = tuple(shedding_points(c, ace_points=self.ace_points) for c in range(64))
        self.match = rules.mode == "match"
        self.target = int(rules.target or 0)
        self.start = int(rules.start or 8)
        self.penalty_scoring = name == "ultimate"
        self.max_draw = int(rules.max_draw_cards or 0)  # openspiel only; 0: no cap
        self.max_turns = int(rules.max_turns or 0)
        self.starter_rule = {
            "classic": STARTER_REBURY,
            "ultimate": STARTER_DECLARE,
            "countdown": STARTER_PLAIN,
        }[name]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules: a state's config is rebuilt from them."""
        return (type(self), (self.rules,))


_CONFIGS: dict[Rules, _Config] = {}


def _config(rules: Rules, kind: type[_Config] = _Config) -> _Config:
    """The config of ``rules``, built once (``kind``: the openspiel ruleset's subclass)."""
    cfg = _CONFIGS.get(rules)
    if cfg is None:
        if len(_CONFIGS) > 1000:
            _CONFIGS.clear()
        cfg = _CONFIGS[rules] = kind(rules)
    return cfg


# Moves of each card, built once: plain, with the last-card call, as a wild (4 suits).
_PLAIN = [(Move.play(c),) if c in CARD_TEXT else () for c in range(64)]
_PLAIN_CALL = [(Move.play(c), Move.play(c, call=True)) if c in CARD_TEXT else () for c in range(64)]
_WILD = [tuple(Move.play(c, s) for s in range(4)) if c in CARD_TEXT else () for c in range(64)]
_WILD_CALL = [
    tuple(m for s in range(4) for m in (Move.play(c, s), Move.play(c, s, call=True)))
    if c in CARD_TEXT
    else ()
    for c in range(64)
]
_TAILS: tuple[tuple[Move, ...], ...] = ((), (DRAW,), (PASS,))
# Legal-move tuples memoised per wild mask, keyed by the playable cards with the call
# and tail flags in the spare joker bits 13-15 (never set in a shedding mask), so every
# key stays a small int.
_MEMOS: dict[Mask, dict[int, tuple[Move, ...]]] = {}
_CALL_BIT = 13
_TAIL_SHIFT = 14


def _moves_for(plain: Mask, wild: Mask, call: bool, tail: int, wilds: Mask) -> tuple[Move, ...]:
    """The legal-move tuple for these playable masks (memoised: positions repeat)."""
    table = _MEMOS.get(wilds)
    if table is None:
        table = _MEMOS[wilds] = {}
    key = plain | wild | (call << _CALL_BIT) | (tail << _TAIL_SHIFT)
    moves = table.get(key)
    if moves is None:
        out: list[Move] = []
        mask = plain | wild
        while mask:
            low = mask & -mask
            card = low.bit_length() - 1
            mask ^= low
            if wild & low:
                out.extend(_WILD_CALL[card] if call else _WILD[card])
            else:
                out.extend(_PLAIN_CALL[card] if call else _PLAIN[card])
        out.extend(_TAILS[tail])
        moves = tuple(out)
        if len(table) > 200_000:
            table.clear()
        table[key] = moves
    return moves


_SHEDDING_FIELDS = (
    "_cfg",
    "_fresh",
    "_log",
    "_rng",
    "_wild",
    "current",
    "dealer",
    "declared",
    "direction",
    "discard",
    "drawn",
    "follow",
    "numbers",
    "passes",
    "pending",
    "phase",
    "round",
    "scores",
    "stock",
    "suit",
    "top",
)


class SheddingGame(Game):
    """A game of classic, ultimate or countdown: one round, or a whole match."""

    __slots__ = _SHEDDING_FIELDS

    def __init__(
        self, rules: Rules, seed: int, deal: Deal | None = None, *, _blank: bool = False
    ) -> None:
        if _blank:  # clone() and the search worlds set every field themselves
            return
        cfg = _config(rules)
        n = cfg.n
        self.rules = rules
        self.seed = seed
        self._cfg = cfg
        self._rng = Rng(seed)
        self._moves = []
        self._legal = None
        self._log: list[Event] = []
        self._result: GameResult | None = None
        self.dealer = 0
        self.round = 1
        self.direction = 1
        self.scores = [0] * n
        self.numbers = [cfg.start] * n if cfg.countdown else []
        self._fresh: list[Event] | None = None
        self._log = self._deal_round() if deal is None else self._setup(deal)

    def _clear(self, rules: Rules, cfg: _Config) -> None:
        """Fresh bookkeeping and no cards anywhere: the start of a state built by hand
        from a view (search worlds), before its public facts and sampled cards go in."""
        self.rules = rules
        self.seed = 0
        self._cfg = cfg
        self._rng = Rng(0)
        self._moves = []
        self._legal = None
        self._log = []
        self._fresh = None
        self._result = None
        self.hands = [0] * cfg.n
        self.stock: list[Card] = []
        self.follow = 0

    # -- public state -------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def active_suit(self) -> str:
        return SUITS[self.suit]

    @property
    def top_card(self) -> str:
        return CARD_TEXT[self.top]

    def wild_mask(self, seat: int) -> Mask:
        """The cards that are wild for ``seat`` (eights, or the countdown number's rank)."""
        return int(self._wild[seat])

    # -- setting up a round -------------------------------------------------------------

    def _deal_round(self) -> list[Event]:
        """Shuffle the full deck with the table's generator and deal a new round."""
        cfg = self._cfg
        n = cfg.n
        stock = standard_deck(cfg.packs)
        self._rng.shuffle(stock)
        counts = self.numbers if cfg.countdown else [cfg.hand_count] * n
        hands = [0] * n
        for k in range(n):
            seat = (self.dealer + 1 + k) % n
            count = counts[seat]
            hands[seat] = mask_of(stock[-count:])
            del stock[-count:]
        self.hands = hands
        self.stock = stock
        self.discard: list[Card] = []
        return self._begin(self._turn_starter(stock))

    def _turn_starter(self, stock: list[Card]) -> Card:
        """Turn the top stock card; in classic an eight goes back into the middle of the
        stock and the next card is turned (C2), unless only eights are left."""
        starter = stock.pop()
        if self._cfg.starter_rule == STARTER_REBURY:
            tries = 0
            while starter & 15 == EIGHT and tries <= len(stock):
                stock.insert(len(stock) // 2, starter)
                starter = stock.pop()
                tries += 1
        return starter

    def _setup(self, deal: Deal) -> list[Event]:
        cfg = self._cfg
        n = cfg.n
        if len(deal.hands) != n:
            raise ValueError(f"deal has {len(deal.hands)} hands for {n} players")
        if not 0 <= deal.dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}; got {deal.dealer}")
        if deal.direction not in (1, -1):
            raise ValueError("direction must be 1 (clockwise) or -1")
        if deal.cycles_left is not None or deal.leader is not None or deal.removed:
            raise ValueError("cycles_left, leader and removed are settings of a cycles deal")
        self.dealer = deal.dealer
        self.round = deal.round
        self.direction = deal.direction
        if deal.scores is not None:
            if len(deal.scores) != n:
                raise ValueError(f"deal has {len(deal.scores)} scores for {n} players")
            self.scores = [int(s) for s in deal.scores]
        if deal.numbers is not None:
            if not cfg.countdown:
                raise ValueError("numbers are a setting of a countdown deal")
            if len(deal.numbers) != n or not all(1 <= x <= 8 for x in deal.numbers):
                raise ValueError(f"numbers must be {n} values from 1 to 8")
            self.numbers = [int(x) for x in deal.numbers]
        seen: dict[Card, int] = {}

        def take(text: str) -> Card:
            card = parse_card(text)
            if card in JOKERS:
                raise ValueError(f"{text} is not a card of {self.rules.ruleset}")
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > cfg.packs:
                raise ValueError(f"{CARD_TEXT[card]} is dealt more often than the packs hold")
            return card

        self.hands = [0] * n
        for seat, cards in enumerate(deal.hands):
            for text in cards:
                self.hands[seat] = _add(self.hands[seat], take(text))
        stock = [take(t) for t in deal.stock]
        stock.reverse()
        self.stock = stock
        self.discard = [take(t) for t in deal.discard]
        if deal.starter is not None:
            starter = take(deal.starter)
        elif stock:
            starter = self._turn_starter(stock)
        else:
            raise ValueError("a deal needs a starter card or a stock to turn one from")
        return self._begin(starter)

    def _begin(self, starter: Card) -> list[Event]:
        """Lay the starter and set up the first turn of the round (C2, C3, U2, U3, K2);
        return the events that open the round."""
        cfg = self._cfg
        n = cfg.n
        if cfg.countdown:
            self._wild = [RANK_MASK[x - 1] for x in self.numbers]
        else:
            self._wild = [EIGHTS] * n
        self.discard.append(starter)
        self.top = starter
        self.suit = starter >> 4
        self.declared = False
        self.follow = SUIT_MASK[starter >> 4] | RANK_MASK[starter & 15]
        self.pending = 0
        self.passes = 0
        self.drawn = -1
        self.phase = PLAY
        events = [Event("round", None, data={"round": self.round, "dealer": self.dealer})]
        for seat in range(n):
            events.append(Event("deal", seat, tuple(cards_of(self.hands[seat])), True))
        events.append(Event("starter", None, (starter,)))
        dealer = self.dealer
        self.current = (dealer + self.direction) % n
        if cfg.starter_rule == STARTER_DECLARE:
            if starter & 15 == EIGHT:
                self.phase = DECLARE
                self.current = dealer
            elif cfg.actions:
                self.current = self._after_action(dealer, starter & 15, events)
        return events

    # -- legal moves --------------------------------------------------------------------

    def _can_draw(self) -> bool:
        return bool(self.stock) or (self._cfg.reshuffle and len(self.discard) > 1)

    def _playable(self, seat: int) -> tuple[Mask, Mask]:
        """The seat's playable cards in a normal turn: (plain, wild) kind masks."""
        hand = self.hands[seat]
        kinds = ((hand | (hand >> COPY)) & LOW) if self._cfg.two_packs else hand
        if self.pending:
            return kinds & TWOS, 0
        wild = self._wild[seat]
        return kinds & self.follow & ~wild, kinds & wild

    def _compute_legal(self) -> tuple[Move, ...]:
        phase = self.phase
        if phase == OVER:
            return ()
        seat = self.current
        cfg = self._cfg
        hand = self.hands[seat]
        call = cfg.last_card == LC_MANUAL and hand.bit_count() == 2
        wilds = self._wild[seat]
        if phase == PLAY:
            if cfg.two_packs:
                hand = (hand | (hand >> COPY)) & LOW
            if self.pending:
                plain = hand & TWOS
                wild = 0
                tail = 1
            else:
                wild = hand & wilds
                plain = hand & self.follow & ~wilds
                if self.stock or (cfg.reshuffle and len(self.discard) > 1):
                    tail = 1 if (cfg.voluntary or not (plain | wild)) else 0
                else:
                    tail = 0 if (plain | wild) else 2
        elif phase == DRAWN:
            low = 1 << self.drawn
            if wilds & low:
                plain, wild = 0, low
            else:
                plain, wild = low, 0
            tail = 2
        elif phase == AFTER_DRAW:
            plain, wild = self._playable(seat)
            tail = 0 if (plain | wild) else 2
        else:
            return _WILD[self.top]  # DECLARE: the dealer names the starter eight's suit
        table = _MEMOS.get(wilds)
        if table is not None:
            moves = table.get(plain | wild | (call << _CALL_BIT) | (tail << _TAIL_SHIFT))
            if moves is not None:
                return moves
        return _moves_for(plain, wild, call, tail, wilds)

    def _accepts_unlisted(self, move: Move) -> bool:
        if self.phase == OVER:
            return False
        if move is TIMEOUT:
            return True
        legal = self._legal or ()
        if move.call:
            return move.with_call(False) in legal
        if move.kind == DECLARE_KIND:
            return self.phase == DECLARE
        return False

    def _why_illegal(self, move: Move) -> str:
        if self.phase == OVER:
            return "the game is over"
        seat = self.current
        kind = move.kind
        if self.phase == DECLARE:
            return (
                f"the dealer must first declare the suit of the starter "
                f"{CARD_TEXT[self.top]} (e.g. {CARD_TEXT[self.top]}:H or :H)"
            )
        if kind == DECLARE_KIND:
            return "there is no starter eight to declare a suit for; declare with a wild card"
        if kind == PASS_KIND:
            if self.phase == AFTER_DRAW:
                return "you hold a legal card after drawing: play one"
            return "you cannot pass while you can play or draw"
        if kind == DRAW_KIND:
            if self.phase == DRAWN:
                return f"you already drew: play {CARD_TEXT[self.drawn]} or pass"
            if self.phase == AFTER_DRAW:
                return "you already drew this turn: play a legal card"
            if not self._can_draw():
                return "the stock is empty: there is nothing to draw"
            return "you hold a legal card and voluntary drawing is off: play it"
        card = move.card
        assert card is not None
        hand = self.hands[seat]
        if not (hand | (hand >> COPY)) >> card & 1:
            return f"you do not hold {CARD_TEXT[card]}"
        if self.phase == DRAWN and card != self.drawn:
            return f"after drawing you may only play the drawn card {CARD_TEXT[self.drawn]} or pass"
        wild = self._wild[seat] >> card & 1
        if self.pending:
            if card & 15 == EIGHT:
                return (
                    f"an eight cannot answer a pending draw of {2 * self.pending}: play a 2 or draw"
                )
            return f"a draw of {2 * self.pending} is pending: play a 2 or draw"
        if wild and move.suit is None:
            return f"{CARD_TEXT[card]} is wild: declare a suit with it, e.g. {CARD_TEXT[card]}:H"
        if not wild and move.suit is not None:
            return f"{CARD_TEXT[card]} is not wild for you: play it without ':{SUITS[move.suit]}'"
        if self.declared:
            return (
                f"{CARD_TEXT[card]} does not follow: the declared suit is "
                f"{SUITS[self.suit]} (play that suit or your wild card)"
            )
        return (
            f"{CARD_TEXT[card]} does not match {CARD_TEXT[self.top]}: play a "
            f"{SUITS[self.suit]}, a {CARD_TEXT[self.top][0]} or a wild card"
        )

    # -- carrying out moves -------------------------------------------------------------

    def _apply(self, move: Move) -> list[Event]:
        kind = move.kind
        seat = self.current
        if self.phase == DECLARE and kind is not TIMEOUT_KIND:
            events = self._declare_starter(move.suit if move.suit is not None else 0)
        elif kind is PLAY_KIND:
            events = self._play_card(seat, move.card, move.suit, move.call)  # type: ignore[arg-type]
        elif kind is DRAW_KIND:
            events = self._draw(seat)
        elif kind is PASS_KIND:
            events = self._pass(seat)
        else:
            events = self._timeout(seat)
        fresh = self._fresh
        if fresh is None:
            self._log.extend(events)
        else:
            self._log = fresh
            self._fresh = None
        return events

    def _declare_starter(self, suit: int) -> list[Event]:
        dealer = self.dealer
        self.suit = suit
        self.declared = True
        self.follow = SUIT_MASK[suit]
        self.phase = PLAY
        self.current = (dealer + self.direction) % self._cfg.n
        return [Event("declared", dealer, (self.top,), data={"suit": SUITS[suit]})]

    def _timeout(self, seat: int) -> list[Event]:
        legal = self._compute_legal()
        events = [Event("timeout", seat)]
        if DRAW in legal:
            events.extend(self._draw(seat))
        elif PASS in legal:
            events.extend(self._pass(seat))
        elif self.phase == DECLARE:
            events.extend(self._declare_starter(self.top >> 4))
        else:
            move = legal[0]
            events.extend(self._play_card(seat, move.card, move.suit, move.call))  # type: ignore[arg-type]
        return events

    def _play_card(self, seat: int, card: Card, suit: int | None, call: bool) -> list[Event]:
        cfg = self._cfg
        hand = self.hands[seat]
        bit = 1 << card
        hand ^= (bit << COPY) if hand & (bit << COPY) else bit
        self.hands[seat] = hand
        self.discard.append(card)
        self.top = card
        self.passes = 0
        self.phase = PLAY
        self.drawn = -1
        if suit is not None:
            self.suit = suit
            self.declared = True
            self.follow = SUIT_MASK[suit]
            events = [Event("played", seat, (card,), False, {"declared": SUITS[suit]})]
        else:
            self.suit = card >> 4
            self.declared = False
            self.follow = SUIT_MASK[card >> 4] | RANK_MASK[card & 15]
            events = [Event("played", seat, (card,))]
        left = hand.bit_count()
        if left == 1 and cfg.last_card:
            if cfg.last_card == LC_AUTO or call:
                events.append(Event("last_card", seat, data={"auto": cfg.last_card == LC_AUTO}))
            else:
                drawn = self._take(seat, 2, events)
                events.append(Event("penalty", seat, drawn, True, {"reason": "last_card"}))
        elif left == 0:
            self._end_round(seat, events)
            return events
        rank = card & 15
        if cfg.actions and suit is None and rank in (TWO, QUEEN, ACE):
            self.current = self._after_action(seat, rank, events)
        else:
            self.current = (seat + self.direction) % cfg.n
        return events

    def _after_action(self, seat: int, rank: int, events: list[Event]) -> int:
        """Apply the action of a 2, Q or A played by ``seat``; return the next player."""
        n = self._cfg.n
        nxt = (seat + self.direction) % n
        if rank == TWO:
            if self._cfg.stacking:
                self.pending += 1
                return nxt
            drawn = self._take(nxt, 2, events)
            events.append(Event("penalty", nxt, drawn, True, {"reason": "two"}))
            events.append(Event("skipped", nxt))
            return (nxt + self.direction) % n
        if rank == QUEEN:
            events.append(Event("skipped", nxt))
            return (nxt + self.direction) % n
        if rank == ACE and n > 2:
            self.direction = -self.direction
            events.append(Event("direction", None, data={"direction": self.direction}))
            return (seat + self.direction) % n
        return nxt

    def _take(self, seat: int, count: int, events: list[Event]) -> tuple[Card, ...]:
        """Move up to ``count`` cards from the stock to a hand, reshuffling if allowed."""
        stock = self.stock
        drawn: list[Card] = []
        hand = self.hands[seat]
        for _ in range(count):
            if not stock:
                if not (self._cfg.reshuffle and len(self.discard) > 1):
                    break
                self._reshuffle(events)
                stock = self.stock
            card = stock.pop()
            bit = 1 << card
            hand |= (bit << COPY) if hand & bit else bit
            drawn.append(card)
        self.hands[seat] = hand
        if drawn:
            self.passes = 0
        return tuple(drawn)

    def _reshuffle(self, events: list[Event]) -> None:
        top = self.discard.pop()
        stock = self.discard
        self._rng.shuffle(stock)
        self.stock = stock
        self.discard = [top]
        events.append(Event("reshuffled", None, data={"count": len(stock)}))

    def _draw(self, seat: int) -> list[Event]:
        cfg = self._cfg
        events: list[Event] = []
        if self.pending:
            count = 2 * self.pending
            self.pending = 0
            drawn = self._take(seat, count, events)
            events.append(Event("penalty", seat, drawn, True, {"reason": "draw_two"}))
            if not drawn:
                self.passes += 1
                if self.passes >= cfg.n:
                    self._end_round(None, events)
                    return events
            self.current = (seat + self.direction) % cfg.n
            return events
        policy = cfg.policy
        if policy == UNTIL_PLAYABLE:
            cards: list[Card] = []
            while True:
                got = self._take(seat, 1, events)
                if not got:
                    break
                cards.append(got[0])
                if self._fits(seat, got[0]):
                    break
            events.append(Event("drew", seat, tuple(cards), True))
            self.phase = AFTER_DRAW
            return events
        stock = self.stock
        if stock:
            card = stock.pop()
            hand = self.hands[seat]
            bit = 1 << card
            self.hands[seat] = hand | ((bit << COPY) if hand & bit else bit)
            self.passes = 0
            events.append(Event("drew", seat, (card,), True))
        else:
            got = self._take(seat, 1, events)
            events.append(Event("drew", seat, got, True))
            card = got[0] if got else -1
        if policy == UNTIL_PLAY:
            return events
        if policy == SINGLE and card >= 0 and self._fits(seat, card):
            self.phase = DRAWN
            self.drawn = card
            return events
        self.current = (seat + self.direction) % cfg.n
        return events

    def _fits(self, seat: int, card: Card) -> bool:
        """Whether ``card`` is legal for ``seat`` now (no draw-two is pending)."""
        return bool(((self.follow | self._wild[seat]) >> card) & 1)

    def _pass(self, seat: int) -> list[Event]:
        events = [Event("passed", seat)]
        self.phase = PLAY
        self.drawn = -1
        self.passes += 1
        if self.passes >= self._cfg.n:
            self._end_round(None, events)
        else:
            self.current = (seat + self.direction) % self._cfg.n
        return events

    # -- end of a round and of the game -------------------------------------------------

    def hand_points(self, seat: int) -> int:
        """G8 points of the cards in ``seat``'s hand."""
        points = self._cfg.points
        return sum(points[c] for c in cards_of(self.hands[seat]))

    def _end_round(self, winner: int | None, events: list[Event]) -> None:
        cfg = self._cfg
        n = cfg.n
        points = [self.hand_points(s) for s in range(n)]
        reason = "out" if winner is not None else "blockade"
        if winner is None and not cfg.countdown:
            order = sorted(
                range(n),
                key=lambda s: (
                    points[s],
                    self.hands[s].bit_count(),
                    (s - self.dealer - 1) % n,
                ),
            )
            winner = order[0]
        game_over = not cfg.match
        if cfg.countdown:
            if winner is not None:
                game_over = game_over or self.numbers[winner] == 1
                self.numbers[winner] = max(1, self.numbers[winner] - 1)
        elif cfg.penalty_scoring:
            for s in range(n):
                if s != winner:
                    self.scores[s] += points[s]
            game_over = game_over or max(self.scores) >= cfg.target
        else:
            assert winner is not None
            self.scores[winner] += sum(points[s] for s in range(n) if s != winner)
            game_over = game_over or self.scores[winner] >= cfg.target
        data: dict[str, Any] = {
            "round": self.round,
            "reason": reason,
            "points": points,
            "hands": [[CARD_TEXT[c] for c in cards_of(h)] for h in self.hands],
            "scores": list(self.scores),
        }
        if cfg.countdown:
            data["numbers"] = list(self.numbers)
        events.append(Event("round_over", winner, data=data))
        if game_over:
            self._finish(winner, points, events)
            return
        self.dealer = (self.dealer + 1) % n
        self.round += 1
        self.direction = 1
        fresh = self._deal_round()
        events.extend(fresh)
        self._fresh = fresh

    def _finish(self, last_winner: int | None, points: list[int], events: list[Event]) -> None:
        cfg = self._cfg
        n = cfg.n
        self.phase = OVER
        seats = range(n)
        if cfg.countdown:
            key_points = list(self.numbers)
            standings = sorted(seats, key=lambda s: (s != last_winner, key_points[s], s))
        elif not cfg.match:
            key_points = points if cfg.penalty_scoring else [0] * n
            if not cfg.penalty_scoring and last_winner is not None:
                key_points[last_winner] = self.scores[last_winner]
            standings = sorted(seats, key=lambda s: (s != last_winner, points[s], s))
        elif cfg.penalty_scoring:
            key_points = list(self.scores)
            standings = sorted(seats, key=lambda s: (key_points[s], s != last_winner, s))
        else:
            key_points = list(self.scores)
            standings = sorted(seats, key=lambda s: (-key_points[s], s))
        winner = standings[0] if (last_winner is not None or not cfg.countdown) else None
        self._result = GameResult(
            winner=winner,
            standings=tuple(standings),
            points=tuple(key_points),
            rounds=self.round,
            reason="blockade" if last_winner is None else "out",
        )
        events.append(Event("game_over", winner, data=self._result.to_dict()))

    # -- views ----------------------------------------------------------------------------

    def view(self, seat: int | None = None, *, log: bool = False) -> dict[str, Any]:
        cfg = self._cfg
        n = cfg.n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None; got {seat!r}")
        over = self.phase == OVER
        players: list[dict[str, Any]] = []
        for s in range(n):
            entry: dict[str, Any] = {
                "seat": s,
                "cards": self.hands[s].bit_count(),
                "score": self.scores[s],
            }
            if cfg.countdown:
                entry["number"] = self.numbers[s]
                entry["wild"] = "A23456789TJQK"[self.numbers[s] - 1]
            players.append(entry)
        out: dict[str, Any] = {
            "ruleset": self.rules.ruleset,
            "rules": self.rules.to_dict(),
            "seat": seat,
            "round": self.round,
            "dealer": self.dealer,
            "current": None if over else self.current,
            "phase": PHASE_NAMES[self.phase],
            "direction": self.direction,
            "top": CARD_TEXT[self.top],
            "active_suit": SUITS[self.suit],
            "declared": self.declared,
            "pending_draw": 2 * self.pending,
            "stock": len(self.stock),
            "discard": [CARD_TEXT[c] for c in self.discard],
            "players": players,
            "target": cfg.target if cfg.match and not cfg.countdown else None,
            "over": over,
            "result": self._result.to_dict() if self._result else None,
        }
        if seat is not None:
            out["hand"] = [CARD_TEXT[c] for c in cards_of(self.hands[seat])]
            mine = not over and seat == self.current
            out["legal"] = [m.text for m in self.legal_moves()] if mine else []
            if mine and self.phase == DRAWN:
                out["drawn"] = CARD_TEXT[self.drawn]
        if log:
            out["log"] = [e.for_seat(seat) for e in self._log]
        return out

    def clone(self) -> SheddingGame:
        other = SheddingGame(self.rules, self.seed, _blank=True)
        self._copy_into(other)
        return other

    def _copy_into(self, other: SheddingGame) -> None:
        """Copy every field of this state into ``other`` (a blank instance, maybe of a
        subclass: its own fields are its to copy)."""
        other.rules = self.rules
        other.seed = self.seed
        other._cfg = self._cfg
        other._rng = self._rng.clone()
        other._moves = self._moves.copy()
        other._legal = self._legal
        other._log = self._log.copy()
        other._fresh = None
        other._result = self._result
        other._wild = self._wild
        other.current = self.current
        other.dealer = self.dealer
        other.declared = self.declared
        other.direction = self.direction
        other.discard = self.discard.copy()
        other.drawn = self.drawn
        other.follow = self.follow
        other.hands = self.hands.copy()
        other.numbers = self.numbers.copy()
        other.passes = self.passes
        other.pending = self.pending
        other.phase = self.phase
        other.round = self.round
        other.scores = self.scores.copy()
        other.stock = self.stock.copy()
        other.suit = self.suit
        other.top = self.top


FIELDS[SheddingGame] = _SHEDDING_FIELDS


def _add(hand: Mask, card: Card) -> Mask:
    bit = 1 << card
    return hand | ((bit << COPY) if hand & bit else bit)


__all__ = ["SheddingGame"]
