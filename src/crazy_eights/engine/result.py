"""How a finished game came out: ``GameResult`` and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

EndReason = Literal["out", "blockade", "turn_limit", "cycle_limit", "blocked", "move_limit"]
"""How a round or a game ended: a player went ``out``; a ``blockade`` (C7, U9, K5: every
player passed in a row and nobody could go out); OpenSpiel's ``turn_limit``; the cycles
``cycle_limit`` (Y16); or ``blocked`` (cycles: nobody could lead, see cycles.py)."""


class ResultDict(TypedDict):
    """``GameResult.to_dict()``: the result as it goes over the wire."""

    winner: int | None
    standings: list[int]
    points: list[int]
    rounds: int
    reason: EndReason


@dataclass(frozen=True, kw_only=True)
class GameResult:
    """How a finished game came out.

    ``standings`` lists every seat, best first. ``points`` is per seat: the match score
    (classic), the penalty total (ultimate), the number (countdown), the points left in
    hand (OpenSpiel), the hand value (cycles). ``reason`` is how the last round ended.
    """

    winner: int | None
    standings: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    reason: EndReason

    def to_dict(self) -> ResultDict:
        return {
            "winner": self.winner,
            "standings": list(self.standings),
            "points": list(self.points),
            "rounds": self.rounds,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: ResultDict) -> GameResult:
        return cls(
            winner=data["winner"],
            standings=tuple(data["standings"]),
            points=tuple(data["points"]),
            rounds=int(data["rounds"]),
            reason=data["reason"],
        )


def game_result(
    winner: int | None,
    standings: tuple[int, ...],
    points: tuple[int, ...],
    rounds: int,
    reason: EndReason,
) -> GameResult:
    """``GameResult(winner=..., ...)``, made at a third of the cost: the fields go
    straight into the new instance's ``__dict__`` instead of through the frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` call a field). Every game,
    and so every playout of a search, ends by making one."""
    result = _new(GameResult)
    fields = result.__dict__
    fields["winner"] = winner
    fields["standings"] = standings
    fields["points"] = points
    fields["rounds"] = rounds
    fields["reason"] = reason
    return result


_new = object.__new__

__all__ = ["EndReason", "GameResult", "ResultDict", "game_result"]
