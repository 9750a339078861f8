"""Events: what a move caused, one frozen dataclass per kind.

Consumers match on the classes (``match event: case Played(seat=s, card=c): ...``).
An event goes over the wire as a JSON-ready dict built for one seat at a time
(``for_seat``, RULES G5): the cards of a *secret* event (a hand dealt, a card drawn, a
penalty) are shown only to the event's own seat; every other seat and spectators see
how many there were. ``event_from_dict`` reads such a dict back into its class, with
``UNKNOWN`` for each card the seat was not shown.

Field names carry their JSON form, the same for every class: ``card`` is written as
``"cards": [text]`` and ``"count": 1``; ``cards`` as ``"cards"`` and ``"count"``; a
suit (``declared``, ``suit``) as its letter; a seat that may be the cycles host
(``next_leader``, ``winner``) as ``"host"`` for ``HOST``; ``pending`` as
``"pending_draw"``; ``result`` as the keys of ``GameResult.to_dict()``. A ``seat``,
``declared``, ``reason``, ``hands`` or ``numbers`` that is ``None``, a ``lead`` that
is false and a ``pending`` of 0 are left out. Everything else is written as it is
(tuples as lists). ``docs/protocol.md`` lists every kind with its JSON.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar, Literal, Required, TypedDict

from .cards import CARD_TEXT, SUITS, UNKNOWN, Card, Suit, parse_card
from .result import EndReason, GameResult, ResultDict

HOST = -1
"""The seat number of the cycles host (the table; it holds no cards)."""

PenaltyReason = Literal["draw_two", "last_card"]
"""Why a player draws penalty cards: a ``draw_two`` (C8, U7, OpenSpiel) or not calling
``last_card`` (C9, U8, K8, Y12)."""
PickupReason = Literal["stock_empty", "last_card"]
"""Why a cycles player picks up the cycle's cards: nothing fits and nothing is left to
draw (Y10), or not calling last card (Y12)."""
DrawReason = Literal["no_fitting_card", "joker_lead"]
"""Why the table draws for a cycles player: no card follows (Y9), or a leader whose
only card is a joker (Y14)."""


class EventDict(TypedDict, total=False):
    """An event as one seat sees it (``Event.for_seat``); which keys each kind has is
    in ``docs/protocol.md``."""

    type: Required[str]
    seat: int
    cards: list[str]
    count: int
    round: int
    dealer: int
    players: int
    cycles_left: int
    cycle: int
    suit: str
    declared: str
    lead: bool
    pending_draw: int
    auto: bool
    reason: str
    direction: int
    points: list[int]
    hands: list[list[str]]
    scored: list[int]
    scores: list[int]
    target: int | None
    numbers: list[int]
    winner: int | str | None
    standings: list[int]
    rounds: int
    stock: int
    tie_break: bool
    completed: bool
    next_leader: int | str
    to: int


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing that happened; ``seat`` says who (``None``: the table)."""

    type: ClassVar[str] = ""
    secret: ClassVar[bool] = False
    """Whether the cards are shown only to the event's own seat."""

    seat: int | None = None

    @property
    def shown(self) -> tuple[Card, ...]:
        """The cards the event shows (to its own seat, if secret)."""
        card: Card | None = getattr(self, "card", None)
        if card is not None:
            return (card,)
        cards: tuple[Card, ...] = getattr(self, "cards", ())
        return cards

    def visible_cards(self, seat: int | None) -> tuple[Card, ...] | None:
        """The cards ``seat`` may see, or ``None`` when they are hidden from it."""
        if self.secret and (seat is None or seat != self.seat):
            return None
        cards = self.shown
        return None if UNKNOWN in cards else cards

    def for_seat(self, seat: int | None) -> EventDict:
        """The event as ``seat`` may see it (``None``: a spectator), JSON-ready."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        has_cards = any(f.name in ("card", "cards") for f in _fields(type(self)))
        if has_cards:
            visible = self.visible_cards(seat)
            if visible is not None and visible:
                out["cards"] = [CARD_TEXT[c] for c in visible]
            out["count"] = len(self.shown)
        for f in _fields(type(self)):
            if f.name not in _SPECIAL:
                _write(out, f.name, getattr(self, f.name))
        return out  # type: ignore[return-value]

    def public(self) -> EventDict:
        """The event as a spectator sees it."""
        return self.for_seat(None)


_SPECIAL = ("seat", "card", "cards")
_OMIT: dict[str, object] = {
    "declared": None,
    "reason": None,
    "hands": None,
    "numbers": None,
    "lead": False,
    "pending": 0,
}
_KEYS = {"pending": "pending_draw"}
_SUITS = ("declared", "suit")
_HOSTS = ("next_leader", "winner")


_FIELDS: dict[type[Event], tuple[Field[Any], ...]] = {}


def _fields(cls: type[Event]) -> tuple[Field[Any], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = fields(cls)
    return found


def _write(out: dict[str, Any], name: str, value: Any) -> None:
    if name in _OMIT and value == _OMIT[name] and type(value) is type(_OMIT[name]):
        return
    key = _KEYS.get(name, name)
    if name in _SUITS:
        out[key] = SUITS[value]
    elif name in _HOSTS:
        out[key] = "host" if value == HOST else value
    elif name == "hands":
        out[key] = [[CARD_TEXT[c] for c in hand] for hand in value]
    elif name == "result":
        out.update(value.to_dict())
    elif isinstance(value, tuple):
        out[key] = list(value)
    else:
        out[key] = value


def _read(data: EventDict, f: Field[Any]) -> Any:
    raw: dict[str, Any] = data  # type: ignore[assignment]
    name = f.name
    key = _KEYS.get(name, name)
    if name == "card":
        shown = raw.get("cards")
        return parse_card(shown[0]) if shown else UNKNOWN
    if name == "cards":
        if "cards" in raw:
            return tuple(parse_card(t) for t in raw["cards"])
        return (UNKNOWN,) * int(raw.get("count", 0))
    if name == "result":
        result: ResultDict = data  # type: ignore[assignment]
        return GameResult.from_dict(result)
    if key not in raw:
        return f.default
    value = raw[key]
    if name in _SUITS:
        return None if value is None else SUITS.index(value)
    if name in _HOSTS:
        return HOST if value == "host" else value
    if name == "hands":
        return tuple(tuple(parse_card(t) for t in hand) for hand in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def event_from_dict(data: EventDict) -> Event:
    """Read an event dict (as ``for_seat`` gives it) back into its class; cards the
    seat was not shown come back as ``UNKNOWN``."""
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        raise ValueError(f"no event has type {data.get('type')!r}")
    return cls(**{f.name: _read(data, f) for f in _fields(cls)})


# -- rounds and deals -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    """A shedding round begins (C3, K2): its number and dealer."""

    type = "round"
    round: int
    dealer: int


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """A game of cycles begins (Y1)."""

    type = "game"
    players: int
    cycles_left: int


@dataclass(frozen=True, kw_only=True)
class Dealt(Event):
    """``seat`` is dealt ``cards`` (secret)."""

    type = "deal"
    secret = True
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class StarterTurned(Event):
    """The starter is turned face up (C2, U2, U3, K2); ``pending``: the cards a
    starter 2 makes the first player draw (U3), else 0."""

    type = "starter"
    card: Card
    pending: int = 0


@dataclass(frozen=True, kw_only=True)
class StarterReturned(Event):
    """OpenSpiel: an upturned eight goes back into the stock."""

    type = "starter_returned"
    card: Card


@dataclass(frozen=True, kw_only=True)
class SuitDeclared(Event):
    """The dealer declares the suit of a starter eight (U2)."""

    type = "declared"
    seat: int
    card: Card
    suit: Suit


# -- turns ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Played(Event):
    """``seat`` plays ``card``, declaring ``declared`` with a wild card or a led joker;
    ``lead``: it leads a cycle; ``pending``: the cards the next player must now draw or
    answer with a 2 (U7, OpenSpiel), else 0."""

    type = "played"
    seat: int
    card: Card
    declared: Suit | None = None
    lead: bool = False
    pending: int = 0


@dataclass(frozen=True, kw_only=True)
class LastCardCalled(Event):
    """``seat`` calls last card (G7); ``auto``: the table called it for them."""

    type = "last_card"
    seat: int
    auto: bool


@dataclass(frozen=True, kw_only=True)
class PenaltyDrawn(Event):
    """``seat`` draws penalty ``cards`` (secret): for a ``draw_two`` or for not calling
    ``last_card``."""

    type = "penalty"
    secret = True
    seat: int
    cards: tuple[Card, ...]
    reason: PenaltyReason


@dataclass(frozen=True, kw_only=True)
class Skipped(Event):
    """``seat`` loses its turn (a Q, a classic 2, a cycles timeout)."""

    type = "skipped"
    seat: int


@dataclass(frozen=True, kw_only=True)
class DirectionChanged(Event):
    """An ace reversed play: ``direction`` is 1 (clockwise) or -1."""

    type = "direction"
    direction: int


@dataclass(frozen=True, kw_only=True)
class Reshuffled(Event):
    """The discards under the top card became a new stock of ``count`` cards (U9)."""

    type = "reshuffled"
    count: int


@dataclass(frozen=True, kw_only=True)
class Drew(Event):
    """``seat`` draws ``cards`` (secret); a cycles draw by the table has a ``reason``."""

    type = "drew"
    secret = True
    seat: int
    cards: tuple[Card, ...]
    reason: DrawReason | None = None


@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    type = "passed"
    seat: int


@dataclass(frozen=True, kw_only=True)
class TimedOut(Event):
    """The table timed ``seat`` out (G3, Y15); the move made for it follows."""

    type = "timeout"
    seat: int


# -- the ends of rounds and games -------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundOver(Event):
    """A shedding round ends; ``seat`` is its winner (``None``: a countdown blockade).

    Everything a round summary shows: ``reason`` how it ended, ``hands`` every hand
    face up, ``points`` the points left in each, ``scored`` what each seat scored in
    this round, ``scores`` the running totals against ``target`` (``None`` without a
    target), and in countdown each seat's ``numbers`` for the next round.
    """

    type = "round_over"
    round: int
    reason: EndReason
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    scored: tuple[int, ...]
    scores: tuple[int, ...]
    target: int | None
    numbers: tuple[int, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class GameOver(Event):
    """The game ends; ``seat`` is the winner. Cycles shows every hand (Y17)."""

    type = "game_over"
    result: GameResult
    hands: tuple[tuple[Card, ...], ...] | None = None


# -- cycles -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HostLed(Event):
    """The host turns ``card`` as the lead of cycle ``cycle`` (Y8)."""

    type = "host_lead"
    card: Card
    cycle: int


@dataclass(frozen=True, kw_only=True)
class JokerToBottom(Event):
    """A joker the host turned goes to the bottom of the stock (Y8)."""

    type = "joker_to_bottom"
    card: Card


@dataclass(frozen=True, kw_only=True)
class HostCannotLead(Event):
    """The stock holds no card the host can lead (Y8)."""

    type = "host_cannot_lead"
    stock: int


@dataclass(frozen=True, kw_only=True)
class FirstPlayer(Event):
    """The first player of Y4; ``tie_break``: chosen by the table's generator."""

    type = "first_player"
    seat: int
    tie_break: bool


@dataclass(frozen=True, kw_only=True)
class LeadStarted(Event):
    """``seat`` is to lead cycle ``cycle``."""

    type = "lead"
    seat: int
    cycle: int


@dataclass(frozen=True, kw_only=True)
class PickedUp(Event):
    """``seat`` picks up the cycle's ``cards`` (public, Y10 or Y12)."""

    type = "picked_up"
    seat: int
    cards: tuple[Card, ...]
    reason: PickupReason


@dataclass(frozen=True, kw_only=True)
class FalseCall(Event):
    """A false last-card call reveals ``count`` cards of ``suit`` in ``seat``'s hand
    (Y13)."""

    type = "false_call"
    seat: int
    suit: Suit
    count: int


@dataclass(frozen=True, kw_only=True)
class CycleWon(Event):
    """A cycle completes (Y5): ``winner`` (a seat or ``HOST``; also ``seat`` unless
    the host) played its highest card; ``cards`` leave play."""

    type = "cycle_won"
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, kw_only=True)
class CycleOver(Event):
    """Cycle ``cycle`` ends, ``completed`` or not (Y10, Y12); ``next_leader`` (a seat
    or ``HOST``) leads next; ``cycles_left`` remain (Y16)."""

    type = "cycle_over"
    cycle: int
    completed: bool
    next_leader: int
    cycles_left: int


@dataclass(frozen=True, kw_only=True)
class LeadPassed(Event):
    """``seat`` cannot lead (Y14, Y15): the lead passes to ``to``."""

    type = "lead_passed"
    seat: int
    to: int


# -- events made when read ----------------------------------------------------------------

Record = tuple[Any, ...]
"""An event not made yet, as the state machines note it while a move is played: its
class, then the values of its first fields in the order of ``fields(cls)`` (``seat``
first); the fields left out keep their defaults. A tuple costs a small part of what a
frozen dataclass does to build, and most callers of a move never read its events."""

_NAMES: dict[type[Event], tuple[str, ...]] = {}


def make_event(item: Event | Record) -> Event:
    """The event a record stands for (an event is returned as it is)."""
    if item.__class__ is not tuple:
        return item  # type: ignore[return-value]
    cls: type[Event] = item[0]
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in _fields(cls))
    if len(item) > len(names) + 1:
        raise ValueError(f"a record of {cls.__name__} has more values than fields: {item}")
    return cls(**dict(zip(names, item[1:], strict=False)))


def make_events(items: list[Any]) -> list[Event]:
    """Make every record of ``items`` into its event, in place; ``items`` itself."""
    for index, item in enumerate(items):
        if item.__class__ is tuple:
            items[index] = make_event(item)
    return items


class Events(list[Event]):
    """The events of one move, as ``Game.play`` returns them: a list of frozen dataclass
    events, each made from its record (``Record``) the first time the list is read.

    Until then the list holds the records (so its length is right from the start):
    every way of reading it from Python (iterating, indexing, comparing, ``in``, ``+``,
    copying, pickling, the list methods that read or reorder) makes the events first;
    ``append``, ``insert`` and ``extend`` only add (the state machines note records with
    them; an event added stays as it is). A caller that never reads the events pays for
    the records only."""

    _made = False

    def _make(self) -> None:
        if not self._made:
            self._made = True
            list.__setitem__(self, slice(None), [make_event(i) for i in list.__iter__(self)])


def _making(name: str) -> Any:
    """``list``'s method ``name`` for ``Events``: the events made first (those of an
    ``Events`` argument too)."""
    method = getattr(list, name)

    def wrapper(self: Events, *args: Any) -> Any:
        self._make()
        for arg in args:
            if isinstance(arg, Events):
                arg._make()
        return method(self, *args)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = method.__doc__
    return wrapper


def _radd(self: Events, other: Any) -> Any:
    """``other + events``: a list of ``other``'s items and the events."""
    if not isinstance(other, list):
        return NotImplemented
    self._make()
    return list(other) + list.copy(self)


for _name in (
    "__iter__",
    "__reversed__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__contains__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__repr__",
    "__add__",
    "__iadd__",
    "__mul__",
    "__rmul__",
    "__imul__",
    "__reduce_ex__",
    "__sizeof__",
    "pop",
    "remove",
    "index",
    "count",
    "copy",
    "sort",
    "reverse",
    "clear",
):
    setattr(Events, _name, _making(_name))
Events.__radd__ = _radd  # type: ignore[attr-defined]
Events.__hash__ = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        RoundStarted,
        GameStarted,
        Dealt,
        StarterTurned,
        StarterReturned,
        SuitDeclared,
        Played,
        LastCardCalled,
        PenaltyDrawn,
        Skipped,
        DirectionChanged,
        Reshuffled,
        Drew,
        Passed,
        TimedOut,
        RoundOver,
        GameOver,
        HostLed,
        JokerToBottom,
        HostCannotLead,
        FirstPlayer,
        LeadStarted,
        PickedUp,
        FalseCall,
        CycleWon,
        CycleOver,
        LeadPassed,
    )
}
"""Every event class by its ``type``."""


__all__ = [
    "EVENT_TYPES",
    "HOST",
    "CycleOver",
    "CycleWon",
    "Dealt",
    "DirectionChanged",
    "DrawReason",
    "Drew",
    "Event",
    "EventDict",
    "Events",
    "FalseCall",
    "FirstPlayer",
    "GameOver",
    "GameStarted",
    "HostCannotLead",
    "HostLed",
    "JokerToBottom",
    "LastCardCalled",
    "LeadPassed",
    "LeadStarted",
    "Passed",
    "PenaltyDrawn",
    "PenaltyReason",
    "PickedUp",
    "PickupReason",
    "Played",
    "Record",
    "Reshuffled",
    "RoundOver",
    "RoundStarted",
    "Skipped",
    "StarterReturned",
    "StarterTurned",
    "SuitDeclared",
    "TimedOut",
    "event_from_dict",
    "make_event",
    "make_events",
]
