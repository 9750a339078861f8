"""One table in one channel: its seats, the commands that change it, the turn timer,
last-card calls heard in free words, stand-ins and players who left.

``ChatTable`` is a state machine with a clock: each call returns the lines to say
(``outbox.Line``) and ``next_wakeup()`` says when it must be woken (a reminder, a
timeout, a bot's move, a seat given up). It plays through a ``TableGateway`` and knows
no network.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from crazy_eights.bots import BOT_LEVELS
from crazy_eights.engine import DRAW, PASS, TIMEOUT, Event, IllegalMove, Move, Rules, RulesError
from crazy_eights.engine.events import Dealt, Drew, GameOver, PenaltyDrawn, PickedUp, Played
from crazy_eights.engine.rules import PLAYERS, RULESETS
from crazy_eights.server.protocol import calls_last_card

from . import narrate
from .config import HostConfig
from .gateway import ChatSeat, ChatTableSpec, GameRecord, TableGateway, View
from .outbox import Line
from .parse import Command, help_text
from .words import CardWordsError, read_play

Status = Literal["open", "playing", "over"]
STANDIN_LEVEL = "heuristic"
LENGTH_SETTING = {
    "cycles": "cycle_limit",
    "classic": "target",
    "ultimate": "target",
    "countdown": "start",
    "openspiel": "max_turns",
}
"""What ``!new``'s length sets in each ruleset."""


@dataclass
class Seat:
    """A seat of a chat table: a nick's, or a bot's (``bot`` its level).

    ``standin``: a bot plays for the nick until they speak; ``gone``: the nick left
    for good and a bot plays on; ``away_until``: the nick quit, and keeps the seat
    until then; ``called``: last card was called in free words this turn."""

    number: int
    nick: str | None
    bot: str | None = None
    standin: bool = False
    gone: bool = False
    away_until: float | None = None
    timeouts: int = 0
    called: bool = False

    @property
    def name(self) -> str:
        return narrate.safe_name(self.nick) if self.nick else f"bot{self.number + 1}"

    @property
    def bot_played(self) -> bool:
        return self.bot is not None or self.standin or self.gone

    @property
    def present(self) -> bool:
        return self.nick is not None and not self.gone and self.away_until is None


class ChatTable:
    """The table of ``channel``, opened by ``maker`` with ``!new``."""

    def __init__(
        self,
        channel: str,
        maker: str,
        rules: Rules,
        config: HostConfig,
        gateway: TableGateway,
        *,
        capacity: int,
        place: str,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.channel = channel
        self.maker = maker
        self.rules = rules
        self.config = config
        self.gateway = gateway
        self.capacity = capacity
        self.place = place
        self.seed = secrets.randbits(62) if seed is None else seed
        self._clock = clock
        self.status: Status = "open"
        self.seats: list[Seat] = []
        self.table_id: str | None = None
        self.opened_at = clock()
        self.turn_started = 0.0
        self.reminded = False
        self.last_tie: str | None = None
        self.record: GameRecord | None = None
        self.final: str | None = None

    # -- who is who ---------------------------------------------------------------------

    def seat_of(self, nick: str) -> Seat | None:
        key = nick.lower()
        for seat in self.seats:
            if seat.nick is not None and seat.nick.lower() == key and not seat.gone:
                return seat
        return None

    @property
    def maker_name(self) -> str:
        return narrate.safe_name(self.maker)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _say(self, text: str) -> Line:
        return Line(self.channel, text)

    def _tell(self, nick: str, text: str) -> Line:
        return Line(nick, text, private=True)

    def view(self, seat: int | None = None) -> View:
        assert self.table_id is not None
        return self.gateway.view(self.table_id, seat)

    # -- commands -----------------------------------------------------------------------

    async def command(self, nick: str, cmd: Command, *, moderator: bool = False) -> list[Line]:
        """Carry out ``cmd`` said by ``nick`` in the channel; the lines to say."""
        seat = self.seat_of(nick)
        out = self._reclaim(seat)
        handler = getattr(self, f"_cmd_{cmd.name}", None)
        if handler is None:
            return [*out, self._tell(nick, help_text(cmd.name, self.config.prefix))]
        lines: list[Line] = await handler(nick, seat, cmd.args, moderator)
        return out + lines

    async def _cmd_join(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if seat is not None:
            return [self._tell(nick, f"you already sit at the table in {self.channel}")]
        if self.status != "open":
            return [self._tell(nick, "the game has begun: watch it, or join the next table")]
        if len(self.seats) >= self.capacity:
            return [self._tell(nick, f"the table is full ({self.capacity} seats)")]
        self.seats.append(Seat(len(self.seats), nick))
        return [self._say(f"{narrate.safe_name(nick)} joins ({self._seated()})")]

    def _seated(self) -> str:
        return f"{len(self.seats)}/{self.capacity} seated"

    async def _cmd_leave(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if seat is None:
            return [self._tell(nick, "you have no seat at this table")]
        if self.status == "open":
            self.seats.remove(seat)
            for number, other in enumerate(self.seats):
                other.number = number
            return [self._say(f"{seat.name} leaves ({self._seated()})")]
        await self._give_up(seat)
        lines = [self._say(f"{seat.name} leaves: a bot plays their seat to the end")]
        return lines + self._after([])

    async def _cmd_bots(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if self.status != "open":
            return [self._tell(nick, "bots are seated before the game starts")]
        words = args.split()
        if not words or not words[0].isdigit():
            return [self._tell(nick, help_text("bots", self.config.prefix))]
        level = words[1].lower() if len(words) > 1 else self.config.bot_level
        if level not in BOT_LEVELS:
            return [self._tell(nick, f"bot levels: {', '.join(BOT_LEVELS)}")]
        count = min(int(words[0][:3]), self.capacity - len(self.seats))
        if count <= 0:
            return [self._tell(nick, f"no free seat ({self._seated()})")]
        for _ in range(count):
            self.seats.append(Seat(len(self.seats), None, bot=level))
        return [self._say(f"{count} {level} bot(s) sit down ({self._seated()})")]

    async def _cmd_start(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if self.status != "open":
            return [self._tell(nick, "the game has already begun")]
        waited = self._clock() - self.opened_at
        if nick.lower() != self.maker.lower() and not mod and waited < self.config.start_wait:
            left = int(self.config.start_wait - waited) + 1
            maker = narrate.safe_name(self.maker)
            return [self._tell(nick, f"{maker} starts the table (anyone may in {left} s)")]
        if len(self.seats) < 2:
            return [self._tell(nick, "at least two seats must be taken (!join, !bots N)")]
        low, _high = PLAYERS[self.rules.ruleset]
        try:
            rules = self.rules.replace(players=max(low, len(self.seats)))
        except RulesError as exc:
            return [self._tell(nick, str(exc))]
        self.rules = rules
        seats = [ChatSeat(seat=s.number, name=s.name, bot=s.bot) for s in self.seats]
        spec = ChatTableSpec(place=self.place, rules=rules, seed=self.seed)
        self.table_id, events = await self.gateway.create(spec, seats)
        self.status = "playing"
        who = ", ".join(self.names)
        first = self._say(f"dealing {rules.ruleset} for {who}")
        return [first, *self._after(events, dealt=True)]

    async def _cmd_end(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if nick.lower() != self.maker.lower() and not mod:
            maker = narrate.safe_name(self.maker)
            return [self._tell(nick, f"only {maker} or a channel operator can end the table")]
        await self._close("ended")
        return [self._say(f"the table is closed by {narrate.safe_name(nick)}")]

    async def _close(self, reason: str) -> None:
        self.status = "over"
        if self.table_id is not None and self.record is None:
            self.record = await self.gateway.close(self.table_id, reason)

    async def _cmd_play(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        refusal = self._refuse_move(nick, seat)
        if refusal is not None:
            return [refusal]
        assert seat is not None
        try:
            said = read_play(args)
        except CardWordsError as exc:
            return [self._tell(nick, str(exc))]
        move = said.move
        if move.is_play and not move.call and (seat.called or calls_last_card(said.rest)):
            move = move.with_call()
        return await self._move(nick, seat, move)

    async def _cmd_draw(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        refusal = self._refuse_move(nick, seat)
        if refusal is not None:
            return [refusal]
        assert seat is not None
        return await self._move(nick, seat, DRAW)

    async def _cmd_pass(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        refusal = self._refuse_move(nick, seat)
        if refusal is not None:
            return [refusal]
        assert seat is not None
        return await self._move(nick, seat, PASS)

    def _refuse_move(self, nick: str, seat: Seat | None) -> Line | None:
        """Why ``nick`` may not move now (None: they may)."""
        if self.status == "open":
            return self._tell(nick, "the game has not started (!start)")
        if self.status == "over":
            return self._tell(nick, "the game is over (!new for another)")
        if seat is None:
            return self._tell(nick, "you are not playing at this table: watch, or join the next")
        current = self.view()["current"]
        if current != seat.number:
            whose = "nobody's" if current is None else f"{self.seats[current].name}'s"
            return self._tell(nick, f"wait for your turn: it is {whose}")
        return None

    async def _move(self, nick: str, seat: Seat, move: Move) -> list[Line]:
        assert self.table_id is not None
        try:
            events = await self.gateway.move(self.table_id, seat.number, move)
        except IllegalMove as exc:
            return [self._tell(nick, exc.reason)]
        seat.timeouts = 0
        return self._after(events)

    async def _cmd_hand(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if seat is None or self.status != "playing":
            return [self._tell(nick, f"you hold no cards at {self.channel}")]
        return [self._hand(seat)]

    async def _cmd_table(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if self.status == "open":
            return [self._say(f"{self.rules.ruleset} table, {self._seated()}: {self._who()}")]
        if self.table_id is None or self.record is not None:
            return [self._say("no game is running (!new)")]
        return [self._say(narrate.notes(self.view(), self.names))]

    def _who(self) -> str:
        return ", ".join(self.names) or "nobody yet"

    async def _cmd_score(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        if self.final is not None:
            return [self._say(self.final)]
        if self.table_id is None or self.record is not None:
            return [self._say("no game is running (!new)")]
        return [self._say(narrate.score_line(self.view(), self.names))]

    async def _cmd_rules(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        return [self._tell(nick, narrate.rules_line(self.rules.to_dict()))]

    async def _cmd_choose(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        text = self.last_tie or "no exact tie so far: nothing to choose"
        return [self._say(text)]

    async def _cmd_new(self, nick: str, seat: Seat | None, args: str, mod: bool) -> list[Line]:
        return [self._tell(nick, f"a table is already open in {self.channel} (!table, !end)")]

    # -- free words ---------------------------------------------------------------------

    def talk(self, nick: str, text: str) -> list[Line]:
        """A line of conversation in the channel: a player back from a stand-in, or a
        last-card call in their own words (it counts in their turn, before the play)."""
        seat = self.seat_of(nick)
        out = self._reclaim(seat)
        if seat is None or self.status != "playing" or not calls_last_card(text):
            return out
        if self.view()["current"] != seat.number:
            return [
                *out,
                self._tell(nick, "a last-card call counts in your turn, before or with your play"),
            ]
        seat.called = True
        return [*out, self._say(f"noted: {seat.name} calls last card")]

    def _reclaim(self, seat: Seat | None) -> list[Line]:
        """A player who speaks takes their seat back from a stand-in."""
        if seat is None or not seat.standin or self.status != "playing":
            return []
        seat.standin = False
        seat.timeouts = 0
        if self.view()["current"] == seat.number:  # their turn starts again, timer and all
            self.turn_started = self._clock()
            self.reminded = False
        lines = [self._say(f"{seat.name} is back: the stand-in bot stands up")]
        return lines + self._after([])

    # -- presence -----------------------------------------------------------------------

    def went_away(self, nick: str) -> list[Line]:
        """``nick`` quit, parted or was kicked: before the game they lose the seat; in it
        they keep it (and their hand) for ``away_seconds``."""
        seat = self.seat_of(nick)
        if seat is None or self.status == "over":
            return []
        if self.status == "open":
            self.seats.remove(seat)
            for number, other in enumerate(self.seats):
                other.number = number
            return [self._say(f"{seat.name} left ({self._seated()})")]
        seat.away_until = self._clock() + self.config.away_seconds
        minutes = self.config.away_seconds / 60
        return [self._say(f"{seat.name} left: their seat waits {minutes:g} min for them")]

    async def _give_up(self, seat: Seat) -> None:
        """``seat``'s nick is gone for good (``!leave``, or away too long): a bot plays
        on, and the table's record says the seat was left."""
        seat.gone = True
        seat.away_until = None
        assert self.table_id is not None
        await self.gateway.leave(self.table_id, seat.number)

    def came_back(self, nick: str) -> list[Line]:
        """``nick`` joined the channel again: their seat and hand are theirs again (a
        player the host did not see leave, as in a netsplit, gets the hand again)."""
        seat = self.seat_of(nick)
        if seat is None or self.status != "playing":
            return []
        if seat.away_until is None:  # back after a netsplit, say: the hand again
            return [self._hand(seat)]
        seat.away_until = None
        seat.standin = False
        seat.timeouts = 0
        if self.view()["current"] == seat.number:
            self.turn_started = self._clock()
            self.reminded = False
        return [self._say(f"welcome back, {seat.name}: your seat kept your hand"), self._hand(seat)]

    def renamed(self, old: str, new: str) -> None:
        seat = self.seat_of(old)
        if seat is not None:
            seat.nick = new
        if self.maker.lower() == old.lower():
            self.maker = new

    # -- time ---------------------------------------------------------------------------

    def _current(self) -> Seat | None:
        if self.status != "playing":
            return None
        current = self.view()["current"]
        return None if current is None else self.seats[current]

    def next_wakeup(self) -> float | None:
        """When the table must be woken next (None: nothing is due)."""
        times = [s.away_until for s in self.seats if s.away_until is not None and not s.gone]
        seat = self._current()
        if seat is not None:
            if seat.bot_played:
                times.append(self.turn_started + self.config.bot_delay)
            else:
                limit = self.config.turn_seconds
                times.append(self.turn_started + (limit if self.reminded else limit / 2))
        return min(times) if times else None

    async def wake(self) -> list[Line]:
        """Do what is due: seats given up, a bot's move, a reminder or a timeout."""
        now = self._clock()
        out: list[Line] = []
        for absent in self.seats:
            if absent.away_until is not None and now >= absent.away_until and not absent.gone:
                await self._give_up(absent)
                out.append(self._say(f"{absent.name} did not come back: a bot plays on"))
        seat = self._current()
        if seat is None:
            return out
        assert self.table_id is not None
        if seat.bot_played:
            if now >= self.turn_started + self.config.bot_delay:
                level = seat.bot or STANDIN_LEVEL
                events = await self.gateway.bot_move(self.table_id, seat.number, level)
                out += self._after(events)
            return out
        limit = self.config.turn_seconds
        if not self.reminded and now >= self.turn_started + limit / 2:
            self.reminded = True
            out.append(self._say(f"{seat.name}, your turn: {limit / 2:g} s left"))
        if now >= self.turn_started + limit:
            events = await self.gateway.move(self.table_id, seat.number, TIMEOUT)
            seat.timeouts += 1
            if seat.timeouts >= 2 and not seat.standin:
                seat.standin = True
                out.append(
                    self._say(f"{seat.name} timed out twice: a bot plays for them until they speak")
                )
            out += self._after(events)
        return out

    # -- after a change -----------------------------------------------------------------

    def _hand(self, seat: Seat) -> Line:
        assert seat.nick is not None
        view = self.view(seat.number)
        mine = view["current"] == seat.number and not seat.bot_played
        return self._tell(seat.nick, narrate.hand_line(view, self.channel, mine))

    def _after(self, events: Sequence[Event], *, dealt: bool = False) -> list[Line]:
        """Tell the channel what ``events`` did and each player their changed hand;
        start the next turn's timer; finish the game if it is over."""
        names = self.names
        out = [self._say(t) for t in (narrate.describe(e, names) for e in events) if t]
        changed = {e.seat for e in events if isinstance(e, Dealt | Drew | PickedUp | PenaltyDrawn)}
        changed |= {e.seat for e in events if isinstance(e, Played)}
        for event in events:
            if isinstance(event, GameOver):
                out += self._game_over(event)
        view = self.view()
        current = view["current"]
        for seat in self.seats:
            if seat.nick is None or not seat.present:
                continue
            if dealt or seat.number in changed or seat.number == current:
                out.append(self._hand(seat))
        if current is not None and (events or dealt):
            self.turn_started = self._clock()
            self.reminded = False
            for seat in self.seats:
                seat.called = False
            out.append(self._say(narrate.turn_line(view, names)))
        return out

    def _game_over(self, event: GameOver) -> list[Line]:
        self.status = "over"
        names = self.names
        lines = [self._say(t) for t in narrate.standings(event, names)]
        self.final = lines[0].text
        for group in narrate.exact_ties(event):
            tied = ", ".join(names[s] for s in group)
            self.last_tie = f"exact tie of {tied}: the host's seeded draw placed them so"
            lines.append(self._say(self.last_tie + " (!choose)"))
        return lines

    async def finish(self) -> None:
        """Close a game that is over with the gateway (its record is kept)."""
        if self.status == "over":
            await self._close("over")


def read_new(args: str) -> tuple[Rules, int] | str:
    """``!new [ruleset] [players] [length]``: the table's rules and seat count, or why
    not (never repeating the words typed)."""
    words = args.lower().split()
    ruleset = "cycles"
    if words and words[0] in RULESETS:
        ruleset = words.pop(0)
    numbers: list[int] = []
    for word in words:
        if not word.isdigit() or len(word) > 4:
            return f"usage: !new [{'|'.join(RULESETS)}] [players] [length]"
        numbers.append(int(word))
    if len(numbers) > 2:
        return "usage: !new [ruleset] [players] [length]"
    low, high = PLAYERS[ruleset]
    players = numbers[0] if numbers else high
    if not low <= players <= high:
        return f"{ruleset} is for {low} to {high} players"
    settings = {LENGTH_SETTING[ruleset]: numbers[1]} if len(numbers) > 1 else {}
    try:
        rules = Rules.preset(ruleset, players=players, **settings)
    except RulesError as exc:
        return str(exc)
    return rules, players
