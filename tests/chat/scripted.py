"""Scripted people for the chat host's game tests, on any network: they read the host's
turn notices and play the first card marked playable, each spelling cards their own
way, and carry out a ``Plan`` (a false call, a turn left to time out, last card said in
free words or in the play's line)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from crazy_eights.engine.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUITS

from .ircclient import Msg


class Speaker(Protocol):
    """A scripted person on some network (``ircclient.Person``, ``matrixclient.Person``)."""

    nick: str
    lines: list[Msg]

    def mark(self) -> int: ...

    def say(self, target: str, text: str) -> None: ...

    async def wait_for(
        self, pred: Callable[[Msg], bool], since: int = 0, timeout: float = 30.0
    ) -> Msg: ...


def short(nick: str) -> str:
    """``@alice:test`` or ``alice``: ``alice``."""
    return nick.lstrip("@").split(":", 1)[0]


def examples(msg: Msg) -> set[str]:
    """The example cards of the host's fixed help for a card it could not read."""
    return {"7H", "TD", "JK", "BJ", "RJ"} if msg.text.startswith("name a card") else set()


@dataclass(frozen=True)
class Room:
    """Where the game is: the channel, the host's name there, the turn timer."""

    channel: str
    host: str
    turn: float

    def from_host(self, msg: Msg) -> bool:
        return msg.source == self.host

    def in_channel(self, text: str) -> Callable[[Msg], bool]:
        return lambda m: self.from_host(m) and m.target == self.channel and text in m.text

    def notice(self, text: str) -> Callable[[Msg], bool]:
        return lambda m: self.from_host(m) and m.private and text in m.text

    def turn_notice(self, m: Msg) -> bool:
        return (
            self.from_host(m) and m.private and m.text.startswith(f"your turn at {self.channel}:")
        )

    def over(self, m: Msg) -> bool:
        return self.from_host(m) and m.target == self.channel and m.text.startswith("game over (")


@dataclass
class Turn:
    """A turn notice read: the hand, the cards marked playable, lead or follow."""

    hand: list[str]
    playable: list[str]
    lead: bool

    @classmethod
    def read(cls, msg: Msg) -> Turn:
        body = msg.text.split(": ", 1)[1].split("(* playable)")[0].split()
        return cls(
            hand=[c.rstrip("*") for c in body],
            playable=[c.rstrip("*") for c in body if c.endswith("*")],
            lead="- lead" in msg.text,
        )

    def choice(self) -> tuple[str, str | None]:
        """The first playable card that is not a joker (else a joker and a suit to name)."""
        plain = [c for c in self.playable if c not in ("BJ", "RJ", "JK")]
        if plain:
            return plain[0], None
        card = self.playable[0]
        return card, ({"BJ": "S", "RJ": "H", "JK": "D"}[card] if self.lead else None)


def words(card: str, suit: str | None) -> str:
    """alice says her cards in words: 'seven of hearts', 'black joker spades'."""
    jokers = {"BJ": "black joker", "RJ": "red joker", "JK": "joker"}
    text = jokers.get(card)
    if text is None:
        text = f"{RANK_NAMES[RANKS.index(card[0])]} of {SUIT_NAMES[SUITS.index(card[1])]}"
    return text + (f" {SUIT_NAMES[SUITS.index(suit)]}" if suit else "")


def spelled(nick: str, card: str, suit: str | None) -> str:
    """Each person spells cards their own way: words, lower case, or 10 and a symbol."""
    if short(nick) == "alice":
        return words(card, suit)
    if short(nick) == "bob":
        return card.lower() + (f":{suit.lower()}" if suit else "")
    symbol = dict(zip(SUITS, "\u2660\u2665\u2666\u2663", strict=True))
    text = "10" + card[1:] if card[0] == "T" else card
    if card not in ("BJ", "RJ", "JK"):
        text = text[:-1] + symbol[text[-1]]
    return text + (f" {SUIT_NAMES[SUITS.index(suit)]}" if suit else "")


@dataclass
class Plan:
    """The game's scripted happenings, and what was seen of them."""

    idle: bool = True
    false_call_done: bool = False
    idle_done: bool = False
    free_calls: int = 0
    line_calls: int = 0
    turns: dict[str, int] = field(default_factory=dict)


async def drive(p: Speaker, plan: Plan, start: int, room: Room) -> None:
    """Play ``p``'s turns to the end of the game, with the plan's happenings."""
    cursor = start
    name = short(p.nick)

    def played(m: Msg) -> bool:
        said = m.text.startswith(f"{p.nick} plays ") or m.text.startswith(f"{p.nick} leads ")
        return room.from_host(m) and said

    def refused(m: Msg) -> bool:
        """A refusal: the notice acted on was stale (not our turn by now)."""
        return room.notice("")(m) and not m.text.startswith(("your hand", "your turn"))

    while True:
        msg = await p.wait_for(
            lambda m: room.turn_notice(m) or room.over(m), since=cursor, timeout=120
        )
        cursor = msg.index + 1
        if room.over(msg):
            return
        if any(room.turn_notice(m) or room.over(m) for m in p.lines[cursor:]):
            continue  # a newer notice came meanwhile: act on that one
        turn = Turn.read(msg)
        plan.turns[name] = plan.turns.get(name, 0) + 1
        if (
            name == "carol"
            and plan.idle
            and not plan.idle_done
            and len(turn.playable) >= 2
            and len(turn.hand) > 2
        ):
            plan.idle_done = True  # say nothing: the host reminds, then skips
            mark = p.mark()
            await p.wait_for(room.in_channel(f"{p.nick}, your turn:"), since=mark)
            await p.wait_for(
                room.in_channel(f"{p.nick} is skipped"), since=mark, timeout=2 * room.turn
            )
            continue
        card, suit = turn.choice()
        line = f"!play {spelled(p.nick, card, suit)}"
        if len(turn.hand) == 2:  # this play leaves one card: call it (G7)
            if plan.free_calls <= plan.line_calls:
                plan.free_calls += 1
                mark = p.mark()
                p.say(room.channel, "I have 1 card left!")
                await p.wait_for(room.in_channel(f"noted: {p.nick} calls last card"), since=mark)
            else:
                plan.line_calls += 1
                line += " last card!"
        elif name == "bob" and not plan.false_call_done and len(turn.hand) >= 3:
            plan.false_call_done = True
            mark = p.mark()
            p.say(room.channel, "uno!")
            await p.wait_for(room.in_channel(f"noted: {p.nick} calls last card"), since=mark)
        mark = p.mark()
        p.say(room.channel, line)
        await p.wait_for(lambda m: played(m) or refused(m), since=mark)
