"""What a table sends: its info, the clock, and each seat's state, from the actor's
public state. Every state is built from ``game.view(seat)`` and ``event.for_seat(seat)``,
so a message can never carry a card its seat may not see (RULES G5).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pydantic_core

from ..protocol import (
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
from .store import ChatLine

if TYPE_CHECKING:
    from .actor import TableActor


def dumps(data: Any) -> str:
    """JSON text of plain data (the same text as the models' ``model_dump_json``)."""
    return pydantic_core.to_json(data).decode()


def table_info(actor: TableActor, *, for_account: int | None = None) -> TableInfo:
    """The table's settings and seats; the invite code only for its creator."""
    creator = for_account is not None and for_account == actor.creator
    return TableInfo(
        id=actor.id,
        name=actor.spec.name,
        ruleset=actor.rules.ruleset,
        rules=actor.rules.to_dict(),
        status=actor.status,
        public=actor.spec.public,
        rated=actor.spec.rated,
        hints=actor.spec.hints,
        takeover_after=actor.spec.takeover_after,
        creator=actor.creator,
        invite=actor.invite if creator else None,
        seats=[seat_info(actor, s.seat) for s in actor.seats],
        spectators=actor.members.spectators,
        version=actor.version,
        created_at=actor.created_at,
    )


def seat_info(actor: TableActor, seat_no: int) -> SeatInfo:
    """Who sits at a seat and whether they are here."""
    s = actor.seats[seat_no]
    return SeatInfo(
        seat=s.seat,
        account=s.account_id,
        name=s.name,
        avatar=s.avatar,
        bot=s.bot,
        connected=actor.connected(s.seat) if s.taken else False,
        standin=s.standin,
        left=s.left,
        away_left=away_left(actor, seat_no),
        archon=actor.deps.titles(s.account_id) if s.bot is None else [],
    )


def away_left(actor: TableActor, seat_no: int) -> float | None:
    """Seconds until a stand-in plays an absent player's seat in a running game (None
    when no stand-in is on its way), for the countdown the others see on the seat."""
    seat = actor.seats[seat_no]
    if actor.status != "playing" or not actor.spec.takeover_after or seat.standin:
        return None
    if not seat.human or seat.left:
        return None
    left = actor.grace.left(seat_no)
    return None if left is None else round(left, 1)


def presence(actor: TableActor, seats: list[int]) -> PresenceOut:
    """The seats whose presence changed, and how many watch."""
    return PresenceOut(
        table=actor.id,
        clock=clock(actor),
        seats=[seat_info(actor, seat) for seat in seats],
        spectators=actor.members.spectators,
    )


def clock(actor: TableActor) -> Clock | None:
    """Whose turn it is and how long they have left, while a game runs (not between
    rounds: no clock runs then)."""
    game = actor.game
    if game is None or game.is_over or actor.status != "playing" or actor.rounds.active:
        return None
    seat = game.current_player
    if seat is None:
        return None
    return Clock(seat=seat, left=round(actor.clock.left(), 1), timer=actor.rules.turn_timer)


def state_data(
    actor: TableActor,
    seat: int | None,
    *,
    log: bool = False,
    events: list[Any] = (),  # type: ignore[assignment]
    move: str | None = None,
    by: int | None = None,
    ack: int | None = None,
) -> dict[str, Any] | None:
    """The fields of a ``State`` for ``seat`` (None: spectators), as plain data."""
    game = actor.game
    if game is None:
        return None
    # nobody may move while the table pauses between rounds, though the next deal is out
    to_move = seat is not None and game.current_player == seat and not actor.rounds.active
    moves = game.legal_move_data() if to_move else []
    return {
        "version": actor.version,
        "move": move,
        "by": by,
        "ack": ack if seat is not None and seat == by else None,
        "events": [e.for_seat(seat) for e in events],
        "view": game.view(seat, log=log),
        "legal": [m["text"] for m in moves],
        "moves": moves,
        "called": seat is not None and actor.seats[seat].called,
        "pause": pause_data(actor),
    }


def pause_data(actor: TableActor) -> Any:
    """The pause between rounds (the same for everyone), or None."""
    return actor.rounds.data(actor.seats, actor.members.at)


def pause_out(actor: TableActor) -> PauseOut:
    """The pause now: who is still to press "Next round", or null once the table goes on."""
    data = pause_data(actor)
    return PauseOut(
        table=actor.id, clock=clock(actor), pause=None if data is None else Pause(**data)
    )


def rating_changes(actor: TableActor) -> list[RatingChange]:
    """Each person's rating before and after the finished game (bots left out)."""
    changes = actor.rating_changes
    return [
        RatingChange(
            seat=s.seat,
            account=s.account_id,
            before=changes[s.account_id][0],
            after=changes[s.account_id][1],
        )
        for s in actor.seats
        if s.bot is None and s.account_id is not None and s.account_id in changes
    ]


def ratings_out(actor: TableActor) -> RatingsOut:
    """The finished game's rating changes, sent once it is recorded."""
    return RatingsOut(table=actor.id, clock=None, rated=actor.rated, changes=rating_changes(actor))


def state_texts(
    actor: TableActor, events: list[Any], move: str | None, by: int | None, ack: int | None
) -> list[tuple[Member, str]]:
    """One ``state`` message per seat (and one for spectators), for every member.

    The hot path of every move: the text is dumped straight from plain data (the same
    JSON as ``StateOut.model_dump_json``) rather than through model validation.
    """
    cache: dict[int | None, str] = {}
    found = clock(actor)
    clock_data = None if found is None else found.model_dump()
    out = []
    for member in actor.members:
        text = cache.get(member.seat)
        if text is None:
            state = state_data(actor, member.seat, events=events, move=move, by=by, ack=ack)
            text = cache[member.seat] = dumps(
                {"table": actor.id, "clock": clock_data, "type": "state", "state": state}
            )
        out.append((member, text))
    return out


def welcome(actor: TableActor, member: Member) -> Welcome:
    """Everything a socket needs on arrival: who it is, the table, the state, the chat."""
    data = state_data(actor, member.seat, log=True)
    return Welcome(
        table=actor.id,
        clock=clock(actor),
        you=You(
            account=member.account_id,
            seat=member.seat,
            role="spectator" if member.seat is None else "player",
        ),
        info=table_info(actor, for_account=member.account_id),
        state=None if data is None else State(**data),
        chat=[chat_out(actor.id, line) for line in actor.chat.lines],
        ratings=rating_changes(actor) if actor.rating_changes else None,
        rematch=actor.rematch,
    )


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
