"""The game API shared by every ruleset: ``Deal``, ``Hidden`` and ``Game``, the base
class of the state machines (``registry`` picks one for a ruleset and starts it).

A game is its rules, its seed (or explicit deal) and its moves (RULES G4); every state
is rebuilt by replaying them. ``Game`` holds what all the state machines share: move
parsing, the legal-move cache that makes ``play`` cheap for moves that came from
``legal_moves()``, the move list, the round's event log, the error for an illegal move,
copies, and the playout core.

Events are built only when someone reads them: a move notes each as a cheap record
(``events.Record``) when its caller wants the events, ``play`` returns them as an
``Events`` list that makes the frozen dataclasses on the first read, and a game made
with ``log=True``, the default, keeps the round's records, made into events when the
log is read (``log``, ``view(log=True)``). ``apply`` on a game without a log, and
``playout``, note none.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from .cards import CARD_TEXT, Card, Mask, add_card, cards_of, parse_card
from .events import Event, Events, Record, make_events
from .moves import TIMEOUT, LegalMoveData, Move, MoveSyntaxError
from .result import GameResult
from .rng import PLAYOUT_MASK, Rng, playout_seed
from .rules import Rules
from .views import CyclesView, SheddingView

COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled with mypyc (the build ``.ci/run`` checks)."""

Policy = Literal["random", "greedy"]
"""How ``playout`` chooses: uniformly among the legal moves, or greedily with a share
``epsilon`` of exploring choices (see ``Game.playout``)."""
CardLike = Card | str
G = TypeVar("G", bound="Game")

MAX_MOVES: Final = 10_000
"""G10: the most moves a game runs to (timeouts included); see ``Game._move_limit``."""


class IllegalMove(ValueError):
    """A move the rules do not allow now; ``reason`` says why. The game is unchanged."""

    def __init__(self, reason: str, move: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


@dataclass(frozen=True, kw_only=True)
class Deal:
    """An explicit starting position, so that any situation can be set up.

    Card lists are card text. ``stock`` lists the top of the stock first; ``discard``
    lists cards under the starter, bottom first. The cards need not make a whole deck:
    a test may deal only the cards it needs (conservation then counts those cards).

    Shedding rulesets: ``starter`` is the face-up card (None: turn it from the stock
    following the ruleset's starter rule), ``dealer``, ``round``, ``scores`` (match
    totals) and ``numbers`` (countdown) set the match position; ``direction`` is 1 for
    clockwise or -1. Cycles: ``cycles_left`` (the cycle limit still to run), ``leader``
    (the seat that leads the first cycle; None for a host-led first cycle), and
    ``removed`` (cards already out of play).
    """

    hands: Sequence[Sequence[str]]
    stock: Sequence[str] = ()
    starter: str | None = None
    discard: Sequence[str] = ()
    dealer: int = 0
    round: int = 1
    direction: int = 1
    scores: Sequence[int] | None = None
    numbers: Sequence[int] | None = None
    cycles_left: int | None = None
    leader: int | None = None
    removed: Sequence[str] = field(default=())


@dataclass(frozen=True, kw_only=True)
class Hidden:
    """The cards a view does not show, to complete it into a game (``from_view``).

    ``hands`` holds every seat's hand (card ids or text), the viewing seat's own hand
    included (it must be the view's); ``stock`` the stock, top first, as ``Deal`` does.
    """

    hands: Sequence[Sequence[CardLike]]
    stock: Sequence[CardLike]

    def hand_masks(self) -> list[Mask]:
        return [_mask(hand) for hand in self.hands]

    def stock_cards(self) -> list[Card]:
        """The stock as card ids with its top at the end (how the games keep it)."""
        cards = [_card(c) for c in self.stock]
        cards.reverse()
        return cards


def _card(value: CardLike) -> Card:
    return value if isinstance(value, int) else parse_card(value)


def _mask(cards: Sequence[CardLike]) -> Mask:
    mask = 0
    for value in cards:
        mask = add_card(mask, _card(value))
    return mask


class Game(ABC):
    """A game in progress: ask it for legal moves, play moves, read views and events.

    Each field is declared once, here and in the state machines' class bodies; copies
    (``clone``) and pickles carry every field without naming them again.
    """

    rules: Rules
    seed: int
    hands: list[Mask]
    """Each seat's hand as a card mask (cards.py): the referee's knowledge, not a view."""
    stock: list[Card]
    """The stock, its top at the end: the referee's knowledge, not a view."""
    _rng: Rng
    _moves: list[str]
    _legal: tuple[Move, ...] | None
    _result: GameResult | None
    _log: list[Event | Record] | None
    """The events of the current round, some still records (None: the game keeps no
    log)."""
    _out: list[Event | Record] | None
    """The events of the move being made (records, or events), when someone wants
    them."""
    _round_mark: int
    """Where in ``_out`` a round dealt during the move begins (-1: none was)."""

    def _start(self, rules: Rules, seed: int, log: bool) -> None:
        """The bookkeeping every state starts with."""
        self.rules = rules
        self.seed = seed
        self._rng = Rng(seed)
        self._moves = []
        self._legal = None
        self._result = None
        self._log = [] if log else None
        self._out = None
        self._round_mark = -1

    @classmethod
    def _blank(cls: type[G], rules: Rules, seed: int, log: bool) -> G:
        """An instance with its bookkeeping and no position yet (``from_view``)."""
        game = cls.__new__(cls)
        game._start(rules, seed, log)
        return game

    # -- the contract every state machine fulfils ---------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move; None when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def _compute_legal(self) -> tuple[Move, ...]:
        """Every legal move now (sets nothing)."""

    @abstractmethod
    def _step(self, move: Move) -> None:
        """Carry out a move already known to be legal (events into ``_out`` if set)."""

    @abstractmethod
    def _why_illegal(self, move: Move) -> str:
        """A player-readable reason why ``move`` is refused now."""

    @abstractmethod
    def _accepts_unlisted(self, move: Move) -> bool:
        """Whether a legal move that ``legal_moves`` leaves out (a harmless false
        last-card call, the table's ``timeout``) is accepted now."""

    @abstractmethod
    def _pinned(self) -> Card:
        """A hidden card the player to move must or may only play (-1: none), which
        ``redeal`` leaves in its hand."""

    @abstractmethod
    def view(self, seat: int | None = None, *, log: bool = False) -> SheddingView | CyclesView:
        """What ``seat`` may see (RULES G5), JSON-ready; ``None`` is a spectator.

        ``log=True`` adds the events of the current round as that seat saw them.
        """

    def set_hidden(self, hidden: Hidden, *, seed: int | None = None, check: bool = True) -> None:
        """Put ``hidden`` in place of every hand and the stock (a search world's sampled
        cards); ``seed`` reseeds the generator of later reshuffles. ``check`` verifies
        that every hand and the stock keep their sizes."""
        masks = hidden.hand_masks()
        stock = hidden.stock_cards()
        if check:
            if len(masks) != len(self.hands):
                raise ValueError(f"hidden has {len(masks)} hands for {len(self.hands)} players")
            for seat, mask in enumerate(masks):
                if mask.bit_count() != self.hands[seat].bit_count():
                    raise ValueError(
                        f"seat {seat} holds {self.hands[seat].bit_count()} cards, "
                        f"not {mask.bit_count()}"
                    )
            if len(stock) != len(self.stock):
                raise ValueError(f"the stock has {len(self.stock)} cards, not {len(stock)}")
        self.hands = masks
        self.stock = stock
        self._place_pinned()
        if seed is not None:
            self.seed = seed
            self._rng = Rng(seed)
        self._legal = None

    @abstractmethod
    def _place_pinned(self) -> None:
        """After new hidden cards: the card the player to move must or may only play
        (``_pinned``) becomes one their new hand could hold."""

    @abstractmethod
    def hand_points(self, seat: int) -> int:
        """What ``seat``'s hand counts under the rules (``Rules.card_points``)."""

    @abstractmethod
    def is_wild(self, card: Card, seat: int | None = None) -> bool:
        """Whether ``card`` is wild for ``seat`` (default: the player to move)."""

    @abstractmethod
    def follows(self, card: Card, seat: int | None = None) -> bool:
        """Whether ``card`` may be played now by ``seat`` (default: the player to move)
        if they hold it: it follows the table, or is their wild card."""

    # -- moves ----------------------------------------------------------------------------

    @property
    def result(self) -> GameResult | None:
        """The result once the game is over, else None."""
        return self._result

    @property
    def moves(self) -> list[str]:
        """The moves played so far, as text."""
        return list(self._moves)

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat`` as text (the referee's knowledge, not a view)."""
        return [CARD_TEXT[c] for c in cards_of(self.hands[seat])]

    def hand_count(self, seat: int) -> int:
        return int(self.hands[seat].bit_count())

    def call_matters(self, seat: int | None = None) -> bool:
        """Whether a last-card call by ``seat`` (default: the player to move) counts with
        its next play as the hands stand (G7): the table plays last card by hand
        (``last_card=manual``), the game runs and the seat holds two cards, so a play
        leaves it one. Any other call is ignored, or is a false call (Y13). Clients ask
        this rather than count a hand themselves."""
        seat = self._seat_or_current(seat)
        return not self.is_over and self.rules.last_card == "manual" and self.hand_count(seat) == 2

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def legal_tuple(self) -> tuple[Move, ...]:
        """``legal_moves()`` as the game's own tuple, copied into no list: for a caller
        that only reads the moves (an environment asks every step). Positions with the
        same moves share one tuple, so it can key a cache."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def legal_move_data(self) -> list[LegalMoveData]:
        """``legal_moves()`` as structured data, for clients that implement no rule:
        each move's ``Move.to_dict()`` and whether its card is wild for the player."""
        out: list[LegalMoveData] = []
        for move in self.legal_moves():
            data = move.to_dict()
            card = move.card
            out.append(
                {
                    "kind": data["kind"],
                    "card": data["card"],
                    "suit": data["suit"],
                    "call": data["call"],
                    "text": data["text"],
                    "wild": card is not None and self.is_wild(card),
                }
            )
        return out

    def play(self, move: str | Move) -> list[Event]:
        """Play a move (text or ``Move``) and return the events it caused (an
        ``Events`` list: each event is made when the list is first read).

        Raises ``IllegalMove`` with the reason, leaving the game unchanged.
        """
        notes: list[Event | Record] = []
        self._noted(self._accepted(move), notes)
        return _EVENTS(notes)  # type: ignore[arg-type]  # records, made when read

    def apply(self, move: str | Move) -> None:
        """Play a move without building its events (a game that keeps a log still
        notes them). Raises ``IllegalMove`` like ``play``."""
        checked = self._accepted(move)
        if self._log is not None:
            self._noted(checked, [])
        else:
            self._carry_out(checked)

    def _accepted(self, move: str | Move) -> Move:
        """``move`` known to be legal now: at once if it is one of ``legal_moves()``,
        else parsed and checked (``IllegalMove``)."""
        legal = self._legal
        if type(move) is Move and legal is not None and move in legal:
            return move
        return self._checked(move)

    def _carry_out(self, move: Move) -> None:
        """Make the legal ``move``: recorded, carried out, and the game ended if it
        reached the move limit (G10)."""
        moves = self._moves
        moves.append(move.text)
        self._legal = None
        self._step(move)
        if len(moves) >= MAX_MOVES and self._result is None:
            self._move_limit()

    def _noted(self, move: Move, out: list[Event | Record]) -> None:
        """Carry out a legal ``move`` with its events noted in ``out`` (records,
        mostly), and in the log if the game keeps one (the round's alone if the move
        dealt a new round)."""
        self._out = out
        self._round_mark = -1
        self._carry_out(move)
        self._out = None
        log = self._log
        if log is not None:  # the records themselves: reading ``Events`` makes its own
            mark = self._round_mark
            if mark >= 0:
                self._log = out[mark:]
            else:
                log.extend(out)

    def _move_limit(self) -> None:  # noqa: B027 - a hook: most rulesets need nothing
        """G10: the game reached ``MAX_MOVES`` moves; a ruleset whose play can go on
        forever ends it here (the others have limits of their own and never get here)."""

    def verify_move(self, move: str | Move) -> None:
        """Raise ``IllegalMove`` with the reason if ``move`` is not legal now."""
        self._checked(move)

    def can_play(self, move: str | Move) -> bool:
        try:
            self._checked(move)
        except IllegalMove:
            return False
        return True

    def play_all(self, moves: Iterable[str | Move]) -> list[Event]:
        events: list[Event] = []
        for move in moves:
            events.extend(self.play(move))
        return events

    def _checked(self, move: str | Move) -> Move:
        """The move, parsed and known to be legal now (else ``IllegalMove``)."""
        if move.__class__ is not Move:
            move = _parse_for_play(move)
        assert isinstance(move, Move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if move not in legal and not self._accepts_unlisted(move):
            raise IllegalMove(self._why_illegal(move), str(move))
        return move

    # -- the log --------------------------------------------------------------------------

    @property
    def generator(self) -> Rng:
        """A copy of the table's generator as it stands (the referee's knowledge: it
        decides every later shuffle and tie-break, T3)."""
        return self._rng.clone()

    @property
    def keeps_log(self) -> bool:
        """Whether the game keeps the round's events (``new_game(..., log=True)``)."""
        return self._log is not None

    @property
    def log(self) -> tuple[Event, ...]:
        """The events of the current round (the referee's record: ``Event.for_seat``
        shows each as a seat may see it)."""
        if self._log is None:
            raise ValueError("this game keeps no event log: make it with log=True")
        return tuple(make_events(self._log))

    def _log_for(self, seat: int | None) -> list[Any]:
        if self._log is None:
            raise ValueError("this game keeps no event log: make it with log=True")
        return [e.for_seat(seat) for e in make_events(self._log)]

    # -- copies, search and interop ---------------------------------------------------------

    def clone(self: G, *, log: bool = True) -> G:
        """An independent copy (lists and the generator copied, the rest shared);
        ``log=False`` leaves the event log behind (a copy to play out, see ``playout``).

        Every state machine can be made blank (``cls()``, no deal), which copies and
        unpickling fill in; a class compiled with mypyc calls ``__init__`` for that."""
        other = type(self).__new__(type(self))
        _copy_fields(self, other)
        if not log:
            other._log = None
        return other

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        """A deep copy is a clone (cheaper than copying field by field)."""
        return self.clone()

    def redeal(self, rng: random.Random, seat: int | None = None, *, hands: bool = True) -> None:
        """Deal anew every card ``seat`` cannot see (``None``: a spectator): the other
        hands, with their counts kept, and the stock; a card the player to move must or
        may only play stays in their hand. ``hands=False`` keeps every hand and
        shuffles the stock alone. Later reshuffles get a generator seeded from ``rng``.
        """
        stock = self.stock
        if hands:
            pinned = self._pinned()
            current = self.current_player
            pool = list(stock)
            counts: list[int] = []
            for s, mask in enumerate(self.hands):
                cards = [] if s == seat else cards_of(mask)
                if s == current and s != seat and pinned >= 0:
                    cards.remove(pinned)
                counts.append(len(cards))
                pool.extend(cards)
            rng.shuffle(pool)
            for s, count in enumerate(counts):
                if s == seat:
                    continue
                mask = add_card(0, pinned) if s == current and pinned >= 0 else 0
                for card in pool[:count]:
                    mask = add_card(mask, card)
                del pool[:count]
                self.hands[s] = mask
            self.stock = pool
        else:
            rng.shuffle(stock)
        self._rng = Rng(rng.getrandbits(62))
        self._legal = None

    def playout(
        self,
        *,
        seed: int,
        policy: Policy = "random",
        epsilon: float = 0.0,
        max_moves: int = -1,
    ) -> int:
        """Play on to the end (or ``max_moves`` moves) without building an event;
        return the number of moves made (they join ``moves``).

        ``policy="random"`` chooses uniformly among the legal moves, exactly as
        ``legal_moves()[below(len)]`` would; ``"greedy"`` plays each state machine's
        greedy move except for a share ``epsilon`` of exploring ones (uniform; in
        cycles among the moves that call last card right). Shedding's greedy move:
        call last card; shed a card that is not wild from the suit the hand holds most
        of; else a wild card declaring that suit; else draw or pass. Cycles': call last
        card right; with two cards left a joker first (Y14); else the lowest card.
        The choices come from ``rng.playout_step`` started at ``playout_seed(seed)``,
        one step per choice among two or more moves (two with ``"greedy"``: the first
        decides on ``epsilon``), the index being ``rng.below(state, count)``; the same
        seed on the same position plays the same moves (common random numbers).
        Only a game without an event log plays out (``new_game(..., log=False)``,
        ``from_view``), since a log would miss these moves.
        """
        if self._log is not None:
            raise ValueError("playout builds no events: use a game made with log=False")
        greedy = policy == "greedy"
        if not greedy and policy != "random":
            raise ValueError(f"policy must be 'random' or 'greedy'; got {policy!r}")
        self._out = None
        self._legal = None
        threshold = int(epsilon * (PLAYOUT_MASK + 1))
        return self._play_out(playout_seed(seed), greedy, threshold, max_moves)

    @abstractmethod
    def _play_out(self, x: int, greedy: bool, threshold: int, max_moves: int) -> int:
        """``playout``'s loop: ``x`` the generator's state, ``threshold`` the share of
        exploring choices of 2**30."""

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.rules.ruleset} players={self.rules.players} "
            f"seed={self.seed} moves={len(self._moves)} current={self.current_player}>"
        )

    def _seat_or_current(self, seat: int | None) -> int:
        if seat is None:
            current = self.current_player
            if current is None:
                raise ValueError("the game is over: name a seat")
            return current
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0..{self.rules.players - 1}; got {seat!r}")
        return seat


def _copy_fields(source: Game, target: Game) -> None:
    """Copy every field of ``source`` into ``target``: mutable ones (lists, the
    generator) copied, the rest shared. A Python class keeps its fields in its
    ``__dict__``; a class compiled with mypyc names them in ``__mypyc_attrs__``."""
    if not COMPILED:
        state = source.__dict__.copy()
        for name, value in state.items():
            if value.__class__ is list:
                state[name] = value.copy()
            elif value.__class__ is Rng:
                state[name] = value.clone()
        target.__dict__ = state
        return
    for name in _compiled_fields(type(source)):
        value = getattr(source, name, _MISSING)
        if value.__class__ is list:
            value = value.copy()
        elif value.__class__ is Rng:
            value = value.clone()
        if value is not _MISSING:
            setattr(target, name, value)


_EVENTS: Final = Events
"""``Events``, held where the compiled build reads it without a dict lookup (``play``)."""
_MISSING: Final = object()
_FIELD_NAMES: Final[dict[type, tuple[str, ...]]] = {}


def _compiled_fields(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(getattr(cls, "__mypyc_attrs__", ()))
    return names


def check_hidden(game: Game, view: SheddingView | CyclesView) -> None:
    """Raise ``ValueError`` unless ``game``'s hands and stock agree with the card counts
    of ``view`` and with the viewing seat's hand."""
    players = view["players"]
    if len(game.hands) != len(players):
        raise ValueError(f"the hidden cards have {len(game.hands)} hands for {len(players)} seats")
    for seat, player in enumerate(players):
        held = game.hands[seat].bit_count()
        if held != player["cards"]:
            raise ValueError(f"seat {seat} holds {player['cards']} cards in the view, not {held}")
    if len(game.stock) != view["stock"]:
        raise ValueError(f"the view has {view['stock']} stock cards, not {len(game.stock)}")
    own = view["seat"]
    if own is not None and "hand" in view and _mask(view["hand"]) != game.hands[own]:
        raise ValueError(f"the hand given for seat {own} is not the view's hand")


def _parse_for_play(move: str | Move) -> Move:
    if isinstance(move, Move):
        return move
    try:
        return Move.parse(move)
    except MoveSyntaxError as exc:
        raise IllegalMove(str(exc), str(move)) from None


def is_timeout(move: Move) -> bool:
    return move is TIMEOUT


__all__ = [
    "COMPILED",
    "Deal",
    "Game",
    "GameResult",
    "Hidden",
    "IllegalMove",
    "Policy",
    "check_hidden",
]
