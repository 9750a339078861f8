"""Master Card Archon: the title of the top of a ruleset's leaderboard.

The rule (``ArchonRule``): of the people (not bots, not guests) with at least
``min_games`` rated games of a ruleset finished in the last ``days`` days, the one with
the highest rating (``mu - 3 sigma``, the leaderboard's order) holds the ruleset's
title; ties go to the account that reached the room first (the lower id). The title is
kept only while both hold: a holder who stops playing drops below ``min_games`` as old
games leave the window, and one who is overtaken loses it at once.

``Titles`` keeps the current holders in memory for the places that show names (table
seats, the lobby, the leaderboard, replays, the profile): it is refreshed when a game
finishes, when the leaderboard is read, and every ``REFRESH`` seconds (so the window
moves on, and every node of a cluster follows the shared database).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from typing_extensions import TypedDict

from . import db, tasks

log = logging.getLogger(__name__)

TITLE = "Master Card Archon"
REFRESH = 60.0


@dataclass(frozen=True)
class ArchonRule:
    """How the title is earned and kept (``CE_ARCHON_MIN_GAMES``, ``CE_ARCHON_DAYS``)."""

    min_games: int = 10
    days: int = 30

    def text(self) -> str:
        """The rule in one sentence, as the leaderboard page shows it."""
        return (
            f"{TITLE}: the highest rating among people with at least {self.min_games} rated "
            f"game{'' if self.min_games == 1 else 's'} in this ruleset in the last "
            f"{self.days} days (bots and guests are not eligible). It is kept while the "
            "holder stays on top and keeps playing enough rated games; it passes at once to "
            "whoever overtakes them."
        )


class RuleOut(TypedDict):
    title: str
    min_games: int
    days: int
    text: str
    holder: int | None


async def holders(conn: AsyncConnection, rule: ArchonRule, *, now: float) -> dict[str, int]:
    """The account holding the title in each ruleset that has a holder."""
    since = now - rule.days * 86400
    recent = (
        sa.select(
            db.tables.c.ruleset,
            db.seats.c.account_id,
            sa.func.count(sa.distinct(db.tables.c.id)).label("games"),
        )
        .join(db.seats, db.seats.c.table_id == db.tables.c.id)
        .where(
            db.tables.c.status == "finished",
            db.tables.c.hints == sa.false(),
            db.tables.c.finished_at >= since,
            db.seats.c.account_id.is_not(None),
            db.seats.c.bot_level.is_(None),
        )
        .group_by(db.tables.c.ruleset, db.seats.c.account_id)
        .having(sa.func.count(sa.distinct(db.tables.c.id)) >= rule.min_games)
        .subquery()
    )
    query = (
        sa.select(recent.c.ruleset, recent.c.account_id, db.records.c.mu, db.records.c.sigma)
        .join(
            db.records,
            sa.and_(
                db.records.c.account_id == recent.c.account_id,
                db.records.c.ruleset == recent.c.ruleset,
            ),
        )
        .join(db.accounts, db.accounts.c.id == recent.c.account_id)
        .where(db.accounts.c.bot_level.is_(None), db.accounts.c.guest == sa.false())
    )
    best: dict[str, tuple[float, int]] = {}
    for row in (await conn.execute(query)).all():
        key = (row.mu - 3 * row.sigma, -row.account_id)
        if row.ruleset not in best or key > best[row.ruleset]:
            best[row.ruleset] = key
    return {ruleset: -key[1] for ruleset, key in best.items()}


class Titles:
    """The current title holders, for whatever shows a name."""

    def __init__(self, engine: AsyncEngine, rule: ArchonRule) -> None:
        self.engine = engine
        self.rule = rule
        self._holders: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._pending: asyncio.Task[None] | None = None
        """The last background refresh (kept so the task is not collected mid-run)."""

    def of(self, account: int | None) -> list[str]:
        """The rulesets whose title ``account`` holds (empty for most, and for None)."""
        if account is None:
            return []
        return sorted(r for r, a in self._holders.items() if a == account)

    def holder(self, ruleset: str) -> int | None:
        return self._holders.get(ruleset)

    def rule_out(self, ruleset: str) -> RuleOut:
        return {
            "title": TITLE,
            "min_games": self.rule.min_games,
            "days": self.rule.days,
            "text": self.rule.text(),
            "holder": self.holder(ruleset),
        }

    async def refresh(self) -> None:
        """Read the holders again from the database."""
        async with self.engine.connect() as conn:
            self._holders = await holders(conn, self.rule, now=time.time())

    def refresh_soon(self) -> None:
        """Refresh in the background (a game just finished); failures are logged."""
        task = asyncio.get_running_loop().create_task(self._refresh_logged())
        self._pending = task

    async def _refresh_logged(self) -> None:
        try:
            await self.refresh()
        except Exception:
            log.exception("the Archon titles could not be refreshed")

    def start(self) -> None:
        """Refresh every ``REFRESH`` seconds until ``stop``."""
        self._task = asyncio.get_running_loop().create_task(self._every())

    async def _every(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            await self._refresh_logged()

    async def stop(self) -> None:
        await tasks.stop(self._task)


def seat_titles(titles: Titles | None, account: int | None, bot: str | None) -> list[str]:
    """The titles to show beside a seat's name (bots hold none)."""
    if titles is None or bot is not None:
        return []
    return titles.of(account)


__all__ = ["TITLE", "Any", "ArchonRule", "Titles", "holders", "seat_titles"]
