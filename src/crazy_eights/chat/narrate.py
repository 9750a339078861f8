"""The host's words: events told to the channel, a seat's hand told to its player, and
the host's notes (``!table``), scores and rules. Every line is built from the engine's
events and views and the seats' names, never from what someone typed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from crazy_eights.engine import Event
from crazy_eights.engine.cards import CARD_TEXT, SUIT_NAMES, SUITS, mask_of
from crazy_eights.engine.cycles import rank_key
from crazy_eights.engine.events import (
    HOST,
    CycleOver,
    CycleWon,
    DirectionChanged,
    Drew,
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
    Passed,
    PenaltyDrawn,
    PickedUp,
    Played,
    Reshuffled,
    RoundOver,
    RoundStarted,
    Skipped,
    StarterTurned,
    SuitDeclared,
    TimedOut,
)

from .gateway import View

_SAFE = re.compile(r"[^A-Za-z0-9_\-\[\]\\^{}|`.@:]")


def safe_name(name: str) -> str:
    """A nick as the host may say it: the characters nicks are made of, 30 at most."""
    return _SAFE.sub("", name)[:30] or "?"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def describe(event: Event, names: Sequence[str]) -> str | None:
    """One event as the channel hears it (``None``: nothing to say)."""

    def who(seat: int | None) -> str:
        return "the host" if seat is None or seat == HOST else names[seat]

    for line in (_play_line, _cycle_line, _table_line):
        said = line(event, who, names)
        if said is not None:
            return said
    return None


def _play_line(event: Event, who: Callable[[int | None], str], names: Sequence[str]) -> str | None:
    """What a player did: plays, calls, draws, penalties, time."""
    match event:
        case Played(seat=s, card=c, declared=d, lead=lead):
            verb = "leads" if lead else "plays"
            named = f", naming {SUIT_NAMES[d]}" if d is not None else ""
            return f"{who(s)} {verb} {CARD_TEXT[c]}{named}"
        case LastCardCalled(seat=s, auto=auto):
            return f"{who(s)}: last card!" + (" (called for them)" if auto else "")
        case FalseCall(seat=s, suit=suit, count=n):
            return f"false call by {who(s)}: they hold {n} {SUIT_NAMES[suit]}"
        case PenaltyDrawn(seat=s, cards=cards, reason=reason):
            why = "no last-card call" if reason == "last_card" else "a two"
            return f"{who(s)} draws {_plural(len(cards), 'penalty card')} ({why})"
        case PickedUp(seat=s, cards=cards, reason=reason):
            why = "no last-card call" if reason == "last_card" else "nothing follows"
            return f"{who(s)} picks up the cycle: {_cards(cards)} ({why})"
        case Drew(seat=s, cards=cards, reason=reason):
            why = " (nothing follows)" if reason == "no_fitting_card" else ""
            if reason == "joker_lead":
                why = " (a joker cannot be led last)"
            return f"{who(s)} draws {_plural(len(cards), 'card')}{why}"
        case TimedOut(seat=s):
            return f"{who(s)} ran out of time"
        case Skipped(seat=s):
            return f"{who(s)} is skipped"
        case SuitDeclared(seat=s, suit=suit):
            return f"{who(s)} names {SUIT_NAMES[suit]}"
        case Passed(seat=s):
            return f"{who(s)} passes"
    return None


def _cycle_line(event: Event, who: Callable[[int | None], str], names: Sequence[str]) -> str | None:
    """The cycles host's own moves: leads, who plays first, cycles won and ended."""
    match event:
        case HostLed(card=c, cycle=n):
            return f"cycle {n}: the host turns {CARD_TEXT[c]}"
        case JokerToBottom(card=c):
            return f"the host turns {CARD_TEXT[c]}: a joker goes to the bottom"
        case HostCannotLead():
            return "the host has nothing to lead from the stock"
        case FirstPlayer(seat=s, tie_break=tie):
            tied = " (an exact tie, settled by the host's seeded draw: !choose)" if tie else ""
            return f"{who(s)} plays first{tied}"
        case LeadStarted(seat=s, cycle=n):
            return f"cycle {n}: {who(s)} leads"
        case LeadPassed(seat=s, to=to):
            return f"{who(s)} cannot lead: the lead passes to {who(to)}"
        case CycleWon(winner=w, cards=cards):
            return f"{who(w)} takes the cycle ({_cards(cards)})"
        case CycleOver(cycles_left=left, completed=done):
            return None if done else f"the cycle ends unfinished; {left} cycles left"
        case GameStarted(players=n, cycles_left=left):
            return f"cycles for {n}: {left} cycles at most. Good luck!"
    return None


def _table_line(event: Event, who: Callable[[int | None], str], names: Sequence[str]) -> str | None:
    """The table around the play: the starter, direction, reshuffles, rounds."""
    match event:
        case StarterTurned(card=c):
            return f"the starter is {CARD_TEXT[c]}"
        case DirectionChanged(direction=d):
            return "play goes " + ("clockwise" if d == 1 else "anticlockwise")
        case Reshuffled(count=n):
            return f"the discards are shuffled into a new stock of {n}"
        case RoundStarted(round=n, dealer=d):
            return f"round {n}, {who(d)} deals"
        case RoundOver(seat=s, points=points):
            hands = ", ".join(f"{names[i]} {p}" for i, p in enumerate(points))
            return f"{who(s)} wins the round; points left: {hands}"
        case GameOver():
            return None  # the standings are told by ``standings``
    return None


def standings(event: GameOver, names: Sequence[str]) -> list[str]:
    """The end of a game: the winner, the standings with points, every hand shown."""
    result = event.result
    order = ", ".join(
        f"{place}. {names[seat]} ({result.points[seat]})"
        for place, seat in enumerate(result.standings, 1)
    )
    winner = "nobody" if result.winner is None else names[result.winner]
    lines = [f"game over ({result.reason}): {winner} wins. {order}"]
    if event.hands is not None:
        shown = "; ".join(
            f"{names[seat]}: {_cards(hand) or '-'}" for seat, hand in enumerate(event.hands)
        )
        lines.append(f"hands: {shown}")
    return lines


def exact_ties(event: GameOver) -> list[list[int]]:
    """Cycles: groups of seats (not the winner) whose hands tie exactly under Y4, which
    the host's seeded draw ordered."""
    if event.hands is None:
        return []
    keys: dict[tuple[int, int, int], list[int]] = {}
    for seat in event.result.standings[1:]:
        keys.setdefault(rank_key(mask_of(event.hands[seat])), []).append(seat)
    return [seats for seats in keys.values() if len(seats) > 1]


def _playable(view: View) -> set[str]:
    return {m["card"] for m in view.get("legal_moves", []) if m["card"] is not None}


def hand_line(view: View, channel: str, your_turn: bool) -> str:
    """A seat's hand in one line, the cards it may play now marked with ``*``."""
    marks = _playable(view) if your_turn else set()
    cards = " ".join(c + ("*" if c in marks else "") for c in view.get("hand", [])) or "-"
    if not your_turn:
        return f"your hand at {channel}: {cards}"
    return f"your turn at {channel}: {cards} (* playable) {_task(view)}"


def _task(shown: View) -> str:
    """What the player to move is asked: lead, or follow a suit."""
    view: dict[str, Any] = dict(shown)
    if view["ruleset"] != "cycles":
        return f"on {view.get('top', '?')}"
    if view.get("phase") == "lead":
        return "- lead"
    suit = view.get("lead_suit")
    return f"- follow {SUIT_NAMES[SUITS.index(suit)]}" if suit else ""


def turn_line(view: View, names: Sequence[str]) -> str:
    """Whose turn it is, and what they are asked."""
    current = view["current"]
    assert current is not None
    return f"{names[current]}'s turn: {_task(view).lstrip('- ')}".rstrip(": ")


def notes(shown: View, names: Sequence[str]) -> str:
    """The host's notes: the card to match, this cycle, every count, cycles left, turn."""
    view: dict[str, Any] = dict(shown)
    counts = ", ".join(f"{names[p['seat']]} {p['cards']}" for p in view["players"])
    turn = "" if view["current"] is None else f"; {names[view['current']]} to play"
    if view["ruleset"] != "cycles":
        top = view.get("top")
        suit = view.get("active_suit")
        return f"on the table: {top} ({suit}); cards: {counts}; stock {view['stock']}{turn}"
    cycle: list[dict[str, Any]] = view.get("cycle", [])
    played = " ".join(
        ("host" if c["seat"] == "host" else names[c["seat"]]) + " " + c["card"] for c in cycle
    )
    suit = view.get("lead_suit")
    match = f"match {SUIT_NAMES[SUITS.index(suit)]}" if suit else "no card to match yet"
    revealed = "".join(
        f"; {names[p['seat']]} showed {p['revealed']} of the suit"
        for p in view["players"]
        if p.get("revealed") is not None
    )
    return (
        f"cycle {view.get('cycle_number')}: {match}"
        + (f" ({played})" if played else "")
        + f"; cards: {counts}; {view.get('cycles_left')} cycles left; stock "
        + f"{view['stock']}{revealed}{turn}"
    )


def score_line(view: View, names: Sequence[str]) -> str:
    """Card counts, and the match scores where the ruleset keeps them."""
    parts = []
    for player in view["players"]:
        part = f"{names[player['seat']]} {_plural(player['cards'], 'card')}"
        score = player.get("score")
        if score is not None and view.get("target") is not None:
            part += f", {score} points"
        parts.append(part)
    result = view.get("result")
    if result is not None:
        parts.append("final: " + ", ".join(names[s] for s in result["standings"]))
    return "; ".join(parts)


def rules_line(rules: dict[str, Any]) -> str:
    """The table's ruleset and its settings."""
    settings = ", ".join(f"{k}={v}" for k, v in rules.items() if k not in ("ruleset",))
    return f"{rules['ruleset']}: {settings} (docs/rules.md of crazy-eights)"
