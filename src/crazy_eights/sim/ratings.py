"""Tournament ratings with openskill (Plackett-Luce), updated game by game in game order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .report import Interval, wilson
from .runner import GameRecord


@dataclass
class Standing:
    bot: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "games": self.games,
            "wins": self.wins,
            "win_rate": Interval(*wilson(self.wins, self.games)).to_dict(),
        }


def rate(
    matches: Sequence[tuple[Sequence[str], Sequence[GameRecord]]], bots: Sequence[str]
) -> list[Standing]:
    """Ratings of ``bots`` from every match (its players and records); best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {bot: model.rating(name=bot) for bot in bots}
    games = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0)
    for players, records in matches:
        for record in records:
            if not record.finished:
                continue
            teams = [[ratings[bot]] for bot in players]
            new = model.rate(teams, ranks=[float(r) for r in record.ranks])
            for bot, team in zip(players, new, strict=True):
                ratings[bot] = team[0]
                games[bot] += 1
            if record.winner is not None:
                wins[players[record.winner]] += 1
    out = [
        Standing(bot, float(ratings[bot].mu), float(ratings[bot].sigma), games[bot], wins[bot])
        for bot in bots
    ]
    out.sort(key=lambda s: -s.ordinal)
    return out


__all__ = ["Standing", "rate"]
