"""What a table sends: its info, the clock, and each seat's state, read off its
``TableState``. Every state is built from ``game.view(seat)`` and ``event.for_seat(seat)``,
so a message can never carry a card its seat may not see (RULES G5).
"""

from __future__ import annotations

import html
import time
from typing import Any

import pydantic_core

from ...engine import Rules
from ..protocol import (
    BackOut,
    ChatOut,
    Clock,
    Pause,
    PauseOut,
    PresenceOut,
    RatingChange,
    RatingsOut,
    SeatInfo,
    State,
    TableInfo,
    Welcome,
    You,
)
from .members import Member
from .seats import Seat
from .state import TableState
from .store import ChatLine, TableRecord


def dumps(data: Any) -> str:
    """JSON text of plain data (the same text as the models' ``model_dump_json``)."""
    return pydantic_core.to_json(data).decode()


def table_info(table: TableState, *, for_account: int | None = None) -> TableInfo:
    """A live table's settings and seats; the invite code only for its creator."""
    creator = for_account is not None and for_account == table.creator
    return info_of(
        table,
        [seat_info(table, s.seat) for s in table.seats],
        version=table.version,
        spectators=table.members.spectators,
        invite=table.invite if creator else None,
    )


def info_of(
    table: TableRecord | TableState,
    seats: list[SeatInfo],
    *,
    version: int,
    spectators: int = 0,
    invite: str | None = None,
) -> TableInfo:
    """The one place a ``TableInfo`` is made, from a live table's state or a stored
    table's record (``records.info``), with its seats as the caller sees them."""
    return TableInfo(
        id=table.id,
        name=table.spec.name,
        ruleset=table.spec.rules.ruleset,
        rules=table.spec.rules.to_dict(),
        status=table.status,
        public=table.spec.public,
        rated=table.spec.rated,
        hints=table.spec.hints,
        takeover_after=table.spec.takeover_after,
        creator=table.creator,
        invite=invite,
        seats=seats,
        spectators=spectators,
        version=version,
        created_at=table.created_at,
        place=table.spec.place,
    )


def seat_info(table: TableState, seat_no: int) -> SeatInfo:
    """Who sits at a seat and whether they are here."""
    s = table.seats[seat_no]
    return SeatInfo(
        seat=s.seat,
        account=s.account_id,
        name=s.name,
        avatar=s.avatar,
        bot=s.bot,
        connected=table.connected(s.seat) if s.taken else False,
        standin=s.standin,
        left=s.left,
        away_left=away_left(table, seat_no),
        held_left=held_left(s),
        archon=table.titles(s.account_id) if s.bot is None else [],
    )


def away_left(table: TableState, seat_no: int) -> float | None:
    """Seconds until a stand-in plays an absent player's seat in a running game (None
    when no stand-in is on its way), for the countdown the others see on the seat."""
    seat = table.seats[seat_no]
    if table.status != "playing" or not table.spec.takeover_after or seat.standin:
        return None
    if not seat.human or seat.left:
        return None
    left = table.grace.left(seat_no)
    return None if left is None else round(left, 1)


def held_left(seat: Seat) -> float | None:
    """Seconds until an empty seat is no longer held for an invited or returning player
    (None: not held)."""
    until = seat.held_until
    if until is None or seat.taken:
        return None
    return round(max(0.0, until - time.time()), 1)


def presence(table: TableState, seats: list[int]) -> PresenceOut:
    """The seats whose presence changed, and how many watch."""
    return PresenceOut(
        table=table.id,
        clock=clock(table),
        seats=[seat_info(table, seat) for seat in seats],
        spectators=table.members.spectators,
    )


def clock(table: TableState) -> Clock | None:
    """Whose turn it is and how long they have left, while a game runs (not between
    rounds: no clock runs then)."""
    game = table.game
    if game is None or game.is_over or table.status != "playing" or table.rounds.active:
        return None
    seat = game.current_player
    if seat is None:
        return None
    return Clock(seat=seat, left=round(table.clock.left(), 1), timer=table.rules.turn_timer)


def state_data(
    table: TableState,
    seat: int | None,
    *,
    log: bool = False,
    events: list[Any] = (),  # type: ignore[assignment]
    move: str | None = None,
    by: int | None = None,
    ack: int | None = None,
) -> dict[str, Any] | None:
    """The fields of a ``State`` for ``seat`` (None: spectators), as plain data."""
    game = table.game
    if game is None:
        return None
    # nobody may move while the table pauses between rounds, though the next deal is out
    to_move = seat is not None and game.current_player == seat and not table.rounds.active
    moves = game.legal_move_data() if to_move else []
    view = game.view(seat, log=log)
    pending: Any = view.get("pending_draw", 0) if to_move else 0
    return {
        "version": table.version,
        "move": move,
        "by": by,
        "ack": ack if seat is not None and seat == by else None,
        "events": [e.for_seat(seat) for e in events],
        "view": view,
        "legal": [m["text"] for m in moves],
        "moves": moves,
        "called": seat is not None and table.seats[seat].called,
        "pause": pause_data(table),
        "words": rule_words(table.rules, int(pending)),
    }


def rule_words(rules: Rules, pending: int) -> dict[str, str]:
    """The engine's words for what the table says of a rule: who wins a blocked round
    (``Rules.blockade``) and, facing a draw-two, how it is answered (``answer_draw_two``)."""
    words = {"blockade": rules.blockade}
    answer = rules.answer_draw_two(pending)
    if answer:
        words["answer"] = answer
    return words


def pause_data(table: TableState) -> Any:
    """The pause between rounds (the same for everyone), or None."""
    return table.rounds.data(table.seats, table.members.at)


def pause_out(table: TableState) -> PauseOut:
    """The pause now: who is still to press "Next round", or null once the table goes on."""
    data = pause_data(table)
    return PauseOut(
        table=table.id, clock=clock(table), pause=None if data is None else Pause(**data)
    )


def rating_changes(table: TableState) -> list[RatingChange]:
    """Each person's rating before and after the finished game (bots left out)."""
    changes = table.rating_changes
    return [
        RatingChange(
            seat=s.seat,
            account=s.account_id,
            before=changes[s.account_id][0],
            after=changes[s.account_id][1],
        )
        for s in table.seats
        if s.bot is None and s.account_id is not None and s.account_id in changes
    ]


def ratings_out(table: TableState) -> RatingsOut:
    """The finished game's rating changes, sent once it is recorded."""
    return RatingsOut(table=table.id, clock=None, rated=table.rated, changes=rating_changes(table))


def state_texts(
    table: TableState, events: list[Any], move: str | None, by: int | None, ack: int | None
) -> list[tuple[Member, str]]:
    """One ``state`` message per seat (and one for spectators), for every member.

    The hot path of every move: the text is dumped straight from plain data (the same
    JSON as ``StateOut.model_dump_json``) rather than through model validation.
    """
    cache: dict[int | None, str] = {}
    found = clock(table)
    clock_data = None if found is None else found.model_dump()
    out = []
    for member in table.members:
        text = cache.get(member.seat)
        if text is None:
            state = state_data(table, member.seat, events=events, move=move, by=by, ack=ack)
            text = cache[member.seat] = dumps(
                {"table": table.id, "clock": clock_data, "type": "state", "state": state}
            )
        out.append((member, text))
    return out


def welcome(table: TableState, member: Member, *, stood_in: int = 0) -> Welcome:
    """Everything a socket needs on arrival: who it is, the table, the state, the chat,
    and the moves a stand-in played for its seat if this arrival gave the seat back."""
    data = state_data(table, member.seat, log=True)
    return Welcome(
        table=table.id,
        clock=clock(table),
        you=You(
            account=member.account_id,
            seat=member.seat,
            role="spectator" if member.seat is None else "player",
        ),
        info=table_info(table, for_account=member.account_id),
        state=None if data is None else State(**data),
        chat=[
            chat_out(table.id, line)
            for line in table.chat.lines
            if line.account_id is None or line.account_id not in member.hides
        ],
        ratings=rating_changes(table) if table.rating_changes else None,
        rematch=table.rematch,
        stood_in=stood_in,
    )


def back_out(table: TableState, seat: int, played: int) -> BackOut:
    """A player has their seat back from a stand-in, which played ``played`` moves."""
    return BackOut(table=table.id, clock=None, seat=seat, name=table.seats[seat].name, moves=played)


def chat_out(
    table_id: str, line: ChatLine, *, clock: Clock | None = None, call: bool = False
) -> ChatOut:
    return ChatOut(
        table=table_id,
        clock=clock,
        seat=line.seat,
        account=line.account_id,
        name=line.name,
        text=html.escape(line.text),
        at=line.at,
        call=call,
    )
