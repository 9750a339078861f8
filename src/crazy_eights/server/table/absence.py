"""Absence at a running table: who is away, when nobody is left, who abandoned the game.

The facts the actor, the lobby and the records ask about absent players, read off the
seats (who plays each seat: a person, a bot, a stand-in) and the members (who is
connected now). Nothing here changes a table; the actor decides what follows.
"""

from __future__ import annotations

from .members import Members
from .seats import Seat, Seats


def present(seat: Seat, members: Members) -> bool:
    """Whether a person plays this seat and is connected to the table now."""
    return seat.human and not seat.left and members.at(seat.seat)


def unattended(seats: Seats, members: Members) -> bool:
    """Whether only bots are left playing: every seat is a bot's or a stand-in's and no
    player is connected (watchers do not count).

    Such a table is played out quickly in the background (no turn timer, no human-like
    bot pause) and is not listed in the lobby. A player still in their grace keeps the
    table attended: their seat is not yet a bot's.
    """
    return all(seat.bot_level is not None for seat in seats) and not any(
        present(seat, members) for seat in seats
    )


def abandoned(seats: Seats, members: Members) -> list[Seat]:
    """The seats whose player abandoned the game as it ends: a person who has not left
    yet but is not connected, or whose seat a stand-in bot is playing.

    They are recorded as having left (a loss, ranked last), so nobody is credited with
    a win, or a place, that a stand-in played for them.
    """
    return [
        seat
        for seat in seats
        if seat.human and not seat.left and (seat.standin or not members.at(seat.seat))
    ]
