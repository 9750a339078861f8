"""Records, match history and openskill leaderboards.

Only finished games count. Leaving a running game counts as a loss and ranks the leaver
last. Bot levels have accounts of their own, so they are rated in the same pool as people.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db, ratings
from .archon import RuleOut, Titles, seat_titles
from .ratings import ordinal
from .records.finish import GameFinished, RatingChanges
from .records.games import finished_games


async def record_game(
    conn: AsyncConnection,
    *,
    ruleset: str,
    rated: bool,
    seats: list[tuple[int, int | None, bool]],
    result: Mapping[str, Any],
    rate_guests: bool = False,
) -> dict[int, tuple[int, int]]:
    """Add a finished game to each player's record (and rating, when the table is rated).

    ``seats`` is (seat, account, left); ``ratings`` does the maths. Guests' ratings
    stay as they are and leave the others' alone, unless ``rate_guests``. Answers the
    rating as people read it (``display_rating``), before and after, of each account
    whose rating was at stake.
    """
    placed = ratings.placings(seats, result)
    if not placed:
        return {}
    ids = list(placed)
    rows = await _lock_records(conn, ruleset, ids)
    old = {a: _record(rows[a]) for a in ids}
    unrated = set() if rate_guests else await _guests(conn, ids)
    new = ratings.after_game(
        old, placed, rated=rated, points=result.get("points") or [], unrated=unrated
    )
    for account, record in new.items():
        await conn.execute(
            db.records.update()
            .where(db.records.c.account_id == account, db.records.c.ruleset == ruleset)
            .values(**dataclasses.asdict(record))
        )
    return {
        a: (display_rating(old[a].mu, old[a].sigma), display_rating(r.mu, r.sigma))
        for a, r in new.items()
        if a not in unrated
    }


async def _guests(conn: AsyncConnection, ids: list[int]) -> set[int]:
    """Which of the accounts are guests."""
    query = sa.select(db.accounts.c.id).where(db.accounts.c.id.in_(ids), db.accounts.c.guest)
    return {r.id for r in (await conn.execute(query)).all()}


async def rate_game(
    conn: AsyncConnection, game: GameFinished, *, rate_guests: bool = False
) -> RatingChanges:
    """A finished game's rater (in its transaction): ``record_game`` for its seats
    (not for a private game: it counts in no public figure)."""
    if not game.public:
        return {}
    return await record_game(
        conn,
        ruleset=game.rules.ruleset,
        rated=game.rated,
        seats=[(s.seat, s.account_id, s.left) for s in game.seats],
        result=game.result,
        rate_guests=rate_guests,
    )


async def _lock_records(conn: AsyncConnection, ruleset: str, ids: list[int]) -> dict[int, Any]:
    """The players' records in ``ruleset`` (made if new), held until the transaction ends.

    A record is read, rated and written back, and a bot's record is shared by all its
    tables: without the lock two games finishing together would each write their own
    count over the other's (and on PostgreSQL both insert a new record, and one fails).
    The insert comes first and in account order: on SQLite it takes the write lock, on
    PostgreSQL it waits for another game's insert of the same row; ``FOR UPDATE`` then
    holds the rows on PostgreSQL (SQLite leaves it out; its write lock does the job).
    """
    first = ratings.Record()
    new = [
        {"account_id": a, "ruleset": ruleset, "mu": first.mu, "sigma": first.sigma}
        for a in sorted(ids)
    ]
    await conn.execute(db.dialect_insert(conn, db.records).on_conflict_do_nothing(), new)
    query = (
        sa.select(db.records)
        .where(db.records.c.ruleset == ruleset, db.records.c.account_id.in_(ids))
        .order_by(db.records.c.account_id)
        .with_for_update()
    )
    return {r.account_id: r for r in (await conn.execute(query)).all()}


def _record(row: Any) -> ratings.Record:
    return ratings.Record(
        **{f.name: getattr(row, f.name) for f in dataclasses.fields(ratings.Record)}
    )


def display_rating(mu: float, sigma: float) -> int:
    """The rating people read: the ordinal on a familiar scale, never negative.

    A newcomer (mu 25, sigma 25/3: ordinal 0) shows 1000; each point of ordinal is 40.

    >>> display_rating(25.0, 25 / 3), display_rating(35.0, 2.0), display_rating(-30.0, 5.0)
    (1000, 2160, 0)
    """
    return max(0, round(1000 + 40 * ordinal(mu, sigma)))


def record_out(row: Any, settled_from: int = ratings.PROVISIONAL_GAMES) -> dict[str, Any]:
    """A record as JSON; its rating is ``provisional`` below ``settled_from`` rated games."""
    return {
        "ruleset": row.ruleset,
        "games": row.games,
        "wins": row.wins,
        "losses": row.games - row.wins,
        "win_rate": round(row.wins / row.games, 4) if row.games else 0.0,
        "points": row.points,
        "streak": row.streak,
        "best_streak": row.best_streak,
        "rated_games": row.rated_games,
        "rating": {
            "mu": row.mu,
            "sigma": row.sigma,
            "ordinal": ordinal(row.mu, row.sigma),
            "display": display_rating(row.mu, row.sigma),
            "provisional": row.rated_games < settled_from,
        },
    }


class RecordBook:
    """What the room answers about records: per-account records and history, and the
    leaderboards with their Master Card Archon titles (replays: ``replays.Replays``)."""

    def __init__(
        self,
        engine: AsyncEngine,
        titles: Titles,
        settled_from: int = ratings.PROVISIONAL_GAMES,
    ) -> None:
        self.engine = engine
        self.titles = titles
        self.settled_from = settled_from
        """Rated games from which a rating is settled (no "?", on the leaderboards)."""

    async def records(self, account_id: int) -> dict[str, Any]:
        """Games, wins, win rate, points, streaks and rating per ruleset."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(db.records)
                    .where(db.records.c.account_id == account_id)
                    .order_by(db.records.c.ruleset)
                )
            ).all()
        return {
            "account": account_id,
            "archon": self.titles.of(account_id),
            "records": [record_out(r, self.settled_from) for r in rows],
        }

    async def history(
        self, account_id: int, *, viewer: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Finished games of an account, newest first (private ones for itself only)."""
        async with self.engine.connect() as conn:
            rows = await finished_games(
                conn, account_id, limit=limit, public_only=viewer != account_id
            )
        return [history_out(r) for r in rows]

    async def leaderboard(self, ruleset: str, limit: int) -> list[dict[str, Any]]:
        """Registered accounts and bot levels by openskill rating, once their rating is
        settled (``settled_from`` rated games): no guests."""
        await self.titles.refresh()
        query = (
            sa.select(
                db.records,
                db.accounts.c.display_name,
                db.accounts.c.bot_level,
                db.accounts.c.guest,
            )
            .join(db.accounts, db.accounts.c.id == db.records.c.account_id)
            .where(
                db.records.c.ruleset == ruleset,
                db.records.c.rated_games >= self.settled_from,
                sa.not_(db.accounts.c.guest),
            )
            .order_by((db.records.c.mu - 3 * db.records.c.sigma).desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "rank": i + 1,
                "account": r.account_id,
                "name": r.display_name,
                "bot": r.bot_level,
                "guest": r.guest,
                "archon": seat_titles(self.titles, r.account_id, r.bot_level),
                **record_out(r, self.settled_from),
            }
            for i, r in enumerate(rows)
        ]

    async def archon_rule(self, ruleset: str) -> RuleOut:
        """The rule of the ruleset's title, its settings and its holder."""
        await self.titles.refresh()
        return self.titles.rule_out(ruleset)


def history_out(r: Any) -> dict[str, Any]:
    """One finished game of an account's history (``records.games.finished_games``)."""
    return {
        "table": r.id,
        "name": r.name,
        "ruleset": r.ruleset,
        "seat": r.seat,
        "left": r.left,
        "won": not r.left and (r.result or {}).get("winner") == r.seat,
        "result": r.result,
        "rated": not r.hints and r.public and not r.unrated,
        "finished_at": r.finished_at,
        "replay": f"/api/tables/{r.id}/replay",
    }
