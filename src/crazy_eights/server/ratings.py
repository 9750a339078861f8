"""The maths of records and ratings: what one finished game does to each player's record.

No storage here: ``stats.record_game`` reads the records, asks ``after_game`` and writes
them back. Ratings are openskill's Plackett-Luce; leaderboards sort by ``ordinal``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate leaderboards sort by."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Record:
    """One account's record in one ruleset."""

    games: int = 0
    wins: int = 0
    points: int = 0
    streak: int = 0
    best_streak: int = 0
    rated_games: int = 0
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma


@dataclass(frozen=True)
class Placing:
    """Where an account finished a game: its rank (0 best), its seat, whether it won."""

    rank: int
    seat: int
    won: bool


def placings(
    seats: Sequence[tuple[int, int | None, bool]], result: Mapping[str, Any]
) -> dict[int, Placing]:
    """Each account's placing from (seat, account, left) and a game result.

    Leaving a running game counts as a loss and ranks the leaver last. An account on
    several seats (two bots of one level) counts once, at its best place.

    >>> result = {"standings": [1, 0, 2], "winner": 1}
    >>> placings([(0, 10, False), (1, 11, False), (2, 12, True)], result)[11]
    Placing(rank=0, seat=1, won=True)
    >>> placings([(0, 10, False), (1, 11, False), (2, 12, True)], result)[12].rank
    3
    """
    place = {seat: i for i, seat in enumerate(result["standings"])}
    last = len(place)
    best: dict[int, Placing] = {}
    for seat, account, left in seats:
        if account is None:
            continue
        rank = last if left else place.get(seat, last)
        won = not left and result.get("winner") == seat
        old = best.get(account)
        if old is None or rank < old.rank:
            best[account] = Placing(rank, seat, won or (old is not None and old.won))
    return best


PROVISIONAL_GAMES = 10
"""Rated games before a rating is settled: until then it is shown with a "?" and kept
off the leaderboards (a few lucky games say little); the default of the room's
``provisional_games`` setting."""


def after_game(
    records: Mapping[int, Record],
    placed: Mapping[int, Placing],
    *,
    rated: bool,
    points: Sequence[int],
    unrated: Collection[int] = (),
) -> dict[int, Record]:
    """Every placed account's record once this game is added (ratings move if ``rated``).
    The accounts in ``unrated`` (guests, unless the room rates them) keep their rating
    and are left out of the others' rating, as if they had not played."""
    ids = list(placed)
    old = {a: records.get(a, Record()) for a in ids}
    ratings = {a: (old[a].mu, old[a].sigma) for a in ids}
    rating = [a for a in ids if a not in unrated] if rated else []
    if len(rating) < 2:  # nobody to be rated against: nothing is rated
        rating = []
    else:
        teams = [[MODEL.rating(mu=old[a].mu, sigma=old[a].sigma)] for a in rating]
        new = MODEL.rate(teams, ranks=[placed[a].rank for a in rating])
        ratings |= {a: (team[0].mu, team[0].sigma) for a, team in zip(rating, new, strict=True)}
    out = {}
    for account in ids:
        record, placing = old[account], placed[account]
        streak = record.streak + 1 if placing.won else 0
        out[account] = replace(
            record,
            games=record.games + 1,
            wins=record.wins + int(placing.won),
            points=record.points + (int(points[placing.seat]) if placing.seat < len(points) else 0),
            streak=streak,
            best_streak=max(record.best_streak, streak),
            rated_games=record.rated_games + int(account in rating),
            mu=ratings[account][0],
            sigma=ratings[account][1],
        )
    return out
