"""What a seat knows about the hidden cards, read from its view and the round's log.

Only public facts and the seat's own cards are used (RULES G5): the cards it holds, the
discard pile, each seat's card count, and what the log shows each opponent doing. When
an opponent draws in a normal turn it shows (unless it drew by choice) that it held no
card it could play: no card of the active suit, none of the top card's rank, no wild
card. That is kept as a *constraint*: at most ``allowance`` of the cards in ``mask`` are
in that hand, where ``allowance`` counts the cards drawn since (any of them may be one).

``Knowledge.sample`` deals the unseen cards into hands and stock consistently with the
counts and, as far as possible, with the constraints (seed 001, technique 2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crazy_eights.engine.cards import (
    ALL_CARDS,
    COPY,
    LOW,
    SUIT_MASK,
    SUITS,
    UNKNOWN,
    Card,
    Mask,
    cycles_power,
    parse_card,
    standard_deck,
)
from crazy_eights.engine.events import (
    Drew,
    FalseCall,
    PenaltyDrawn,
    PickedUp,
    Played,
)
from crazy_eights.engine.history import TableFacts, read_log
from crazy_eights.engine.rules import Rules


def hand_mask(cards: Sequence[Card]) -> Mask:
    mask = 0
    for card in cards:
        bit = 1 << card
        mask |= (bit << COPY) if mask & bit else bit
    return mask


def kinds_of(mask: Mask) -> Mask:
    return (mask | (mask >> COPY)) & LOW


@dataclass
class Constraint:
    """At most ``allowance`` cards of ``mask`` are in the hand."""

    mask: Mask
    allowance: int


@dataclass
class Knowledge:
    """A seat's knowledge of a shedding position (classic, ultimate, countdown)."""

    rules: Rules
    seat: int
    players: int
    hand: list[Card]
    counts: list[int]
    unseen: list[Card]
    stock_count: int
    top: Card
    suit: int
    declared: bool
    pending: int
    direction: int
    current: int
    wild: list[Mask]
    points_matter: bool
    constraints: list[list[Constraint]] = field(default_factory=list)
    played: list[list[Card]] = field(default_factory=list)
    """Cards each seat played this round (public)."""
    recent: list[list[tuple[Card, int, Mask]]] = field(default_factory=list)
    """Each opponent's plays since it last took a card, oldest first, where it had a
    choice to make: (card, declared suit or -1, the cards that fitted before it: the
    active suit and, unless a suit was declared, the top card's rank); see
    ``inference.py``. Plays of a card just drawn and answers to a pending two are left
    out."""

    # -- derived facts ------------------------------------------------------------------

    @property
    def hand_kinds(self) -> Mask:
        return kinds_of(hand_mask(self.hand))

    def lacks(self, seat: int) -> Mask:
        """Cards ``seat`` is known not to hold (constraints with nothing drawn since)."""
        out = 0
        for c in self.constraints[seat]:
            if c.allowance == 0:
                out |= c.mask
        return out

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.players

    def unseen_mask(self) -> Mask:
        return kinds_of(hand_mask(self.unseen))

    # -- sampling -------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Hands for every seat (own hand as it is) and a stock (top first).

        Cards are dealt in a random order, each opponent taking only cards its
        constraints allow; an opponent left short (the constraints came from a
        voluntary draw) takes whatever is left. Tightly constrained seats go first.
        """
        pool = _shuffled(self.unseen, rng)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        single_pack = self.rules.pack_count() == 1
        for s, want, forbid, soft in self._plan():
            if not forbid and not soft:
                hands[s] = pool[:want]
                del pool[:want]
            elif not soft and single_pack:
                got = [c for c in pool if not (forbid >> c) & 1][:want]
                if len(got) < want:
                    got += [c for c in pool if (forbid >> c) & 1][: want - len(got)]
                taken = 0
                for c in got:
                    taken |= 1 << c
                hands[s] = got
                pool = [c for c in pool if not (taken >> c) & 1]
            else:
                cons = soft + ([Constraint(forbid, 0)] if forbid else [])
                hands[s], pool = _take_constrained(pool, want, cons)
        return hands, pool

    def _plan(self) -> list[tuple[int, int, Mask, list[Constraint]]]:
        """Per opponent, most constrained first: (seat, count, forbidden, soft limits)."""
        plan = self.__dict__.get("_plan_cache")
        if plan is None:
            plan = []
            for s in range(self.players):
                if s == self.seat:
                    continue
                want = self.counts[s]
                forbid = 0
                soft: list[Constraint] = []
                for c in self.constraints[s]:
                    if c.allowance == 0:
                        forbid |= c.mask
                    elif c.allowance < want:
                        soft.append(c)
                plan.append((s, want, forbid, soft))
            plan.sort(key=lambda p: -(p[2].bit_count() + sum(c.mask.bit_count() for c in p[3])))
            self.__dict__["_plan_cache"] = plan
        return plan


def _take_constrained(
    pool: list[Card], want: int, cons: list[Constraint]
) -> tuple[list[Card], list[Card]]:
    """Take ``want`` cards from ``pool`` in order, skipping cards over a limit."""
    masks = [c.mask for c in cons]
    allow = [c.allowance for c in cons]
    union = 0
    for m in masks:
        union |= m
    ks = range(len(masks))
    got: list[Card] = []
    rest: list[Card] = []
    for i, card in enumerate(pool):
        if len(got) >= want:
            rest.extend(pool[i:])
            break
        bit = 1 << card
        if not union & bit:
            got.append(card)
            continue
        for k in ks:
            if masks[k] & bit and not allow[k]:
                rest.append(card)
                break
        else:
            for k in ks:
                if masks[k] & bit:
                    allow[k] -= 1
            got.append(card)
    short = want - len(got)
    if short > 0:
        got.extend(rest[:short])
        del rest[:short]
    return got, rest


def _shuffled(items: list[Card], rng: random.Random) -> list[Card]:
    """The cards in a random order: sorted by a random 16-bit key per card id.

    Both copies of a card (two packs) get the same key and end up side by side, which
    changes nothing since copies are interchangeable; a tie between two different
    cards (about 1 in 2,000 per pair) keeps their order.
    """
    keys = list(memoryview(rng.randbytes(128)).cast("H"))
    return sorted(items, key=keys.__getitem__)


def _card(text: str) -> Card:
    return parse_card(text)


def knowledge_from_view(view: Mapping[str, Any], *, kept_wilds: bool = False) -> Knowledge:
    """Read a shedding view (with its log) into what the seat knows.

    ``kept_wilds``: also assume that an opponent who played a wild card held no other
    card it could play then (seed 001's technique 1: wild cards are kept for when
    nothing else fits), a constraint like a draw's."""
    rules = Rules.from_dict(view["rules"])
    n = rules.players
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view holds no hand to reason from")
    hand = [_card(t) for t in view.get("hand", ())]
    discard = [_card(t) for t in view["discard"]]
    remaining: dict[Card, int] = {}
    for card in standard_deck(rules.pack_count()):
        remaining[card] = remaining.get(card, 0) + 1
    for card in hand + discard:
        remaining[card] -= 1
    unseen = [card for card, k in remaining.items() for _ in range(max(k, 0))]
    players = view["players"]
    counts = [int(p["cards"]) for p in players]
    wild = [rules.wild_mask(p.get("number")) for p in players]
    current = view["current"]
    know = Knowledge(
        rules=rules,
        seat=seat,
        players=n,
        hand=hand,
        counts=counts,
        unseen=unseen,
        stock_count=int(view["stock"]),
        top=discard[-1],
        suit=SUITS.index(view["active_suit"]),
        declared=bool(view["declared"]),
        pending=int(view["pending_draw"]) // 2,
        direction=int(view["direction"]),
        current=int(current) if current is not None else seat,
        wild=wild,
        points_matter=rules.counts_points,
        constraints=[[] for _ in range(n)],
        played=[[] for _ in range(n)],
        recent=[[] for _ in range(n)],
    )
    _read_log(know, view.get("log") or [], kept_wilds=kept_wilds)
    return know


def _read_log(know: Knowledge, log: Sequence[Any], *, kept_wilds: bool = False) -> None:
    """Read the round's public events (with the table as it stood before each, from the
    engine) to find what each opponent lacks."""
    drew: int | None = None  # the seat whose draw was the last event
    for event, before in read_log(log):
        just_drew, drew = drew, None
        if isinstance(event, Played):
            _read_play(know, event, before, just_drew=just_drew, kept_wilds=kept_wilds)
        elif isinstance(event, (Drew, PenaltyDrawn)):
            _read_draw(know, event, before)
            if isinstance(event, Drew):
                drew = event.seat
    for seat in range(know.players):
        know.constraints[seat] = [
            c for c in know.constraints[seat] if c.allowance < know.counts[seat]
        ]
    know.constraints[know.seat] = []


def _read_play(
    know: Knowledge, event: Played, before: TableFacts, *, just_drew: int | None, kept_wilds: bool
) -> None:
    """A card played: one fewer card the seat's constraints allow; an opponent's play
    with a choice (no draw pending, not the card just drawn) is kept for inference, and
    with ``kept_wilds`` a wild card played says nothing else could be."""
    seat, card = event.seat, event.card
    know.played[seat].append(card)
    bit = 1 << card
    for c in know.constraints[seat]:
        if c.mask & bit and c.allowance > 0:
            c.allowance -= 1
    if seat == know.seat or before.pending or before.top == UNKNOWN:
        return
    wild = know.wild[seat]
    if kept_wilds and wild >> card & 1:
        know.constraints[seat].append(Constraint(before.follow & ~wild, 0))
    if just_drew != seat:
        named = -1 if event.declared is None else event.declared
        know.recent[seat].append((card, named, before.follow))


def _read_draw(know: Knowledge, event: Drew | PenaltyDrawn, before: TableFacts) -> None:
    """Cards drawn: each may be one a constraint limits, and an opponent who drew in a
    normal turn (or took a draw-two's penalty) held nothing it could play then."""
    seat = event.seat
    know.recent[seat].clear()
    count = len(event.cards)
    for c in know.constraints[seat]:
        c.allowance += count
    if seat == know.seat:
        return
    if isinstance(event, PenaltyDrawn):
        if event.reason == "draw_two" and before.pending:
            # chose the penalty: held no two (or would not stack)
            know.constraints[seat].append(Constraint(before.playable(0), count))
    elif before.top != UNKNOWN and not before.pending:
        playable = before.playable(know.wild[seat])
        know.constraints[seat].append(Constraint(playable, count))


# -- cycles (RULES section 4) ------------------------------------------------------------


@dataclass
class CyclesKnowledge:
    """A seat's knowledge of a cycles position (Y1-Y17), read from its view and log.

    ``known[s]``: cards seat ``s`` is known to hold (picked up in public, Y10/Y12).
    ``constraints[s]``: limits on the rest of the hand, as for the shedding games: a
    follower who drew (Y9) held no card that fits the lead suit. ``revealed[s]``: a false
    call (Y13) showed exactly how many cards of a suit the seat holds: ``(suit, count)``.
    """

    rules: Rules
    seat: int
    players: int
    hand: Mask
    counts: list[int]
    unseen: list[Card]
    """Cards in no known place: the other hands' unknown part and the stock."""
    stock_count: int
    known: list[Mask]
    constraints: list[list[Constraint]]
    revealed: list[tuple[int, int] | None]
    removed: Mask
    cycle_cards: list[Card]
    cycle_seats: list[int]
    """Who played each card of the current cycle (-1: the host)."""
    lead_suit: int
    """-1 when no cycle is under way (the seat leads)."""
    best_power: int
    best_seat: int
    turns_left: int
    cycles_left: int
    forced: bool

    def outstanding(self) -> Mask:
        """Cards that may be in another hand or the stock (not seen gone, not mine)."""
        out = 0
        for card in self.unseen:
            out |= 1 << card
        for s in range(self.players):
            if s != self.seat:
                out |= self.known[s]
        return out

    def lacks(self, seat: int) -> Mask:
        """Cards ``seat`` is known not to hold."""
        out = 0
        for c in self.constraints[seat]:
            if c.allowance == 0:
                out |= c.mask
        out &= ~self.known[seat]
        shown = self.revealed[seat]
        if shown is not None and shown[1] == 0:
            out |= SUIT_MASK[shown[0]]
        return out

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Hands for every seat (card ids) and a stock (top first), consistent with the
        counts, the known cards, the voids shown and the revealed counts."""
        pool = _shuffled(self.unseen, rng)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[self.seat] = _ids(self.hand)
        order = sorted(
            (s for s in range(self.players) if s != self.seat),
            key=lambda s: (
                -sum(c.mask.bit_count() for c in self.constraints[s])
                - (40 if self.revealed[s] is not None else 0)
            ),
        )
        for s in order:
            own = _ids(self.known[s])
            want = self.counts[s] - len(own)
            if want <= 0:
                hands[s] = own[: self.counts[s]]
                continue
            cons = list(self.constraints[s])
            shown = self.revealed[s]
            if shown is not None:
                suit_mask = SUIT_MASK[shown[0]]
                need = shown[1] - (self.known[s] & suit_mask).bit_count()
                if need > 0:
                    got = [c for c in pool if suit_mask >> c & 1][: min(need, want)]
                    taken = 0
                    for c in got:
                        taken |= 1 << c
                    own += got
                    want -= len(got)
                    pool = [c for c in pool if not taken >> c & 1]
                cons.append(Constraint(suit_mask, 0))
            if cons:
                got, pool = _take_constrained(pool, want, cons)
            else:
                got = pool[:want]
                del pool[:want]
            hands[s] = own + got
        return hands, pool[: self.stock_count]


def _ids(mask: Mask) -> list[Card]:
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cycles_knowledge_from_view(view: Mapping[str, Any]) -> CyclesKnowledge:
    """Read a cycles view (with its log) into what the seat knows."""
    rules = Rules.from_dict(view["rules"])
    n = rules.players
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view holds no hand to reason from")
    cycle_cards, cycle_seats = _cycle_of(view)
    lead_suit = view["lead_suit"]
    know = CyclesKnowledge(
        rules=rules,
        seat=seat,
        players=n,
        hand=_mask_of_texts(view.get("hand", ())),
        counts=[int(p["cards"]) for p in view["players"]],
        unseen=[],
        stock_count=int(view["stock"]),
        known=[0] * n,
        constraints=[[] for _ in range(n)],
        revealed=[None] * n,
        removed=_mask_of_texts(view["removed"]),
        cycle_cards=cycle_cards,
        cycle_seats=cycle_seats,
        lead_suit=SUITS.index(lead_suit) if lead_suit else -1,
        best_power=max((cycles_power(c) for c in cycle_cards), default=0),
        best_seat=-1,
        turns_left=int(view.get("turns_left") or 0),
        cycles_left=int(view.get("cycles_left") or 0),
        forced=bool(view.get("forced")),
    )
    if cycle_cards:
        best = max(range(len(cycle_cards)), key=lambda i: cycles_power(cycle_cards[i]))
        know.best_seat = cycle_seats[best]
    suits_shown = _read_cycles_log(know, view.get("log") or [])
    for s, p in enumerate(view["players"]):
        shown = p.get("revealed")
        if shown is not None and s != seat and s in suits_shown:
            know.revealed[s] = (suits_shown[s], int(shown))
    seen = _settle_known(know, know.hand | know.removed | _mask_of_cards(cycle_cards))
    know.unseen = [c for c in ALL_CARDS if not seen >> c & 1]
    return know


def _cycle_of(view: Mapping[str, Any]) -> tuple[list[Card], list[int]]:
    """The cards of the cycle under way and who played each (-1: the host)."""
    cycle_cards: list[Card] = []
    cycle_seats: list[int] = []
    for entry in view["cycle"]:
        cycle_cards.append(_card(entry["card"]))
        who = entry["seat"]
        cycle_seats.append(-1 if who == "host" else int(who))
    return cycle_cards, cycle_seats


def _settle_known(know: CyclesKnowledge, seen: Mask) -> Mask:
    """Make the known cards exactly the hands' public part: drop any seen elsewhere or
    beyond a hand's size, and the constraints the rest of each hand makes moot. The
    cards ``seen`` (the seat's own, removed, on the table) with the known ones added."""
    for s in range(know.players):
        if s == know.seat:
            know.known[s] = 0
            continue
        k = know.known[s] & ~seen
        while k.bit_count() > know.counts[s]:
            k &= k - 1
        know.known[s] = k
        seen |= k
        know.constraints[s] = [
            c for c in know.constraints[s] if c.allowance < know.counts[s] - k.bit_count()
        ]
    return seen


def _mask_of_cards(cards: Sequence[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _mask_of_texts(texts: Sequence[str]) -> Mask:
    mask = 0
    for text in texts:
        mask |= 1 << _card(text)
    return mask


def _read_cycles_log(know: CyclesKnowledge, log: Sequence[Any]) -> dict[int, int]:
    """Read the public events: cards picked up, voids shown by Y9 draws, Y13 reveals."""
    me = know.seat
    suits_shown: dict[int, int] = {}
    for event, before in read_log(log):
        if isinstance(event, Played):
            seat, bit = event.seat, 1 << event.card
            if know.known[seat] & bit:
                know.known[seat] ^= bit
            else:
                for c in know.constraints[seat]:
                    if c.mask & bit and c.allowance > 0:
                        c.allowance -= 1
        elif isinstance(event, (Drew, PenaltyDrawn)):
            seat = event.seat
            for c in know.constraints[seat]:
                c.allowance += len(event.cards)
            showed_void = isinstance(event, Drew) and event.reason == "no_fitting_card"
            if showed_void and seat != me and before.suit >= 0:
                # held no fitting card; every drawn card but a last, played one fits not
                know.constraints[seat].append(Constraint(before.follow, 0))
        elif isinstance(event, PickedUp):
            for card in event.cards:
                know.known[event.seat] |= 1 << card
        elif isinstance(event, FalseCall):
            suits_shown[event.seat] = event.suit
    return suits_shown


__all__ = [
    "Constraint",
    "CyclesKnowledge",
    "Knowledge",
    "cycles_knowledge_from_view",
    "hand_mask",
    "kinds_of",
    "knowledge_from_view",
]
