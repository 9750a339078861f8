"""The shedding state machine: classic, ultimate and countdown (RULES sections 1-3, 5).

One class plays all three; what differs between them is data in ``SheddingConfig``, built once
per ``Rules`` from its derived facts. Hands are bitmask ints (cards.py), the stock and
discard pile are lists of card ids with their top at the end, and the legal moves of a
position are a tuple looked up by the masks of playable cards, so a turn is a handful
of bit operations. Events are built only when the move's caller wants them (``_out``).

Decisions where the source manuals are silent (each follows them as a player would read them;
``docs/rules.md`` lists them with the rules):

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

from typing import Any, Final

from .cards import (
    CARD_TEXT,
    COPY,
    EIGHT,
    JOKERS,
    LOW,
    RANK_MASK,
    RANKS,
    SUIT_MASK,
    SUITS,
    TWO,
    Card,
    Mask,
    Suit,
    cards_of,
    mask_of,
    parse_card,
    popcount,
    standard_deck,
)
from .events import (
    Dealt,
    DirectionChanged,
    Drew,
    Event,
    GameOver,
    LastCardCalled,
    Passed,
    PenaltyDrawn,
    PenaltyReason,
    Played,
    Record,
    Reshuffled,
    RoundOver,
    RoundStarted,
    Skipped,
    StarterReturned,
    StarterTurned,
    SuitDeclared,
    TimedOut,
)
from .game import COMPILED, MAX_MOVES, Deal, Game, GameResult, Hidden, check_hidden
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
from .result import EndReason, game_result
from .rng import PLAYOUT_MASK, Rng, below
from .rules import Rules
from .views import PlayerView, SheddingPhase, SheddingView

# phases of a turn
PLAY: Final = 0
DRAWN: Final = 1
AFTER_DRAW: Final = 2
DECLARE: Final = 3
OVER: Final = 4
PHASE_NAMES: Final[tuple[SheddingPhase, ...]] = ("play", "drawn", "after_draw", "declare", "over")
# draw policies
SINGLE: Final = 0
UNTIL_PLAYABLE: Final = 1
SINGLE_THEN_PASS: Final = 2
UNTIL_PLAY: Final = 3
_POLICY: Final = {"single": 0, "until_playable": 1, "single_then_pass": 2, "until_play": 3}
# last-card settings
LC_OFF: Final = 0
LC_MANUAL: Final = 1
LC_AUTO: Final = 2
_LAST_CARD: Final = {"off": 0, "manual": 1, "auto": 2}
# starter rules
STARTER_REBURY: Final = 0
STARTER_DECLARE: Final = 1
STARTER_PLAIN: Final = 2
STARTER_RETURN: Final = 3
# what a card does when played (Rules.action), by rank
NO_ACTION: Final = 0
DRAW_TWO: Final = 1
SKIP: Final = 2
REVERSE: Final = 3
_ACTIONS: Final[dict[str | None, int]] = {
    None: NO_ACTION,
    "draw_two": DRAW_TWO,
    "skip": SKIP,
    "reverse": REVERSE,
}

EIGHTS: Final[Mask] = RANK_MASK[EIGHT]
TWOS: Final[Mask] = RANK_MASK[TWO]
UNKNOWN_DRAWN: Final = -2
"""``drawn`` of a position read from a view that does not show the drawn card."""


def follow_mask(top: Card, suit: Suit, declared: bool) -> Mask:
    """The cards that follow (C4, C5, K3, K4), wild cards aside: the active suit, and
    the top card's rank unless a suit was declared with it."""
    if declared:
        return SUIT_MASK[suit]
    return SUIT_MASK[suit] | RANK_MASK[top & 15]


class SheddingConfig:
    """The settings of one ``Rules`` as the state machine reads them."""

    rules: Rules
    n: int
    packs: int
    two_packs: bool
    hand_count: int
    voluntary: bool
    policy: int
    countdown: bool
    reshuffle: bool
    actions: bool
    action_of: tuple[int, ...]
    """What a card of each rank does when played (``NO_ACTION``, ``DRAW_TWO`` ...)."""
    stacking: bool
    last_card: int
    points: tuple[int, ...]
    match: bool
    target: int
    start: int
    penalty_scoring: bool
    starter_rule: int
    max_draw: int
    """Cards a player may draw in one turn (OpenSpiel's ``max_draw_cards``; else no cap)."""
    max_turns: int
    """Card plays after which the game ends (OpenSpiel's ``max_turns``; 0: no limit)."""
    pass_anytime: bool
    """Whether a player who cannot draw may pass even holding a legal card (OpenSpiel)."""
    refill: bool
    """Whether the discards make a new stock as soon as it runs out (OpenSpiel), not
    only when a card must be drawn (U9)."""
    reverse_in_two: bool
    """Whether an ace reverses play with two players too (OpenSpiel; U6: no effect)."""
    twos_need_stock: bool
    """Whether a 2 makes a draw pending only while there is a card to draw (OpenSpiel)."""
    lane_points: tuple[int, ...]
    """The points of each set of ranks of one suit (13 bits), for ``hand_points``."""
    wilds: tuple[Mask, ...]
    """Every seat's wild cards, by seat (countdown: see ``wild_of_number``)."""
    wild_of_number: tuple[Mask, ...]
    """Countdown: the wild cards of each number 1..13 (index 0 unused)."""
    memo: dict[int, tuple[Move, ...]]
    """The legal-move tuples of every seat (``moves_for``'s table of the one wild mask
    they share), at hand so that ``legal_moves`` looks a position up in one dict;
    countdown, whose seats' wild cards differ, looks its tables up by wild mask."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        name = rules.ruleset
        self.n = rules.players
        self.packs = rules.pack_count()
        self.two_packs = self.packs == 2
        self.hand_count = rules.hand_count()
        self.voluntary = rules.voluntary_draw is not False
        self.policy = _POLICY.get(str(rules.draw_policy), SINGLE)
        self.countdown = rules.has_numbers
        self.reshuffle = self.countdown or rules.stock_empty == "reshuffle"
        self.actions = rules.has_action_cards
        self.action_of = tuple(_ACTIONS[rules.action(rank)] for rank in range(13))
        self.stacking = rules.twos_stack
        self.last_card = _LAST_CARD.get(str(rules.last_card), LC_OFF)
        self.points = tuple(rules.card_points(c) if c in CARD_TEXT else 0 for c in range(64))
        self.lane_points = _lane_points(self.points[:13])
        self.match = rules.mode == "match"
        self.target = int(rules.target or 0)
        self.start = int(rules.start or 8)
        self.penalty_scoring = name == "ultimate"
        openspiel = name == "openspiel"
        self.max_draw = int(rules.max_draw_cards or 0) if openspiel else 1 << 30
        self.max_turns = int(rules.max_turns or 0)
        self.pass_anytime = openspiel
        self.refill = openspiel and self.reshuffle
        self.reverse_in_two = openspiel
        self.twos_need_stock = openspiel
        if self.countdown:
            self.wilds = ()
            self.wild_of_number = (0, *tuple(rules.wild_mask(x) for x in range(1, 14)))
        else:
            self.wilds = (rules.wild_mask(),) * self.n
            self.wild_of_number = ()
        self.memo = {} if self.countdown else memo_table(self.wilds[0])
        self.starter_rule = {
            "classic": STARTER_REBURY,
            "ultimate": STARTER_DECLARE,
            "countdown": STARTER_PLAIN,
            "openspiel": STARTER_RETURN,
        }[name]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules: a state's config is rebuilt from them."""
        return (type(self), (self.rules,))


_LANES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}


def _lane_points(points: tuple[int, ...]) -> tuple[int, ...]:
    """The points of every set of the 13 ranks, given each rank's (built once a table)."""
    lanes = _LANES.get(points)
    if lanes is None:
        table = [0] * 8192
        for ranks in range(1, 8192):
            low = ranks & -ranks
            table[ranks] = table[ranks ^ low] + points[low.bit_length() - 1]
        lanes = _LANES[points] = tuple(table)
    return lanes


_CONFIGS: Final[dict[Rules, SheddingConfig]] = {}


_last_rules: Rules | None = None
_last_config: SheddingConfig | None = None


def config_of(rules: Rules) -> SheddingConfig:
    """The config of ``rules``, built once (the last one found without hashing the
    rules again: a playout loop deals game after game of the same rules)."""
    global _last_rules, _last_config
    if rules is _last_rules and _last_config is not None:
        return _last_config
    cfg = _CONFIGS.get(rules)
    if cfg is None:
        if len(_CONFIGS) > 1000:
            _CONFIGS.clear()
        cfg = _CONFIGS[rules] = SheddingConfig(rules)
    _last_rules = rules
    _last_config = cfg
    return cfg


# Moves of each card, built once: plain, with the last-card call, as a wild (4 suits).
_PLAIN: Final = [(Move.play(c),) if c in CARD_TEXT else () for c in range(64)]
_PLAIN_CALL: Final = [
    (Move.play(c), Move.play(c, call=True)) if c in CARD_TEXT else () for c in range(64)
]
_WILD: Final = [
    tuple(Move.play(c, s) for s in range(4)) if c in CARD_TEXT else () for c in range(64)
]
_WILD_CALL: Final = [
    tuple(m for s in range(4) for m in (Move.play(c, s), Move.play(c, s, call=True)))
    if c in CARD_TEXT
    else ()
    for c in range(64)
]
_TAILS: Final[tuple[tuple[Move, ...], ...]] = ((), (DRAW,), (PASS,))
_FOLLOWS: Final[tuple[Mask, ...]] = tuple(
    follow_mask(c, c >> 4, False) if c & 15 < 13 else 0 for c in range(64)
)
"""``follow_mask`` of each card played without declaring a suit."""
# The text of every play by ``card * 10 + (declared suit + 1) * 2 + call`` (playouts).
_PLAY_TEXT: Final[tuple[str, ...]] = tuple(
    Move.play(c, None if d < 0 else d, call=bool(k)).text if c in CARD_TEXT else ""
    for c in range(64)
    for d in range(-1, 4)
    for k in (0, 1)
)
# Legal-move tuples memoised per wild mask, keyed by the playable cards with the call
# and tail flags in the spare joker bits 13-15 (never set in a shedding mask), so every
# key stays a small int.
_MEMOS: Final[dict[Mask, dict[int, tuple[Move, ...]]]] = {}
_CALL_BIT: Final = 13
_TAIL_SHIFT: Final = 14
DRAW_TAIL: Final = 1
PASS_TAIL: Final = 2


def memo_table(wilds: Mask) -> dict[int, tuple[Move, ...]]:
    """The table of legal-move tuples of a seat whose wild cards are ``wilds``."""
    table = _MEMOS.get(wilds)
    if table is None:
        table = _MEMOS[wilds] = {}
    return table


def moves_for(plain: Mask, wild: Mask, call: bool, tail: int, wilds: Mask) -> tuple[Move, ...]:
    """The legal-move tuple for these playable masks (memoised: positions repeat)."""
    table = memo_table(wilds)
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


def _count_moves(plain: Mask, wild: Mask, call: bool, tail: int) -> int:
    """How many moves ``_options`` stands for, counted bit by bit (``int.bit_count`` is
    no mypyc primitive: the compiled build counts natively)."""
    calls = 2 if call else 1
    count = 1 if tail else 0
    while plain:
        plain &= plain - 1
        count += calls
    while wild:
        wild &= wild - 1
        count += 4 * calls
    return count


def _two_cards(hand: Mask) -> bool:
    """Whether ``hand`` holds exactly two cards (a play now leaves one: G7)."""
    rest = hand & (hand - 1)
    return rest != 0 and not rest & (rest - 1)


class SheddingGame(Game):
    """A game of classic, ultimate or countdown: one round, or a whole match."""

    _cfg: SheddingConfig
    _wild: tuple[Mask, ...]
    """The cards wild for each seat (eights; countdown: the seat's number's rank)."""
    dealer: int
    round: int
    direction: int
    """1 clockwise, -1 after an odd number of reverses."""
    scores: list[int]
    numbers: list[int]
    """Countdown: each seat's number (K1); empty otherwise."""
    discard: list[Card]
    top: Card
    suit: Suit
    """The active suit: the top card's, or the one declared with it."""
    declared: bool
    follow: Mask
    """The cards that follow now, wild cards aside (``follow_mask``)."""
    pending: int
    """Twos in the unbroken run the player to move must answer (U7)."""
    passes: int
    drawn: Card
    """The card drawn that may be played (phase ``drawn``), else -1."""
    draws: int
    """Cards drawn in this turn (OpenSpiel caps them at ``max_draw_cards``)."""
    plays: int
    """Cards played in this round (OpenSpiel ends the game at ``max_turns``)."""
    phase: int
    current: int

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
        cfg = self._cfg = self._config_for(rules)
        n = cfg.n
        self.dealer = rules.first_dealer_seat(seed)
        self.round = 1
        self.direction = 1
        self.scores = [0] * n
        self.numbers = [cfg.start] * n if cfg.countdown else []
        out: list[Event | Record] | None = [] if log else None
        self._out = out
        if deal is None:
            self._deal_round()
        else:
            self._setup(deal)
        self._log = out
        self._out = None

    @classmethod
    def _config_for(cls, rules: Rules) -> SheddingConfig:
        if rules.ruleset not in ("classic", "ultimate", "countdown"):
            raise ValueError(f"SheddingGame plays classic, ultimate or countdown, not {rules}")
        return config_of(rules)

    # -- public state and rule questions ------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> SheddingPhase:
        """The phase of the turn as the view names it (``play``, ``drawn``, ...)."""
        return PHASE_NAMES[self.phase]

    @property
    def active_suit(self) -> str:
        return SUITS[self.suit]

    @property
    def top_card(self) -> str:
        return CARD_TEXT[self.top]

    @property
    def pending_draw(self) -> int:
        """The cards the player to move must draw unless they answer with a 2 (U7)."""
        return 2 * self.pending

    @property
    def wild_masks(self) -> tuple[Mask, ...]:
        """The cards wild for each seat, by seat."""
        return self._wild

    def wild_mask(self, seat: int) -> Mask:
        """The cards that are wild for ``seat`` (eights, or the countdown number's rank)."""
        return self._wild[seat]

    def is_wild(self, card: Card, seat: int | None = None) -> bool:
        return bool(self._wild[self._seat_or_current(seat)] >> (card & 63) & 1)

    def playable_mask(self, seat: int | None = None) -> Mask:
        """The cards ``seat`` may play now if they hold them: the twos against a pending
        draw (U7), else the cards that follow and their wild cards."""
        if self.pending:
            return TWOS
        return self.follow | self._wild[self._seat_or_current(seat)]

    def follows(self, card: Card, seat: int | None = None) -> bool:
        return bool(self.playable_mask(seat) >> (card & 63) & 1)

    def hand_points(self, seat: int) -> int:
        """G8 points (OpenSpiel's in that ruleset) of the cards in ``seat``'s hand: the
        points of each suit's 13 bits, looked up (both packs' lanes)."""
        lane = self._cfg.lane_points
        hand = self.hands[seat]
        total = 0
        while hand:
            total += lane[hand & 0x1FFF]
            hand >>= 16
        return total

    # -- setting up a round -------------------------------------------------------------

    def _deal_round(self) -> None:
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
        self.discard = []
        self._begin(self._turn_starter(stock))

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

    def _setup(self, deal: Deal) -> None:
        """Set up the round an explicit ``deal`` describes (its settings checked first)."""
        self._check_deal(deal)
        self._set_match_position(deal)
        stock = self._place_cards(deal)
        if deal.starter is not None:
            starter = parse_card(deal.starter)
        elif stock:
            starter = self._turn_starter(stock)
        else:
            raise ValueError("a deal needs a starter card or a stock to turn one from")
        self._begin(starter)

    def _check_deal(self, deal: Deal) -> None:
        """Raise ``ValueError`` for a setting of ``deal`` this game cannot take."""
        n = self._cfg.n
        if len(deal.hands) != n:
            raise ValueError(f"deal has {len(deal.hands)} hands for {n} players")
        if not 0 <= deal.dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}; got {deal.dealer}")
        if deal.direction not in (1, -1):
            raise ValueError("direction must be 1 (clockwise) or -1")
        if deal.cycles_left is not None or deal.leader is not None or deal.removed:
            raise ValueError("cycles_left, leader and removed are settings of a cycles deal")
        if deal.scores is not None and len(deal.scores) != n:
            raise ValueError(f"deal has {len(deal.scores)} scores for {n} players")
        if deal.numbers is not None:
            if not self._cfg.countdown:
                raise ValueError("numbers are a setting of a countdown deal")
            if len(deal.numbers) != n or not all(1 <= x <= 8 for x in deal.numbers):
                raise ValueError(f"numbers must be {n} values from 1 to 8")

    def _set_match_position(self, deal: Deal) -> None:
        """The dealer, round, direction, scores and numbers ``deal`` gives."""
        self.dealer = deal.dealer
        self.round = deal.round
        self.direction = deal.direction
        if deal.scores is not None:
            self.scores = [int(s) for s in deal.scores]
        if deal.numbers is not None:
            self.numbers = [int(x) for x in deal.numbers]

    def _place_cards(self, deal: Deal) -> list[Card]:
        """Put the hands, stock and discards of ``deal`` in place, each card checked
        against the packs (the starter too); return the stock."""
        packs = self._cfg.packs
        seen: dict[Card, int] = {}

        def take(text: str) -> Card:
            card = parse_card(text)
            if card in JOKERS:
                raise ValueError(f"{text} is not a card of {self.rules.ruleset}")
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > packs:
                raise ValueError(f"{CARD_TEXT[card]} is dealt more often than the packs hold")
            return card

        self.hands = [mask_of([take(t) for t in cards]) for cards in deal.hands]
        stock = [take(t) for t in deal.stock]
        stock.reverse()
        self.stock = stock
        self.discard = [take(t) for t in deal.discard]
        if deal.starter is not None:
            take(deal.starter)
        return stock

    def _wilds(self) -> tuple[Mask, ...]:
        """Each seat's wild cards under the rules (K1: by number in countdown)."""
        cfg = self._cfg
        if cfg.countdown:
            return tuple(cfg.wild_of_number[x] for x in self.numbers)
        return cfg.wilds

    def _lay(self, card: Card, suit: Suit | None) -> None:
        """``card`` goes on the discard pile, declaring ``suit`` (a wild card)."""
        self.discard.append(card)
        self.top = card
        if suit is None:
            self.suit = card >> 4
            self.declared = False
            self.follow = _FOLLOWS[card]
        else:
            self.suit = suit
            self.declared = True
            self.follow = follow_mask(card, suit, True)

    def _begin(self, starter: Card) -> None:
        """Lay the starter and set up the first turn of the round (C2, C3, U2, U3, K2,
        OS2)."""
        cfg = self._cfg
        n = cfg.n
        rule = cfg.starter_rule
        returned: list[Card] = []
        if rule == STARTER_RETURN:  # OS2: an eight goes back at a random place
            stock = self.stock
            while starter & 15 == EIGHT and any(c & 15 != EIGHT for c in stock):
                stock.insert(self._rng.below(len(stock) + 1), starter)
                returned.append(starter)
                starter = stock.pop()
        self._wild = self._wilds()
        self._lay(starter, None)
        self.pending = 0
        self.passes = 0
        self.drawn = -1
        self.draws = 0
        self.plays = 0
        self.phase = PLAY
        out = self._out
        mark = 0
        if out is not None:
            out.append((RoundStarted, None, self.round, self.dealer))
            for seat in range(n):
                out.append((Dealt, seat, tuple(cards_of(self.hands[seat]))))
            out.extend([(StarterReturned, None, card) for card in returned])
            mark = len(out)
        dealer = self.dealer
        self.current = (dealer + self.direction) % n
        action = cfg.action_of[starter & 15] if cfg.actions else NO_ACTION
        if rule == STARTER_DECLARE and starter & 15 == EIGHT:
            self.phase = DECLARE
            self.current = dealer
        elif action and rule in (STARTER_DECLARE, STARTER_RETURN):  # U3, OS2
            self.current = self._after_action(dealer, action)
        if out is not None:
            out.insert(mark, (StarterTurned, None, starter, 2 * self.pending))

    # -- legal moves --------------------------------------------------------------------

    def _can_draw(self) -> bool:
        """Whether a draw finds a card: in the stock, or in the discards a reshuffle
        would make a stock of (U9)."""
        return bool(self.stock) or (self._cfg.reshuffle and len(self.discard) > 1)

    def _options(self) -> tuple[Mask, Mask, bool, int]:
        """The legal moves of the player to move in short: the cards playable plainly
        and as wild cards (kind masks), whether each play is listed with a last-card
        call too, and the tail move (0, ``DRAW_TAIL`` or ``PASS_TAIL``).

        The one place that says what may be played (C4-C7, U4, U7, K3-K5, OpenSpiel's
        turn); ``legal_moves`` lists these moves and ``playout`` chooses among them. It
        is written flat: a playout asks it once a move."""
        phase = self.phase
        seat = self.current
        cfg = self._cfg
        hand = self.hands[seat]
        call = cfg.last_card == LC_MANUAL and _two_cards(hand)  # a play now leaves one
        if phase in (PLAY, AFTER_DRAW):
            kinds = ((hand | (hand >> COPY)) & LOW) if cfg.two_packs else hand
            if self.pending:
                return kinds & TWOS, 0, call, DRAW_TAIL
            wilds = self._wild[seat]
            plain = kinds & self.follow & ~wilds
            wild = kinds & wilds
            if phase == AFTER_DRAW:
                return plain, wild, call, 0 if plain | wild else PASS_TAIL
            # _can_draw() inlined, and OpenSpiel's cap on draws: this runs once a move
            if (self.stock or (cfg.reshuffle and len(self.discard) > 1)) and (
                self.draws < cfg.max_draw
            ):
                return plain, wild, call, DRAW_TAIL if cfg.voluntary or not plain | wild else 0
            return plain, wild, call, PASS_TAIL if cfg.pass_anytime or not plain | wild else 0
        if phase == DRAWN:
            low = 1 << self.drawn
            if self._wild[seat] & low:
                return 0, low, call, PASS_TAIL
            return low, 0, call, PASS_TAIL
        return 0, 1 << self.top, False, 0  # DECLARE: the dealer names the starter's suit

    def _compute_legal(self) -> tuple[Move, ...]:
        if self.phase == OVER:
            return ()
        plain, wild, call, tail = self._options()
        cfg = self._cfg
        wilds = self._wild[self.current]
        table = memo_table(wilds) if cfg.countdown else cfg.memo
        moves = table.get(plain | wild | (call << _CALL_BIT) | (tail << _TAIL_SHIFT))
        if moves is not None:
            return moves
        return moves_for(plain, wild, call, tail, wilds)

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
        if self.phase == DECLARE:
            return (
                f"the dealer must first declare the suit of the starter "
                f"{CARD_TEXT[self.top]} (e.g. {CARD_TEXT[self.top]}:H or :H)"
            )
        kind = move.kind
        if kind == DECLARE_KIND:
            return "there is no starter eight to declare a suit for; declare with a wild card"
        if kind == PASS_KIND:
            if self.phase == AFTER_DRAW:
                return "you hold a legal card after drawing: play one"
            return "you cannot pass while you can play or draw"
        if kind == DRAW_KIND:
            return self._why_no_draw()
        card = move.card
        assert card is not None
        return self._why_not_card(card, move.suit)

    def _why_no_draw(self) -> str:
        """Why the player to move may not draw now."""
        if self.phase == DRAWN:
            return f"you already drew: play {CARD_TEXT[self.drawn]} or pass"
        if self.phase == AFTER_DRAW:
            return "you already drew this turn: play a legal card"
        if not self._can_draw():
            return "the stock is empty: there is nothing to draw"
        return "you hold a legal card and voluntary drawing is off: play it"

    def _why_not_card(self, card: Card, suit: Suit | None) -> str:
        """Why the player to move may not play ``card`` (declaring ``suit``) now."""
        hand = self.hands[self.current]
        if not (hand | (hand >> COPY)) >> card & 1:
            return f"you do not hold {CARD_TEXT[card]}"
        if self.phase == DRAWN and card != self.drawn:
            return f"after drawing you may only play the drawn card {CARD_TEXT[self.drawn]} or pass"
        if self.pending:
            if card & 15 == EIGHT:
                return (
                    f"an eight cannot answer a pending draw of {2 * self.pending}: play a 2 or draw"
                )
            return f"a draw of {2 * self.pending} is pending: play a 2 or draw"
        wild = self._wild[self.current] >> card & 1
        if wild and suit is None:
            return f"{CARD_TEXT[card]} is wild: declare a suit with it, e.g. {CARD_TEXT[card]}:H"
        if not wild and suit is not None:
            return f"{CARD_TEXT[card]} is not wild for you: play it without ':{SUITS[suit]}'"
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

    def _step(self, move: Move) -> None:
        kind = move.kind
        seat = self.current
        if self.phase == DECLARE and kind is not TIMEOUT_KIND:
            self._declare_starter(move.suit if move.suit is not None else 0)
        elif kind is PLAY_KIND:
            self._play_card(seat, move.card, move.suit, move.call)  # type: ignore[arg-type]
        elif kind is DRAW_KIND:
            self._draw(seat)
        elif kind is PASS_KIND:
            self._pass(seat)
        else:
            self._timeout(seat)

    def _declare_starter(self, suit: Suit) -> None:
        dealer = self.dealer
        self.suit = suit
        self.declared = True
        self.follow = follow_mask(self.top, suit, True)
        self.phase = PLAY
        self.current = (dealer + self.direction) % self._cfg.n
        out = self._out
        if out is not None:
            out.append((SuitDeclared, dealer, self.top, suit))

    def _timeout(self, seat: int) -> None:
        legal = self._compute_legal()
        out = self._out
        if out is not None:
            out.append((TimedOut, seat))
        if DRAW in legal:
            self._draw(seat)
        elif PASS in legal:
            self._pass(seat)
        elif self.phase == DECLARE:
            self._declare_starter(self.top >> 4)
        else:
            move = legal[0]
            self._play_card(seat, move.card, move.suit, move.call)  # type: ignore[arg-type]

    def _play_card(self, seat: int, card: Card, suit: Suit | None, call: bool) -> None:
        """``seat`` plays ``card`` (declaring ``suit``): C4-C11, U5-U8, K4, K6, and
        OpenSpiel's turn limit. Written flat: a playout makes most of its moves here."""
        cfg = self._cfg
        out = self._out
        mark = 0 if out is None else len(out)
        if cfg.two_packs:
            hand = self.hands[seat]
            bit = 1 << card
            hand ^= (bit << COPY) if hand & (bit << COPY) else bit  # the second copy first
        else:
            hand = self.hands[seat] ^ (1 << card)
        self.hands[seat] = hand
        self.discard.append(card)  # _lay(card, suit), inlined: a playout plays here
        self.top = card
        if suit is None:
            self.suit = card >> 4
            self.declared = False
            self.follow = _FOLLOWS[card]
        else:
            self.suit = suit
            self.declared = True
            self.follow = follow_mask(card, suit, True)
        self.passes = 0
        if self.phase != PLAY:
            self.phase = PLAY
            self.drawn = -1
        self.draws = 0
        self.plays += 1
        if not hand & (hand - 1):  # one card left, or none
            if not hand:
                if out is not None:
                    out.insert(mark, (Played, seat, card, suit))
                self._end_round(seat)
                return
            if cfg.last_card:
                self._last_card(seat, call)
        if self.plays == cfg.max_turns:
            if out is not None:
                out.insert(mark, (Played, seat, card, suit))
            self._end_round(None)
            return
        if cfg.refill and not self.stock:
            self._refill()
        if cfg.actions and suit is None and cfg.action_of[card & 15]:
            self.current = self._after_action(seat, cfg.action_of[card & 15])
        else:
            self.current = (seat + self.direction) % cfg.n
        if out is not None:
            out.insert(mark, (Played, seat, card, suit, False, 2 * self.pending))

    def _last_card(self, seat: int, call: bool) -> None:
        """G7, C9, U8, K8: a play left ``seat`` one card; called (or auto), or two
        penalty cards."""
        auto = self._cfg.last_card == LC_AUTO
        if auto or call:
            out = self._out
            if out is not None:
                out.append((LastCardCalled, seat, auto))
        else:
            self._penalty(seat, 2, "last_card")

    def _after_action(self, seat: int, action: int) -> int:
        """Carry out the action of a card played (or turned, U3) by ``seat``; return the
        next player (C8, U3, U5-U7, OpenSpiel's special cards)."""
        cfg = self._cfg
        n = cfg.n
        nxt = (seat + self.direction) % n
        out = self._out
        if action == DRAW_TWO:
            if cfg.stacking:
                if not cfg.twos_need_stock or self._can_draw():
                    self.pending += 1
                return nxt
            self._penalty(nxt, 2, "draw_two")
            if out is not None:
                out.append((Skipped, nxt))
            return (nxt + self.direction) % n
        if action == SKIP:
            if out is not None:
                out.append((Skipped, nxt))
            return (nxt + self.direction) % n
        if action == REVERSE and (n > 2 or cfg.reverse_in_two):
            self.direction = -self.direction
            if out is not None:
                out.append((DirectionChanged, None, self.direction))
            return (seat + self.direction) % n
        return nxt

    def _draw_one(self, seat: int) -> Card:
        """Move the top stock card to ``seat``'s hand, reshuffling first if the rules
        allow (U9); return it, or -1 when there is nothing to draw."""
        stock = self.stock
        if not stock:
            if not (self._cfg.reshuffle and len(self.discard) > 1):
                return -1
            self._reshuffle()
            stock = self.stock
        card = stock.pop()
        hand = self.hands[seat]
        bit = 1 << card
        self.hands[seat] = hand | ((bit << COPY) if hand & bit else bit)
        self.passes = 0
        return card

    def _take(self, seat: int, count: int, drawn: list[Card] | None) -> int:
        """Draw up to ``count`` cards for ``seat`` (listed in ``drawn`` if given);
        return how many came."""
        got = 0
        while got < count:
            card = self._draw_one(seat)
            if card < 0:
                break
            got += 1
            if drawn is not None:
                drawn.append(card)
        return got

    def _penalty(self, seat: int, count: int, reason: PenaltyReason) -> int:
        """``seat`` draws ``count`` penalty cards (what the stock has); how many came."""
        out = self._out
        if out is None:
            return self._take(seat, count, None)
        drawn: list[Card] = []
        got = self._take(seat, count, drawn)
        out.append((PenaltyDrawn, seat, tuple(drawn), reason))
        return got

    def _reshuffle(self) -> None:
        top = self.discard.pop()
        stock = self.discard
        self._rng.shuffle(stock)
        self.stock = stock
        self.discard = [top]
        out = self._out
        if out is not None:
            out.append((Reshuffled, None, len(stock)))

    def _refill(self) -> None:
        """OpenSpiel reshuffles as soon as the stock is empty, after a draw or a play, so
        the card on top at that moment stays out of the new stock."""
        if not self.stock and self._cfg.reshuffle and len(self.discard) > 1:
            self._reshuffle()

    def _draw(self, seat: int) -> None:
        cfg = self._cfg
        out = self._out
        if self.pending:
            count = 2 * self.pending
            self.pending = 0
            if not self._penalty(seat, count, "draw_two"):
                self.passes += 1
                if self.passes >= cfg.n:
                    self._end_round(None)
                    return
            self.current = (seat + self.direction) % cfg.n
            return
        policy = cfg.policy
        drawn: list[Card] | None = None if out is None else []
        if policy == UNTIL_PLAYABLE:
            while True:
                card = self._draw_one(seat)
                if card < 0:
                    break
                if drawn is not None:
                    drawn.append(card)
                if self._fits(seat, card):
                    break
            if out is not None and drawn is not None:
                out.append((Drew, seat, tuple(drawn)))
            self.phase = AFTER_DRAW
            return
        card = self._draw_one(seat)
        if out is not None:
            out.append((Drew, seat, (card,) if card >= 0 else ()))
        if policy == UNTIL_PLAY:
            return
        if policy == SINGLE and card >= 0 and self._fits(seat, card):
            self.phase = DRAWN
            self.drawn = card
            return
        self.current = (seat + self.direction) % cfg.n

    def _fits(self, seat: int, card: Card) -> bool:
        """Whether ``card`` is legal for ``seat`` now."""
        return bool(self.playable_mask(seat) >> card & 1)

    def _pass(self, seat: int) -> None:
        out = self._out
        if out is not None:
            out.append((Passed, seat))
        self.phase = PLAY
        self.drawn = -1
        self.passes += 1
        if self.passes >= self._cfg.n:
            self._end_round(None)
        else:
            self.current = (seat + self.direction) % self._cfg.n

    # -- end of a round and of the game -------------------------------------------------

    def _blockade_winner(self, points: list[int]) -> int:
        """C10: the lowest hand points, then fewer cards, then the seat nearest the
        dealer's left."""
        n = self._cfg.n
        return min(
            range(n),
            key=lambda s: (points[s], self.hands[s].bit_count(), (s - self.dealer - 1) % n),
        )

    def _end_round(self, winner: int | None) -> None:
        cfg = self._cfg
        n = cfg.n
        points = [self.hand_points(s) for s in range(n)]
        reason: EndReason = "out" if winner is not None else "blockade"
        if winner is None and not cfg.countdown:
            winner = self._blockade_winner(points)
        scored, game_over = self._score_round(winner, points)
        target = cfg.target if cfg.match and not cfg.countdown else None
        self._round_over(winner, reason, points, scored, target)
        if len(self._moves) >= MAX_MOVES:  # G10
            self._finish(winner, points, "move_limit")
            return
        if game_over:
            self._finish(winner, points, reason)
            return
        self.dealer = (self.dealer + 1) % n
        self.round += 1
        self.direction = 1
        out = self._out
        if out is not None:
            self._round_mark = len(out)
        self._deal_round()

    def _score_round(self, winner: int | None, points: list[int]) -> tuple[list[int], bool]:
        """Score a finished round: what each seat scored,
        and whether the game is over."""
        cfg = self._cfg
        n = cfg.n
        scored = [0] * n
        game_over = not cfg.match
        if cfg.countdown:
            if winner is not None:
                game_over = game_over or self.numbers[winner] == 1
                self.numbers[winner] = max(1, self.numbers[winner] - 1)
        elif cfg.penalty_scoring:
            for s in range(n):
                if s != winner:
                    scored[s] = points[s]
                    self.scores[s] += points[s]
            game_over = game_over or max(self.scores) >= cfg.target
        else:
            assert winner is not None
            scored[winner] = sum(points[s] for s in range(n) if s != winner)
            self.scores[winner] += scored[winner]
            game_over = game_over or self.scores[winner] >= cfg.target
        return scored, game_over

    def _move_limit(self) -> None:
        """G10: at the move limit the round in play ends as a blockade, and the game
        with it (``_end_round`` sees the limit)."""
        self._end_round(None)

    def _round_over(
        self,
        winner: int | None,
        reason: EndReason,
        points: list[int],
        scored: list[int],
        target: int | None,
    ) -> None:
        """The round summary, if someone wants the events: every hand face up with its
        points, what each seat scored, the totals against ``target`` (C10, U10, K6)."""
        out = self._out
        if out is not None:
            hands = tuple([tuple(cards_of(h)) for h in self.hands])
            numbers = tuple(self.numbers) if self._cfg.countdown else None
            record = (RoundOver, winner, self.round, reason, tuple(points), hands)
            out.append((*record, tuple(scored), tuple(self.scores), target, numbers))

    def _finish(self, last_winner: int | None, points: list[int], reason: EndReason) -> None:
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
        self._result = game_result(winner, tuple(standings), tuple(key_points), self.round, reason)
        out = self._out
        if out is not None:
            out.append((GameOver, winner, self._result))

    # -- the playout policy ---------------------------------------------------------------

    def _pinned(self) -> Card:
        return self.drawn if self.phase == DRAWN and self.drawn >= 0 else -1

    def _play_out(self, x: int, greedy: bool, threshold: int, max_moves: int) -> int:
        """``playout`` on the short form of the legal moves (``_options``): no move
        tuple, no event; the index of a uniform choice counts the moves in the order
        of ``legal_moves()``."""
        moves = self._moves
        made = 0
        native = COMPILED
        while made != max_moves and self.phase != OVER:
            plain, wild, call, tail = self._options()
            if native:  # int.bit_count is no mypyc primitive: count natively
                count = _count_moves(plain, wild, call, tail)
            elif wild or call:
                count = (1 + call) * (plain.bit_count() + 4 * wild.bit_count()) + (tail > 0)
            else:
                count = plain.bit_count() + (tail > 0)
            made += 1
            index = 0
            if count > 1:
                x = (x * 69069 + 1) & PLAYOUT_MASK  # rng.playout_step, inlined
                if greedy:
                    explore = x < threshold
                    x = (x * 69069 + 1) & PLAYOUT_MASK
                    if not explore:
                        moves.append(self._greedy_step(plain, wild, call, tail, x))
                        continue
                index = ((x >> 2) * count) >> 28  # rng.below, inlined
            if tail and index == count - 1:  # _tail_step(tail), inlined: a playout draws often
                if tail == DRAW_TAIL:
                    self._draw(self.current)
                    moves.append("draw")
                else:
                    self._pass(self.current)
                    moves.append("pass")
            elif wild or call:
                moves.append(self._indexed_step(plain, wild, call, index))
            else:  # the usual case: the index-th card of ``plain``
                while index:
                    plain &= plain - 1
                    index -= 1
                card = (plain & -plain).bit_length() - 1
                self._play_card(self.current, card, None, False)
                moves.append(_PLAY_TEXT[card * 10])
        return made

    def _indexed_step(self, plain: Mask, wild: Mask, call: bool, index: int) -> str:
        """Make the ``index``-th play of ``_options`` (cards in id order, a wild card
        listed once a suit, each play with its last-card call after it if ``call``),
        as a playout does; the move's text."""
        calls = 2 if call else 1
        mask = plain | wild
        low = mask & -mask
        size = calls * 4 if wild & low else calls
        while index >= size:
            index -= size
            mask ^= low
            low = mask & -mask
            size = calls * 4 if wild & low else calls
        card = low.bit_length() - 1
        suit = -1
        if wild & low:
            suit = index // calls
            index %= calls
        return self._play_step(card, suit, index == 1)

    def _greedy_step(self, plain: Mask, wild: Mask, call: bool, tail: int, draw: int) -> str:
        """The greedy playout's move: shed a card that is not wild from the suit the
        hand holds most of (ties by ``draw``), calling last card; else a wild card
        declaring that suit; else the tail move."""
        hand = self.hands[self.current]
        kinds = ((hand | (hand >> COPY)) & LOW) if self._cfg.two_packs else hand
        if plain:
            best = -1
            candidates = 0
            for suit in range(4):
                cards = plain & SUIT_MASK[suit]
                if cards:
                    length = popcount(kinds & SUIT_MASK[suit])
                    if length > best:
                        best = length
                        candidates = cards
                    elif length == best:
                        candidates |= cards
            pick = below(draw, popcount(candidates))
            while pick:
                candidates &= candidates - 1
                pick -= 1
            card = (candidates & -candidates).bit_length() - 1
            return self._play_step(card, -1, call)
        if wild:
            suit = 0
            most = popcount(kinds & SUIT_MASK[0])
            for s in range(1, 4):
                length = popcount(kinds & SUIT_MASK[s])
                if length > most:
                    most = length
                    suit = s
            return self._play_step((wild & -wild).bit_length() - 1, suit, call)
        return self._tail_step(tail)

    def _play_step(self, card: Card, suit: int, call: bool) -> str:
        """Play ``card`` (declaring ``suit`` unless -1) for the player to move, as a
        playout does (the dealer's starter eight too); return the move's text."""
        if self.phase == DECLARE:
            self._declare_starter(suit)
        else:
            self._play_card(self.current, card, None if suit < 0 else suit, call)
        return _PLAY_TEXT[card * 10 + (suit + 1) * 2 + call]

    def _tail_step(self, tail: int) -> str:
        """Draw or pass for the player to move, as a playout does; the move's text."""
        if tail == DRAW_TAIL:
            self._draw(self.current)
            return "draw"
        self._pass(self.current)
        return "pass"

    # -- views and positions --------------------------------------------------------------

    def _players(self) -> list[PlayerView]:
        players: list[PlayerView] = []
        countdown = self._cfg.countdown
        for s in range(self._cfg.n):
            entry: PlayerView = {
                "seat": s,
                "cards": self.hands[s].bit_count(),
                "score": self.scores[s],
            }
            if countdown:
                entry["number"] = self.numbers[s]
                entry["wild"] = RANKS[self.numbers[s] - 1]
            players.append(entry)
        return players

    def view(self, seat: int | None = None, *, log: bool = False) -> SheddingView:
        cfg = self._cfg
        n = cfg.n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None; got {seat!r}")
        over = self.phase == OVER
        out: SheddingView = {
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
            "passes": self.passes,
            "stock": len(self.stock),
            "discard": [CARD_TEXT[c] for c in self.discard],
            "players": self._players(),
            "target": cfg.target if cfg.match and not cfg.countdown else None,
            "over": over,
            "result": self._result.to_dict() if self._result else None,
            "goal": self.rules.goal,
        }
        if seat is not None:
            out["hand"] = [CARD_TEXT[c] for c in cards_of(self.hands[seat])]
            out["call_matters"] = self.call_matters(seat)
            if not over and seat == self.current:
                out["legal"] = [m.text for m in self.legal_moves()]
                out["legal_moves"] = self.legal_move_data()
                if self.phase == DRAWN:
                    out["drawn"] = CARD_TEXT[self.drawn]
            else:
                out["legal"] = []
                out["legal_moves"] = []
        if log:
            out["log"] = self._log_for(seat)
        return out

    @classmethod
    def from_view(
        cls,
        view: SheddingView,
        hidden: Hidden,
        *,
        rules: Rules | None = None,
        seed: int = 0,
        log: bool = False,
        rng: Rng | None = None,
    ) -> SheddingGame:
        """A playable game in the position ``view`` shows, with the ``hidden`` cards
        (see ``game.from_view``). A drawn card the view does not show (another seat's)
        is taken to be the lowest card of that hand that may be played."""
        rules = rules or Rules.from_dict(view["rules"])
        game = cls._blank(rules, seed, log)
        game._cfg = cls._config_for(rules)
        game._read_view(view)
        game.set_hidden(hidden, check=False)
        check_hidden(game, view)
        if rng is not None:
            game._rng = rng.clone()
        return game

    def _read_view(self, view: SheddingView) -> None:
        """Set every public fact of the position from ``view`` (no cards in hand)."""
        cfg = self._cfg
        n = cfg.n
        players = view["players"]
        if len(players) != n:
            raise ValueError("the view is of a game with another number of players")
        self.discard = [parse_card(c) for c in view["discard"]]
        self.top = self.discard[-1]
        self.suit = SUITS.index(view["active_suit"])
        self.declared = bool(view["declared"])
        self.follow = follow_mask(self.top, self.suit, self.declared)
        self.pending = int(view["pending_draw"]) // 2
        self.direction = int(view["direction"])
        self.dealer = int(view["dealer"])
        self.round = int(view["round"])
        self.scores = [int(p["score"]) for p in players]
        self.numbers = [int(p["number"]) for p in players] if cfg.countdown else []
        self._wild = self._wilds()
        self.phase = PHASE_NAMES.index(view["phase"])
        current = view["current"]
        self.current = int(current) if current is not None else 0
        self.passes = int(view["passes"])
        self.draws = 0
        self.plays = 0
        self.drawn = -1
        if self.phase == DRAWN:
            drawn = view.get("drawn")
            self.drawn = UNKNOWN_DRAWN if drawn is None else parse_card(drawn)
        self.hands = [0] * n
        self.stock = []
        result = view["result"]
        self._result = None if result is None else GameResult.from_dict(result)

    def _place_pinned(self) -> None:
        """A drawn card the seat may only play (``single``, C6) must be in its hand: if
        it is not known or not there, it is the lowest card of the hand that may be
        played."""
        if self.phase == DRAWN:
            hand = self.hands[self.current]
            if self.drawn < 0 or not (hand | (hand >> COPY)) >> self.drawn & 1:
                kinds = (hand | (hand >> COPY)) & LOW
                fits = kinds & (self.follow | self._wild[self.current]) or kinds
                self.drawn = (fits & -fits).bit_length() - 1


__all__ = ["PHASE_NAMES", "SheddingGame", "follow_mask"]
