"""Records, match history, replays and openskill leaderboards.

Only finished games count. Leaving a running game counts as a loss and ranks the leaver
last. Bot levels have accounts of their own, so they are rated in the same pool as people.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Path, Query, Request
from sqlalchemy.ext.asyncio import AsyncConnection

from crazy_eights.engine import RULESETS, Move, Rules, new_game

from . import db, ratings
from .archon import RuleOut, seat_titles
from .auth import OptionalAccount
from .errors import ApiError
from .ratings import ordinal
from .security import may_see_private_table

if TYPE_CHECKING:
    from .app import Room


async def record_game(
    conn: AsyncConnection,
    *,
    ruleset: str,
    rated: bool,
    seats: list[tuple[int, int | None, bool]],
    result: Mapping[str, Any],
) -> dict[int, tuple[int, int]]:
    """Add a finished game to each player's record (and rating, when the table is rated).

    ``seats`` is (seat, account, left); ``ratings`` does the maths. Answers each
    account's rating as people read it (``display_rating``), before and after.
    """
    placed = ratings.placings(seats, result)
    if not placed:
        return {}
    ids = list(placed)
    rows = await _lock_records(conn, ruleset, ids)
    old = {a: _record(rows[a]) for a in ids}
    new = ratings.after_game(old, placed, rated=rated, points=result.get("points") or [])
    for account, record in new.items():
        await conn.execute(
            db.records.update()
            .where(db.records.c.account_id == account, db.records.c.ruleset == ruleset)
            .values(**dataclasses.asdict(record))
        )
    return {
        a: (display_rating(old[a].mu, old[a].sigma), display_rating(r.mu, r.sigma))
        for a, r in new.items()
    }


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

    def step(move: Move | None, by: int | None, events: list[Any]) -> dict[str, Any]:
        return {
            "version": len(game.moves),
            "move": None if move is None else move.text,
            "data": None if move is None else move.to_dict(),
            "by": by,
            "events": [e.for_seat(e.seat) for e in events],
            "view": game.view(None),
            "hands": [game.view(s).get("hand", []) for s in seats],
        }

    steps = [step(None, None, [])]
    for row in moves:
        move = Move.parse(row.move)  # the one place a stored move's text is read
        steps.append(step(move, row.seat, game.play(move)))
    return steps


router = APIRouter(tags=["records"])

AccountId = Annotated[int, Path(ge=1, le=2**63 - 1, description="an account's id")]


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


@router.get("/api/accounts/{account_id}/records")
async def records(account_id: AccountId, request: Request) -> dict[str, Any]:
    """Games, wins, win rate, points, streaks and rating per ruleset."""
    async with _room(request).engine.connect() as conn:
        rows = (
            await conn.execute(
                sa.select(db.records)
                .where(db.records.c.account_id == account_id)
                .order_by(db.records.c.ruleset)
            )
        ).all()
    titles = _room(request).titles
    return {
        "account": account_id,
        "archon": titles.of(account_id),
        "records": [record_out(r) for r in rows],
    }


@router.get("/api/accounts/{account_id}/history")
async def history(
    account_id: AccountId,
    request: Request,
    viewer: OptionalAccount,
    limit: int = Query(20, ge=1, le=100),
) -> list[dict[str, Any]]:
    """Finished games of an account, newest first, with a link to each replay. Private
    tables are listed to the account itself only."""
    query = (
        sa.select(db.tables, db.seats.c.seat, db.seats.c.left)
        .join(db.seats, db.seats.c.table_id == db.tables.c.id)
        .where(db.seats.c.account_id == account_id, db.tables.c.status == "finished")
        .order_by(db.tables.c.finished_at.desc())
        .limit(limit)
    )
    if viewer is None or viewer.id != account_id:
        query = query.where(db.tables.c.public == sa.true())
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
    """Accounts and bot levels by openskill rating (rated games only); ``archon`` lists
    the rulesets whose Master Card Archon title a row's account holds."""
    if ruleset not in RULESETS:
        raise ApiError(404, "no_ruleset", f"rulesets are {', '.join(RULESETS)}")
    room = _room(request)
    await room.titles.refresh()
    query = (
        sa.select(
            db.records, db.accounts.c.display_name, db.accounts.c.bot_level, db.accounts.c.guest
        )
        .join(db.accounts, db.accounts.c.id == db.records.c.account_id)
        .where(db.records.c.ruleset == ruleset, db.records.c.rated_games > 0)
        .order_by((db.records.c.mu - 3 * db.records.c.sigma).desc())
        .limit(limit)
    )
    async with room.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "rank": i + 1,
            "account": r.account_id,
            "name": r.display_name,
            "bot": r.bot_level,
            "guest": r.guest,
            "archon": seat_titles(room.titles, r.account_id, r.bot_level),
            **record_out(r),
        }
        for i, r in enumerate(rows)
    ]


@router.get("/api/leaderboard/{ruleset}/archon")
async def archon_rule(ruleset: str, request: Request) -> RuleOut:
    """The rule of the ruleset's Master Card Archon title, its settings and its holder."""
    if ruleset not in RULESETS:
        raise ApiError(404, "no_ruleset", f"rulesets are {', '.join(RULESETS)}")
    titles = _room(request).titles
    await titles.refresh()
    return titles.rule_out(ruleset)


@router.get("/api/tables/{table_id}/replay")
async def table_replay(
    table_id: str, request: Request, account: OptionalAccount, code: str | None = None
) -> dict[str, Any]:
    """A finished game move by move, every hand shown (private tables: their players and
    whoever has the invite ``code``)."""
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
    if not row.public and not may_see_private_table(
        members={s.account_id for s in seat_rows} | {row.creator_id},
        account_id=account.id if account else None,
        invite=row.invite,
        code=code,
    ):
        raise ApiError(403, "private", "Replays of private tables are for their players.")
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
                "archon": seat_titles(_room(request).titles, s.account_id, s.bot_level),
            }
            for s in seat_rows
        ],
        "result": row.result,
        "moves": [{"n": m.n, "seat": m.seat, "move": m.move, "at": m.at} for m in move_rows],
        "steps": replay_steps(rules, int(row.seed), list(move_rows)),
    }
