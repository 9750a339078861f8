"""Records, match history, replays and openskill leaderboards.

Only finished games count. Leaving a running game counts as a loss and ranks the leaver
last. Bot levels have accounts of their own, so they are rated in the same pool as people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from crazy_eights.engine import RULESETS, Rules, new_game

from . import db
from .auth import OptionalAccount
from .errors import ApiError

if TYPE_CHECKING:
    from .app import Room

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate leaderboards sort by."""
    return mu - 3 * sigma


async def record_game(
    conn: AsyncConnection,
    *,
    ruleset: str,
    rated: bool,
    seats: list[tuple[int, int | None, bool]],
    result: dict[str, Any],
) -> None:
    """Add a finished game to each player's record (and rating, when the table is rated).

    ``seats`` is (seat, account, left). An account on several seats (two bots of one
    level) counts once, at its best place.
    """
    standings: list[int] = result["standings"]
    place = {seat: i for i, seat in enumerate(standings)}
    last = len(standings)
    best: dict[int, tuple[int, int, bool]] = {}  # account -> (rank, seat, won)
    for seat, account, left in seats:
        if account is None:
            continue
        rank = last if left else place.get(seat, last)
        won = not left and result.get("winner") == seat
        old = best.get(account)
        if old is None or rank < old[0]:
            best[account] = (rank, seat, won or (old is not None and old[2]))
    if not best:
        return
    ids = list(best)
    rows = {
        r.account_id: r
        for r in (
            await conn.execute(
                sa.select(db.records).where(
                    db.records.c.ruleset == ruleset, db.records.c.account_id.in_(ids)
                )
            )
        ).all()
    }
    ratings = {
        a: MODEL.rating(mu=rows[a].mu, sigma=rows[a].sigma) if a in rows else MODEL.rating()
        for a in ids
    }
    if rated and len(ids) > 1:
        new = MODEL.rate([[ratings[a]] for a in ids], ranks=[best[a][0] for a in ids])
        ratings = {a: team[0] for a, team in zip(ids, new, strict=True)}
    points: list[int] = result.get("points") or []
    for account in ids:
        _, seat, won = best[account]
        gained = int(points[seat]) if seat < len(points) else 0
        old = rows.get(account)
        streak = (old.streak if old else 0) + 1 if won else 0
        values = {
            "games": (old.games if old else 0) + 1,
            "wins": (old.wins if old else 0) + int(won),
            "points": (old.points if old else 0) + gained,
            "streak": streak,
            "best_streak": max(old.best_streak if old else 0, streak),
            "rated_games": (old.rated_games if old else 0) + int(rated),
            "mu": ratings[account].mu,
            "sigma": ratings[account].sigma,
        }
        if old is None:
            await conn.execute(
                db.records.insert().values(account_id=account, ruleset=ruleset, **values)
            )
        else:
            await conn.execute(
                db.records.update()
                .where(db.records.c.account_id == account, db.records.c.ruleset == ruleset)
                .values(**values)
            )


def display_rating(mu: float, sigma: float) -> int:
    """The rating people read: the ordinal on a familiar scale, never negative.

    A newcomer (mu 25, sigma 25/3: ordinal 0) shows 1000; each point of ordinal is 40.

    >>> display_rating(25.0, 25 / 3), display_rating(35.0, 2.0), display_rating(-30.0, 5.0)
    (1000, 2160, 0)
    """
    return max(0, round(1000 + 40 * ordinal(mu, sigma)))


def record_out(row: Any) -> dict[str, Any]:
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
        },
    }


def replay_steps(rules: Rules, seed: int, moves: list[Any]) -> list[dict[str, Any]]:
    """Every position of a finished game with all hands shown, for stepping through."""
    game = new_game(rules, seed)
    seats = range(rules.players)

    def step(move: str | None, by: int | None, events: list[Any]) -> dict[str, Any]:
        return {
            "version": len(game.moves),
            "move": move,
            "by": by,
            "events": [e.for_seat(e.seat) for e in events],
            "view": game.view(None),
            "hands": [game.view(s).get("hand", []) for s in seats],
        }

    steps = [step(None, None, [])]
    for row in moves:
        steps.append(step(row.move, row.seat, game.play(row.move)))
    return steps


router = APIRouter(tags=["records"])


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


@router.get("/api/accounts/{account_id}/records")
async def records(account_id: int, request: Request) -> dict[str, Any]:
    """Games, wins, win rate, points, streaks and rating per ruleset."""
    async with _room(request).engine.connect() as conn:
        rows = (
            await conn.execute(
                sa.select(db.records)
                .where(db.records.c.account_id == account_id)
                .order_by(db.records.c.ruleset)
            )
        ).all()
    return {"account": account_id, "records": [record_out(r) for r in rows]}


@router.get("/api/accounts/{account_id}/history")
async def history(
    account_id: int, request: Request, limit: int = Query(20, ge=1, le=100)
) -> list[dict[str, Any]]:
    """Finished games of an account, newest first, with a link to each replay."""
    query = (
        sa.select(db.tables, db.seats.c.seat, db.seats.c.left)
        .join(db.seats, db.seats.c.table_id == db.tables.c.id)
        .where(db.seats.c.account_id == account_id, db.tables.c.status == "finished")
        .order_by(db.tables.c.finished_at.desc())
        .limit(limit)
    )
    async with _room(request).engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "table": r.id,
            "name": r.name,
            "ruleset": r.ruleset,
            "seat": r.seat,
            "left": r.left,
            "won": not r.left and (r.result or {}).get("winner") == r.seat,
            "result": r.result,
            "rated": not r.hints,
            "finished_at": r.finished_at,
            "replay": f"/api/tables/{r.id}/replay",
        }
        for r in rows
    ]


@router.get("/api/leaderboard/{ruleset}")
async def leaderboard(
    ruleset: str, request: Request, limit: int = Query(50, ge=1, le=500)
) -> list[dict[str, Any]]:
    """Accounts and bot levels by openskill rating (rated games only)."""
    if ruleset not in RULESETS:
        raise ApiError(404, "no_ruleset", f"rulesets are {', '.join(RULESETS)}")
    query = (
        sa.select(db.records, db.accounts.c.display_name, db.accounts.c.bot_level)
        .join(db.accounts, db.accounts.c.id == db.records.c.account_id)
        .where(db.records.c.ruleset == ruleset, db.records.c.rated_games > 0)
        .order_by((db.records.c.mu - 3 * db.records.c.sigma).desc())
        .limit(limit)
    )
    async with _room(request).engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "rank": i + 1,
            "account": r.account_id,
            "name": r.display_name,
            "bot": r.bot_level,
            **record_out(r),
        }
        for i, r in enumerate(rows)
    ]


@router.get("/api/tables/{table_id}/replay")
async def table_replay(table_id: str, request: Request, account: OptionalAccount) -> dict[str, Any]:
    """A finished game move by move, every hand shown (private tables: their players)."""
    async with _room(request).engine.connect() as conn:
        row = (await conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id))).first()
        if row is None:
            raise ApiError(404, "no_table", "no such table")
        if row.status != "finished":
            raise ApiError(409, "not_finished", "replays are shown once the game is over")
        seat_rows = (
            await conn.execute(
                sa.select(db.seats, db.accounts.c.display_name)
                .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
                .where(db.seats.c.table_id == table_id)
                .order_by(db.seats.c.seat)
            )
        ).all()
        move_rows = (
            await conn.execute(
                sa.select(db.moves).where(db.moves.c.table_id == table_id).order_by(db.moves.c.n)
            )
        ).all()
    players = {s.account_id for s in seat_rows} | {row.creator_id}
    if not row.public and (account is None or account.id not in players):
        raise ApiError(403, "private", "replays of private tables are for their players")
    rules = Rules.from_dict(row.rules)
    return {
        "id": row.id,
        "rules": row.rules,
        "seed": int(row.seed),
        "seats": [
            {
                "seat": s.seat,
                "account": s.account_id,
                "name": s.display_name,
                "bot": s.bot_level,
                "left": s.left,
            }
            for s in seat_rows
        ],
        "result": row.result,
        "moves": [{"n": m.n, "seat": m.seat, "move": m.move, "at": m.at} for m in move_rows],
        "steps": replay_steps(rules, int(row.seed), list(move_rows)),
    }
